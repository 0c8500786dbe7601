// WatermarkAssigner: a table's WATERMARK FOR in each source subtask. It passes rows through and,
// after each batch, emits the highest value of the watermark expression seen so far when that
// advanced. With an idle timeout it declares the subtask idle when no row arrived for that long
// (table.exec.source.idle-timeout), so downstream windows do not wait for it.
//
// Chained after a source that reads splits (Kafka partitions, see Source::num_splits), it keeps one
// watermark per split, as Flink's per-split watermarks: the subtask's watermark is the minimum over
// splits that are neither idle (no row for the split's idle timeout) nor finished, so a partition
// that is behind holds event time back and a quiet one stops doing so once idle.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "common/expr/expr.h"
#include "worker/operators/operator.h"

namespace eddy {

class WatermarkAssignerOperator final : public Operator {
 public:
  // `watermark`: a TIMESTAMP expression over the input columns.
  WatermarkAssignerOperator(ExprPtr watermark, std::chrono::milliseconds idle_timeout)
      : watermark_(std::move(watermark)), idle_timeout_(idle_timeout) {}

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override;
  // A watermark from upstream is ignored (this node defines event time), except the end of time,
  // which a source task emits when STOP JOB ... WITH DRAIN drains the job: passed on, as Flink's
  // WatermarkAssignerOperator does, so that every window fires.
  absl::Status ProcessWatermark(const Watermark& w) override;

  int64_t current() const { return current_.millis; }

 private:
  struct Split {
    int64_t max = kMinWatermark;
    bool idle = false;
    std::chrono::steady_clock::time_point last_row;
  };
  bool split_mode() const;
  // The per-split watermark: emitted when it advanced or went idle or active.
  absl::Status UpdateFromSplits(std::chrono::steady_clock::time_point now);

  ExprPtr watermark_;
  std::chrono::milliseconds idle_timeout_;
  Watermark current_;
  std::chrono::steady_clock::time_point last_row_;
  const Source* source_ = nullptr;
  std::vector<Split> splits_;
  std::chrono::steady_clock::time_point opened_;
};

}  // namespace eddy
