#include "coordinator/planner/optimizer.h"

#include "common/base/status_macros.h"
#include "coordinator/planner/reuse_sub_plans.h"

namespace eddy::planner {

PartitionLister PartitionListerOf(const SessionCatalog& catalog) {
  const Catalog* shared = catalog.catalog();
  if (shared == nullptr) return nullptr;
  return [shared](const CatalogTable& table) { return shared->ListPartitions(table); };
}

absl::StatusOr<LogicalRoots> OptimizeLogicalPlan(const LogicalRoots& roots, const ConfigMap& config,
                                                 const PartitionLister& lister) {
  ASSIGN_OR_RETURN(LogicalRoots plan, ExpandGroupingSets(roots));
  ASSIGN_OR_RETURN(plan, FoldConstants(plan));
  ASSIGN_OR_RETURN(plan, SimplifyFilters(plan));
  ASSIGN_OR_RETURN(plan, PushDownFilters(plan));
  ASSIGN_OR_RETURN(plan, PrunePartitions(plan, lister));
  ASSIGN_OR_RETURN(plan, ReplaceConstantRankNumbers(plan));
  ASSIGN_OR_RETURN(plan, ResolveTemporalKeys(plan));
  ASSIGN_OR_RETURN(plan, ReorderJoins(plan, config));
  ASSIGN_OR_RETURN(plan, ExtractJoinKeys(plan));
  ASSIGN_OR_RETURN(plan, ExtractIntervalBounds(plan));
  const ReuseOptions reuse = ReuseOptionsFromConfig(config);
  return PruneColumns(plan, reuse.sub_plans && reuse.sources);
}

}  // namespace eddy::planner
