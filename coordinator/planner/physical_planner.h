// Translation of the logical plan (after changelog-mode inference) into the worker's PlanNodes:
// TableScan -> datagen source, Values -> values source, adjacent Project/Filter -> one Calc (dropped
// when it is an identity without a filter), Aggregate -> GroupAggregate, Union -> UnionAll, Sink.
// A logical node shared by several consumers is emitted once.
#pragma once

#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/planner/logical_plan.h"
#include "eddy/v1/plan.pb.h"

namespace eddy::planner {

class PhysicalPlanner {
 public:
  // Emits `root` and everything below it; returns the id of root's PlanNode.
  absl::StatusOr<int> Translate(const LogicalNodePtr& root);

  // Topologically ordered: inputs before consumers.
  std::vector<v1::PlanNode>& nodes() { return nodes_; }
  // False once any emitted source is unbounded.
  bool bounded() const { return bounded_; }

 private:
  absl::StatusOr<int> TranslateCalc(const LogicalNodePtr& top);
  v1::PlanNode* NewNode(const LogicalNode& logical, const Schema& schema);

  std::vector<v1::PlanNode> nodes_;
  std::unordered_map<const LogicalNode*, int> ids_;
  bool bounded_ = true;
};

}  // namespace eddy::planner
