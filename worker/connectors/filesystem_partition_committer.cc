#include "worker/connectors/filesystem_partition_committer.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/base/status_macros.h"
#include "common/connectors/partition_commit_info.h"
#include "common/connectors/partition_path.h"
#include "worker/connectors/filesystem_commit_policy.h"
#include "worker/connectors/filesystem_table.h"

namespace eddy {
namespace {

constexpr char kPendingPartitions[] = "pending-partitions";
constexpr char kReports[] = "reports";
constexpr char kWatermarks[] = "watermarks";  // "<checkpoint> <watermark>" per line
constexpr char kCommitWatermark[] = "commit-watermark";

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

absl::StatusOr<std::unique_ptr<FilesystemPartitionCommitter>> FilesystemPartitionCommitter::Create(
    const v1::PartitionCommitter& spec, const std::vector<std::string>& allowed_dirs,
    ProcessingClock clock) {
  auto error = [&](absl::string_view message) {
    return absl::InvalidArgumentError(
        absl::StrCat("partition committer for table '", spec.table_name(), "': ", message));
  };
  const std::map<std::string, std::string> options(spec.options().begin(), spec.options().end());
  auto table = ReadFilesystemTable(spec.table_name(), options, allowed_dirs);
  if (!table.ok()) return error(table.status().message());
  std::optional<PartitionTimeExtractor> extractor;
  if (table->options.commit_trigger == FilesystemOptions::CommitTrigger::kPartitionTime) {
    auto created = PartitionTimeExtractor::Create(
        table->options.time_extractor_pattern, table->options.time_extractor_formatter,
        table->options.watermark_time_zone,
        {spec.partition_columns().begin(), spec.partition_columns().end()});
    if (!created.ok()) return error(created.status().message());
    extractor = *std::move(created);
  }
  PartitionCommitTrigger trigger(table->options.commit_trigger, table->options.commit_delay_ms,
                                 std::move(extractor));
  std::unique_ptr<FilesystemPartitionCommitter> committer(new FilesystemPartitionCommitter(
      spec.table_name(), table->options, table->path, std::move(trigger),
      clock ? std::move(clock) : ProcessingClock(NowMillis)));
  committer->commit_watermark_ = kMinWatermark;
  return committer;
}

absl::Status FilesystemPartitionCommitter::Error(absl::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrCat("partition committer for table '", table_name_, "': ", message));
}

absl::Status FilesystemPartitionCommitter::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  if (finished_) {
    // Its writers end their output only after their last report: one after it would be lost.
    return Error("a writer reported after its end of input");
  }
  if (batch.num_columns() != PartitionCommitInfoSchema().size()) {
    return Error(absl::StrCat("a commit report has ", batch.num_columns(), " columns"));
  }
  const Column& checkpoints = batch.column(kCommitInfoCheckpoint);
  const Column& subtasks = batch.column(kCommitInfoSubtasks);
  const Column& subtask = batch.column(kCommitInfoSubtask);
  const Column& partitions = batch.column(kCommitInfoPartition);
  const Column& marks = batch.column(kCommitInfoWatermark);
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (!partitions.IsNull(r)) {
      const std::string_view partition = partitions.GetString(r);
      if (!IsPartitionPath(partition)) {
        return Error(absl::StrCat("a writer reported a partition '", std::string(partition),
                                  "' that this table cannot have"));
      }
      trigger_.AddPartition(std::string(partition), clock_());
      continue;
    }
    // The closing row of a writer's report.
    const int64_t id = checkpoints.Get<int64_t>(r);
    if (id != kEndOfInputReport) {
      const int64_t mark = marks.IsNull(r) ? kMinWatermark : marks.Get<int64_t>(r);
      auto [it, added] = watermarks_.try_emplace(id, mark);
      if (!added) it->second = std::min(it->second, mark);
    }
    auto complete = tracker_.Add(id, static_cast<int>(subtask.Get<int64_t>(r)),
                                 static_cast<int>(subtasks.Get<int64_t>(r)));
    if (!complete.ok()) return Error(complete.status().message());
    if (complete->has_value()) RETURN_IF_ERROR(OnCheckpointReported(**complete));
  }
  return absl::OkStatus();
}

