#include "coordinator/planner/plan_digest.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/connectors/partition_path.h"
#include "common/expr/expr_printer.h"
#include "common/expr/function_registry.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/unique_keys.h"

namespace eddy::planner {
std::string TableScanDigest(const LogicalNode& scan) {
  std::string table = scan.table->path.ToExplainString();
  if (scan.partitions) {
    // As Flink: table=[[catalog, database, t, partitions=[{a=1, b=x}, ...]]].
    std::vector<std::string> specs;
    for (const std::string& dir : *scan.partitions) {
      auto spec = ParsePartitionPath(dir);
      specs.push_back(spec.ok() ? PartitionSpecText(*spec) : dir);
    }
    table = absl::StrCat(table.substr(0, table.size() - 2), ", partitions=[",
                         absl::StrJoin(specs, ", "), "]]]");
  }
  return absl::StrCat("TableSourceScan(table=", table, ", fields=[",
                      absl::StrJoin(scan.schema.Names(), ", "), "]",
                      OptionsHintDigest(*scan.table, /*logical=*/false), ")");
}

std::string OptionsHintDigest(const CatalogTable& table, bool logical) {
  if (table.hint_options.empty()) return "";
  std::vector<std::string> options;
  for (const auto& [k, v] : table.hint_options) options.push_back(absl::StrCat(k, "=", v));
  return absl::StrCat(", hints=[[[OPTIONS ", logical ? "inheritPath:[] " : "", "options:{",
                      absl::StrJoin(options, ", "), "}]]]");
}

std::string ValuesTuples(const LogicalNode& values) {
  std::vector<std::string> rows;
  for (const auto& row : values.rows) {
    std::vector<std::string> cells;
    for (size_t c = 0; c < row.size(); ++c) {
      cells.push_back(LiteralToString(row[c], values.schema.fields[c].type));
    }
    rows.push_back("{ " + absl::StrJoin(cells, ", ") + " }");
  }
  return "[[" + absl::StrJoin(rows, ", ") + "]]";
}

std::string ValuesDigest(const LogicalNode& values) {
  return absl::StrCat("Values(tuples=", ValuesTuples(values), ", values=[",
                      absl::StrJoin(values.schema.Names(), ", "), "])");
}

std::string CalcDigest(const std::vector<ExprPtr>& projections, const ExprPtr& filter,
                       const std::vector<std::string>& input_names,
                       const std::vector<std::string>& output_names) {
  std::vector<std::string> select;
  for (size_t i = 0; i < projections.size(); ++i) {
    std::string s = ExprToString(*projections[i], input_names);
    if (i < output_names.size() && s != output_names[i]) s += " AS " + output_names[i];
    select.push_back(std::move(s));
  }
  std::string out = absl::StrCat("Calc(select=[", absl::StrJoin(select, ", "), "]");
  if (filter) absl::StrAppend(&out, ", where=[", ExprToString(*filter, input_names), "]");
  return out + ")";
}

std::string AggCallArgs(const LogicalAggCall& call, const std::vector<std::string>& in) {
  if (call.kind == AggKind::kCountStar) return "*";
  if (call.kind != AggKind::kUser) return in[call.arg];
  std::vector<std::string> args;
  for (int a : call.user_args) args.push_back(in[a]);
  return absl::StrJoin(args, ", ");
}

std::string AggCallDigest(const LogicalAggCall& call, const std::string& arg) {
  const std::string name =
      call.kind == AggKind::kUser ? call.user_name : std::string(AggKindName(call.kind));
  std::string s = absl::StrCat(name, "(", call.distinct ? "DISTINCT " : "", arg);
  if (call.separator) {
    absl::StrAppend(&s, ", ", LiteralToString(Value::String(*call.separator), DataType::String()));
  }
  return s + ")";
}

namespace {

// "k, COUNT(*) AS cnt, SUM(x) AS s" of an aggregate's keys and calls.
std::vector<std::string> AggregateSelect(const LogicalNode& agg, std::vector<std::string>* keys) {
  const std::vector<std::string> in = agg.input().schema.Names();
  const std::vector<std::string> out = agg.schema.Names();
  std::vector<std::string> select;
  for (int k : agg.group_keys) keys->push_back(in[k]);
  for (size_t i = 0; i < agg.group_keys.size(); ++i) {
    select.push_back((*keys)[i] == out[i] ? (*keys)[i] : (*keys)[i] + " AS " + out[i]);
  }
  for (size_t c = 0; c < agg.calls.size(); ++c) {
    const LogicalAggCall& call = agg.calls[c];
    select.push_back(absl::StrCat(AggCallDigest(call, AggCallArgs(call, in)), " AS ",
                                  out[agg.group_keys.size() + c]));
  }
  return select;
}

}  // namespace

std::string ExpandProjects(const LogicalNode& expand) {
  const std::vector<std::string> in = expand.input().schema.Names();
  const std::vector<std::string> out = expand.schema.Names();
  std::vector<std::string> projects;
  for (const ExpandProjection& p : expand.expand_projections) {
    std::vector<std::string> columns;
    for (size_t i = 0; i < p.columns.size(); ++i) {
      if (static_cast<int>(i) == expand.expand_id_column) {
        columns.push_back(absl::StrCat(p.expand_id, " AS ", out[i]));
      } else if (p.columns[i] < 0) {
        columns.push_back("null AS " + out[i]);
      } else {
        const std::string& name = in[p.columns[i]];
        columns.push_back(name == out[i] ? name : name + " AS " + out[i]);
      }
    }
    projects.push_back("{" + absl::StrJoin(columns, ", ") + "}");
  }
  return absl::StrJoin(projects, ", ");
}

std::string ExpandDigest(const LogicalNode& expand) {
  return absl::StrCat("Expand(projects=[", ExpandProjects(expand), "])");
}

std::string CorrelateInvocation(const LogicalNode& n) {
  const std::vector<std::string> in = n.input().schema.Names();
  std::vector<std::string> args;
  for (const auto& a : n.projections) args.push_back(ExprToString(*a, in));
  return absl::StrCat(n.table_function_name, "(", absl::StrJoin(args, ", "), ")");
}

std::string CorrelateDigest(const LogicalNode& n) {
  return absl::StrCat("Correlate(invocation=[", CorrelateInvocation(n), "], select=[",
                      absl::StrJoin(n.schema.Names(), ", "), "], joinType=[",
                      n.join_type == JoinType::kLeft ? "LEFT" : "INNER", "])");
}

std::string FormatDurationMs(int64_t ms) {
  struct Unit {
    int64_t ms;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{86400000, "d"}, {3600000, "h"}, {60000, "min"}, {1000, "s"}};
  for (const Unit& u : kUnits) {
    if (ms != 0 && ms % u.ms == 0) return absl::StrCat(ms / u.ms, " ", u.name);
  }
  return absl::StrCat(ms, " ms");
}

std::string WatermarkAssignerDigest(const LogicalNode& n) {
  const std::vector<std::string> in = n.input().schema.Names();
  return absl::StrCat("WatermarkAssigner(rowtime=[", in[n.rowtime], "], watermark=[",
                      ExprToString(*n.watermark, in), "])");
}

namespace {

// How a deduplication orders its rows, as Flink prints it: by an event-time or a processing-time
// attribute.
std::string TimeOrderName(const LogicalNode& input, int column) {
  return IsProctimeColumn(input, column) ? "PROCTIME" : "ROWTIME";
}

// The window's sizes as Flink prints them: size=[..], slide=[..], max_size/step, gap.
std::string WindowSizes(const WindowSpec& w) {
  switch (w.kind) {
    case WindowSpec::Kind::kTumble:
      return absl::StrCat("size=[", FormatDurationMs(w.size_ms), "]");
    case WindowSpec::Kind::kHop:
      return absl::StrCat("size=[", FormatDurationMs(w.size_ms), "], slide=[",
                          FormatDurationMs(w.slide_ms), "]");
    case WindowSpec::Kind::kCumulate:
      return absl::StrCat("max_size=[", FormatDurationMs(w.size_ms), "], step=[",
                          FormatDurationMs(w.step_ms), "]");
    case WindowSpec::Kind::kSession:
      return absl::StrCat("gap=[", FormatDurationMs(w.gap_ms), "]");
  }
  return "";
}

}  // namespace

std::string WindowDigest(const WindowSpec& w, const std::string& time_column) {
  std::string s =
      absl::StrCat(WindowKindName(w.kind), "(time_col=[", time_column, "], ", WindowSizes(w));
  if (w.offset_ms != 0) absl::StrAppend(&s, ", offset=[", FormatDurationMs(w.offset_ms), "]");
  return s + ")";
}

std::string WindowTableFunctionDigest(const LogicalNode& tvf) {
  const std::string& time = tvf.input().schema.fields[tvf.window.time_column].name;
  return absl::StrCat("WindowTableFunction(window=[", WindowDigest(tvf.window, time), "])");
}

std::string WindowAggregateDigest(const LogicalNode& agg) {
  std::vector<std::string> keys;
  std::vector<std::string> select = AggregateSelect(agg, &keys);
  const std::vector<std::string> out = agg.schema.Names();
  const int start = WindowStartColumn(agg);
  select.push_back("start('w$) AS " + out[start]);
  select.push_back("end('w$) AS " + out[start + 1]);
  if (agg.window_time) {
    // Flink's spelling: rowtime('w$) for an event-time window, proctime('w$) for a processing-time
    // one.
    const bool proctime = IsProctimeColumn(agg.input(), agg.window.time_column);
    select.push_back(absl::StrCat(proctime ? "proctime" : "rowtime", "('w$) AS ", out[start + 2]));
  }
  std::string s = "WindowAggregate(";
  if (!keys.empty()) absl::StrAppend(&s, "groupBy=[", absl::StrJoin(keys, ", "), "], ");
  return absl::StrCat(
      s, "window=[",
      WindowDigest(agg.window, agg.input().schema.fields[agg.window.time_column].name),
      "], select=[", absl::StrJoin(select, ", "), "])");
}

std::string AggregateDigest(const LogicalNode& agg) {
  const std::vector<std::string> in = agg.input().schema.Names();
  const std::vector<std::string> out = agg.schema.Names();
  std::vector<std::string> keys, select;
  for (int k : agg.group_keys) keys.push_back(in[k]);
  for (size_t i = 0; i < agg.group_keys.size(); ++i) {
    select.push_back(keys[i] == out[i] ? keys[i] : keys[i] + " AS " + out[i]);
  }
  for (size_t c = 0; c < agg.calls.size(); ++c) {
    const LogicalAggCall& call = agg.calls[c];
    select.push_back(absl::StrCat(AggCallDigest(call, AggCallArgs(call, in)), " AS ",
                                  out[agg.group_keys.size() + c]));
  }
  std::string s = "GroupAggregate(";
  if (!keys.empty()) absl::StrAppend(&s, "groupBy=[", absl::StrJoin(keys, ", "), "], ");
  return absl::StrCat(s, "select=[", absl::StrJoin(select, ", "), "])");
}

std::string HashAggregateDigest(const LogicalNode& agg) {
  // Flink's batch spelling of the one-phase aggregate: GroupAggregate(...) becomes
  // HashAggregate(isMerge=[false], ...).
  const std::string streaming = AggregateDigest(agg);
  return absl::StrCat("HashAggregate(isMerge=[false], ",
                      streaming.substr(std::string("GroupAggregate(").size()));
}

std::string BatchSortDigest(const LogicalNode& rank) {
  const std::vector<std::string> in = rank.input().schema.Names();
  const RankSpec& r = rank.rank;
  std::vector<std::string> order;
  for (const SortKey& k : r.order_keys) {
    std::string item = absl::StrCat(in[k.column], k.descending ? " DESC" : " ASC");
    if (k.nulls_first != !k.descending) item += k.nulls_first ? " NULLS FIRST" : " NULLS LAST";
    order.push_back(std::move(item));
  }
  if (r.origin == RankSpec::Origin::kSort) {
    return absl::StrCat("Sort(orderBy=[", absl::StrJoin(order, ", "), "])");
  }
  return absl::StrCat("SortLimit(orderBy=[", absl::StrJoin(order, ", "), "], offset=[",
                      r.rank_start - 1, "], fetch=[", r.rank_end - r.rank_start + 1,
                      "], global=[true])");
}

std::string RankDigest(const LogicalNode& rank) {
  const std::vector<std::string> in = rank.input().schema.Names();
  const RankSpec& r = rank.rank;
  std::vector<std::string> keys;
  for (int k : r.partition_keys) keys.push_back(in[k]);
  int window_start = -1, window_end = -1;
  if (IsWindowRank(rank, &window_start, &window_end)) {
    const WindowBound bound = *FindWindowBound(rank.input(), window_start);
    const WindowSpec& w = bound.origin->window;
    const std::string window =
        absl::StrCat(WindowKindName(w.kind), "(win_start=[", in[window_start], "], win_end=[",
                     in[window_end], "], ", WindowSizes(w), ")");
    std::vector<std::string> others;
    for (int k : r.partition_keys) {
      if (k != window_start && k != window_end) others.push_back(in[k]);
    }
    if (IsWindowDeduplicate(rank)) {
      return absl::StrCat("WindowDeduplicate(window=[", window, "], keep=[",
                          r.order_keys[0].descending ? "LastRow" : "FirstRow", "], partitionKeys=[",
                          absl::StrJoin(others, ", "), "], orderKey=[", in[r.order_keys[0].column],
                          "], order=[", TimeOrderName(rank.input(), r.order_keys[0].column), "])");
    }
    std::vector<std::string> order;
    for (const SortKey& k : r.order_keys) {
      order.push_back(absl::StrCat(in[k.column], k.descending ? " DESC" : " ASC"));
    }
    return absl::StrCat("WindowRank(window=[", window,
                        "], rankType=[ROW_NUMBER], rankRange=[rankStart=", r.rank_start,
                        ", rankEnd=", r.rank_end, "], partitionBy=[", absl::StrJoin(others, ", "),
                        "], orderBy=[", absl::StrJoin(order, ", "), "], select=[",
                        absl::StrJoin(rank.schema.Names(), ", "), "])");
  }
  if (IsDeduplicate(rank)) {
    return absl::StrCat("Deduplicate(keep=[", r.order_keys[0].descending ? "LastRow" : "FirstRow",
                        "], key=[", absl::StrJoin(keys, ", "), "], order=[",
                        TimeOrderName(rank.input(), r.order_keys[0].column), "])");
  }
  std::vector<std::string> order;
  for (const SortKey& k : r.order_keys) {
    std::string item = absl::StrCat(in[k.column], k.descending ? " DESC" : " ASC");
    if (k.nulls_first != !k.descending) item += k.nulls_first ? " NULLS FIRST" : " NULLS LAST";
    order.push_back(std::move(item));
  }
  const std::string strategy =
      rank.input().mode.IsInsertOnly() ? "AppendFastStrategy" : "RetractStrategy";
  switch (r.origin) {
    case RankSpec::Origin::kSortLimit:
      return absl::StrCat("SortLimit(orderBy=[", absl::StrJoin(order, ", "), "], offset=[",
                          r.rank_start - 1, "], fetch=[", r.rank_end - r.rank_start + 1,
                          "], strategy=[", strategy, "])");
    case RankSpec::Origin::kLimit:
      return absl::StrCat("Limit(offset=[", r.rank_start - 1, "], fetch=[",
                          r.rank_end - r.rank_start + 1, "])");
    case RankSpec::Origin::kTemporalSort:
      return absl::StrCat("TemporalSort(orderBy=[", absl::StrJoin(order, ", "), "])");
    case RankSpec::Origin::kSort:
      return absl::StrCat("Sort(orderBy=[", absl::StrJoin(order, ", "), "])");
    case RankSpec::Origin::kRowNumber:
      break;
  }
  return absl::StrCat("Rank(strategy=[", strategy, "], rankType=[", RankFunctionName(r.function),
                      "], rankRange=[rankStart=", r.rank_start, ", rankEnd=", r.rank_end,
                      "], partitionBy=[", absl::StrJoin(keys, ", "), "], orderBy=[",
                      absl::StrJoin(order, ", "), "], select=[",
                      absl::StrJoin(rank.schema.Names(), ", "), "])");
}

std::string OverAggregateDigest(const LogicalNode& over) {
  const std::vector<std::string> in = over.input().schema.Names();
  const std::vector<std::string> out = over.schema.Names();
  const OverSpec& w = over.over;
  std::vector<std::string> keys;
  for (int k : w.partition_keys) keys.push_back(in[k]);
  std::vector<std::string> select = in;
  for (size_t c = 0; c < over.calls.size(); ++c) {
    const LogicalAggCall& call = over.calls[c];
    select.push_back(
        absl::StrCat(AggCallDigest(call, AggCallArgs(call, in)), " AS ", out[in.size() + c]));
  }
  std::string s = "OverAggregate(";
  if (!keys.empty()) absl::StrAppend(&s, "partitionBy=[", absl::StrJoin(keys, ", "), "], ");
  return absl::StrCat(s, "orderBy=[", in[w.time_column], " ASC], window=[ ",
                      w.rows ? "ROWS" : "RANG", " BETWEEN ",
                      w.preceding < 0    ? std::string("UNBOUNDED")
                      : w.preceding == 0 ? std::string("CURRENT ROW")
                                         : std::to_string(w.preceding),
                      w.preceding == 0 ? "" : " PRECEDING", " AND CURRENT ROW], select=[",
                      absl::StrJoin(select, ", "), "])");
}

std::string UnionDigest(const LogicalNode& u) {
  return absl::StrCat("Union(all=[true], union=[", absl::StrJoin(u.schema.Names(), ", "), "])");
}

std::string SinkDigest(const LogicalNode& sink) {
  return absl::StrCat("Sink(table=[", sink.sink_table->path.ToString(), "], fields=[",
                      absl::StrJoin(sink.input().schema.Names(), ", "), "]",
                      OptionsHintDigest(*sink.sink_table, /*logical=*/false), ")");
}

std::string MiniBatchAssignerDigest(int64_t interval_ms) {
  return absl::StrCat("MiniBatchAssigner(interval=[", interval_ms, "ms], mode=[ProcTime])");
}

namespace {

// The join's whole condition (keys, residual, time bounds) over its columns, as Flink prints it.
std::string JoinWhere(const LogicalNode& join) {
  const LogicalNode& left = join.input(0);
  const LogicalNode& right = join.input(1);
  // The condition reads left ++ right; a semi or anti join outputs only the left columns.
  std::vector<std::string> names = join.schema.Names();
  names.resize(left.schema.size());
  for (const std::string& name : right.schema.Names()) names.push_back(name);
  names = UniquifyNames(std::move(names));
  const int nl = static_cast<int>(left.schema.size());
  std::vector<ExprPtr> conjuncts;
  for (size_t k = 0; k < join.left_keys.size(); ++k) {
    const bool null_safe = k < join.null_safe.size() && join.null_safe[k];
    auto eq = MakeCall(
        null_safe ? "IS NOT DISTINCT FROM" : "=",
        {MakeColumnRef(join.left_keys[k], left.schema.fields[join.left_keys[k]].type),
         MakeColumnRef(nl + join.right_keys[k], right.schema.fields[join.right_keys[k]].type)});
    if (eq.ok()) conjuncts.push_back(*eq);
  }
  if (join.condition) conjuncts.push_back(join.condition);
  if (join.time_bounds) conjuncts.push_back(join.time_bounds->conjuncts);
  if (conjuncts.empty()) return "true";
  if (conjuncts.size() == 1) return ExprToString(*conjuncts[0], names);
  auto all = MakeCall("AND", conjuncts);
  return all.ok() ? ExprToString(**all, names) : "?";
}

}  // namespace

std::string IntervalJoinDigest(const LogicalNode& join) {
  const LogicalNode::TimeBounds& b = *join.time_bounds;
  return absl::StrCat(
      "IntervalJoin(joinType=[", JoinTypeDigest(join.join_type), "], windowBounds=[isRowTime=",
      IsProctimeColumn(join.input(0), b.left_time) ? "false" : "true",
      ", leftLowerBound=", b.lower_ms, ", leftUpperBound=", b.upper_ms,
      ", leftTimeIndex=", b.left_time, ", rightTimeIndex=", b.right_time, "], where=[",
      JoinWhere(join), "], select=[", absl::StrJoin(join.schema.Names(), ", "), "])");
}

std::string TemporalJoinDigest(const LogicalNode& join) {
  const LogicalNode::Temporal& t = *join.temporal;
  const std::vector<std::string> names = join.schema.Names();
  const int nl = static_cast<int>(join.input(0).schema.size());
  std::vector<std::string> pk, left_keys, right_keys;
  for (int c : t.right_primary_key) pk.push_back(names[nl + c]);
  for (int k : join.left_keys) left_keys.push_back(names[k]);
  for (int k : join.right_keys) right_keys.push_back(names[nl + k]);
  std::string where = JoinWhere(join);
  const std::string temporal =
      absl::StrCat("__TEMPORAL_JOIN_CONDITION(", names[t.left_time],
                   t.proctime ? "" : absl::StrCat(", ", names[nl + t.right_time]),
                   ", __TEMPORAL_JOIN_CONDITION_PRIMARY_KEY(", absl::StrJoin(pk, ", "),
                   "), __TEMPORAL_JOIN_LEFT_KEY(", absl::StrJoin(left_keys, ", "),
                   "), __TEMPORAL_JOIN_RIGHT_KEY(", absl::StrJoin(right_keys, ", "), "))");
  where = where == "true" ? temporal : absl::StrCat("AND(", where, ", ", temporal, ")");
  return absl::StrCat("TemporalJoin(joinType=[", JoinTypeDigest(join.join_type), "], where=[",
                      where, "], select=[", absl::StrJoin(names, ", "), "])");
}

std::string JoinDigest(const LogicalNode& join) {
  return absl::StrCat("Join(joinType=[", JoinTypeDigest(join.join_type), "], where=[",
                      JoinWhere(join), "], select=[", absl::StrJoin(join.schema.Names(), ", "),
                      "], leftInputSpec=[", JoinInputSpec(join.input(0), join.left_keys),
                      "], rightInputSpec=[", JoinInputSpec(join.input(1), join.right_keys), "])");
}

}  // namespace eddy::planner
