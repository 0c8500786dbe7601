// PlanQuery: a bare SELECT becomes a job like an INSERT into an internal collect sink (accepts
// every change and needs UPDATE_BEFORE, as print does) at parallelism 1; the worker running it
// buffers the rows for the client. A plain LIMIT on the outermost query of an append-only result is
// the client's: it stops the job once that many rows arrived (with ORDER BY or OFFSET it is part of
// the plan, binder_order_limit.cc).
#include <memory>
#include <utility>

#include "common/base/status_macros.h"
#include "common/expr/zoned_calls.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/changelog_mode.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/connector_options.h"
#include "coordinator/planner/optimizer.h"
#include "coordinator/planner/physical_planner.h"
#include "coordinator/planner/planner.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy {
namespace planner {

bool ClientAppliesLimit(const sql::Query& query) {
  return query.limit.has_value() && query.order_by.empty() && !query.offset.has_value();
}

absl::Status CheckOutermostLimit(const sql::Query& query, const LogicalNode& limited) {
  if (ClientAppliesLimit(query) && !limited.mode.IsInsertOnly()) {
    return ValidationErrorAt(
        query.pos,
        "LIMIT over an updating result (an aggregate without windows) is not supported "
        "yet; LIMIT applies to append-only results");
  }
  return absl::OkStatus();
}

}  // namespace planner

absl::StatusOr<PlannedQuery> PlanQuery(const sql::Query& query, const SessionCatalog& catalog,
                                       const ConfigMap& config) {
  // Zone-dependent calls are fixed to the session zone now, as Flink fixes it at planning.
  ScopedPlanningTimeZone planning_zone(planner::ConfigTimeZone(config));
  planner::Binder binder(catalog, config);
  ASSIGN_OR_RETURN(planner::BoundRelation bound, binder.BindOutermostQuery(query));
  auto table = std::make_shared<CatalogTable>();
  table->path = ObjectPath{"", "", "*anonymous_collect*"};
  table->schema = bound.node->schema;
  table->options = {{"connector", std::string(kCollectConnector)}, {"sink.parallelism", "1"}};
  std::vector<planner::LogicalNodePtr> roots = {planner::MakeSink(bound.node, table)};
  ASSIGN_OR_RETURN(
      roots, planner::OptimizeLogicalPlan(roots, config, planner::PartitionListerOf(catalog)));
  RETURN_IF_ERROR(planner::InferChangelogModes(roots, planner::IsBatchMode(config)));
  RETURN_IF_ERROR(planner::CheckOutermostLimit(query, roots[0]->input()));
  ASSIGN_OR_RETURN(planner::PhysicalPlan plan, planner::BuildPhysicalPlan(roots, config));
  PlannedQuery out;
  out.schema = table->schema;
  out.job.name = "collect";
  out.job.nodes = std::move(plan.nodes);
  out.job.bounded = plan.bounded;
  if (planner::ClientAppliesLimit(query)) out.limit = query.limit;
  return out;
}

}  // namespace eddy
