// Sub-plan reuse: after physical translation, plan nodes that compute the same thing from the same
// inputs — same source scan, same Calc, same aggregate with the same changelog mode — are merged so
// that one node feeds every consumer.
#pragma once

#include <vector>

#include "coordinator/planner/logical_plan.h"
#include "coordinator/planner/planner.h"
#include "eddy/v1/plan.pb.h"

namespace eddy::planner {

struct ReuseOptions {
  bool sub_plans = true;  // table.optimizer.reuse-sub-plan-enabled
  bool sources = true;    // table.optimizer.reuse-source-enabled; only with sub_plans, as Flink
};

ReuseOptions ReuseOptionsFromConfig(const ConfigMap& config);

// Merges identical nodes of `nodes` (topologically ordered, ids = indexes) bottom-up, renumbers
// the survivors densely and rewrites their inputs; `modes` (one per node) is kept in step. Sinks
// are never merged: two INSERTs into one table write twice. Returns old id -> new id.
std::vector<int> ReuseSubPlans(const ReuseOptions& options, std::vector<v1::PlanNode>* nodes,
                               std::vector<ChangelogMode>* modes);

}  // namespace eddy::planner
