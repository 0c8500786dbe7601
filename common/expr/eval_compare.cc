// Kernels for = <> < <= > >=. Operands arrive in their common type (MakeCall casts), so each
// comparison is one typed loop; strings compare as UTF-8 bytes, as Flink's BinaryStringData.
#include <string_view>

#include "common/expr/eval_internal.h"

namespace eddy::eval_internal {
namespace {

enum class Cmp { kEq, kNe, kLt, kLe, kGt, kGe };

template <typename T>
inline bool Compare(Cmp op, const T& a, const T& b) {
  switch (op) {
    case Cmp::kEq:
      return a == b;
    case Cmp::kNe:
      return a != b;
    case Cmp::kLt:
      return a < b;
    case Cmp::kLe:
      return a <= b;
    case Cmp::kGt:
      return a > b;
    case Cmp::kGe:
      return a >= b;
  }
  return false;
}

// One loop per operator (op is a template argument) so the compiler emits a branch-free body.
template <Cmp kOp, typename T>
void CompareLoop(const T* a, const T* b, uint8_t* r, size_t n) {
  for (size_t i = 0; i < n; ++i) r[i] = Compare(kOp, a[i], b[i]);
}

template <typename T>
void CompareFixed(Cmp op, const Column& ca, const Column& cb, uint8_t* r, size_t n) {
  const T* a = ca.data<T>();
  const T* b = cb.data<T>();
  switch (op) {
    case Cmp::kEq:
      CompareLoop<Cmp::kEq>(a, b, r, n);
      break;
    case Cmp::kNe:
      CompareLoop<Cmp::kNe>(a, b, r, n);
      break;
    case Cmp::kLt:
      CompareLoop<Cmp::kLt>(a, b, r, n);
      break;
    case Cmp::kLe:
      CompareLoop<Cmp::kLe>(a, b, r, n);
      break;
    case Cmp::kGt:
      CompareLoop<Cmp::kGt>(a, b, r, n);
      break;
    case Cmp::kGe:
      CompareLoop<Cmp::kGe>(a, b, r, n);
      break;
  }
}

Cmp ParseCmp(const std::string& f) {
  if (f == "=") return Cmp::kEq;
  if (f == "<>") return Cmp::kNe;
  if (f == "<") return Cmp::kLt;
  if (f == "<=") return Cmp::kLe;
  if (f == ">") return Cmp::kGt;
  return Cmp::kGe;
}

}  // namespace

absl::StatusOr<Column> EvalComparison(const Expr& call, const ArgList& args, size_t n) {
  if (args.size() != 2) return InternalError(call, "expected two arguments");
  const Column& a = *args[0];
  const Column& b = *args[1];
  if (a.type().id != b.type().id) return InternalError(call, "operands of different types");
  const bool not_distinct = call.function == "IS NOT DISTINCT FROM";
  const bool null_safe = not_distinct || call.function == "IS DISTINCT FROM";
  Cmp op = null_safe ? (not_distinct ? Cmp::kEq : Cmp::kNe) : ParseCmp(call.function);
  FixedBuilder<uint8_t> out(call.type, n);
  if (!null_safe) out.SetValidity(CombineValidity(args, n));
  uint8_t* r = out.values();
  if (a.is_string()) {
    for (size_t i = 0; i < n; ++i) r[i] = Compare(op, a.GetString(i), b.GetString(i));
  } else if (a.type().id == TypeId::kNull) {
    if (!null_safe) return AllNull(call.type, n);
    for (size_t i = 0; i < n; ++i) r[i] = 0;
  } else {
    DispatchFixed(a.type().id, [&](auto t) { CompareFixed<decltype(t)>(op, a, b, r, n); });
  }
  if (null_safe) {
    // NULL is not distinct from NULL and distinct from every value.
    for (size_t i = 0; i < n; ++i) {
      const bool a_null = a.IsNull(i);
      const bool b_null = b.IsNull(i);
      if (a_null || b_null) r[i] = (a_null && b_null) == not_distinct ? 1 : 0;
    }
  }
  return out.Finish();
}

}  // namespace eddy::eval_internal
