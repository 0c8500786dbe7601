// Builds the runtime object for one plan node: a Source for scan nodes, an Operator otherwise.
// A malformed node (bad expression, unknown connector) is an error naming the node, never a crash.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/plan.pb.h"
#include "worker/operators/operator.h"
#include "worker/operators/source.h"

namespace grpc {
class Channel;
}  // namespace grpc

namespace eddy {

class InputAlignment;

class ExchangeRegistry;
class ResultBuffers;

// Where the node runs: exchange nodes need their task's identity and the worker's registry.
struct NodeBuildContext {
  std::string job_id;
  int task_index = 0;
  int subtask_index = 0;
  int attempt = 0;  // the job attempt: exchange streams carry it, gates check it (0: unchecked)
  ExchangeRegistry* exchange = nullptr;  // null: exchange nodes are rejected
  ResultBuffers* results = nullptr;      // null: collect sinks are rejected
  // Canonical directories the filesystem connector may use (--filesystem-allowed-dirs); null:
  // filesystem nodes are rejected.
  const std::vector<std::string>* filesystem_allowed_dirs = nullptr;
  std::shared_ptr<grpc::Channel> coordinator;  // the worker's channel to the coordinator, or null
  std::string worker;  // "worker-<id> at host:port": names this worker in other workers' errors
  // The task's barrier alignment, shared by all its exchange sources (one per stage input).
  std::shared_ptr<InputAlignment> alignment;
};

struct BuiltNode {
  std::unique_ptr<Source> source;  // set for source nodes
  std::unique_ptr<Operator> op;    // set otherwise
};

// `input_types` holds the output column types of each input node, in input order.
// An ExchangeSource registers its input gate in ctx.exchange here, until the source is closed or
// destroyed.
absl::StatusOr<BuiltNode> BuildNode(const v1::PlanNode& node,
                                    const std::vector<std::vector<DataType>>& input_types,
                                    const NodeBuildContext& ctx = {});

}  // namespace eddy
