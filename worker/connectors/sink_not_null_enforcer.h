// The sink NOT NULL enforcer (Flink's ConstraintEnforcer for table.exec.sink.not-null-enforcer):
// wraps a table sink and checks, once per batch over the null bitmaps of the table's NOT NULL
// columns, that no row writes a null into one. ERROR fails the task with Flink's message; DROP
// passes on only the rows without such a null (and counts the others). Every other call goes to
// the wrapped sink unchanged, so any connector's sink can be wrapped.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "worker/operators/operator.h"

namespace eddy {

enum class NotNullEnforcement { kError, kDrop };

struct NotNullColumn {
  int index = 0;     // input column
  std::string name;  // the table's column name, for the error
};

class SinkNotNullEnforcer final : public Operator {
 public:
  SinkNotNullEnforcer(std::unique_ptr<Operator> sink, std::vector<NotNullColumn> columns,
                      NotNullEnforcement enforcement);

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status Finish() override { return sink_->Finish(); }
  absl::Status ProcessWatermark(const Watermark& watermark) override {
    return sink_->ProcessWatermark(watermark);
  }
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override {
    return sink_->OnTick(now);
  }
  absl::Status Close() override { return sink_->Close(); }
  void Abort(const absl::Status& cause) override { sink_->Abort(cause); }
  absl::Status PrepareSnapshotPreBarrier(int64_t checkpoint_id) override {
    return sink_->PrepareSnapshotPreBarrier(checkpoint_id);
  }
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override {
    return sink_->SnapshotState(checkpoint_id, out);
  }
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override {
    return sink_->RestoreState(snapshot);
  }
  absl::Status RestoreRescaledState(std::span<const OperatorSnapshot> snapshots) override {
    return sink_->RestoreRescaledState(snapshots);
  }
  absl::Status NotifyCheckpointComplete(int64_t checkpoint_id) override {
    return sink_->NotifyCheckpointComplete(checkpoint_id);
  }
  bool HasUncommittedOutput() const override { return sink_->HasUncommittedOutput(); }
  absl::Status ForwardBarrier(int64_t checkpoint_id) override {
    return sink_->ForwardBarrier(checkpoint_id);
  }
  uint64_t late_rows_dropped() const override { return sink_->late_rows_dropped(); }
  uint64_t state_bytes_in_memory() const override { return sink_->state_bytes_in_memory(); }

  // Rows DROP left out because a NOT NULL column was null in them; safe to read from any thread.
  uint64_t null_rows_dropped() const { return null_rows_dropped_.load(std::memory_order_relaxed); }
  const Operator& sink() const { return *sink_; }

 private:
  // Flink's error for a null in column `name`.
  static absl::Status NullValueError(const std::string& name);

  std::unique_ptr<Operator> sink_;
  std::vector<NotNullColumn> columns_;
  NotNullEnforcement enforcement_;
  ChangelogBatch kept_;  // DROP: the rows without nulls of a batch that had some, reused
  std::atomic<uint64_t> null_rows_dropped_{0};
};

}  // namespace eddy
