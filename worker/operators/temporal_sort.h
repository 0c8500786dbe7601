// TemporalSort: `ORDER BY rowtime [ASC], k2, ...` without LIMIT in streaming mode (Flink's
// RowTimeSortOperator; with a processing-time attribute, under ProcessingTimeOperator, its
// ProcTimeSortOperator). Rows wait in the subtask's RocksDB store until the watermark passes their
// time, then leave in (time, secondary keys, arrival) order. The planner runs it in one subtask
// (the order is global). Output is append-only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/operator.h"
#include "worker/operators/sort_key_encoder.h"
#include "worker/operators/watermark.h"

namespace eddy {

class KeyedStateBackend;

struct TemporalSortSpec {
  std::vector<DataType> input_types;
  // The rowtime column (TIMESTAMP, epoch millis; a NULL is an error), sorted ascending.
  int time_column = 0;
  // The ORDER BY items after the time attribute; rows of equal time leave in this order, then in
  // arrival order.
  std::vector<SortKeyField> secondary;
};

// Output schema: the input's.
//
// Input: +I rows only (anything else is an error). A row whose time is at or below the current
// watermark W (late; Flink's operator drops it too) is dropped and counted. Otherwise it is stored
// under key = state_key.h prefix (key group 0) + time (8 bytes big-endian, sign bit flipped) +
// SortKeyEncoder bytes of the secondary keys + arrival sequence (8 bytes big-endian, part of the
// snapshot), value = its KeyEncoder bytes over all columns: the store's key order is the output
// order.
// A watermark W emits, in key order, every stored row with time <= W, deletes them in one write,
// then passes W on. Finish emits every row left.
class TemporalSortOperator : public Operator {
 public:
  static absl::StatusOr<std::unique_ptr<TemporalSortOperator>> Create(TemporalSortSpec spec);

  const std::vector<DataType>& output_types() const { return spec_.input_types; }

  // Requires ctx.state; uses ctx.state_id.
  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  absl::Status Finish() override;
  // Records the watermark and the arrival sequence (the rows are in the store).
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;

  uint64_t late_rows_dropped() const override {
    return late_rows_dropped_.load(std::memory_order_relaxed);
  }

 private:
  explicit TemporalSortOperator(TemporalSortSpec spec, KeyEncoder row_codec,
                                SortKeyEncoder secondary)
      : spec_(std::move(spec)),
        row_codec_(std::move(row_codec)),
        secondary_(std::move(secondary)) {}

  // Emits every stored row with time <= `up_to`, in order, and deletes them.
  absl::Status EmitUpTo(int64_t up_to);

  TemporalSortSpec spec_;
  KeyEncoder row_codec_;
  SortKeyEncoder secondary_;
  KeyedStateBackend* store_ = nullptr;
  std::string prefix_;  // key group 0 + state id
  uint64_t sequence_ = 0;
  int64_t watermark_ = kMinWatermark;
  // The smallest stored time, when known to be none (INT64_MAX) or exact; after a restore unknown
  // (INT64_MIN) until the next emit scans.
  int64_t earliest_ = INT64_MAX;
  std::atomic<uint64_t> late_rows_dropped_{0};
  std::string key_;
  std::string value_;
};

}  // namespace eddy
