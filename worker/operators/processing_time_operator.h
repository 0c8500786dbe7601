// ProcessingTimeOperator: runs an event-time operator (a window aggregate, an OVER aggregation, an
// interval join, a deduplication, a window Top-N) in processing time, for a plan node whose time
// attribute is a PROCTIME() column. Each input row's time column is set to the operator's wall
// clock when the row arrives (Flink assigns processing time where the operator runs), and the
// clock, not the input's watermarks, drives the inner operator's timers: after every input batch
// and every tick (~10 ms) the inner operator sees the watermark clock - 1, so a window fires as the
// wall clock passes its end. The clock never goes back (the largest reading so far), so no row is
// ever late. The input's own watermarks go on downstream unchanged; the inner operator's are
// dropped (its times are not event times). Everything else (state, checkpoints, finish) is the
// inner operator's.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/operator.h"

namespace eddy {

// Milliseconds since the epoch, UTC.
int64_t WallClockMillis();

class ProcessingTimeOperator : public Operator {
 public:
  // `time_columns[i]`: the TIMESTAMP column of input i that reads the clock (-1: none, e.g. a
  // window Top-N whose windows were assigned upstream). `clock` is injectable for tests.
  ProcessingTimeOperator(std::unique_ptr<Operator> inner, std::vector<int> time_columns,
                         std::function<int64_t()> clock = WallClockMillis);

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override;
  absl::Status Finish() override;
  absl::Status Close() override;
  void Abort(const absl::Status& cause) override;
  absl::Status PrepareSnapshotPreBarrier(int64_t checkpoint_id) override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  absl::Status RestoreRescaledState(std::span<const OperatorSnapshot> snapshots) override;
  absl::Status NotifyCheckpointComplete(int64_t checkpoint_id) override;
  bool HasUncommittedOutput() const override;
  absl::Status ForwardBarrier(int64_t checkpoint_id) override;
  uint64_t late_rows_dropped() const override { return inner_->late_rows_dropped(); }
  uint64_t state_bytes_in_memory() const override { return inner_->state_bytes_in_memory(); }

  Operator* inner() const { return inner_.get(); }

 private:
  // Passes the inner operator's rows on and drops its watermarks.
  class RowsOnly : public Output {
   public:
    explicit RowsOnly(ProcessingTimeOperator* owner) : owner_(owner) {}
    absl::Status Emit(const ChangelogBatch& batch) override { return owner_->Emit(batch); }
    absl::Status EmitWatermark(const Watermark&) override { return absl::OkStatus(); }

   private:
    ProcessingTimeOperator* owner_;
  };

  // The clock now, never earlier than a previous reading.
  int64_t Now();
  // Lets the inner operator's timers catch up with the clock.
  absl::Status AdvanceInnerTime();

  std::unique_ptr<Operator> inner_;
  std::vector<int> time_columns_;
  std::function<int64_t()> clock_;
  RowsOnly rows_only_{this};
  int64_t last_ms_ = INT64_MIN;
  int64_t inner_watermark_ms_ = INT64_MIN;
};

}  // namespace eddy
