// Submitting a planned job for a session: resolves its filesystem paths against the allowed
// directories, ships the user libraries it calls, names it (`pipeline.name`) and hands it to the
// JobManager with the session's configuration.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/cluster/job_manager.h"
#include "coordinator/planner/planner.h"
#include "coordinator/service/session.h"

namespace eddy {

// What every submitted job gets from the coordinator's own configuration.
struct SubmitOptions {
  // Canonical directories filesystem tables may use; empty: none.
  std::vector<std::string> filesystem_allowed_dirs;
  // Where checkpoints go without `state.checkpoints.dir` (--checkpoints-dir).
  std::string checkpoints_dir;
};

// kQuery: a SELECT whose rows a client fetches; without checkpoints it is not restarted (rows may
// have reached the client). kStatistics: a query whose rows the coordinator reads itself (ANALYZE
// TABLE), keyed so that a repeated row overwrites its twin: it restarts per the restart strategy.
enum class JobKind { kInsert, kQuery, kStatistics };

// The job's id.
absl::StatusOr<std::string> SubmitPlanned(JobManager* jobs, Session& session,
                                          const PlannedJob& planned, const SubmitOptions& options,
                                          JobKind kind);

}  // namespace eddy
