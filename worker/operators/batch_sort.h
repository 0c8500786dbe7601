// Sort: the batch-mode ORDER BY (Flink's batch Sort and SortLimit). It keeps every input row and
// its sort key (SortKeyEncoder bytes) and, when the input ends, emits the rows ordered by the key
// (ties in arrival order), skipping `offset` rows and emitting at most `fetch`. With a fetch it
// keeps no more than about twice offset + fetch rows: when the buffer outgrows that, the rows past
// the first offset + fetch are dropped. Runs in one subtask; the output is insert-only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/operator.h"
#include "worker/operators/sort_key_encoder.h"
#include "worker/operators/watermark.h"

namespace eddy {

struct BatchSortSpec {
  std::vector<DataType> input_types;
  std::vector<SortKeyField> order_by;
  int64_t offset = 0;
  int64_t fetch = -1;  // -1: every row
};

class BatchSortOperator : public Operator {
 public:
  static absl::StatusOr<std::unique_ptr<BatchSortOperator>> Create(BatchSortSpec spec);

  const std::vector<DataType>& output_types() const { return spec_.input_types; }

  absl::Status Process(int input, const ChangelogBatch& batch) override;
  // Held back and passed on after the sorted rows.
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  absl::Status Finish() override;
  absl::Status Close() override;

 private:
  BatchSortOperator(BatchSortSpec spec, SortKeyEncoder encoder);
  // The buffered rows' indexes in output order (stable).
  std::vector<uint32_t> SortedOrder() const;
  // With a fetch: keeps only the first offset + fetch rows in order.
  void Trim();

  BatchSortSpec spec_;
  SortKeyEncoder encoder_;
  ChangelogBatch rows_;
  std::string keys_;               // every row's sort key, back to back
  std::vector<uint64_t> key_end_;  // row i's key ends at key_end_[i]
  std::optional<Watermark> held_watermark_;
};

}  // namespace eddy