absl::Status FilesystemPartitionCommitter::OnCheckpointReported(int64_t checkpoint_id) {
  if (checkpoint_id == kEndOfInputReport) return Commit(trigger_.TakeAll());
  for (auto it = watermarks_.begin(); it != watermarks_.end() && it->first <= checkpoint_id;) {
    if (it->first == checkpoint_id) commit_watermark_ = std::max(commit_watermark_, it->second);
    it = watermarks_.erase(it);
  }
  auto due = trigger_.TakeCommittable(commit_watermark_, clock_());
  if (!due.ok()) return Error(due.status().message());
  return Commit(*due);
}

absl::Status FilesystemPartitionCommitter::Commit(const std::vector<std::string>& partitions) {
  for (const std::string& partition : partitions) {
    absl::Status s = RunPartitionCommitPolicies(options_, absl::StrCat(dir_, "/", partition));
    if (!s.ok()) return Error(s.message());
    ++partitions_committed_;
  }
  return absl::OkStatus();
}

absl::Status FilesystemPartitionCommitter::ProcessWatermark(const Watermark& watermark) {
  // Nothing is downstream; the writers' reports carry the watermarks the trigger needs.
  return absl::OkStatus();
}

absl::Status FilesystemPartitionCommitter::Finish() {
  finished_ = true;
  // Every writer ended, after its last report: everything reported is published.
  return Commit(trigger_.TakeAll());
}

absl::Status FilesystemPartitionCommitter::EndAtStop() {
  if (commit_watermark_ != kMaxWatermark) return absl::OkStatus();
  return Commit(trigger_.TakeAll());
}

absl::Status FilesystemPartitionCommitter::SnapshotState(int64_t checkpoint_id,
                                                         OperatorSnapshot* out) {
  if (!trigger_.empty()) out->Put(kPendingPartitions, trigger_.Encode());
  out->Put(kReports, tracker_.Encode());
  std::string marks;
  for (const auto& [id, mark] : watermarks_) absl::StrAppend(&marks, id, " ", mark, "\n");
  if (!marks.empty()) out->Put(kWatermarks, marks);
  out->PutInt64(kCommitWatermark, commit_watermark_);
  return absl::OkStatus();
}

absl::Status FilesystemPartitionCommitter::RestoreState(const OperatorSnapshot& snapshot) {
  if (std::optional<std::string_view> pending = snapshot.Get(kPendingPartitions)) {
    absl::Status s = trigger_.Decode(*pending);
    if (!s.ok()) return Error(s.message());
  }
  if (std::optional<std::string_view> reports = snapshot.Get(kReports)) {
    auto tracker = CommitReportTracker::Decode(*reports);
    if (!tracker.ok()) return Error(tracker.status().message());
    tracker_ = *std::move(tracker);
  }
  if (std::optional<std::string_view> marks = snapshot.Get(kWatermarks)) {
    for (absl::string_view line :
         absl::StrSplit(absl::string_view(marks->data(), marks->size()), '\n', absl::SkipEmpty())) {
      std::vector<absl::string_view> parts = absl::StrSplit(line, ' ');
      int64_t id = 0, mark = 0;
      if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &id) ||
          !absl::SimpleAtoi(parts[1], &mark)) {
        return Error(
            absl::StrCat("the restored watermarks hold a bad line '", std::string(line), "'"));
      }
      watermarks_[id] = mark;
    }
  }
  ASSIGN_OR_RETURN(std::optional<int64_t> commit_watermark, snapshot.GetInt64(kCommitWatermark));
  if (commit_watermark.has_value()) commit_watermark_ = *commit_watermark;
  return absl::OkStatus();
}

}  // namespace eddy
