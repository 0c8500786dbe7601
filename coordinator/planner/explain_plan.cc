// ExplainStatement: plans the EXPLAIN's target exactly as PlanInserts would (a bare query gets no
// sink; its root is consumed with retractions) and renders the three sections of Flink's EXPLAIN.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/expr/zoned_calls.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/changelog_mode.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/cost_model.h"
#include "coordinator/planner/explain_json_plan.h"
#include "coordinator/planner/explain_logical.h"
#include "coordinator/planner/explain_physical.h"
#include "coordinator/planner/explain_tree.h"
#include "coordinator/planner/job_graph.h"
#include "coordinator/planner/optimizer.h"
#include "coordinator/planner/physical_planner.h"
#include "coordinator/planner/plan_advice.h"
#include "coordinator/planner/planner.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy {
namespace {

absl::StatusOr<std::vector<planner::LogicalNodePtr>> BindTarget(const sql::Statement& target,
                                                                planner::Binder& binder) {
  std::vector<planner::LogicalNodePtr> roots;
  switch (target.kind) {
    case sql::StatementKind::kQuery: {
      if (target.query == nullptr) return planner::ValidationError("EXPLAIN has no query");
      ASSIGN_OR_RETURN(planner::BoundRelation r, binder.BindOutermostQuery(*target.query));
      roots.push_back(std::move(r.node));
      return roots;
    }
    case sql::StatementKind::kInsert: {
      if (target.insert == nullptr) return planner::ValidationError("missing INSERT statement");
      ASSIGN_OR_RETURN(planner::LogicalNodePtr sink, binder.BindInsert(*target.insert));
      roots.push_back(std::move(sink));
      return roots;
    }
    case sql::StatementKind::kStatementSet: {
      if (target.statement_set == nullptr || target.statement_set->inserts.empty()) {
        return planner::ValidationError("no INSERT statement to plan");
      }
      for (const sql::Insert& insert : target.statement_set->inserts) {
        ASSIGN_OR_RETURN(planner::LogicalNodePtr sink, binder.BindInsert(insert));
        roots.push_back(std::move(sink));
      }
      return roots;
    }
    default:
      return planner::ValidationError("EXPLAIN supports a query, an INSERT or a STATEMENT SET");
  }
}

// The statistics ANALYZE TABLE stored for what a scan reads: the table's, or the sum of its
// partitions' row counts (of those the scan reads after pruning, each analyzed; without pruning,
// of every analyzed partition). The table is found by its path's parts: a quoted part may hold a
// '.'.
planner::TableStatisticsLookup StatisticsOf(const SessionCatalog& catalog) {
  return [&catalog](const v1::TableSource& scan) -> std::optional<TableStatistics> {
    if (!scan.has_table_path()) return std::nullopt;
    const v1::TablePath& path = scan.table_path();
    std::shared_ptr<const CatalogTable> table =
        catalog.FindTable(ObjectPath{path.catalog(), path.database(), path.table()});
    if (table == nullptr) return std::nullopt;
    if (table->partition_keys.empty() || (!scan.partitions_pruned() && table->statistics)) {
      return table->statistics;
    }
    TableStatistics sum;
    if (!scan.partitions_pruned()) {
      if (table->partition_statistics.empty()) return std::nullopt;
      for (const auto& [dir, stats] : table->partition_statistics) sum.row_count += stats.row_count;
      return sum;
    }
    for (const std::string& dir : scan.partitions()) {
      auto it = table->partition_statistics.find(dir);
      if (it == table->partition_statistics.end()) return std::nullopt;
      sum.row_count += it->second.row_count;
    }
    return sum;
  };
}

}  // namespace

