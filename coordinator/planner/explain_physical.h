// EXPLAIN's physical sections: the job's plan nodes as Flink's stream physical nodes (Sink, Calc,
// GroupAggregate, Local/GlobalGroupAggregate, MiniBatchAssigner, Union, TableSourceScan, Values),
// with the Exchange Flink puts in front of every GroupAggregate and GlobalGroupAggregate (hash on
// its keys, `single` without keys), optionally with each node's changelog
// mode (`, changelogMode=[I,UB,UA]` inside the parentheses; sinks produce `[NONE]`).
#pragma once

#include <vector>

#include "coordinator/planner/explain_tree.h"
#include "coordinator/planner/physical_planner.h"

namespace eddy::planner {

// Adds the plan's nodes to `graph` (a node shared in the plan stays shared) and returns the node of
// each of `plan.roots`.
std::vector<const ExplainNode*> PhysicalToExplain(const PhysicalPlan& plan, bool changelog_mode,
                                                  ExplainGraph* graph);

}  // namespace eddy::planner
