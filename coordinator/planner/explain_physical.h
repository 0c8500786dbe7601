// EXPLAIN's physical sections: the job's plan nodes as Flink's stream physical nodes (Sink, Calc,
// GroupAggregate, Local/GlobalGroupAggregate, MiniBatchAssigner, Union, TableSourceScan, Values),
// with the Exchange Flink puts in front of every GroupAggregate and GlobalGroupAggregate (hash on
// its keys, `single` without keys), optionally with each node's changelog
// mode (`, changelogMode=[I,UB,UA]` inside the parentheses; sinks produce `[NONE]`), each node's
// estimated cost (`: rowcount = ..., cumulative cost = {...}`, cost_model.h) and the plan advice
// ids of a node (`GroupAggregate(advice=[1], ...)`, plan_advice.h).
#pragma once

#include <map>
#include <vector>

#include "coordinator/planner/cost_model.h"
#include "coordinator/planner/explain_tree.h"
#include "coordinator/planner/physical_planner.h"

namespace eddy::planner {

struct PhysicalExplainOptions {
  bool changelog_mode = false;
  CostModel* costs = nullptr;  // set: append each node's estimates
  // With costs, receives each printed node's cumulative cost.
  std::map<const ExplainNode*, Cost>* cumulative = nullptr;
  const std::map<int, int>* advice_ids = nullptr;  // plan node -> the advice id it shows
};

// Adds the plan's nodes to `graph` (a node shared in the plan stays shared) and returns the node of
// each of `plan.roots`.
std::vector<const ExplainNode*> PhysicalToExplain(const PhysicalPlan& plan,
                                                  const PhysicalExplainOptions& options,
                                                  ExplainGraph* graph);

// The tree under one plan node, as above.
const ExplainNode* PhysicalSubtreeToExplain(const PhysicalPlan& plan, int node,
                                            const PhysicalExplainOptions& options,
                                            ExplainGraph* graph);

}  // namespace eddy::planner
