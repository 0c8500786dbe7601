// The datagen connector: generates rows at a configured rate, random or sequence per field, bounded by
// number-of-rows or by a sequence field's end. Subtasks split the sequence range and the row count so a
// parallel source produces each row once.
#pragma once

#include <chrono>
#include <cstdint>
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

 private:
  struct FieldState {
    bool sequence = false;
    int64_t next = 0;  // sequence: next value
    int64_t end = 0;   // sequence: last value (inclusive)
  };
  uint64_t NextRandom();
  void GenerateValue(size_t field, Column* column);

  v1::DatagenSource spec_;
  Schema schema_;
  std::vector<FieldState> fields_;
  int64_t rows_remaining_ = -1;  // -1: unbounded
  double rows_per_second_ = 0;   // this subtask's share; <= 0 unlimited
  uint64_t rng_ = 0;
  uint64_t emitted_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::microseconds idle_wait_{1000};
};

}  // namespace eddy
