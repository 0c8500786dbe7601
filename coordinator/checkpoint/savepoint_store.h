// Savepoints on disk (docs/savepoints.md): a self-contained, movable copy of one completed
// checkpoint, written by STOP JOB ... WITH SAVEPOINT and read by a job started with
// execution.savepoint.path. Layout:
//   <state.savepoints.dir>/savepoint-<first 6 digits of the job id>-<12 random hex digits>/
//     _metadata                the checkpoint's metadata (same format and checksum) with the
//                              operators it holds state for; file paths relative to this directory
//     shared/..., chk-<n>/...  copies of every state file the checkpoint references
// Nothing in it points outside it, so the directory can be moved or copied elsewhere as a whole.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/checkpoint/checkpoint_store.h"
#include "eddy/v1/checkpoint.pb.h"

namespace eddy {

// Copies the files of `checkpoint` (completed, in `from`) into a new savepoint directory under
// `savepoints_root`, verifying each file's size and checksum as it goes, then writes its metadata
// with `operators` and `max_parallelism`. Returns the savepoint's directory. On failure nothing
// of it is left behind; the error names the file or directory.
absl::StatusOr<std::string> WriteSavepoint(
    const CheckpointStore& from, const v1::CheckpointMetadata& checkpoint,
    const std::vector<v1::OperatorStateDescriptor>& operators, int max_parallelism,
    const std::string& savepoints_root);

struct LoadedSavepoint {
  std::string dir;  // absolute, without file://
  v1::CheckpointMetadata metadata;
};

// Reads the savepoint at `path` (its directory or its _metadata file, an absolute path or a
// file:// URL) and verifies its metadata and every state file it references. An error names the
// savepoint and what is wrong (missing, not a savepoint, corrupt, a file missing or damaged).
absl::StatusOr<LoadedSavepoint> LoadSavepoint(const std::string& path);

// `path` without a file:// prefix; an error for another scheme or a relative path, naming `key`.
absl::StatusOr<std::string> LocalDirectoryOf(const std::string& path, const std::string& key);

}  // namespace eddy
