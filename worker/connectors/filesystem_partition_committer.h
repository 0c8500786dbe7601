// The single partition committer of a partitioned filesystem sink with a commit policy (Flink's
// PartitionCommitter), one subtask downstream of all the sink's writer subtasks. It reads their
// reports (common/connectors/partition_commit_info.h): a writer reports checkpoint n once n
// completed and its parts up to n are published. When every writer reported n (or ended), every
// part of every partition written before n's barrier is published, so it commits the partitions
// its trigger finds due (filesystem_commit_trigger.h: 'process-time' times a partition by this
// committer's clock from its first report, as Flink's ProcTimeCommitTrigger, never by the writers')
// by running the table's policies
// (filesystem_commit_policy.h). When every writer ended (their last parts published), or its input
// ends, it commits every partition still pending. The pending partitions, the reports of
// incomplete checkpoints and their watermarks are its checkpointed state, so a restore still
// commits them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/filesystem_connector.h"
#include "eddy/v1/plan.pb.h"
#include "worker/connectors/filesystem_commit_tracker.h"
#include "worker/connectors/filesystem_commit_trigger.h"
#include "worker/operators/operator.h"

namespace eddy {

class FilesystemPartitionCommitter : public Operator {
 public:
  // The committer's processing time (epoch ms), which the 'process-time' trigger reads.
  using ProcessingClock = std::function<int64_t()>;

  // Checks the table's directory against `allowed_dirs` (canonical). Without `clock`, the system
  // clock.
  static absl::StatusOr<std::unique_ptr<FilesystemPartitionCommitter>> Create(
      const v1::PartitionCommitter& spec, const std::vector<std::string>& allowed_dirs,
      ProcessingClock clock = nullptr);

  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  absl::Status Finish() override;
  // The job stops after a savepoint: what the reports made due is committed already; after STOP
  // JOB ... WITH DRAIN (the savepoint's watermark is the end of time, as Flink's drain ends every
  // input) every pending partition is complete and committed too, the others wait for a restore.
  absl::Status EndAtStop() override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;

  // Partitions committed so far (metrics, tests).
  int64_t partitions_committed() const { return partitions_committed_; }

 private:
  FilesystemPartitionCommitter(std::string table_name, FilesystemOptions options, std::string dir,
                               PartitionCommitTrigger trigger, ProcessingClock clock)
      : table_name_(std::move(table_name)),
        options_(std::move(options)),
        dir_(std::move(dir)),
        trigger_(std::move(trigger)),
        clock_(std::move(clock)) {}
  absl::Status Error(absl::string_view message) const;
  // Every writer reported `checkpoint_id`: commits what its trigger finds due.
  absl::Status OnCheckpointReported(int64_t checkpoint_id);
  absl::Status Commit(const std::vector<std::string>& partitions);

  std::string table_name_;
  FilesystemOptions options_;
  std::string dir_;  // canonical
  PartitionCommitTrigger trigger_;
  ProcessingClock clock_;
  CommitReportTracker tracker_;
  // The smallest watermark the writers reported with each incomplete checkpoint, and the newest
  // complete checkpoint's (the 'partition-time' trigger compares partitions with it).
  std::map<int64_t, int64_t> watermarks_;
  int64_t commit_watermark_;
  int64_t partitions_committed_ = 0;
  bool finished_ = false;
};

}  // namespace eddy
