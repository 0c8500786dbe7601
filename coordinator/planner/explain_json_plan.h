// EXPLAIN JSON_EXECUTION_PLAN's last section: the job's operators as the JSON Flink prints for its
// stream graph (`{"nodes" : [ {"id", "type", "pact", "contents", "parallelism", "predecessors"}
// ]}`, Jackson's pretty layout). Every plan node of every stage is one node; a node's predecessors
// are its inputs, shipped FORWARD inside a stage and by the exchange's partitioning (HASH,
// REBALANCE, BROADCAST, GLOBAL for a single consumer) between stages.
#pragma once

#include <string>

#include "coordinator/planner/job_graph.h"

namespace eddy::planner {

std::string JsonExecutionPlan(const JobGraph& graph);

}  // namespace eddy::planner
