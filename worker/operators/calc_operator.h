// Calc: Flink's fused filter + projection. For each input batch it keeps the rows where the filter
// is TRUE, evaluates the projections over them and emits one batch (none when no row survives),
// preserving every row's RowKind and order. Stateless.
#pragma once

#include <vector>

#include "absl/status/status.h"
#include "common/batch/changelog_batch.h"
#include "common/expr/expr.h"
#include "worker/operators/operator.h"

namespace eddy {

class CalcOperator : public Operator {
 public:
  // `filter` may be null (projection only). Expressions index the input batch's columns.
  CalcOperator(std::vector<ExprPtr> projections, ExprPtr filter);

  // Checks the filter is BOOLEAN and no expression is null.
  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;

 private:
  // Evaluates the projections over all rows of `batch`.
  absl::Status ProjectAll(const ChangelogBatch& batch, std::vector<Column>* out) const;
  // Evaluates the projections over rows `rows` of `batch` only, so that a projection that could
  // fail (a / b) never runs on a row the filter dropped (b = 0).
  absl::Status ProjectRows(const ChangelogBatch& batch, const std::vector<uint32_t>& rows,
                           std::vector<Column>* out) const;

  std::vector<ExprPtr> projections_;
  ExprPtr filter_;
  // Input columns read by a projection other than a plain column reference; only these are
  // gathered before evaluating over the filtered rows.
  std::vector<int> computed_inputs_;
};

}  // namespace eddy
