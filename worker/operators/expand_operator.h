// Expand: Flink's StreamExecExpand, which feeds the aggregate of GROUPING SETS, ROLLUP and CUBE one
// row per grouping set. Each input row comes out once per projection: an output column copies an
// input column or is NULL (the keys the set leaves out), and the expand-id column (`$e`, BIGINT NOT
// NULL) holds the projection's id. Stateless; row kinds are kept.
//
// A batch at a time: the output batch holds the input rows under the first projection, then under
// the second, and so on (Flink emits them row by row; rows of one projection keep their order, and
// no group of the aggregate above takes rows of two projections, whose ids differ). Each output
// column is built by appending whole input columns, NULL runs or id runs: no allocation per row.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/operator.h"

namespace eddy {

struct ExpandProjection {
  // Per output column: the input column it copies, or -1 for NULL (ignored at the id column).
  std::vector<int> columns;
  int64_t expand_id = 0;
};

class ExpandOperator : public Operator {
 public:
  // Checks the shape and derives the output types: at least one projection, all as wide, the id
  // column among them, input columns in range, one type per output column (nullable where some
  // projection makes it NULL, never NULL in every projection), distinct ids.
  static absl::StatusOr<std::unique_ptr<ExpandOperator>> Create(
      std::vector<DataType> input_types, std::vector<ExpandProjection> projections,
      int expand_id_column);

  const std::vector<DataType>& output_types() const { return output_types_; }

  absl::Status Process(int input, const ChangelogBatch& batch) override;

 private:
  ExpandOperator(std::vector<DataType> input_types, std::vector<ExpandProjection> projections,
                 int expand_id_column, std::vector<DataType> output_types);

  std::vector<DataType> input_types_;
  std::vector<ExpandProjection> projections_;
  int expand_id_column_;
  std::vector<DataType> output_types_;
};

}  // namespace eddy