absl::StatusOr<std::string> ExplainStatement(const sql::Explain& explain,
                                             const SessionCatalog& catalog,
                                             const ConfigMap& config) {
  // Zone-dependent calls are fixed to the session zone now, as Flink fixes it at planning.
  ScopedPlanningTimeZone planning_zone(planner::ConfigTimeZone(config));
  bool changelog_mode = false;
  bool json_plan = false;
  bool estimated_cost = false;
  bool plan_advice = false;
  for (const std::string& detail : explain.details) {
    if (detail == "CHANGELOG_MODE") {
      changelog_mode = true;
    } else if (detail == "JSON_EXECUTION_PLAN") {
      json_plan = true;
    } else if (detail == "ESTIMATED_COST") {
      estimated_cost = true;
    } else if (detail == "PLAN_ADVICE") {
      plan_advice = true;
    } else {
      return planner::ValidationError(absl::StrCat("unknown EXPLAIN detail ", detail));
    }
  }
  if (plan_advice && planner::IsBatchMode(config)) {
    // As Flink: its analyzers read streaming plans only.
    return planner::ValidationError("EXPLAIN PLAN_ADVICE is not supported under batch mode.");
  }
  if (explain.target == nullptr) return planner::ValidationError("EXPLAIN has no statement");
  planner::Binder binder(catalog, config);
  ASSIGN_OR_RETURN(std::vector<planner::LogicalNodePtr> roots, BindTarget(*explain.target, binder));

  // A SELECT's outermost LIMIT (validated as PlanQuery does) heads each section as Flink shows it.
  const sql::Query* query =
      explain.target->kind == sql::StatementKind::kQuery ? explain.target->query.get() : nullptr;
  // The client's LIMIT (a plain one on the outermost query); others are part of the plan.
  const std::optional<int64_t> limit =
      query && planner::ClientAppliesLimit(*query) ? query->limit : std::nullopt;

  planner::ExplainGraph graph;
  // With estimates: the cumulative cost of each physical node printed (the Limit adds its own).
  std::map<const planner::ExplainNode*, planner::Cost> cumulative;
  std::optional<double> limit_input_rows;
  auto with_limit = [&](std::vector<const planner::ExplainNode*> trees, const std::string& name,
                        bool show_mode) {
    if (!limit) return trees;
    std::string desc = absl::StrCat(name, "(", name == "Limit" ? "offset=[0], " : "", "fetch=[",
                                    *limit, "]", show_mode ? ", changelogMode=[I]" : "", ")");
    if (limit_input_rows && trees.size() == 1 && cumulative.contains(trees[0])) {
      const double rows = std::min(*limit_input_rows, static_cast<double>(*limit));
      planner::Cost total = cumulative.at(trees[0]);
      total += planner::Cost{rows, rows};
      absl::StrAppend(&desc, planner::CostModel::Suffix(rows, total));
    }
    return std::vector<const planner::ExplainNode*>{graph.Add(std::move(desc), trees)};
  };
  std::string out = "== Abstract Syntax Tree ==\n";
  // The AST is the plan as bound, before any sharing: each root's tree in full.
  std::vector<const planner::ExplainNode*> ast;
  for (const auto& root : roots) ast.push_back(LogicalToExplain(*root, &graph));
  for (const planner::ExplainNode* root : with_limit(ast, "LogicalSort", false)) {
    absl::StrAppend(&out, TreeToString(*root, false), "\n");
  }
  ASSIGN_OR_RETURN(
      roots, planner::OptimizeLogicalPlan(roots, config, planner::PartitionListerOf(catalog)));
  RETURN_IF_ERROR(planner::InferChangelogModes(roots, planner::IsBatchMode(config)));
  if (query) RETURN_IF_ERROR(planner::CheckOutermostLimit(*query, *roots[0]));
  ASSIGN_OR_RETURN(planner::PhysicalPlan plan, planner::BuildPhysicalPlan(roots, config));

  // Flink prints the optimized physical plan per root, shared parts repeated; sharing shows in
  // the execution plan only.
  planner::CostModel costs(plan, StatisticsOf(catalog));
  planner::PhysicalExplainOptions physical{changelog_mode, estimated_cost ? &costs : nullptr,
                                           &cumulative};
  if (estimated_cost && plan.roots.size() == 1) limit_input_rows = costs.RowCount(plan.roots[0]);
  std::optional<planner::PlanAdviceResult> advice;
  if (plan_advice) {
    advice = planner::AnalyzePlan(plan, config, [&](int node) {
      return TreeToString(*planner::PhysicalSubtreeToExplain(plan, node, {true}, &graph), false);
    });
    physical.advice_ids = &advice->node_advice_ids;
  }
  out += plan_advice ? "== Optimized Physical Plan With Advice ==\n"
                     : "== Optimized Physical Plan ==\n";
  for (const planner::ExplainNode* root :
       with_limit(PhysicalToExplain(plan, physical, &graph), "Limit", changelog_mode)) {
    absl::StrAppend(&out, TreeToString(*root, false), "\n");
  }
  if (advice) {
    for (const std::string& line : advice->lines) absl::StrAppend(&out, line, "\n");
    if (advice->lines.empty()) out += "No available advice...\n";
    out += "\n";
  }
  out += "== Optimized Execution Plan ==\n";
  limit_input_rows.reset();
  out += DagToString(with_limit(PhysicalToExplain(plan, {}, &graph), "Limit", false));
  if (json_plan) {
    // The operators and exchanges as they would be deployed (the client's LIMIT aside).
    ASSIGN_OR_RETURN(JobGraph job, BuildJobGraph(plan.nodes, config));
    absl::StrAppend(&out, "\n== Physical Execution Plan ==\n", planner::JsonExecutionPlan(job));
  }
  return out;
}

}  // namespace eddy
