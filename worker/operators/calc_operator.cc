#include "worker/operators/calc_operator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/evaluator.h"
#include "common/expr/gather.h"

namespace eddy {
namespace {

void CollectColumns(const Expr& e, std::vector<int>* out) {
  if (e.kind == ExprKind::kColumn) {
    if (std::find(out->begin(), out->end(), e.column) == out->end()) out->push_back(e.column);
    return;
  }
  for (const auto& a : e.args) {
    if (a != nullptr) CollectColumns(*a, out);
  }
}

bool IsColumnRef(const ExprPtr& e) { return e->kind == ExprKind::kColumn; }

absl::Status CheckColumn(int column, const ChangelogBatch& batch) {
  if (column < 0 || static_cast<size_t>(column) >= batch.num_columns()) {
    return absl::InvalidArgumentError(absl::StrCat("Calc: column ", column,
                                                   " out of range for an input of ",
                                                   batch.num_columns(), " columns"));
  }
  return absl::OkStatus();
}

}  // namespace

CalcOperator::CalcOperator(std::vector<ExprPtr> projections, ExprPtr filter)
    : projections_(std::move(projections)), filter_(std::move(filter)) {
  for (const auto& p : projections_) {
    if (p != nullptr && !IsColumnRef(p)) CollectColumns(*p, &computed_inputs_);
  }
}

absl::Status CalcOperator::Open(const OperatorContext& ctx) {
  for (const auto& p : projections_) {
    if (p == nullptr) return absl::InvalidArgumentError("Calc: null projection");
  }
  if (filter_ != nullptr && filter_->type.id != TypeId::kBoolean &&
      filter_->type.id != TypeId::kNull) {
    return absl::InvalidArgumentError(absl::StrCat("Calc: filter must be BOOLEAN, not ",
                                                   filter_->type.WithNullable(true).ToString()));
  }
  return absl::OkStatus();
}

absl::Status CalcOperator::ProjectAll(const ChangelogBatch& batch, std::vector<Column>* out) const {
  for (const auto& p : projections_) {
    if (IsColumnRef(p)) {
      // A plain column is copied as a buffer, never evaluated per row.
      RETURN_IF_ERROR(CheckColumn(p->column, batch));
      out->push_back(batch.column(p->column));
    } else {
      ASSIGN_OR_RETURN(Column c, Evaluate(*p, batch));
      out->push_back(std::move(c));
    }
  }
  return absl::OkStatus();
}

absl::Status CalcOperator::ProjectRows(const ChangelogBatch& batch,
                                       const std::vector<uint32_t>& rows,
                                       std::vector<Column>* out) const {
  // The filtered input, holding only the columns computed projections read.
  std::vector<Column> columns;
  columns.reserve(batch.num_columns());
  for (const Column& c : batch.columns()) columns.emplace_back(c.type());
  for (int i : computed_inputs_) {
    RETURN_IF_ERROR(CheckColumn(i, batch));
    columns[i] = GatherColumn(batch.column(i), rows);
  }
  ChangelogBatch filtered(std::move(columns), std::vector<RowKind>(rows.size(), RowKind::kInsert));
  for (const auto& p : projections_) {
    if (IsColumnRef(p)) {
      RETURN_IF_ERROR(CheckColumn(p->column, batch));
      out->push_back(GatherColumn(batch.column(p->column), rows));
    } else {
      ASSIGN_OR_RETURN(Column c, Evaluate(*p, filtered));
      out->push_back(std::move(c));
    }
  }
  return absl::OkStatus();
}

absl::Status CalcOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  if (batch.empty()) return absl::OkStatus();
  std::vector<Column> columns;
  columns.reserve(projections_.size());
  std::vector<RowKind> kinds;
  if (filter_ == nullptr) {
    RETURN_IF_ERROR(ProjectAll(batch, &columns));
    kinds = batch.kinds();
  } else {
    ASSIGN_OR_RETURN(std::vector<uint32_t> rows, EvaluateFilter(*filter_, batch));
    if (rows.empty()) return absl::OkStatus();
    if (rows.size() == batch.num_rows()) {
      RETURN_IF_ERROR(ProjectAll(batch, &columns));
      kinds = batch.kinds();
    } else {
      RETURN_IF_ERROR(ProjectRows(batch, rows, &columns));
      kinds.resize(rows.size());
      for (size_t i = 0; i < rows.size(); ++i) kinds[i] = batch.kind(rows[i]);
    }
  }
  return Emit(ChangelogBatch(std::move(columns), std::move(kinds)));
}

}  // namespace eddy
