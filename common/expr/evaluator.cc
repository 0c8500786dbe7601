// Expression tree walk: evaluates arguments, then hands whole columns to the kernel of the call.
#include "common/expr/evaluator.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/eval_internal.h"
#include "common/expr/function_table.h"

namespace eddy {
namespace eval_internal {

std::vector<uint8_t> CombineValidity(const ArgList& args, size_t n) {
  std::vector<uint8_t> out;
  for (const Column* a : args) {
    if (!a->HasNulls()) continue;
    const std::vector<uint8_t>& v = a->raw_validity();
    if (out.empty()) out.assign(ValidityBytes(n), 0xff);
    size_t m = std::min(out.size(), v.size());
    for (size_t i = 0; i < m; ++i) out[i] &= v[i];
  }
  return out;
}

Column AllNull(const DataType& type, size_t n) {
  if (type.id == TypeId::kString) {
    StringBuilder b(type, n);
    for (size_t i = 0; i < n; ++i) b.AppendNull();
    return b.Finish();
  }
  int width = PhysicalWidth(type.id);
  return Column::FromRaw(type, n, std::vector<uint8_t>(n * width, 0),
                         std::vector<uint8_t>(ValidityBytes(n), 0), {}, {});
}

namespace {

template <typename T>
Column BroadcastFixed(T v, const DataType& type, size_t n) {
  FixedBuilder<T> b(type, n);
  std::fill_n(b.values(), n, v);
  return b.Finish();
}

}  // namespace

Column Broadcast(const Value& v, const DataType& type, size_t n) {
  if (v.is_null() || type.id == TypeId::kNull) return AllNull(type, n);
  switch (type.id) {
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow: {
      StringBuilder b(type, n);
      b.heap().reserve(v.string_value().size() * n);
      for (size_t i = 0; i < n; ++i) b.Append(v.string_value());
      return b.Finish();
    }
    case TypeId::kBoolean:
      return BroadcastFixed<uint8_t>(v.is_bool() && v.bool_value() ? 1 : 0, type, n);
    case TypeId::kFloat:
      return BroadcastFixed<float>(static_cast<float>(v.is_double() ? v.double_value() : 0), type,
                                   n);
    case TypeId::kDouble:
      return BroadcastFixed<double>(v.is_double() ? v.double_value() : 0, type, n);
    default:
      break;
  }
  int64_t iv = v.is_int() ? v.int_value() : 0;
  return DispatchFixed(type.id, [&](auto t) {
    return BroadcastFixed<decltype(t)>(static_cast<decltype(t)>(iv), type, n);
  });
}

absl::Status InternalError(const Expr& call, std::string_view what) {
  return absl::InternalError(absl::StrCat("Malformed call to '", call.function,
                                          "': ", absl::string_view(what.data(), what.size())));
}

bool MayFail(const Expr& e) {
  if (e.kind != ExprKind::kCall) return false;
  if (e.user_function != nullptr) return true;  // user code may fail on any row
  const std::string& f = e.function;
  if (f == "/" || f == "%" || f == "CAST" || e.type.id == TypeId::kDecimal) return true;
  for (const auto& a : e.args) {
    if (MayFail(*a)) return true;
  }
  return false;
}

namespace {

void CollectColumns(const Expr& e, std::vector<bool>* used) {
  if (e.kind == ExprKind::kColumn) {
    if (e.column >= 0 && static_cast<size_t>(e.column) < used->size()) (*used)[e.column] = true;
    return;
  }
  for (const auto& a : e.args) CollectColumns(*a, used);
}

absl::StatusOr<EvalColumn> Eval(const Expr& e, const ChangelogBatch& input);

absl::StatusOr<Column> EvalCall(const Expr& e, const ChangelogBatch& input) {
  const FunctionDef* def = e.user_function != nullptr ? nullptr : FindFunction(e.function);
  if (e.user_function == nullptr &&
      (def == nullptr || (def->eval == nullptr && def->eval_lazy == nullptr))) {
    return absl::InvalidArgumentError(absl::StrCat("Unknown function '", e.function, "'"));
  }
  if (def != nullptr && def->eval_lazy != nullptr) return def->eval_lazy(e, input);
  const size_t n = input.num_rows();
  std::vector<EvalColumn> holders;
  holders.reserve(e.args.size());
  ArgList args;
  args.reserve(e.args.size());
  for (const auto& a : e.args) {
    if (a == nullptr) return InternalError(e, "null argument");
    ASSIGN_OR_RETURN(EvalColumn c, Eval(*a, input));
    holders.push_back(std::move(c));
  }
  for (const auto& h : holders) {
    if (h->size() != n) return InternalError(e, "argument column size differs from the batch");
    args.push_back(&h.get());
  }
  if (def == nullptr) return EvalUserFunction(e, args, n);
  return def->eval(e, args, n);
}

absl::StatusOr<EvalColumn> Eval(const Expr& e, const ChangelogBatch& input) {
  switch (e.kind) {
    case ExprKind::kColumn:
      if (e.column < 0 || static_cast<size_t>(e.column) >= input.num_columns()) {
        return absl::InternalError(absl::StrCat("Column index ", e.column,
                                                " out of range for a batch of ",
                                                input.num_columns(), " columns"));
      }
      return EvalColumn::Borrow(&input.column(e.column));
    case ExprKind::kLiteral:
      return EvalColumn::Own(Broadcast(e.literal, e.type, input.num_rows()));
    case ExprKind::kCall: {
      ASSIGN_OR_RETURN(Column c, EvalCall(e, input));
      return EvalColumn::Own(std::move(c));
    }
  }
  return absl::InternalError("bad expression kind");
}

}  // namespace

absl::StatusOr<EvalColumn> EvalOnRows(const Expr& e, const ChangelogBatch& input,
                                      const std::vector<uint32_t>& rows, bool all) {
  if (all) return Eval(e, input);
  if (e.kind == ExprKind::kLiteral)
    return EvalColumn::Own(Broadcast(e.literal, e.type, rows.size()));
  if (e.kind == ExprKind::kColumn) {
    if (e.column < 0 || static_cast<size_t>(e.column) >= input.num_columns()) {
      return absl::InternalError(absl::StrCat("Column index ", e.column, " out of range"));
    }
    return EvalColumn::Own(GatherColumn(input.column(e.column), rows));
  }
  // Gather only the columns the expression reads; the others stay empty and are never touched.
  std::vector<bool> used(input.num_columns(), false);
  CollectColumns(e, &used);
  std::vector<Column> columns;
  columns.reserve(input.num_columns());
  for (size_t i = 0; i < input.num_columns(); ++i) {
    columns.push_back(used[i] ? GatherColumn(input.column(i), rows)
                              : Column(input.column(i).type()));
  }
  ChangelogBatch sub(std::move(columns), std::vector<RowKind>(rows.size(), RowKind::kInsert));
  ASSIGN_OR_RETURN(EvalColumn c, Eval(e, sub));
  return EvalColumn::Own(std::move(c).Release());
}

}  // namespace eval_internal

absl::StatusOr<EvalColumn> EvaluateView(const Expr& e, const ChangelogBatch& input) {
  static const std::vector<uint32_t> kNone;
  return eval_internal::EvalOnRows(e, input, kNone, /*all=*/true);
}

absl::StatusOr<Column> Evaluate(const Expr& e, const ChangelogBatch& input) {
  ASSIGN_OR_RETURN(EvalColumn c, EvaluateView(e, input));
  return std::move(c).Release();
}

absl::StatusOr<std::vector<uint32_t>> EvaluateFilter(const Expr& predicate,
                                                     const ChangelogBatch& input) {
  if (predicate.type.id != TypeId::kBoolean && predicate.type.id != TypeId::kNull) {
    return absl::InvalidArgumentError(absl::StrCat("Filter condition must be BOOLEAN, not ",
                                                   predicate.type.WithNullable(true).ToString()));
  }
  std::vector<uint32_t> rows;
  const size_t n = input.num_rows();
  if (predicate.type.id == TypeId::kNull) return rows;
  ASSIGN_OR_RETURN(EvalColumn c, EvaluateView(predicate, input));
  const uint8_t* v = c->data<uint8_t>();
  rows.reserve(n);
  if (!c->HasNulls()) {
    for (size_t i = 0; i < n; ++i) {
      if (v[i]) rows.push_back(static_cast<uint32_t>(i));
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      if (v[i] && !c->IsNull(i)) rows.push_back(static_cast<uint32_t>(i));
    }
  }
  return rows;
}

bool IsConstant(const Expr& e) {
  if (e.kind == ExprKind::kColumn) return false;
  for (const auto& a : e.args) {
    if (a == nullptr || !IsConstant(*a)) return false;
  }
  return true;
}

absl::StatusOr<Value> EvaluateConstant(const Expr& e) {
  if (!IsConstant(e)) {
    return absl::InvalidArgumentError("EvaluateConstant: expression references input columns");
  }
  if (e.kind == ExprKind::kLiteral) return e.literal;
  // One row with no columns: literals broadcast to one value, so the result is row 0.
  ChangelogBatch one({}, {RowKind::kInsert});
  ASSIGN_OR_RETURN(EvalColumn c, EvaluateView(e, one));
  return c->GetValue(0);
}

}  // namespace eddy
