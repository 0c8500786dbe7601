// EXPLAIN PLAN_ADVICE: Flink's two analyzers of a streaming plan.
// - Group aggregation (node level, kind ADVICE): every GroupAggregate left in one phase whose calls
//   could all run as local-global two-phase aggregation is tagged `advice=[n]`, and the advice
//   names the settings that would enable it (mini-batch on with a positive latency and size, and
//   `table.optimizer.agg-phase-strategy` not ONE_PHASE).
// - Non-deterministic updates (query level, kind WARNING): a Calc that computes a column with a
//   non-deterministic function (CURRENT_TIMESTAMP, NOW, RAND, ...) over an input that
//   updates or deletes: a retraction recomputes the column and no longer matches the row it
//   retracts. Eddy warns for every such Calc; Flink's analysis also clears a column whose updates
//   the consumer keys by an upsert key.
// Advice ids count from 1: node-level advice first (one id per distinct advice text), then the
// query-level ones.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "coordinator/planner/physical_planner.h"
#include "coordinator/planner/planner.h"

namespace eddy::planner {

struct PlanAdviceResult {
  std::map<int, int> node_advice_ids;  // plan node -> advice id
  // `advice[1]: [ADVICE] You might want to ...`, in id order. A query-level warning's text ends
  // with the related plan, several lines.
  std::vector<std::string> lines;
};

// `related_plan(node)`: the plan under a node as EXPLAIN prints it with changelog modes.
PlanAdviceResult AnalyzePlan(const PhysicalPlan& plan, const ConfigMap& config,
                             const std::function<std::string(int)>& related_plan);

}  // namespace eddy::planner
