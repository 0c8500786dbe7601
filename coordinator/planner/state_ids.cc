#include "coordinator/planner/state_ids.h"

namespace eddy::planner {

bool KeepsKeyedState(const v1::PlanNode& node) {
  // Every kind is listed, so that a new kind must decide whether it keeps state.
  switch (node.op_case()) {
    case v1::PlanNode::kGroupAggregate:
    case v1::PlanNode::kGlobalGroupAggregate:
    case v1::PlanNode::kWindowAggregate:
    case v1::PlanNode::kJoin:
    case v1::PlanNode::kIntervalJoin:
    case v1::PlanNode::kTemporalJoin:
    case v1::PlanNode::kRank:
    case v1::PlanNode::kDeduplicate:
    case v1::PlanNode::kOverAggregate:
    case v1::PlanNode::kWindowRank:
    case v1::PlanNode::kSessionWindowAggregate:
    case v1::PlanNode::kTemporalSort:
      return true;
    case v1::PlanNode::kLocalGroupAggregate:  // folds one mini-batch in memory, flushed at barriers
    // Batch mode: in memory until the end of input; a failed batch job reruns from the start.
    case v1::PlanNode::kHashAggregate:
    case v1::PlanNode::kSort:
    case v1::PlanNode::kChangelogMaterialize:
    case v1::PlanNode::kValues:
    case v1::PlanNode::kTableSource:
    case v1::PlanNode::kCalc:
    case v1::PlanNode::kExpand:
    case v1::PlanNode::kCorrelate:
    case v1::PlanNode::kUnionAll:
    case v1::PlanNode::kSink:
    case v1::PlanNode::kPartitionCommitter:  // operator state: the pending partitions
    case v1::PlanNode::kExchangeSink:
    case v1::PlanNode::kExchangeSource:
    case v1::PlanNode::kWatermarkAssigner:
    case v1::PlanNode::kWindowTableFunction:
    case v1::PlanNode::kMiniBatchAssigner:
    case v1::PlanNode::OP_NOT_SET:
      return false;
  }
  return false;
}

uint32_t StateIdOf(const v1::PlanNode& node) {
  return KeepsKeyedState(node) ? static_cast<uint32_t>(node.id()) + 1 : 0;
}

void AssignStateIds(std::vector<v1::PlanNode>* nodes) {
  for (v1::PlanNode& node : *nodes) node.set_state_id(StateIdOf(node));
}

}  // namespace eddy::planner
