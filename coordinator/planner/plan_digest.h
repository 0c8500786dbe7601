// Flink-style one-line digests of plan nodes, e.g. `GroupAggregate(groupBy=[word], select=[word,
// COUNT(*) AS cnt])`, used as PlanNode.description, in planner errors that name a node, and by
// EXPLAIN's physical sections.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/expr/expr.h"
#include "coordinator/planner/logical_plan.h"

namespace eddy::planner {

std::string TableScanDigest(const LogicalNode& scan);
// `, hints=[[[OPTIONS options:{k=v, ...}]]]` (with `inheritPath:[] ` before `options` for a logical
// node, as Flink prints them) when the table reference had an OPTIONS hint; empty otherwise.
std::string OptionsHintDigest(const CatalogTable& table, bool logical);
// Flink's form: `Values(tuples=[[{ 'a', 1 }, { 'b', 2 }]], values=[word, n])`, every row.
std::string ValuesDigest(const LogicalNode& values);
// Just the `[[{ 'a', 1 }, ...]]` part (also used by LogicalValues).
std::string ValuesTuples(const LogicalNode& values);
// `projections`/`filter` are over `input_names`; `output_names` name the projections.
std::string CalcDigest(const std::vector<ExprPtr>& projections, const ExprPtr& filter,
                       const std::vector<std::string>& input_names,
                       const std::vector<std::string>& output_names);
std::string AggregateDigest(const LogicalNode& aggregate);
// Batch mode: HashAggregate(isMerge=[false], groupBy=[k], select=[k, COUNT(*) AS cnt]).
std::string HashAggregateDigest(const LogicalNode& aggregate);
// Batch mode, a Rank of origin kSort or kSortLimit: Sort(orderBy=[a ASC]) or
// SortLimit(orderBy=[a ASC], offset=[0], fetch=[5], global=[true]), as Flink's batch plan.
std::string BatchSortDigest(const LogicalNode& rank);
// One aggregate call, its argument printed as `arg` (a column name, `$1`, `*`): `SUM(x)`,
// `COUNT(DISTINCT x)`, `LISTAGG(s)`, `LISTAGG(s, '-')`. (Flink projects LISTAGG's separator into
// the input and prints `LISTAGG(s, $f2)`; here it is a property of the call, printed as a literal.)
std::string AggCallDigest(const LogicalAggCall& call, const std::string& arg);
// The argument text of a call over input columns named `in`: `*` for COUNT(*), the columns of a
// user-defined aggregate joined by ", ", else the argument column.
std::string AggCallArgs(const LogicalAggCall& call, const std::vector<std::string>& in);

// Flink's Expand(projects=[{a, b, 0 AS $e}, {a, null AS b, 1 AS $e}, {null AS a, null AS b, 3 AS
// $e}]): per projection, each column as its input column (`in AS out` when renamed), `null AS out`
// or the expand id; ExpandProjects is the part inside projects=[...].
std::string ExpandDigest(const LogicalNode& expand);
std::string ExpandProjects(const LogicalNode& expand);
// Correlate(invocation=[split(line)], select=[id, line, word, pos], joinType=[INNER]);
// CorrelateInvocation is the call alone.
std::string CorrelateDigest(const LogicalNode& correlate);
std::string CorrelateInvocation(const LogicalNode& correlate);
// WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 5000:INTERVAL SECOND)])
std::string WatermarkAssignerDigest(const LogicalNode& assigner);
// TUMBLE(time_col=[ts], size=[10 min]), HOP(..., size=[..], slide=[..]), CUMULATE(..., max_size,
// step)
std::string WindowDigest(const WindowSpec& window, const std::string& time_column);
// WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[10 min])])
std::string WindowTableFunctionDigest(const LogicalNode& tvf);
// WindowAggregate(groupBy=[k], window=[TUMBLE(...)], select=[k, COUNT(*) AS cnt,
// start('w$) AS window_start, end('w$) AS window_end])
std::string WindowAggregateDigest(const LogicalNode& aggregate);
// Flink's duration spelling: 10 min, 5 s, 1 h, 2 d, 500 ms.
std::string FormatDurationMs(int64_t ms);
std::string UnionDigest(const LogicalNode& u);
// Join(joinType=[InnerJoin], where=[=(id, id0)], select=[id, v, id0, w],
// leftInputSpec=[NoUniqueKey], rightInputSpec=[JoinKeyContainsUniqueKey])
std::string JoinDigest(const LogicalNode& join);
// IntervalJoin(joinType=[InnerJoin], windowBounds=[isRowTime=true, leftLowerBound=-3600000,
// leftUpperBound=0, leftTimeIndex=2, rightTimeIndex=1], where=[...], select=[...])
std::string IntervalJoinDigest(const LogicalNode& join);
// TemporalJoin(joinType=[InnerJoin], where=[AND(=(currency, currency0),
// __TEMPORAL_JOIN_CONDITION(order_time, update_time, ...))], select=[...]), as Flink prints it.
std::string TemporalJoinDigest(const LogicalNode& join);
// Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=3],
// partitionBy=[k], orderBy=[v DESC], select=[k, v, w0$o0]); or, for a Rank that runs as one,
// Deduplicate(keep=[FirstRow], key=[k], order=[ROWTIME]).
std::string RankDigest(const LogicalNode& rank);
// OverAggregate(partitionBy=[k], orderBy=[ts ASC], window=[ RANG BETWEEN 3600000 PRECEDING AND
// CURRENT ROW], select=[k, ts, v, SUM(v) AS w0$o0]), Flink's spelling ("RANG" included).
std::string OverAggregateDigest(const LogicalNode& over);
std::string SinkDigest(const LogicalNode& sink);
// `MiniBatchAssigner(interval=[1000ms], mode=[ProcTime])`.
std::string MiniBatchAssignerDigest(int64_t interval_ms);

}  // namespace eddy::planner
