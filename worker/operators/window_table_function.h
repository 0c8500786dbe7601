// WindowTableFunction: a window TVF on its own (SELECT ... FROM TABLE(TUMBLE/HOP/CUMULATE(...))
// without a window GROUP BY). Each input row comes out once per window it belongs to, with
// window_start, window_end and window_time (end - 1 ms, the new time attribute) appended, as
// Flink's WindowTableFunction; windows count on `clock` (window_clock.h). Stateless; a row whose
// windows have all passed the watermark is late: dropped and counted.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/operators/operator.h"
#include "worker/operators/window_assigner.h"
#include "worker/operators/window_clock.h"

namespace eddy {

class WindowTableFunctionOperator final : public Operator {
 public:
  // Checks the window and the time column (WindowShape::Validate).
  static absl::StatusOr<std::unique_ptr<WindowTableFunctionOperator>> Create(
      std::vector<DataType> input_types, WindowShape window, int time_column,
      WindowClock clock = {});

  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  uint64_t late_rows_dropped() const override {
    return late_rows_dropped_.load(std::memory_order_relaxed);
  }

 private:
  WindowTableFunctionOperator(std::vector<DataType> input_types, WindowShape window,
                              int time_column, WindowClock clock);

  std::vector<DataType> output_types_;
  WindowShape window_;
  int time_column_;
  WindowClock clock_;
  int64_t watermark_ = kMinWatermark;
  std::vector<int64_t> ends_;
  ChangelogBatch out_;
  std::atomic<uint64_t> late_rows_dropped_{0};
};

}  // namespace eddy
