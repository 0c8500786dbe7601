// Vectorized evaluation of bound expressions (expr.h) over a ChangelogBatch: each call node runs
// one typed loop over its argument columns. Also the filter helper used by Calc, constant folding
// for the planner, and IsConstant.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/batch/column.h"
#include "common/expr/expr.h"
#include "common/types/value.h"

namespace eddy {

// The result of evaluating an expression: borrows the input's column for a plain column reference
// (no copy), otherwise owns a freshly computed column. Valid while the input batch is alive.
class EvalColumn {
 public:
  static EvalColumn Borrow(const Column* c) { return EvalColumn(c); }
  static EvalColumn Own(Column c) { return EvalColumn(std::move(c)); }

  const Column& get() const { return borrowed_ != nullptr ? *borrowed_ : owned_; }
  const Column* operator->() const { return &get(); }
  bool borrowed() const { return borrowed_ != nullptr; }
  // The column by value: moves an owned result, copies a borrowed one.
  Column Release() && { return borrowed_ != nullptr ? *borrowed_ : std::move(owned_); }

 private:
  explicit EvalColumn(const Column* c) : borrowed_(c) {}
  explicit EvalColumn(Column c) : owned_(std::move(c)) {}

  Column owned_;
  const Column* borrowed_ = nullptr;  // set for a borrowed column
};

// Evaluates `e` over every row of `input`; the column has type e.type (physically) and
// input.num_rows() rows. Errors: division by zero (`Division by zero in '/'`), CAST of a bad value
// (`Cannot cast 'abc' to INT`), DECIMAL overflow, and Internal for malformed expressions (an
// expression built without MakeCall). Column references are borrowed, see EvalColumn.
absl::StatusOr<EvalColumn> EvaluateView(const Expr& e, const ChangelogBatch& input);

// As EvaluateView, returning an owned column (copies a plain column reference).
absl::StatusOr<Column> Evaluate(const Expr& e, const ChangelogBatch& input);

// Indices of the rows where `predicate` (BOOLEAN) is TRUE; NULL counts as false.
absl::StatusOr<std::vector<uint32_t>> EvaluateFilter(const Expr& predicate,
                                                     const ChangelogBatch& input);

// True when `e` references no input column (literals and calls over literals).
bool IsConstant(const Expr& e);

// Folds a constant expression to its value (boxed as described in value.h).
absl::StatusOr<Value> EvaluateConstant(const Expr& e);

}  // namespace eddy
