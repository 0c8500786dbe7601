// The one Output operator tests collect into: every row an operator emits, printed as the print
// sink prints it (`+I[a, 1]`), the number of batches and rows, and every watermark, optionally
// passing both on to a next operator (to test two chained operators).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/batch/changelog_batch.h"
#include "worker/operators/operator.h"

namespace eddy::testing {

class CollectingOutput : public Output {
 public:
  explicit CollectingOutput(Operator* next = nullptr) : next_(next) {}

  absl::Status Emit(const ChangelogBatch& batch) override {
    ++batches;
    row_count += batch.num_rows();
    for (size_t r = 0; r < batch.num_rows(); ++r) rows.push_back(FormatRow(batch, r));
    return next_ != nullptr ? next_->Process(0, batch) : absl::OkStatus();
  }
  absl::Status EmitWatermark(const Watermark& watermark) override {
    watermarks.push_back(watermark);
    return next_ != nullptr ? next_->ProcessWatermark(watermark) : absl::OkStatus();
  }

  // The rows collected so far, leaving none.
  std::vector<std::string> Take() { return std::exchange(rows, {}); }
  std::vector<int64_t> WatermarkMillis() const {
    std::vector<int64_t> millis;
    for (const Watermark& w : watermarks) millis.push_back(w.millis);
    return millis;
  }

  std::vector<std::string> rows;
  int batches = 0;
  size_t row_count = 0;
  std::vector<Watermark> watermarks;

 private:
  Operator* next_;
};

}  // namespace eddy::testing
