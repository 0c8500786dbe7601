// Internals shared by the evaluator's kernel files (eval_*.cc): output column builders over raw
// buffers, validity combination, physical-type dispatch and the kernel entry points. Not a public
// API: only common/expr includes it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/batch/column.h"
#include "common/expr/evaluator.h"
#include "common/expr/expr.h"
#include "common/expr/gather.h"
#include "common/types/time_zone.h"

namespace eddy::eval_internal {

using ArgList = std::vector<const Column*>;

inline size_t ValidityBytes(size_t n) { return (n + 7) / 8; }

// Validity of a null-propagating function: the AND of the arguments' bitmaps (empty = no nulls).
std::vector<uint8_t> CombineValidity(const ArgList& args, size_t n);

// Writes a fixed-width column directly into its buffer, then hands it to Column::FromRaw; this is
// what keeps the kernels free of per-row appends.
template <typename T>
class FixedBuilder {
 public:
  FixedBuilder(const DataType& type, size_t n) : type_(type), n_(n), data_(n * sizeof(T)) {}

  T* values() { return reinterpret_cast<T*>(data_.data()); }
  void SetValidity(std::vector<uint8_t> v) { validity_ = std::move(v); }
  bool IsNull(size_t i) const {
    return !validity_.empty() && !(validity_[i >> 3] & (1u << (i & 7)));
  }
  void SetNull(size_t i) {
    if (validity_.empty()) validity_.assign(ValidityBytes(n_), 0xff);
    validity_[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
    values()[i] = T{};
  }
  Column Finish() {
    return Column::FromRaw(type_, n_, std::move(data_), std::move(validity_), {}, {});
  }

 private:
  DataType type_;
  size_t n_;
  std::vector<uint8_t> data_;
  std::vector<uint8_t> validity_;
};

// Builds a string column row by row: Append/AppendNull, or write into heap() and Commit().
class StringBuilder {
 public:
  StringBuilder(const DataType& type, size_t n) : type_(type), n_(n) {
    offsets_.reserve(n + 1);
    offsets_.push_back(0);
  }
  void Append(std::string_view s) {
    heap_.append(s.data(), s.size());
    Commit();
  }
  std::string& heap() { return heap_; }
  void Commit() { offsets_.push_back(static_cast<uint32_t>(heap_.size())); }
  void AppendNull() {
    size_t i = offsets_.size() - 1;
    if (validity_.empty()) validity_.assign(ValidityBytes(n_), 0xff);
    validity_[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
    Commit();
  }
  Column Finish() {
    return Column::FromRaw(type_, n_, {}, std::move(validity_), std::move(offsets_),
                           std::move(heap_));
  }

 private:
  DataType type_;
  size_t n_;
  std::vector<uint32_t> offsets_;
  std::string heap_;
  std::vector<uint8_t> validity_;
};

// Calls f(T{}) with the C++ type of a fixed-width physical layout.
template <typename F>
decltype(auto) DispatchFixed(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kBoolean:
      return f(uint8_t{});
    case TypeId::kTinyInt:
      return f(int8_t{});
    case TypeId::kSmallInt:
      return f(int16_t{});
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      return f(int32_t{});
    case TypeId::kFloat:
      return f(float{});
    case TypeId::kDouble:
      return f(double{});
    case TypeId::kBigInt:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      return f(int64_t{});
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
    case TypeId::kNull:
      break;
  }
  return f(uint8_t{});  // kNull: one byte per (always null) row
}

// Calls f(T{}) for the integer types only; false when `id` is not an integer type.
template <typename F>
bool DispatchInteger(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kTinyInt:
      f(int8_t{});
      return true;
    case TypeId::kSmallInt:
      f(int16_t{});
      return true;
    case TypeId::kInt:
      f(int32_t{});
      return true;
    case TypeId::kBigInt:
      f(int64_t{});
      return true;
    default:
      return false;
  }
}

// A column of n copies of a literal.
Column Broadcast(const Value& v, const DataType& type, size_t n);

// A column of n NULLs.
Column AllNull(const DataType& type, size_t n);

absl::Status InternalError(const Expr& call, std::string_view what);

// Whether evaluating `e` can fail on some row (division, CAST, DECIMAL overflow). CASE, COALESCE,
// AND and OR evaluate such operands only on the rows that need them, as Flink's generated code
// does, so `CASE WHEN b <> 0 THEN a / b END` never divides by zero.
bool MayFail(const Expr& e);

// Evaluates `e` on the subset `rows` of `input` (all rows when `all` is set); the result has
// rows.size() rows (input.num_rows() when `all`).
absl::StatusOr<EvalColumn> EvalOnRows(const Expr& e, const ChangelogBatch& input,
                                      const std::vector<uint32_t>& rows, bool all);

// ---- kernels (one file each) ----
// Eager kernels get their evaluated arguments, each with n rows.
absl::StatusOr<Column> EvalArithmetic(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalComparison(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalPredicate(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalNot(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalString(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalLike(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalMath(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalTemporal(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalStringFunction(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalRegex(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalGreatestLeast(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalHash(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalBinaryFunction(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalRandom(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalDateTime(const Expr& call, const ArgList& args, size_t n);
absl::StatusOr<Column> EvalJson(const Expr& call, const ArgList& args, size_t n);
// `zone`: the session zone of a cast between TIMESTAMP_LTZ and TIMESTAMP, DATE or STRING
// (zoned_calls.h); UTC when null.
absl::StatusOr<Column> EvalCast(const Column& in, const DataType& to, bool try_cast,
                                const SessionTimeZone* zone = nullptr);
// CAST between binary strings and STRING (eval_cast_binary.cc).
absl::StatusOr<Column> BinaryCast(const Column& in, const DataType& to, bool try_cast);
// A user-defined scalar function (user_function_call.cc).
absl::StatusOr<Column> EvalUserFunction(const Expr& call, const ArgList& args, size_t n);
// Lazy kernels evaluate their own operands.
absl::StatusOr<Column> EvalAndOr(const Expr& call, const ChangelogBatch& input);
absl::StatusOr<Column> EvalCase(const Expr& call, const ChangelogBatch& input);
absl::StatusOr<Column> EvalCoalesce(const Expr& call, const ChangelogBatch& input);

}  // namespace eddy::eval_internal
