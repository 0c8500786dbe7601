// Type resolution of NULLIF, GREATEST/LEAST, the hash functions (MD5, SHA1, SHA2 family) and the
// DOUBLE math functions (LOG, LOG2, trigonometry, PI, E, RAND, RAND_INTEGER).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/evaluator.h"
#include "common/expr/function_registry.h"
#include "common/expr/resolve_internal.h"

namespace eddy::resolve_internal {

using K = ArgKind;

// NULLIF(a, b) is CASE WHEN a = b THEN NULL ELSE a END, of a's type (nullable).
Resolved ResolveNullIf(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 2) return WrongArgCount(fn, args.size());
  if (IsNullType(args[0])) return IllegalNull(fn);
  if (!CommonType(args[0]->type, args[1]->type)) return CannotApply(fn, args);
  const DataType t = args[0]->type.WithNullable(true);
  ASSIGN_OR_RETURN(ExprPtr equal, MakeCall("=", {args[0], args[1]}));
  return NewCall("CASE", {std::move(equal), MakeLiteral(Value::Null(), t), args[0]}, t);
}

// GREATEST/LEAST(v1, v2, ...): the common type of the arguments; NULL if any argument is NULL.
Resolved ResolveGreatestLeast(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.empty()) return WrongArgCount(fn, 0);
  std::vector<size_t> all(args.size());
  for (size_t i = 0; i < args.size(); ++i) all[i] = i;
  ASSIGN_OR_RETURN(DataType common, CommonOf(fn, args, all));
  if (common.id == TypeId::kInterval || common.id == TypeId::kIntervalYearMonth) {
    return CannotApply(fn, args);
  }
  for (auto& a : args) a = CastIfNeeded(a, common);
  return NewCall(fn, std::move(args), common.WithNullable(AnyNullable(args)));
}

Resolved ResolveHash(const std::string& fn, std::vector<ExprPtr> args) {
  bool nullable;
  if (fn == "SHA2") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kInteger}, 2));
    nullable = true;  // NULL for a bit length other than 224, 256, 384 or 512
  } else {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString}, 1));
    nullable = AnyNullable(args);
  }
  return NewCall(fn, std::move(args), DataType::String().WithNullable(nullable));
}

Resolved ResolveDoubleMath(const std::string& fn, std::vector<ExprPtr> args) {
  if (fn == "PI" || fn == "E") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {}, 0));
    return NewCall(fn, std::move(args), DataType::Double().WithNullable(false));
  }
  if (fn == "LOG") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kNumeric, K::kNumeric}, 1));
  } else if (fn == "ATAN2") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kNumeric, K::kNumeric}, 2));
  } else {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kNumeric}, 1));
  }
  return NewCall(fn, std::move(args), DataType::Double().WithNullable(AnyNullable(args)));
}

// RAND([seed]) DOUBLE in [0, 1); RAND_INTEGER([seed,] bound) INT in [0, bound). A seed must be a
// constant: the call then yields the sequence of Java's new Random(seed).
Resolved ResolveRand(const std::string& fn, std::vector<ExprPtr> args) {
  const bool integer = fn == "RAND_INTEGER";
  if (integer) {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kInteger, K::kInteger}, 1));
  } else {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kInteger}, 0));
  }
  const bool seeded = args.size() == (integer ? 2u : 1u);
  if (seeded && !IsConstant(*args[0])) {
    return absl::InvalidArgumentError(
        absl::StrCat("The seed of '", fn, "' (argument 1) must be a constant integer"));
  }
  DataType t = integer ? DataType::Int() : DataType::Double();
  return NewCall(fn, std::move(args), t.WithNullable(AnyNullable(args)));
}

}  // namespace eddy::resolve_internal
