// The filesystem connector as an append-only sink (Flink's FileSink for row formats). Each subtask
// writes its rows into a series of part files in the table's directory (created if missing):
//   .part-<job id>-<subtask>-<n>.<ext>.inprogress.<attempt>  being written
//   .part-<job id>-<subtask>-<n>.<ext>.pending.<attempt>     rolled (synced and closed),
//   unpublished part-<job id>-<subtask>-<n>.<ext>                         published (renamed into
//   place)
// Readers skip hidden files, so they see a part whole or not at all. In batch mode
// (TableSink.commit_at_job_end) all of this happens inside the hidden staging directory
// BatchStagingDir(path, job, attempt), and the coordinator publishes the parts of the attempt that
// finished when the job ends (coordinator/service/batch_file_commit.h). A part rolls by the table's
// RollingPolicy; a subtask that got no rows writes no file.
// - Without checkpointing, every part is published when the input ends. A subtask that fails or is
//   cancelled first removes its files and publishes none.
// - With checkpointing (exactly-once): the current part also rolls at every checkpoint, and the
//   parts pending at checkpoint n are published when n completes (NotifyCheckpointComplete). The
//   snapshot lists the pending parts, so a restore publishes those of the restored checkpoint and
//   removes every other leftover of its subtask: no row is published twice, none of a checkpoint
//   that never completed. When the input ends, the last part waits for the next checkpoint to
//   complete (HasUncommittedOutput), as Flink's final checkpoint does. A failed subtask keeps its
//   pending parts for the restore.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/plan.pb.h"
#include "worker/connectors/file_format.h"
#include "worker/connectors/rolling_policy.h"
#include "worker/operators/operator.h"

namespace eddy {

class FilesystemSink : public Operator {
 public:
  // `schema`: the columns written (their names are JSON field names). Checks the directory
  // against `allowed_dirs` (canonical, see common/base/allowed_paths.h).
  static absl::StatusOr<std::unique_ptr<FilesystemSink>> Create(
      const v1::TableSink& sink, Schema schema, const std::vector<std::string>& allowed_dirs);
  ~FilesystemSink() override;

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override;
  absl::Status Finish() override;
  absl::Status Close() override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  absl::Status NotifyCheckpointComplete(int64_t checkpoint_id) override;
  bool HasUncommittedOutput() const override { return !rolled_.empty() || !pending_.empty(); }

  // The canonical directory the parts go to (after Open).
  const std::string& directory() const { return dir_; }

 private:
  using Clock = std::chrono::steady_clock;

  FilesystemSink() = default;
  absl::Status Error(absl::string_view message) const;
  std::string PartName(int64_t number) const;  // the published name
  absl::Status StartPart();
  absl::Status Flush();
  // Syncs, closes and renames the current part to its pending name (none open: nothing to do).
  absl::Status Roll();
  absl::Status Publish(const std::vector<std::string>& pending_names);
  // Removes this subtask's hidden files (in-progress and pending parts of any attempt): after a
  // restore published what it names, or else once, before the subtask's first write.
  absl::Status RemoveLeftovers();
  absl::Status RemoveLeftoversOnce();
  void Discard();  // closes and removes the in-progress part

  std::string table_name_;
  FormatOptions format_;
  Schema schema_;
  std::vector<std::string> allowed_dirs_;
  RollingPolicy policy_;
  std::unique_ptr<RecordEncoder> encoder_;

  std::string dir_;
  std::string job_id_;
  int subtask_ = 0;
  int attempt_ = 0;
  bool checkpointing_ = false;
  bool commit_at_job_end_ = false;
  bool leftovers_removed_ = false;

  int64_t next_part_ = 0;
  // The part being written: fd_ >= 0.
  int fd_ = -1;
  int64_t part_number_ = 0;
  std::string part_path_;
  int64_t part_bytes_ = 0;  // written to the file and still buffered
  Clock::time_point part_created_, part_last_write_;
  Clock::time_point next_check_;
  std::string buffer_;

  std::vector<std::string> rolled_;  // pending names rolled since the last snapshot
  std::map<int64_t, std::vector<std::string>> pending_;  // by the checkpoint that covers them
};

}  // namespace eddy
