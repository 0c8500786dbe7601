// The logical plan the binder builds and the optimizer/EXPLAIN work on: a DAG of relational nodes
// (TableScan, Values, Project, Filter, Aggregate, Expand, Union, Sink, ...), each with its output
// schema and the
// changelog mode that changelog_mode.h infers. Nodes are shared_ptr so that a statement set can
// share identical sub-plans; the physical planner emits a shared node once.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/expr/aggregate_signature.h"
#include "common/expr/expr.h"
#include "common/types/data_type.h"
#include "common/types/value.h"
#include "coordinator/catalog/catalog_objects.h"

namespace eddy::planner {

// A subset of {INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE}, printed as Flink does: [I,UB,UA,D].
struct ChangelogMode {
  bool insert = true;
  bool update_before = false;
  bool update_after = false;
  bool del = false;

  static ChangelogMode InsertOnly() { return {}; }
  bool IsInsertOnly() const { return !update_before && !update_after && !del; }
  bool HasUpdates() const { return update_before || update_after; }
  bool HasRetractions() const { return update_before || del; }
  ChangelogMode Union(const ChangelogMode& o) const {
    return {insert || o.insert, update_before || o.update_before, update_after || o.update_after,
            del || o.del};
  }
  bool operator==(const ChangelogMode& o) const {
    return insert == o.insert && update_before == o.update_before &&
           update_after == o.update_after && del == o.del;
  }
  std::string ToString() const;
};

enum class LogicalKind {
  kTableScan,
  kValues,
  kProject,
  kFilter,
  kAggregate,
  kUnion,
  kSink,
  kWatermarkAssigner,    // a table's WATERMARK FOR: rowtime column + watermark expression
  kWindowTableFunction,  // TUMBLE/HOP/CUMULATE(TABLE t, DESCRIPTOR(ts), ...): t + window columns
  kWindowAggregate,      // GROUP BY window_start, window_end, keys over a window TVF
  kJoin,                 // inputs[0] (left) JOIN inputs[1] (right) ON condition
  kRank,                 // ROW_NUMBER() OVER (PARTITION BY .. ORDER BY ..), bounded by a filter
  kOverAggregate,        // aggregates OVER (PARTITION BY .. ORDER BY rowtime ROWS|RANGE ..)
  kExpand,               // each input row once per grouping set (ExpandGroupingSets)
  kCorrelate,            // LATERAL TABLE(f(args)): each input row with the rows f makes of it
};

// Flink's join types; kSemi and kAnti (IN / EXISTS and their negations) output the left side only.
enum class JoinType { kInner, kLeft, kRight, kFull, kSemi, kAnti };
// "inner", "left", "right", "full", "semi", "anti", as Calcite's LogicalJoin prints them.
std::string JoinTypeName(JoinType type);
// "InnerJoin", "LeftOuterJoin", ..., "LeftSemiJoin", "LeftAntiJoin", as Flink's Join prints them.
std::string JoinTypeDigest(JoinType type);

// A window TVF's shape (times in ms). TUMBLE: size; HOP: size and slide; CUMULATE: size (the max
// size) and step. `offset` shifts window starts (Flink's optional offset argument).
struct WindowSpec {
  enum class Kind { kTumble, kHop, kCumulate, kSession } kind = Kind::kTumble;
  int64_t size_ms = 0;
  int64_t slide_ms = 0;  // HOP
  int64_t step_ms = 0;   // CUMULATE
  int64_t offset_ms = 0;
  int time_column = -1;  // the rowtime column of the input
  // SESSION: the gap, and the columns that partition sessions (the TVF's PARTITION BY, input
  // columns; a legacy GROUP BY SESSION partitions by its other group keys instead).
  int64_t gap_ms = 0;
  std::vector<int> partition_keys;
  bool partition_by_group_keys = false;
};
std::string WindowKindName(WindowSpec::Kind kind);  // TUMBLE, HOP, CUMULATE, SESSION

// One ORDER BY item over an input column; nulls_first resolved (Flink: NULL is the lowest value).
struct SortKey {
  int column = -1;
  bool descending = false;
  bool nulls_first = true;
};

// ROW_NUMBER() OVER (PARTITION BY partition_keys ORDER BY order_keys), the rows numbered
// rank_start..rank_end kept (a Top-N). The binder leaves the range open (rank_end -1); a filter on
// the row number with constant bounds closes it (PushDownFilters).
struct RankSpec {
  // What the query said: ROW_NUMBER() OVER (...), ORDER BY ... LIMIT (Flink's SortLimit: no
  // partition, no row number), LIMIT alone (Flink's Limit: no order, the first rows), or ORDER BY
  // a time attribute ascending without LIMIT (Flink's TemporalSort: every row, no range; the first
  // order key is the time attribute), or, in batch mode, ORDER BY any columns without LIMIT
  // (Flink's batch Sort: every row, no range).
  enum class Origin {
    kRowNumber,
    kSortLimit,
    kLimit,
    kTemporalSort,
    kSort
  } origin = Origin::kRowNumber;
  // ROW_NUMBER(), RANK() or DENSE_RANK() (ties share a number: more than rank_end rows may be in
  // range, and the partition key of a rank-1 result is not unique).
  enum class Function { kRowNumber, kRank, kDenseRank } function = Function::kRowNumber;
  std::vector<int> partition_keys;
  std::vector<SortKey> order_keys;
  int64_t rank_start = 1;
  int64_t rank_end = -1;           // -1: not bounded yet
  bool output_rank_number = true;  // the row number is the last output column
};

// The window of OVER aggregates: per partition, ordered by an event-time attribute, a frame that
// ends at the current row and starts `preceding` rows (ROWS) or milliseconds (RANGE) before it
// (-1: UNBOUNDED PRECEDING).
struct OverSpec {
  std::vector<int> partition_keys;
  int time_column = -1;
  bool rows = false;
  int64_t preceding = -1;
};

struct LogicalAggCall {
  AggKind kind = AggKind::kCountStar;
  int arg = -1;  // input column; -1 for COUNT(*)
  bool distinct = false;
  DataType arg_type;
  DataType result_type;
  // LISTAGG(x, 'sep'): the separator literal; nullopt when the call gives none (',').
  std::optional<std::string> separator;
  // kUser: the user-defined aggregate function (registered as `user_name`) and every argument
  // column (`arg` is the first, -1 with none; arg_type its type).
  std::shared_ptr<const UserFunction> user_function;
  std::string user_name;
  std::vector<int> user_args;
};

// GROUPING(k1, ...) or GROUPING_ID(k1, ...) of an aggregate with grouping sets: the bit vector of
// its arguments, the first the most significant, a bit 1 where the row's grouping set leaves that
// key out (BIGINT NOT NULL). Arguments are positions in the aggregate's group_keys; -1 for a key
// every set has that is no longer one (a window aggregate's window_start and window_end).
struct GroupingCall {
  std::vector<int> args;
  bool id = false;  // GROUPING_ID (else GROUPING, which computes the same)
};

// One output row of an Expand for each input row: per output column the input column it copies,
// or -1 for NULL (ignored at the expand-id column), and the value of the expand-id column.
struct ExpandProjection {
  std::vector<int> columns;
  int64_t expand_id = 0;
};

struct LogicalNode;
using LogicalNodePtr = std::shared_ptr<LogicalNode>;

struct LogicalNode {
  LogicalKind kind = LogicalKind::kValues;
  std::vector<LogicalNodePtr> inputs;
  Schema schema;  // output schema

