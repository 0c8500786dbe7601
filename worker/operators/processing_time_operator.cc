#include "worker/operators/processing_time_operator.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "common/base/status_macros.h"
#include "worker/operators/watermark.h"

namespace eddy {

int64_t WallClockMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ProcessingTimeOperator::ProcessingTimeOperator(std::unique_ptr<Operator> inner,
                                               std::vector<int> time_columns,
                                               std::function<int64_t()> clock)
    : inner_(std::move(inner)), time_columns_(std::move(time_columns)), clock_(std::move(clock)) {
  inner_->set_output(&rows_only_);
}

int64_t ProcessingTimeOperator::Now() {
  last_ms_ = std::max(last_ms_, clock_());
  return last_ms_;
}

absl::Status ProcessingTimeOperator::AdvanceInnerTime() {
  const int64_t watermark = Now() - 1;
  if (watermark <= inner_watermark_ms_) return absl::OkStatus();
  inner_watermark_ms_ = watermark;
  return inner_->ProcessWatermark(Watermark{watermark});
}

absl::Status ProcessingTimeOperator::Open(const OperatorContext& ctx) { return inner_->Open(ctx); }

absl::Status ProcessingTimeOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  const int column = input < static_cast<int>(time_columns_.size()) ? time_columns_[input] : -1;
  if (column < 0 || batch.empty()) {
    RETURN_IF_ERROR(inner_->Process(input, batch));
    return AdvanceInnerTime();
  }
  // The row's time is the clock when it arrives: a copy of the batch with that column replaced.
  const int64_t now = Now();
  std::vector<Column> columns = batch.columns();
  Column clock(columns[column].type());
  clock.Reserve(batch.num_rows());
  for (size_t r = 0; r < batch.num_rows(); ++r) clock.Append<int64_t>(now);
  columns[column] = std::move(clock);
  ChangelogBatch stamped(std::move(columns), batch.kinds());
  RETURN_IF_ERROR(inner_->Process(input, stamped));
  return AdvanceInnerTime();
}

absl::Status ProcessingTimeOperator::ProcessWatermark(const Watermark& watermark) {
  return EmitWatermark(watermark);
}

absl::Status ProcessingTimeOperator::OnTick(std::chrono::steady_clock::time_point now) {
  RETURN_IF_ERROR(AdvanceInnerTime());
  return inner_->OnTick(now);
}

absl::Status ProcessingTimeOperator::Finish() { return inner_->Finish(); }
absl::Status ProcessingTimeOperator::Close() { return inner_->Close(); }
void ProcessingTimeOperator::Abort(const absl::Status& cause) { inner_->Abort(cause); }

absl::Status ProcessingTimeOperator::PrepareSnapshotPreBarrier(int64_t checkpoint_id) {
  return inner_->PrepareSnapshotPreBarrier(checkpoint_id);
}
absl::Status ProcessingTimeOperator::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  return inner_->SnapshotState(checkpoint_id, out);
}
absl::Status ProcessingTimeOperator::RestoreState(const OperatorSnapshot& snapshot) {
  return inner_->RestoreState(snapshot);
}
absl::Status ProcessingTimeOperator::RestoreRescaledState(
    std::span<const OperatorSnapshot> snapshots) {
  return inner_->RestoreRescaledState(snapshots);
}
absl::Status ProcessingTimeOperator::NotifyCheckpointComplete(int64_t checkpoint_id) {
  return inner_->NotifyCheckpointComplete(checkpoint_id);
}
bool ProcessingTimeOperator::HasUncommittedOutput() const { return inner_->HasUncommittedOutput(); }
absl::Status ProcessingTimeOperator::ForwardBarrier(int64_t checkpoint_id) {
  return inner_->ForwardBarrier(checkpoint_id);
}

}  // namespace eddy
