// A job's checkpoints on disk, as the coordinator sees them (docs/fault-tolerance.md, "Layout"):
//   <checkpoints dir>/<job id>/chk-<n>/_metadata   written last, atomically, with a checksum
//   <checkpoints dir>/<job id>/chk-<n>/...          files of checkpoint n alone
//   <checkpoints dir>/<job id>/shared/...           files later checkpoints may reference again
// The store writes and reads the metadata, finds the latest checkpoint that can be trusted, and
// drops checkpoints beyond the number to retain together with those of their shared files that no
// retained or pending checkpoint references. Workers write the state files themselves.
//
// A shared file is deleted only when a checkpoint that referenced it is dropped and nothing kept
// references it. A subtask that has not yet heard that a newer checkpoint completed may still
// reference such a file in its next snapshot; MissingFiles() catches that before the checkpoint
// could complete, and that checkpoint is declined rather than completed with a hole.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/checkpoint.pb.h"

namespace eddy {

class CheckpointStore {
 public:
  // `job_dir` is <checkpoints dir>/<job id>.
  explicit CheckpointStore(std::string job_dir) : job_dir_(std::move(job_dir)) {}

  const std::string& job_dir() const { return job_dir_; }
  std::string CheckpointDir(int64_t checkpoint_id) const;

  // Creates the job's directory (and shared/) and checks that it can be written: an error names
  // the directory and the reason.
  absl::Status Prepare() const;
  // Writes chk-<n>/_metadata atomically (temporary file, fsync, rename, fsync of the directory):
  // after a crash it is either absent or whole.
  absl::Status WriteMetadata(const v1::CheckpointMetadata& metadata) const;
  // Reads and verifies one checkpoint's metadata; an error names the file and what is wrong
  // (missing, truncated, bad checksum, unreadable).
  absl::StatusOr<v1::CheckpointMetadata> ReadMetadata(int64_t checkpoint_id) const;
  // Checkpoint ids that have a metadata file, newest first.
  std::vector<int64_t> CompletedIds() const;
  // Checks every state file `metadata` references against the size and CRC-32 recorded for it; an
  // error names the first file that is missing, of another size or fails its checksum.
  absl::Status VerifyFiles(const v1::CheckpointMetadata& metadata) const;
  // The newest checkpoint whose metadata and state files verify, skipping (and reporting in
  // `skipped`) those that do not; nullopt when there is none.
  std::optional<v1::CheckpointMetadata> LatestValid(std::vector<std::string>* skipped) const;

  // Keeps the newest `retain` completed checkpoints and deletes the older ones with their shared
  // files that neither a retained checkpoint nor `in_use` (paths relative to the job directory:
  // the files pending checkpoints' acknowledgements name) references.
  absl::Status Retain(int retain, const std::set<std::string>& in_use) const;
  // Deletes the directory of checkpoint `checkpoint_id`, which did not complete, and those of
  // `written` (the files its acknowledgements named) that nothing retained or in use references.
  absl::Status Discard(int64_t checkpoint_id, const std::set<std::string>& written,
                       const std::set<std::string>& in_use) const;
  // The files `metadata` references that are not on disk (relative paths).
  std::vector<std::string> MissingFiles(const v1::CheckpointMetadata& metadata) const;
  // Deletes the job's whole directory (the job finished or was cancelled).
  absl::Status DeleteAll() const;

  // The metadata file format alone, for savepoints too: writes `<dir>/_metadata` atomically, and
  // reads and verifies the file at `path` (errors name it; `what` says what it is in messages).
  static absl::Status WriteMetadataFile(const std::string& dir,
                                        const v1::CheckpointMetadata& metadata);
  static absl::StatusOr<v1::CheckpointMetadata> ReadMetadataFile(const std::string& path,
                                                                 const std::string& what);
  static constexpr char kMetadataName[] = "_metadata";

  // Whether `path` names something inside the job directory (relative, no `.` or `..` parts): the
  // only paths acknowledgements may name, and the only ones the store deletes.
  static bool IsPathInJobDir(const std::string& path);
  // Every file path (relative to the job directory) a checkpoint's metadata references.
  static std::set<std::string> ReferencedFiles(const v1::CheckpointMetadata& metadata);

 private:
  // Deletes those of `candidates` that none of the retained checkpoints nor `in_use` references.
  absl::Status DeleteUnreferenced(const std::set<std::string>& candidates,
                                  const std::set<std::string>& in_use) const;

  std::string job_dir_;
};

}  // namespace eddy
