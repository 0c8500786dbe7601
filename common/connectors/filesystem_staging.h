// The staging of a batch job's filesystem output (Flink's batch file sink: write to a staging
// directory, commit when the job finishes). Each sink subtask of attempt n writes and publishes its
// parts inside <path>/.staging-<job id>/attempt-<n>/, which readers skip (a hidden name). When the
// job finishes, the coordinator commits: with INSERT OVERWRITE it first removes the table's visible
// files (for a partitioned table, those of each partition the job wrote), then moves the parts of
// the highest attempt (the one that finished) into <path>, into the same partition directories
// k=v/ with their success files, syncs it and removes the staging directory. A job that fails or is
// cancelled only removes the staging directory, so the table keeps its old contents. Shared by the
// worker's sink and the coordinator.
#pragma once

#include <string>

#include "absl/status/status.h"

namespace eddy {

// <path>/.staging-<job_id>/attempt-<attempt>
std::string BatchStagingDir(const std::string& path, const std::string& job_id, int attempt);

// Publishes the staged parts of `job_id` into `path` (see above); `overwrite` replaces the table's
// visible files. Nothing staged (no sink subtask got a row): the table is left as it is, or, with
// `overwrite`, emptied. Errors name the table and the file.
absl::Status CommitBatchStaging(const std::string& table, const std::string& path,
                                const std::string& job_id, bool overwrite);

// Removes the staging directory of `job_id` under `path` (missing is fine).
void DiscardBatchStaging(const std::string& path, const std::string& job_id);

}  // namespace eddy
