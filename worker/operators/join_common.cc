// Spec checks, output types and condition evaluation shared by the streaming joins.
#include "worker/operators/join_common.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/evaluator.h"
#include "worker/operators/accumulator_codec.h"

namespace eddy {
namespace {

absl::Status CheckConditionColumns(const char* op, const Expr& e,
                                   const std::vector<DataType>& types) {
  if (e.kind == ExprKind::kColumn &&
      (e.column < 0 || static_cast<size_t>(e.column) >= types.size() ||
       !types[e.column].SameAs(e.type))) {
    return absl::InvalidArgumentError(absl::StrCat(op, ": the condition's column ", e.column,
                                                   " is not a column of left ++ right"));
  }
  for (const ExprPtr& a : e.args) RETURN_IF_ERROR(CheckConditionColumns(op, *a, types));
  return absl::OkStatus();
}

}  // namespace

bool SameKeyEncoding(const DataType& a, const DataType& b) {
  if (a.id != b.id) return false;
  return a.id != TypeId::kDecimal || a.scale == b.scale;
}

absl::Status CheckJoinColumns(const char* op, const char* what, const std::vector<int>& columns,
                              size_t n) {
  for (int c : columns) {
    if (c < 0 || static_cast<size_t>(c) >= n) {
      return absl::InvalidArgumentError(absl::StrCat(
          op, ": ", what, " column ", c, " out of range for an input with ", n, " columns"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckJoinKeyTypes(const char* op, const std::vector<DataType>& left_types,
                               const std::vector<int>& left_keys,
                               const std::vector<DataType>& right_types,
                               const std::vector<int>& right_keys) {
  for (size_t k = 0; k < left_keys.size() && k < right_keys.size(); ++k) {
    const DataType& l = left_types[left_keys[k]];
    const DataType& r = right_types[right_keys[k]];
    if (!SameKeyEncoding(l, r)) {
      return absl::InvalidArgumentError(absl::StrCat(op, ": key ", k, " is ", l.ToString(),
                                                     " on the left but ", r.ToString(),
                                                     " on the right"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckJoinCondition(const char* op, const Expr& condition,
                                const std::vector<DataType>& left_types,
                                const std::vector<DataType>& right_types) {
  if (condition.type.id != TypeId::kBoolean) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": the condition is ", condition.type.ToString(), ", not BOOLEAN"));
  }
  std::vector<DataType> both = left_types;
  both.insert(both.end(), right_types.begin(), right_types.end());
  return CheckConditionColumns(op, condition, both);
}

absl::Status CheckJoinInput(const char* op, int input, const ChangelogBatch& batch,
                            size_t left_columns, size_t right_columns) {
  if (input != 0 && input != 1) {
    return absl::InvalidArgumentError(absl::StrCat(op, " has two inputs, not ", input));
  }
  const size_t expected = input == 0 ? left_columns : right_columns;
  if (batch.num_rows() > 0 && batch.num_columns() != expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        op, ": input ", input, " has ", batch.num_columns(), " columns, expected ", expected));
  }
  return absl::OkStatus();
}

void EncodeJoinTimer(const JoinTimer& timer, std::string* out) {
  agg_codec::PutSigned(timer.time, out);
  out->push_back(static_cast<char>(timer.side));
  agg_codec::PutVarint(static_cast<uint64_t>(timer.key_group), out);
  agg_codec::PutString(timer.key, out);
}

bool DecodeJoinTimers(std::string_view encoded, int max_parallelism,
                      const std::function<void(JoinTimer)>& add) {
  agg_codec::Reader in(encoded);
  while (!in.done()) {
    JoinTimer t;
    t.time = in.Signed();
    t.side = in.Byte();
    const uint64_t key_group = in.Varint();
    t.key.assign(in.String());
    if (!in.ok() || t.side > 1 || key_group >= static_cast<uint64_t>(max_parallelism)) {
      return false;
    }
    t.key_group = static_cast<int>(key_group);
    add(std::move(t));
  }
  return true;
}

std::vector<int> AllColumns(size_t n) {
  std::vector<int> columns(n);
  for (size_t i = 0; i < n; ++i) columns[i] = static_cast<int>(i);
  return columns;
}

std::vector<Column> EmptyColumns(const std::vector<DataType>& types) {
  std::vector<Column> columns;
  columns.reserve(types.size());
  for (const DataType& t : types) columns.emplace_back(t);
  return columns;
}

void AppendTypes(const std::vector<DataType>& types, bool nullable, std::vector<DataType>* out) {
  for (const DataType& t : types) out->push_back(nullable ? t.WithNullable(true) : t);
}

absl::Status EvaluateJoinCondition(const Expr& condition, const ChangelogBatch& pairs,
                                   std::vector<uint8_t>* match) {
  const size_t n = pairs.num_rows();
  match->assign(n, 0);
  if (n == 0) return absl::OkStatus();
  ASSIGN_OR_RETURN(EvalColumn result, EvaluateView(condition, pairs));
  const Column& holds = result.get();
  for (size_t p = 0; p < n; ++p) {
    (*match)[p] = !holds.IsNull(p) && holds.Get<uint8_t>(p) != 0;
  }
  return absl::OkStatus();
}

}  // namespace eddy
