#include "coordinator/planner/explain_logical.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/expr/expr_printer.h"
#include "coordinator/planner/plan_digest.h"

namespace eddy::planner {
namespace {

// Column references print as Calcite's input refs ($0, $1, ...).
std::string Rex(const Expr& e) { return ExprToString(e, {}); }

// Calcite's SqlToRelConverter keeps a plain SELECT's select list even when it passes its input
// through, but builds no such projection around an aggregate (neither the pre-aggregation one nor
// the select list over it, nor over HAVING's filter) when it would be the identity, and it merges a
// projection into one right below it.
bool SkipProject(const LogicalNode& n, LogicalKind parent) {
  if (!IsIdentityProject(n)) return false;
  if (parent == LogicalKind::kAggregate || parent == LogicalKind::kWindowAggregate) return true;
  const bool same_names = n.schema.Names() == n.input().schema.Names();
  // RelBuilder merges a projection into the one below it (a view's `SELECT *` over its query).
  if (same_names && n.input().kind == LogicalKind::kProject) return true;
  const LogicalNode* below = &n.input();
  if (below->kind == LogicalKind::kFilter) below = &below->input();
  return same_names && below->kind == LogicalKind::kAggregate;
}

// The node shown for input `in` of a node of kind `parent`.
const LogicalNode* Shown(const LogicalNode* in, LogicalKind parent) {
  // INSERT's projection onto the sink's columns: Calcite adds none when no cast is needed.
  if (parent == LogicalKind::kSink && IsIdentityProject(*in)) in = &in->input();
  // A select list's window functions are OVER expressions of its projection in Calcite's tree.
  if (parent == LogicalKind::kProject &&
      ((in->kind == LogicalKind::kRank && in->rank.origin == RankSpec::Origin::kRowNumber) ||
       in->kind == LogicalKind::kOverAggregate)) {
    in = &in->input();
  }
  while (SkipProject(*in, parent)) in = &in->input();
  return in;
}

// Calcite's `, groups=[[{0, 1}, {0}, {}]]` of an aggregate with grouping sets (input columns),
// then its GROUPING calls `, g=[GROUPING($0)]` (a window aggregate's window column: w$).
std::string GroupingSets(const LogicalNode& n) {
  std::string s;
  if (!n.grouping_sets.empty()) {
    std::vector<std::string> sets;
    for (const std::vector<int>& set : n.grouping_sets) {
      std::vector<int> columns;
      for (int k : set) columns.push_back(n.group_keys[k]);
      std::sort(columns.begin(), columns.end());
      sets.push_back(absl::StrCat("{", absl::StrJoin(columns, ", "), "}"));
    }
    absl::StrAppend(&s, ", groups=[[", absl::StrJoin(sets, ", "), "]]");
  }
  return s;
}

std::string GroupingCalls(const LogicalNode& n) {
  std::string s;
  const size_t first = n.group_keys.size() + n.calls.size();
  for (size_t g = 0; g < n.grouping_calls.size(); ++g) {
    const GroupingCall& call = n.grouping_calls[g];
    std::vector<std::string> args;
    for (int k : call.args) args.push_back(k < 0 ? "w$" : absl::StrCat("$", n.group_keys[k]));
    absl::StrAppend(&s, ", ", n.schema.fields[first + g].name, "=[",
                    call.id ? "GROUPING_ID" : "GROUPING", "(", absl::StrJoin(args, ", "), ")]");
  }
  return s;
}

std::string AggCall(const LogicalAggCall& c) {
  if (c.kind == AggKind::kCountStar) return "COUNT()";
  if (c.kind == AggKind::kUser) {
    std::vector<std::string> args;
    for (int a : c.user_args) args.push_back(absl::StrCat("$", a));
    return AggCallDigest(c, absl::StrJoin(args, ", "));
  }
  return AggCallDigest(c, absl::StrCat("$", c.arg));
}

// Calcite's RexOver: ROW_NUMBER() OVER (PARTITION BY $1 ORDER BY $3 DESC NULLS LAST).
std::string RankOver(const RankSpec& r) {
  std::vector<std::string> parts;
  if (!r.partition_keys.empty()) {
    std::vector<std::string> keys;
    for (int k : r.partition_keys) keys.push_back(absl::StrCat("$", k));
    parts.push_back("PARTITION BY " + absl::StrJoin(keys, ", "));
  }
  std::vector<std::string> order;
  for (const SortKey& k : r.order_keys) {
    order.push_back(absl::StrCat("$", k.column, k.descending ? " DESC" : "",
                                 k.nulls_first ? " NULLS FIRST" : " NULLS LAST"));
  }
  parts.push_back("ORDER BY " + absl::StrJoin(order, ", "));
  return absl::StrCat(RankFunctionName(r.function), "() OVER (", absl::StrJoin(parts, " "), ")");
}

// SUM($2) OVER (PARTITION BY $0 ORDER BY $1 NULLS FIRST RANGE BETWEEN 3600000 PRECEDING AND
// CURRENT ROW), for call `c` of an OverAggregate.
std::string AggOver(const LogicalNode& over, size_t c) {
  const OverSpec& w = over.over;
  std::vector<std::string> keys;
  for (int k : w.partition_keys) keys.push_back(absl::StrCat("$", k));
  const std::string start = w.preceding < 0    ? "UNBOUNDED PRECEDING"
                            : w.preceding == 0 ? "CURRENT ROW"
                                               : absl::StrCat(w.preceding, " PRECEDING");
  return absl::StrCat(AggCall(over.calls[c]), " OVER (",
                      keys.empty() ? "" : "PARTITION BY " + absl::StrJoin(keys, ", ") + " ",
                      "ORDER BY $", w.time_column, " NULLS FIRST ", w.rows ? "ROWS" : "RANGE",
                      " BETWEEN ", start, " AND CURRENT ROW)");
}

std::string Describe(const LogicalNode& n, const LogicalNode* shown_input) {
  switch (n.kind) {
    case LogicalKind::kTableScan:
      return absl::StrCat("LogicalTableScan(table=", n.table->path.ToExplainString(),
                          OptionsHintDigest(*n.table, /*logical=*/true), ")");
    case LogicalKind::kValues:
      return absl::StrCat("LogicalValues(tuples=", ValuesTuples(n), ")");
    case LogicalKind::kProject: {
      std::vector<std::string> items;
      const bool over_rank = n.input().kind == LogicalKind::kRank;
      const int number = static_cast<int>(n.input().schema.size()) - 1;
      for (size_t i = 0; i < n.projections.size(); ++i) {
        const Expr& p = *n.projections[i];
        const LogicalNode& in = n.input();
        const int width = static_cast<int>(
            in.kind == LogicalKind::kOverAggregate ? in.input().schema.size() : in.schema.size());
        std::string rex = Rex(p);
        if (over_rank && in.rank.output_rank_number && p.kind == ExprKind::kColumn &&
            p.column == number) {
          rex = RankOver(in.rank);
        } else if (in.kind == LogicalKind::kOverAggregate && p.kind == ExprKind::kColumn &&
                   p.column >= width) {
          rex = AggOver(in, p.column - width);
        }
        items.push_back(absl::StrCat(n.schema.fields[i].name, "=[", rex, "]"));
      }
      return absl::StrCat("LogicalProject(", absl::StrJoin(items, ", "), ")");
    }
    case LogicalKind::kFilter:
      return absl::StrCat("LogicalFilter(condition=[", Rex(*n.condition), "])");
    case LogicalKind::kAggregate: {
      std::vector<int> keys = n.group_keys;
      std::sort(keys.begin(), keys.end());  // Calcite prints the group set as a sorted bit set
      std::string s = absl::StrCat("LogicalAggregate(group=[{", absl::StrJoin(keys, ", "), "}]",
                                   GroupingSets(n));
      for (size_t c = 0; c < n.calls.size(); ++c) {
        absl::StrAppend(&s, ", ", n.schema.fields[n.group_keys.size() + c].name, "=[",
                        AggCall(n.calls[c]), "]");
      }
      return s + GroupingCalls(n) + ")";
    }
    case LogicalKind::kUnion:
      return "LogicalUnion(all=[true])";
    case LogicalKind::kWatermarkAssigner:
      return absl::StrCat("LogicalWatermarkAssigner(rowtime=[",
                          n.input().schema.fields[n.rowtime].name, "], watermark=[",
                          Rex(*n.watermark), "])");
    case LogicalKind::kWindowTableFunction:
      return absl::StrCat("LogicalTableFunctionScan(invocation=[",
                          WindowDigest(n.window, absl::StrCat("$", n.window.time_column)), "])");
    case LogicalKind::kWindowAggregate: {
      std::string s =
          absl::StrCat("LogicalWindowAggregate(group=[{", absl::StrJoin(n.group_keys, ", "), "}]",
                       GroupingSets(n), ", window=[",
                       WindowDigest(n.window, absl::StrCat("$", n.window.time_column)), "]");
      for (size_t c = 0; c < n.calls.size(); ++c) {
        absl::StrAppend(&s, ", ", n.schema.fields[n.group_keys.size() + c].name, "=[",
                        AggCall(n.calls[c]), "]");
      }
      return s + GroupingCalls(n) + ")";
    }
    case LogicalKind::kJoin:
      return absl::StrCat("LogicalJoin(condition=[", n.condition ? Rex(*n.condition) : "true",
                          "], joinType=[", JoinTypeName(n.join_type), "]",
                          n.temporal ? absl::StrCat(", period=[$", n.temporal->left_time, "]") : "",
                          ")");
    case LogicalKind::kRank: {
      if (n.rank.origin == RankSpec::Origin::kRowNumber) {
        return absl::StrCat("LogicalRank(", RankOver(n.rank), ")");
      }
      // Calcite's LogicalSort; a direction prints its null order where it differs from Calcite's
      // default (ASC NULLS LAST, DESC NULLS FIRST), which Flink's NULL-is-lowest always does.
      std::vector<std::string> items;
      for (size_t i = 0; i < n.rank.order_keys.size(); ++i) {
        const SortKey& k = n.rank.order_keys[i];
        const bool calcite_default = k.nulls_first == k.descending;
        items.push_back(absl::StrCat("sort", i, "=[$", k.column, "]"));
        items.push_back(absl::StrCat(
            "dir", i, "=[", k.descending ? "DESC" : "ASC",
            calcite_default ? "" : (k.nulls_first ? "-nulls-first" : "-nulls-last"), "]"));
      }
      if (n.rank.rank_start > 1)
        items.push_back(absl::StrCat("offset=[", n.rank.rank_start - 1, "]"));
      if (n.rank.origin != RankSpec::Origin::kTemporalSort &&
          n.rank.origin != RankSpec::Origin::kSort) {
        items.push_back(absl::StrCat("fetch=[", n.rank.rank_end - n.rank.rank_start + 1, "]"));
      }
      return absl::StrCat("LogicalSort(", absl::StrJoin(items, ", "), ")");
    }
    case LogicalKind::kOverAggregate: {
      std::vector<std::string> calls;
      for (size_t c = 0; c < n.calls.size(); ++c) calls.push_back(AggOver(n, c));
      return absl::StrCat("LogicalOverAggregate(", absl::StrJoin(calls, ", "), ")");
    }
    case LogicalKind::kExpand:
      return absl::StrCat("LogicalExpand(projects=[", ExpandProjects(n), "])");
    case LogicalKind::kCorrelate:
      return absl::StrCat("LogicalCorrelate(invocation=[", CorrelateInvocation(n), "], joinType=[",
                          JoinTypeName(n.join_type), "])");
    case LogicalKind::kSink:
      return absl::StrCat("LogicalSink(table=[", n.sink_table->path.ToString(), "], fields=[",
                          absl::StrJoin(shown_input->schema.Names(), ", "), "]",
                          OptionsHintDigest(*n.sink_table, /*logical=*/true), ")");
  }
  return "Logical?";
}

const ExplainNode* Convert(const LogicalNode& n, ExplainGraph* graph) {
  std::vector<const ExplainNode*> inputs;
  const LogicalNode* shown_input = nullptr;
  for (const auto& in : n.inputs) {
    const LogicalNode* shown = Shown(in.get(), n.kind);
    if (shown_input == nullptr) shown_input = shown;
    inputs.push_back(Convert(*shown, graph));
  }
  return graph->Add(Describe(n, shown_input), std::move(inputs), n.kind == LogicalKind::kSink);
}

}  // namespace

const ExplainNode* LogicalToExplain(const LogicalNode& root, ExplainGraph* graph) {
  // A bare query's top is a select list like any other.
  return Convert(*Shown(&root, LogicalKind::kUnion), graph);
}

}  // namespace eddy::planner
