#include "worker/operators/correlate_operator.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/evaluator.h"
#include "common/expr/gather.h"

namespace eddy {

CorrelateOperator::CorrelateOperator(std::string name, std::shared_ptr<const UserFunction> function,
                                     std::vector<ExprPtr> args, bool left_outer)
    : name_(std::move(name)),
      function_(std::move(function)),
      args_(std::move(args)),
      left_outer_(left_outer) {}

absl::Status CorrelateOperator::Open(const OperatorContext& ctx) {
  if (function_ == nullptr || function_->kind() != UserFunctionKind::kTable) {
    return absl::InvalidArgumentError(
        absl::StrCat("Correlate: '", name_, "' is not a table function"));
  }
  ASSIGN_OR_RETURN(instance_, UserFunctionInstance::Create(function_, name_));
  return absl::OkStatus();
}

absl::Status CorrelateOperator::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  if (batch.empty()) return absl::OkStatus();
  const size_t n = batch.num_rows();
  std::vector<EvalColumn> holders;
  std::vector<const Column*> args;
  holders.reserve(args_.size());
  for (const auto& a : args_) {
    ASSIGN_OR_RETURN(EvalColumn c, EvaluateView(*a, batch));
    holders.push_back(std::move(c));
  }
  for (const auto& h : holders) args.push_back(&h.get());
  ASSIGN_OR_RETURN(TableFunctionRows produced, instance_->EvalTable(args, n));

  std::vector<Column> columns;
  std::vector<RowKind> kinds;
  if (!left_outer_) {
    if (produced.input_rows.empty()) return absl::OkStatus();
    ChangelogBatch left = Gather(batch, produced.input_rows);
    kinds = std::move(left.mutable_kinds());
    for (size_t i = 0; i < left.num_columns(); ++i)
      columns.push_back(std::move(left.mutable_column(i)));
    for (Column& c : produced.columns) columns.push_back(std::move(c));
  } else {
    // Every input row at least once: its produced rows, or one row of NULLs.
    std::vector<uint32_t> input_rows;
    std::vector<int64_t> produced_rows;  // -1: NULL padding
    input_rows.reserve(std::max(n, produced.input_rows.size()));
    size_t next = 0;
    for (uint32_t row = 0; row < n; ++row) {
      if (next < produced.input_rows.size() && produced.input_rows[next] == row) {
        while (next < produced.input_rows.size() && produced.input_rows[next] == row) {
          input_rows.push_back(row);
          produced_rows.push_back(static_cast<int64_t>(next++));
        }
      } else {
        input_rows.push_back(row);
        produced_rows.push_back(-1);
      }
    }
    ChangelogBatch left = Gather(batch, input_rows);
    kinds = std::move(left.mutable_kinds());
    for (size_t i = 0; i < left.num_columns(); ++i)
      columns.push_back(std::move(left.mutable_column(i)));
    for (const Column& fc : produced.columns) {
      Column out(fc.type());
      out.Reserve(produced_rows.size());
      for (int64_t r : produced_rows) {
        if (r < 0) {
          out.AppendNull();
        } else {
          out.AppendFrom(fc, static_cast<size_t>(r));
        }
      }
      columns.push_back(std::move(out));
    }
  }
  return Emit(ChangelogBatch(std::move(columns), std::move(kinds)));
}

}  // namespace eddy
