// ChangelogMaterialize: in batch mode, reduces an updating input (+I/-U/+U/-D, from an outer join,
// a Top-N or a deduplication) to its final rows, emitted as +I when the input ends, so that a batch
// result is insert-only. Each distinct row (all its columns) is counted: +I/+U add one, -U/-D take
// one away, in any order; a row whose count ends positive is emitted that many times, in the order
// rows first appeared. The planner hash-partitions the input on every column, so every change of a
// row reaches the same subtask.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/operator.h"
#include "worker/operators/watermark.h"

namespace eddy {

class ChangelogMaterializeOperator : public Operator {
 public:
  static absl::StatusOr<std::unique_ptr<ChangelogMaterializeOperator>> Create(
      std::vector<DataType> input_types);

  const std::vector<DataType>& output_types() const { return types_; }

  absl::Status Process(int input, const ChangelogBatch& batch) override;
  // Held back and passed on after the rows.
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  absl::Status Finish() override;
  absl::Status Close() override;

 private:
  ChangelogMaterializeOperator(std::vector<DataType> types, KeyEncoder encoder);

  std::vector<DataType> types_;
  KeyEncoder encoder_;
  ChangelogBatch rows_;                                // each distinct row once, first appearance
  absl::flat_hash_map<std::string, uint32_t> row_of_;  // encoded row -> index in rows_
  std::vector<int64_t> counts_;                        // per row of rows_
  std::string key_buf_;
  std::optional<Watermark> held_watermark_;
};

}  // namespace eddy
