// The logical optimizer: rewrites the bound plan (all roots of a statement set at once) before
// changelog-mode inference and physical translation. Rules, in the order they run, one per file:
//   rule_expand_grouping_sets.cc an aggregate of GROUPING SETS / ROLLUP / CUBE becomes an Expand
//                               (a row per grouping set), an aggregate grouped by the keys and the
//                               set's id `$e`, and a projection computing GROUPING() from `$e`
//   rule_fold_constants.cc      calls over literals become literals (`1 + 1` -> 2)
//   rule_simplify_filters.cc    TRUE conjuncts and always-true filters go; an always-false or NULL
//                               filter becomes an empty VALUES
//   rule_push_down_filters.cc   filters move below projections, into each UNION ALL branch,
//                               for conditions on group keys below aggregates, and into joins
//                               (a WHERE over an inner join joins its condition; conjuncts of one
//                               side go to that side's input)
//   rule_prune_partitions.cc    a filter over a scan of a partitioned table keeps the scan to the
//                               partitions its partition-column conjuncts accept
//   rule_rank_number.cc         a Top-N's row number that its filter fixes (rn = 1) is read as a
//                               literal, so its column can go
//   rule_temporal_keys.cc       a temporal join's versioned side is keyed by its unique key
//   rule_reorder_joins.cc       inner-join trees rebuilt smallest input first (when enabled)
//   rule_extract_join_keys.cc   a join's equi conjuncts become its keys, the rest its residual
//                               condition
//   rule_interval_join.cc       bounds between the two sides' rowtime attributes become an
//                               interval join's time bounds
//   rule_prune_columns.cc       projections and scans keep only the columns used above them
// Adjacent projections and filters then merge into one Calc in physical translation
// (physical_planner.h), and identical sub-plans merge after it (reuse_sub_plans.h). Every rule
// keeps shared nodes shared.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/planner/logical_plan.h"
#include "coordinator/planner/planner.h"

namespace eddy::planner {

using LogicalRoots = std::vector<LogicalNodePtr>;

// The partition directories of a partitioned table (Catalog::ListPartitions).
using PartitionLister =
    std::function<absl::StatusOr<std::vector<std::string>>(const CatalogTable& table)>;

// The catalog's lister (null without a shared catalog).
PartitionLister PartitionListerOf(const SessionCatalog& catalog);

// Without a `lister`, partitions are not pruned.
absl::StatusOr<LogicalRoots> OptimizeLogicalPlan(const LogicalRoots& roots, const ConfigMap& config,
                                                 const PartitionLister& lister = nullptr);

absl::StatusOr<LogicalRoots> ExpandGroupingSets(const LogicalRoots& roots);
absl::StatusOr<LogicalRoots> FoldConstants(const LogicalRoots& roots);
absl::StatusOr<LogicalRoots> SimplifyFilters(const LogicalRoots& roots);
absl::StatusOr<LogicalRoots> PushDownFilters(const LogicalRoots& roots);
absl::StatusOr<LogicalRoots> PrunePartitions(const LogicalRoots& roots,
                                             const PartitionLister& lister);
absl::StatusOr<LogicalRoots> ReplaceConstantRankNumbers(const LogicalRoots& roots);
absl::StatusOr<LogicalRoots> ResolveTemporalKeys(const LogicalRoots& roots);
// Only with 'table.optimizer.join-reorder-enabled' = 'true'.
absl::StatusOr<LogicalRoots> ReorderJoins(const LogicalRoots& roots, const ConfigMap& config);
absl::StatusOr<LogicalRoots> ExtractJoinKeys(const LogicalRoots& roots);
absl::StatusOr<LogicalRoots> ExtractIntervalBounds(const LogicalRoots& roots);
// With `merge_scans_of_a_table`, every scan of one table reads the union of the columns its scans
// need, so that source reuse can still merge them.
absl::StatusOr<LogicalRoots> PruneColumns(const LogicalRoots& roots, bool merge_scans_of_a_table);

}  // namespace eddy::planner
