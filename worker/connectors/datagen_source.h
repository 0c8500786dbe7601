// The datagen connector: generates rows at a configured rate, random or sequence per field, bounded
// by number-of-rows or by a sequence field's end. Subtasks split the sequence range and the row
// count so a parallel source produces each row once. Every value is a pure function of (seed,
// subtask, row number, field), never of batch sizes or timing, so a restore that resumes at row n
// (the position a checkpoint records) replays exactly the rows an uninterrupted run would have
// produced (TIMESTAMP and DATE fields, which take the current time as Flink's do, excepted).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "common/types/data_type.h"
#include "eddy/v1/plan.pb.h"
#include "worker/operators/source.h"

namespace eddy {

class DatagenSource : public Source {
 public:
  DatagenSource(v1::DatagenSource spec, Schema schema);
  absl::Status Open(const OperatorContext& ctx) override;
  absl::StatusOr<SourceState> Next(ChangelogBatch* out) override;
  std::chrono::microseconds idle_wait() const override { return idle_wait_; }
  // Position: rows emitted by this subtask ("rows").
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;

 private:
  struct FieldState {
    bool sequence = false;
    int64_t start = 0;  // sequence: this subtask's first value
    int64_t end = 0;    // sequence: last value (inclusive)
  };
  // Appends field `field` of row `row` (0-based within this subtask).
  void GenerateValue(size_t field, uint64_t row, Column* column);

  v1::DatagenSource spec_;
  Schema schema_;
  std::vector<FieldState> fields_;
  int64_t rows_remaining_ = -1;  // -1: unbounded
  double rows_per_second_ = 0;   // this subtask's share; <= 0 unlimited
  uint64_t seed_ = 0;            // of this subtask
  uint64_t emitted_ = 0;         // rows emitted by this subtask, restored ones included
  uint64_t rate_emitted_ = 0;    // rows emitted since start_, for the rate limit
  std::chrono::steady_clock::time_point start_;
  std::chrono::microseconds idle_wait_{1000};
  std::string binary_scratch_;  // a BYTES value being drawn
};

}  // namespace eddy