  // Filled by changelog-mode inference (changelog_mode.h).
  ChangelogMode mode;
  bool requires_update_before = false;  // some consumer needs UB from this node
  // Batch mode: the node's own changes (`own_mode`, with UPDATE_BEFORE) are reduced to its final
  // rows by a ChangelogMaterialize after it, so consumers see `mode` = insert-only.
  bool batch_materialize = false;
  ChangelogMode own_mode;

  // kTableScan; `schema` is the columns read.
  std::shared_ptr<const CatalogTable> table;
  std::vector<int> scan_columns;  // table columns read, ascending (empty: all; see PruneColumns)
  // kTableScan of a partitioned table whose partitions were pruned (rule_prune_partitions.cc):
  // the partition directories read; nullopt: all that exist when the job starts.
  std::optional<std::vector<std::string>> partitions;
  // kValues: literal rows, each matching `schema`.
  std::vector<std::vector<Value>> rows;
  // kProject: one expression per output column, over the input's columns.
  std::vector<ExprPtr> projections;
  // kFilter: BOOLEAN predicate over the input's columns; the schema is the input's.
  ExprPtr condition;
  // kAggregate: output = group keys (input columns) then one column per call.
  std::vector<int> group_keys;
  std::vector<LogicalAggCall> calls;
  // kAggregate and kWindowAggregate of GROUPING SETS, ROLLUP or CUBE, as bound (SetGroupingSets);
  // ExpandGroupingSets, the optimizer's first rule, rewrites them into an Expand, a plain
  // aggregate and a projection. `grouping_sets`: each set the positions in group_keys it groups
  // by, ascending, in Calcite's order (enclosing sets first); empty for one set of every key.
  // `grouping_calls`: one column each after `calls` (before a window aggregate's window columns).
  std::vector<std::vector<int>> grouping_sets;
  std::vector<GroupingCall> grouping_calls;
  // kExpand: the input's columns, `$e` (BIGINT NOT NULL) at expand_id_column and copies of input
  // columns after it, one row per projection; a column is nullable where a projection nulls it.
  std::vector<ExpandProjection> expand_projections;
  int expand_id_column = -1;
  // kSink: the target table; schema is the table's. `overwrite`: INSERT OVERWRITE (batch mode,
  // filesystem): the job's output replaces the table's contents.
  std::shared_ptr<const CatalogTable> sink_table;
  bool overwrite = false;
  // kWatermarkAssigner: `rowtime` is the time attribute column, `watermark` the expression over the
  // input's columns; the schema is the input's.
  int rowtime = -1;
  ExprPtr watermark;
  // kWindowTableFunction (schema = input + window_start, window_end, window_time) and
  // kWindowAggregate (schema = group keys, calls, window_start, window_end and, when
  // `window_time`, window_time; `group_keys` and `calls` read the input, window.time_column is the
  // input's time attribute).
  WindowSpec window;
  // kWindowAggregate grouped by window_time too: the last column is window_time (window_end - 1
  // ms, a time attribute of the window's kind, so that a later window can use it: a cascading
  // window aggregation).
  bool window_time = false;
  // kJoin: `condition` reads the left columns then the right ones (null: TRUE); the schema is
  // left ++ right (the padded side of an outer join nullable), or the left columns (semi, anti).
  // ExtractJoinKeys (optimizer) moves the equi-join conjuncts into left_keys/right_keys (pairwise
  // equal, same types) and leaves the rest in `condition`.
  JoinType join_type = JoinType::kInner;
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  std::vector<bool> null_safe;  // per key pair: IS NOT DISTINCT FROM (NULL matches NULL)
  // An interval join (ExtractIntervalBounds): the condition bounds the difference of the two
  // sides' rowtime attributes, lower_ms <= left time - right time <= upper_ms; `conjuncts` are
  // those bounds as written (not part of `condition`), for a join that must run as a regular one.
  struct TimeBounds {
    int left_time = -1;
    int right_time = -1;
    int64_t lower_ms = 0;
    int64_t upper_ms = 0;
    ExprPtr conjuncts;
  };
  std::optional<TimeBounds> time_bounds;
  // A temporal join (`JOIN versioned FOR SYSTEM_TIME AS OF left.time`): each left row joins the
  // right row version valid at its left_time; right_time is the versioned table's rowtime
  // attribute and right_primary_key its primary key (right input columns): the table's PRIMARY KEY
  // or the unique key of a versioned view (a deduplication), set by ResolveTemporalKeys once
  // filter push-down has fixed the ranks. `versioned_name` is the table's name as written. A
  // processing-time join (`proctime`: left_time is a PROCTIME() column) joins each left row with
  // the key's latest row when it arrives; its right_time is -1.
  struct Temporal {
    int left_time = -1;
    int right_time = -1;
    bool proctime = false;
    std::vector<int> right_primary_key;
    std::string versioned_name;
  };
  std::optional<Temporal> temporal;
  // kRank: the schema is the input's, then the row number (BIGINT NOT NULL) when
  // rank.output_rank_number.
  RankSpec rank;
  // kOverAggregate: `over` and `calls` (over the input); the schema is the input's then one column
  // per call.
  OverSpec over;
  // kCorrelate: the user-defined table function `table_function` (registered as
  // `table_function_name`) over each input row, its arguments in `projections` (over the input's
  // columns); join_type kInner or kLeft (input rows it makes no row of kept, NULL-padded). The
  // schema is the input's then the function's columns.
  std::shared_ptr<const UserFunction> table_function;
  std::string table_function_name;

