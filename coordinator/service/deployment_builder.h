// Materializes a JobGraph into per-subtask TaskDeployments once slots are allocated: subtask i of
// every stage runs on slot i (slot sharing); producers get ExchangeSinks whose targets name each
// consumer subtask's worker address, channel index and channel count.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/base/hash.h"
#include "coordinator/planner/job_graph.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

// `slot_workers[i]` / `slot_addresses[i]`: worker id and gRPC address of slot i (at least
// graph.MaxParallelism() slots). `config` is copied into every deployment.
absl::StatusOr<std::vector<v1::TaskDeployment>> BuildDeployments(
    const JobGraph& graph, const std::string& job_id, const std::vector<std::string>& slot_workers,
    const std::vector<std::string>& slot_addresses,
    const std::map<std::string, std::string>& config);

}  // namespace eddy
