// The parts of plan nodes that call user-defined functions (docs/udf.md), resolved against the
// libraries the deployment shipped: the Correlate operator of LATERAL TABLE(f(args)), and the
// user-defined aggregate calls of aggregate nodes.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/plan.pb.h"
#include "worker/operators/accumulator.h"
#include "worker/runtime/operator_factory.h"

namespace eddy {

absl::StatusOr<BuiltNode> BuildCorrelate(const v1::PlanNode& node, const std::vector<DataType>& in);

// An aggregate call with a user_function. `merging`: a global aggregate's call, whose `arg` is its
// partial column (the accumulator bytes) instead of the arguments.
absl::StatusOr<AggregateCall> ReadUserAggregateCall(const v1::AggregateCall& c,
                                                    const std::vector<DataType>& in, bool merging);

}  // namespace eddy