  const LogicalNode& input(size_t i = 0) const { return *inputs[i]; }
};

LogicalNodePtr MakeTableScan(std::shared_ptr<const CatalogTable> table);
LogicalNodePtr MakeValues(Schema schema, std::vector<std::vector<Value>> rows);
// `names` gives the output column names (one per projection).
LogicalNodePtr MakeProject(LogicalNodePtr input, std::vector<ExprPtr> projections,
                           std::vector<std::string> names);
LogicalNodePtr MakeFilter(LogicalNodePtr input, ExprPtr condition);
// `names`: one per group key then one per call.
LogicalNodePtr MakeAggregate(LogicalNodePtr input, std::vector<int> group_keys,
                             std::vector<LogicalAggCall> calls, std::vector<std::string> names);
LogicalNodePtr MakeUnion(std::vector<LogicalNodePtr> inputs);
LogicalNodePtr MakeSink(LogicalNodePtr input, std::shared_ptr<const CatalogTable> table);
LogicalNodePtr MakeWatermarkAssigner(LogicalNodePtr input, int rowtime, ExprPtr watermark);
// `names`: the three window columns' names (window_start, window_end, window_time).
LogicalNodePtr MakeWindowTableFunction(LogicalNodePtr input, WindowSpec window,
                                       const std::vector<std::string>& names);
// `names`: one per group key, one per call, then the window_start and window_end names.
LogicalNodePtr MakeWindowAggregate(LogicalNodePtr input, WindowSpec window,
                                   std::vector<int> group_keys, std::vector<LogicalAggCall> calls,
                                   std::vector<std::string> names, bool window_time = false);
// The window_start column of a kWindowAggregate (window_end follows it, then window_time if any).
int WindowStartColumn(const LogicalNode& window_aggregate);

// `names`: the output column names (left then right; only the left for semi and anti joins).
LogicalNodePtr MakeJoin(LogicalNodePtr left, LogicalNodePtr right, JoinType type, ExprPtr condition,
                        std::vector<std::string> names);

// `row_number_name`: the name of the row-number column.
LogicalNodePtr MakeRank(LogicalNodePtr input, RankSpec rank, const std::string& row_number_name);

// `names`: one per output column (`$e` at expand_id_column); `projections` as ExpandProjection
// says, all of the same width, never NULL in every projection.
// `names`: the function's output column names.
LogicalNodePtr MakeCorrelate(LogicalNodePtr input, std::string function_name,
                             std::shared_ptr<const UserFunction> function,
                             std::vector<ExprPtr> args, JoinType type,
                             const std::vector<std::string>& names);
LogicalNodePtr MakeExpand(LogicalNodePtr input, std::vector<ExpandProjection> projections,
                          int expand_id_column, std::vector<std::string> names);

// Makes `aggregate` (a new kAggregate or kWindowAggregate without grouping sets) one of grouping
// sets `sets` (see LogicalNode::grouping_sets) with GROUPING calls `calls`, whose columns get
// `call_names`: keys that some set leaves out become nullable, and the calls' columns are added.
void SetGroupingSets(LogicalNode* aggregate, std::vector<std::vector<int>> sets,
                     std::vector<GroupingCall> calls, const std::vector<std::string>& call_names);

// The value of `call` in rows of grouping set `set` (positions in group_keys).
int64_t GroupingValue(const GroupingCall& call, const std::vector<int>& set);

// `names`: one per call.
LogicalNodePtr MakeOverAggregate(LogicalNodePtr input, OverSpec over,
                                 std::vector<LogicalAggCall> calls,
                                 const std::vector<std::string>& names);

// rank_range.cc: when `conjunct` compares column `number` (a row number) with an integer
// constant (=, <, <=, >, >=, either side), narrows [*start, *end] (*end -1: unbounded) to it and
// returns true.
bool NarrowRankRange(const Expr& conjunct, int number, int64_t* start, int64_t* end);

// rule_interval_join.cc: the time bounds `join`'s condition sets between a rowtime attribute of
// each side (lower and upper), with the remaining conjuncts in *rest when given; nullopt if none.
std::optional<LogicalNode::TimeBounds> FindTimeBounds(const LogicalNode& join,
                                                      ExprPtr* rest = nullptr);

// Whether `join` runs as an interval join: time bounds over append-only inputs.
bool IsIntervalJoin(const LogicalNode& join);

// Whether a Rank runs as a Deduplicate: the first or last row per partition by event time
// (ROW_NUMBER ordered by one rowtime attribute, rank 1 only, the number not output) over an
// append-only input. Flink's StreamPhysicalDeduplicateRule.
bool IsDeduplicate(const LogicalNode& rank);

// A column that is the window_start or window_end of a window TVF or a window aggregate (kept
// unchanged through projections and filters): which window, and which bound.
struct WindowBound {
  const LogicalNode* origin = nullptr;  // the WindowTableFunction or WindowAggregate
  bool is_start = false;
};
std::optional<WindowBound> FindWindowBound(const LogicalNode& n, int column);

// A Rank that runs as a window Top-N (Flink's WindowRank): ROW_NUMBER() partitioned by the
// window_start and window_end of one window (and other keys) over an append-only input. Sets the
// two columns when given.
bool IsWindowRank(const LogicalNode& rank, int* window_start = nullptr, int* window_end = nullptr);
// A window Top-N that is a window deduplication (Flink's WindowDeduplicate): rank 1 only, no row
// number, ordered by one event-time attribute.
bool IsWindowDeduplicate(const LogicalNode& rank);

// What kind of time attribute column `column` of `n` is: an event-time attribute (a table's
// WATERMARK FOR column) or a processing-time attribute (a `PROCTIME()` column, computed or
// selected), kept unchanged through projections, filters, unions, Top-N, OVER aggregations,
// interval joins, a temporal join's left side and window TVFs (whose window_time is of the
// window's kind); kNone for any other column.
enum class TimeAttribute { kNone, kRowtime, kProctime };
TimeAttribute TimeAttributeOf(const LogicalNode& n, int column);
bool IsRowtimeColumn(const LogicalNode& n, int column);
bool IsProctimeColumn(const LogicalNode& n, int column);

// Name of the node in EXPLAIN's abstract syntax tree: LogicalTableScan, LogicalProject, ...
std::string LogicalNodeName(LogicalKind kind);
// ROW_NUMBER, RANK or DENSE_RANK.
std::string RankFunctionName(RankSpec::Function function);

// True when `p` is a Project that returns its input's columns unchanged, in order.
bool IsIdentityProject(const LogicalNode& p);

}  // namespace eddy::planner
