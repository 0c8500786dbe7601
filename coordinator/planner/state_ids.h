// Stable state ids: each plan node that keeps keyed state gets an id derived from the plan alone
// (its node id + 1), so planning the same query again yields the same ids. Workers name each
// operator subtask's state store after it and put it in every state key; a checkpoint taken by one
// run of a query is matched to the operators of the next run through these ids.
#pragma once

#include <cstdint>
#include <vector>

#include "eddy/v1/plan.pb.h"

namespace eddy::planner {

// True for the node kinds whose operator keeps keyed state.
bool KeepsKeyedState(const v1::PlanNode& node);

// The state id of `node` as AssignStateIds sets it: node id + 1 for a stateful node, else 0.
uint32_t StateIdOf(const v1::PlanNode& node);

// Sets PlanNode.state_id on every node of the final (renumbered) plan.
void AssignStateIds(std::vector<v1::PlanNode>* nodes);

}  // namespace eddy::planner
