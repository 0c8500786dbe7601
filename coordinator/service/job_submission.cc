#include "coordinator/service/job_submission.h"

#include "common/base/status_macros.h"
#include "coordinator/cluster/restart_strategy.h"
#include "coordinator/service/filesystem_paths.h"
#include "coordinator/service/job_specs.h"
#include "coordinator/service/user_function_ddl.h"

namespace eddy {

absl::StatusOr<std::string> SubmitPlanned(JobManager* jobs, Session& session,
                                          const PlannedJob& planned, const SubmitOptions& options,
                                          JobKind kind) {
  std::vector<v1::PlanNode> nodes = planned.nodes;
  RETURN_IF_ERROR(ResolveFilesystemPaths(options.filesystem_allowed_dirs, &nodes));
  ASSIGN_OR_RETURN(std::vector<v1::UserLibrary> libraries, UserLibrariesOf(nodes));
  std::string name = planned.name;
  if (auto it = session.config.find("pipeline.name"); it != session.config.end()) {
    name = it->second;
  }
  const v1::StoredJobSpec stored =
      MakeStoredJobSpec(name, kind != JobKind::kInsert, planned.bounded, nodes, libraries,
                        session.config, options.checkpoints_dir);
  ASSIGN_OR_RETURN(JobManager::JobSpec spec, JobSpecFrom(stored));
  if (kind == JobKind::kStatistics && spec.restart == nullptr) {
    ASSIGN_OR_RETURN(spec.restart,
                     MakeRestartStrategy(session.config, spec.checkpointing.enabled()));
  }
  return jobs->Submit(std::move(spec));
}

}  // namespace eddy
