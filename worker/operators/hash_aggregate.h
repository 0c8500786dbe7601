// HashAggregate: the batch-mode GROUP BY (Flink's batch HashAggregate). The groups live in memory,
// in an open-addressing table (GroupTable) with native accumulators where the calls allow them, and
// the operator emits one +I row per group when its input ends: no state store, no per-key
// changelog, no retractions. A failed batch job reruns from the start, so there is nothing to
// checkpoint.
#pragma once

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
#include "worker/operators/watermark.h"

namespace eddy {

struct HashAggregateSpec {
  std::vector<DataType> input_types;
  std::vector<int> group_keys;            // input column indices; empty = global aggregate
  std::vector<AggregateCall> aggregates;  // over insert-only input
};

// Output schema: the group key columns (input types) followed by one column per call. Rows come in
// the groups' first-appearance order. A global aggregate (no keys) emits one row even for an
// empty input (COUNT(*) = 0, SUM = NULL), as a batch query does. The input must be insert-only; a
// retraction is an error. Watermarks are held back and passed on after the result.
class HashAggregateOperator : public Operator {
 public:
  static absl::StatusOr<std::unique_ptr<HashAggregateOperator>> Create(HashAggregateSpec spec);

  const std::vector<DataType>& output_types() const { return output_types_; }

  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  absl::Status Finish() override;
  absl::Status Close() override;

  size_t groups() const { return groups_.size(); }

 private:
  HashAggregateOperator(HashAggregateSpec spec, KeyEncoder encoder, AggregateFunctions functions);

  HashAggregateSpec spec_;
  KeyEncoder encoder_;
  AggregateFunctions functions_;
  std::vector<DataType> output_types_;
  InMemoryGroups groups_;    // every group of the input, in first-appearance order
  GroupAccumulators empty_;  // a global aggregate's accumulators over an empty input
  std::vector<AggValue> values_;
  std::optional<Watermark> held_watermark_;
};

}  // namespace eddy
