// LocalGroupAggregate: the first phase of a two-phase (local-global) aggregation, chained before
// the hash exchange in the upstream task (Flink's MiniBatchLocalGroupAggFunction). It folds each
// mini-batch per key in memory, keeps no state, and at the end of the mini-batch emits one +I row
// per key of partial accumulators (AggPartialFields), which the GlobalGroupAggregate behind the
// exchange merges into its state. Fewer rows cross the shuffle; results are those of one phase.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/accumulator.h"
#include "worker/operators/in_memory_groups.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/operator.h"

namespace eddy {

struct LocalGroupAggregateSpec {
  std::vector<DataType> input_types;
  std::vector<int> group_keys;            // input column indices; empty = global aggregate
  std::vector<AggregateCall> aggregates;  // every call must have a partial form
  // False when the input retracts: partials are then signed deltas and carry a row-count delta
  // (a COUNT(*) call's, or an extra count1 column after all calls' fields).
  bool input_insert_only = true;
  // The mini-batch: emit the partials once this many rows arrived, or the oldest waited this long,
  // and at the end of input. Must be > 0 (two-phase aggregation requires mini-batch).
  int mini_batch_size = 1000;
  int64_t mini_batch_latency_ms = 1000;
};

// Output schema: the group key columns (input types), then each call's partial fields, then the
// row-count delta when the input retracts and no call is COUNT(*). Rows come in each mini-batch's
// first-appearance order of keys; a key whose rows cancelled out (e.g. +I then -D) is left out.
class LocalGroupAggregateOperator : public Operator {
 public:
  static absl::StatusOr<std::unique_ptr<LocalGroupAggregateOperator>> Create(
      LocalGroupAggregateSpec spec);

  const std::vector<DataType>& output_types() const { return output_types_; }

  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override;
  absl::Status Finish() override;
  // A barrier ends the mini-batch: its partials go out ahead of the barrier, so the operator holds
  // nothing a checkpoint would have to record.
  absl::Status PrepareSnapshotPreBarrier(int64_t checkpoint_id) override {
    return pending_rows_ == 0 ? absl::OkStatus() : Flush();
  }

 private:
  LocalGroupAggregateOperator(LocalGroupAggregateSpec spec, KeyEncoder encoder,
                              AggregateFunctions functions, bool append_row_count);
  absl::Status Flush();

  LocalGroupAggregateSpec spec_;
  KeyEncoder encoder_;
  AggregateFunctions functions_;
  bool append_row_count_;
  std::vector<DataType> output_types_;

  InMemoryGroups groups_;  // the current mini-batch's groups (their memory kept across them)
  size_t pending_rows_ = 0;
  std::chrono::steady_clock::time_point pending_since_;
  ChangelogBatch out_;
};

}  // namespace eddy
