// PlanInserts: binds every INSERT of a statement set into one logical DAG (one Sink per INSERT),
// optimizes it (optimizer.h), infers changelog modes over the whole DAG (a node shared by two sinks
// must satisfy both), and translates it into one task's plan nodes, identical sub-plans merged
// (reuse_sub_plans.h).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/expr/zoned_calls.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/changelog_mode.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/optimizer.h"
#include "coordinator/planner/physical_planner.h"
#include "coordinator/planner/planner.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy {

absl::StatusOr<PlannedJob> PlanInserts(const std::vector<const sql::Insert*>& inserts,
                                       const SessionCatalog& catalog, const ConfigMap& config) {
  // Zone-dependent calls are fixed to the session zone now, as Flink fixes it at planning.
  ScopedPlanningTimeZone planning_zone(planner::ConfigTimeZone(config));
  if (inserts.empty()) return planner::ValidationError("no INSERT statement to plan");
  planner::Binder binder(catalog, config);
  std::vector<planner::LogicalNodePtr> sinks;
  std::vector<std::string> names;
  for (const sql::Insert* insert : inserts) {
    if (insert == nullptr) return planner::ValidationError("missing INSERT statement");
    ASSIGN_OR_RETURN(planner::LogicalNodePtr sink, binder.BindInsert(*insert));
    names.push_back("insert-into_" + sink->sink_table->path.ToString());
    sinks.push_back(std::move(sink));
  }
  ASSIGN_OR_RETURN(
      sinks, planner::OptimizeLogicalPlan(sinks, config, planner::PartitionListerOf(catalog)));
  RETURN_IF_ERROR(planner::InferChangelogModes(sinks, planner::IsBatchMode(config)));
  ASSIGN_OR_RETURN(planner::PhysicalPlan plan, planner::BuildPhysicalPlan(sinks, config));
  PlannedJob job;
  job.name = absl::StrJoin(names, ",");
  job.nodes = std::move(plan.nodes);
  job.bounded = plan.bounded;
  return job;
}

}  // namespace eddy
