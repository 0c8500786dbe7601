// Turns a planned job into what the job manager runs and the job store records: the stored spec
// (the planned nodes with their filesystem paths resolved, the user function libraries they call,
// the session's configuration, the coordinator's default checkpoint directory) and, from it alone,
// the job spec (job graph, deployment builder, checkpointing, restart strategy). A coordinator that
// restarts makes the spec again from the stored one with the same function, so a recovered job runs
// as it was submitted.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/cluster/job_manager.h"
#include "eddy/v1/job_store.pb.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

// `nodes` must have their filesystem paths resolved already.
v1::StoredJobSpec MakeStoredJobSpec(const std::string& name, bool query, bool bounded,
                                    const std::vector<v1::PlanNode>& nodes,
                                    const std::vector<v1::UserLibrary>& libraries,
                                    const std::map<std::string, std::string>& config,
                                    const std::string& default_checkpoints_dir);

// An INSERT job restarts from its latest checkpoint as its restart strategy allows. A SELECT's
// rows go to the client (collect sink): with checkpointing it restarts in the same way, its client
// getting each row once a checkpoint covers it (exactly once across restarts); without, it never
// restarts, since its rows went to the client as they came. An error names what is wrong (a
// configuration value, the plan).
absl::StatusOr<JobManager::JobSpec> JobSpecFrom(const v1::StoredJobSpec& stored);

}  // namespace eddy
