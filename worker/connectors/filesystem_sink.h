// The filesystem connector as an append-only sink (Flink's FileSink for row formats). Each subtask
// writes its rows into a series of part files in the table's directory (created if missing), or,
// for a partitioned table (PARTITIONED BY), in the partition directory `k1=v1/k2=v2` each row's
// partition values name (common/connectors/partition_path.h; the partition columns are not written
// into the files), one open part per partition:
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
// - With checkpointing (exactly-once): the current parts also roll at every checkpoint, and the
//   parts pending at checkpoint n are published when n completes (NotifyCheckpointComplete). The
//   snapshot lists the pending parts, so a restore publishes those of the restored checkpoint and
//   removes every other leftover of its subtask: no row is published twice, none of a checkpoint
//   that never completed. When the input ends, the last parts wait for the next checkpoint to
//   complete (HasUncommittedOutput), as Flink's final checkpoint does. A failed subtask keeps its
//   pending parts for the restore.
// Partition commit (sink.partition-commit.*): with TableSink.report_partition_commits (a
// partitioned table with a commit policy, outside batch mode) the sink commits nothing itself: when
// checkpoint n completes and its parts up to n are published, and when its input ended and its
// last parts are published, it emits a report of the partitions it published since its last one
// (common/connectors/partition_commit_info.h) to the table's single PartitionCommitter
// (filesystem_partition_committer.h), which commits a partition once every sink subtask published
// its parts of it. Otherwise (batch mode, a table without partitions) it commits on its own: once
// parts of a partition are published and, with trigger 'process-time',
// `sink.partition-commit.delay` has passed since this subtask first wrote to it, or, with trigger
// 'partition-time', the watermark of the checkpoint that published them passed the partition's
// time plus the delay, or when the input ended and everything is published, it runs the policies
// (filesystem_commit_policy.h). The partitions waiting for their commit or report are part of the
// snapshot, so a restore still commits or reports them.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/partition_time_extractor.h"
#include "eddy/v1/plan.pb.h"
#include "worker/connectors/file_format.h"
#include "worker/connectors/rolling_policy.h"
#include "worker/operators/operator.h"

namespace eddy {

class FilesystemSink : public Operator {
 public:
  // `schema`: the columns received (their names are JSON field names). Checks the directory
  // against `allowed_dirs` (canonical, see common/base/allowed_paths.h).
  static absl::StatusOr<std::unique_ptr<FilesystemSink>> Create(
      const v1::TableSink& sink, Schema schema, const std::vector<std::string>& allowed_dirs);
  ~FilesystemSink() override;

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override;
  absl::Status Finish() override;
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  absl::Status Close() override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  absl::Status NotifyCheckpointComplete(int64_t checkpoint_id) override;
  bool HasUncommittedOutput() const override {
    return !rolled_.empty() || !pending_.empty() || (!report_ && !to_commit_.empty());
  }

  // The canonical directory the parts go to (after Open).
  const std::string& directory() const { return dir_; }

 private:
  using Clock = std::chrono::steady_clock;

  // The open part of one partition ("" when the table is not partitioned).
  struct Bucket {
    std::string partition;
    int fd = -1;
    int64_t part_number = 0;
    std::string part_path;
    int64_t part_bytes = 0;  // written to the file and still buffered
    Clock::time_point created, last_write;
    std::string buffer;
  };

  FilesystemSink() = default;
  absl::Status Error(absl::string_view message) const;
  std::string PartName(int64_t number) const;  // the published name
  std::string DirOf(const std::string& partition) const;
  absl::Status StartPart(Bucket& bucket);
  absl::Status Write(const std::string& partition, const ChangelogBatch& rows);
  absl::Status Flush(Bucket& bucket);
  // Syncs, closes and renames the bucket's part to its pending name, and forgets the bucket.
  absl::Status Roll(const std::string& partition);
  absl::Status RollAll();
  // `pending_names` are relative to the table's directory.
  absl::Status Publish(const std::vector<std::string>& pending_names);
  // Commits the published partitions whose delay passed (all of them with `all`).
  // Without TableSink.report_partition_commits only.
  absl::Status CommitPartitions(bool all);
  // Removes this subtask's hidden files (in-progress and pending parts of any attempt): after a
  // restore published what it names, or else once, before the subtask's first write.
  absl::Status RemoveLeftovers();
  absl::Status RemoveLeftoversOnce();
  void Discard();  // closes and removes the in-progress parts
  // TableSink.report_partition_commits: emits the report of `checkpoint_id` (kEndOfInputReport:
  // the last) naming the partitions published since the last report (to_commit_), and clears them.
  absl::Status Report(int64_t checkpoint_id);

  std::string table_name_;
  FormatOptions format_;
  FilesystemOptions options_;
  Schema schema_;
  std::vector<int> partition_keys_;        // input columns
  std::vector<std::string> escaped_keys_;  // their names as directory names hold them
  std::vector<int> data_columns_;          // input columns written into the files
  std::vector<std::string> allowed_dirs_;
  RollingPolicy policy_;
  std::unique_ptr<RecordEncoder> encoder_;

  std::string dir_;
  std::string job_id_;
  int subtask_ = 0;
  int attempt_ = 0;
  bool checkpointing_ = false;
  bool commit_at_job_end_ = false;
  bool report_ = false;  // TableSink.report_partition_commits
  int parallelism_ = 1;
  bool leftovers_removed_ = false;
  bool finished_ = false;

  int64_t next_part_ = 0;
  std::map<std::string, Bucket> buckets_;  // by partition; only those with an open part
  Clock::time_point next_check_;

  std::vector<std::string> rolled_;  // pending names rolled since the last snapshot
  std::map<int64_t, std::vector<std::string>> pending_;  // by the checkpoint that covers them
  // Partition commit by this subtask (without report_): when it first wrote to each partition.
  std::map<std::string, Clock::time_point> first_write_;
  // The partitions with published parts not committed yet (with report_: not reported yet; the
  // committer times them with its own clock, as Flink's ProcTimeCommitTrigger).
  std::set<std::string> to_commit_;
  // The 'partition-time' trigger: the partition times, the watermark that reached this subtask,
  // the watermark each checkpoint was taken at (a partition commits when the checkpoint that
  // published it completes and that checkpoint's watermark passed its time plus the delay, as
  // Flink's PartitionTimeCommitTrigger), and the watermark of the last completed checkpoint.
  std::optional<PartitionTimeExtractor> time_extractor_;
  int64_t watermark_ = kMinWatermark;
  std::map<int64_t, int64_t> checkpoint_watermarks_;
  int64_t commit_watermark_ = kMinWatermark;

  // Per-batch scratch: each row's partition and the rows of each partition.
  std::string path_scratch_;
  std::unordered_map<std::string, std::vector<uint32_t>> rows_by_partition_;
  std::vector<std::string> partition_order_;
};

}  // namespace eddy
