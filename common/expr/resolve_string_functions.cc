// Type resolution of the string functions beyond the basic ones in function_registry.cc: REPLACE,
// SPLIT_INDEX, LPAD/RPAD, INITCAP, REVERSE, REPEAT, LEFT/RIGHT, POSITION/LOCATE, OVERLAY, and the
// regular expression functions, whose constant pattern must compile while planning.
#include <string>
#include <vector>

#include "common/base/status_macros.h"
#include "common/expr/regex.h"
#include "common/expr/resolve_internal.h"

namespace eddy::resolve_internal {

using K = ArgKind;

Resolved ResolveStringFunction(const std::string& fn, std::vector<ExprPtr> args) {
  DataType t = DataType::String();
  // Functions that return NULL for some non-NULL arguments are always nullable.
  bool always_nullable = false;
  if (fn == "REPLACE") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kString, K::kString}, 3));
  } else if (fn == "SPLIT_INDEX") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kString, K::kInteger}, 3));
    always_nullable = true;
  } else if (fn == "LPAD" || fn == "RPAD") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kInteger, K::kString}, 3));
    always_nullable = true;
  } else if (fn == "INITCAP" || fn == "REVERSE") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString}, 1));
  } else if (fn == "REPEAT" || fn == "LEFT" || fn == "RIGHT") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kInteger}, 2));
  } else if (fn == "POSITION" || fn == "LOCATE") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kString, K::kInteger}, 2));
    t = DataType::Int();
  } else if (fn == "OVERLAY") {
    RETURN_IF_ERROR(
        CheckSignature(fn, args, {K::kString, K::kString, K::kInteger, K::kInteger}, 3));
  } else {
    return absl::InternalError("not a string function: " + fn);
  }
  return NewCall(fn, std::move(args), t.WithNullable(always_nullable || AnyNullable(args)));
}

Resolved ResolveRegex(const std::string& fn, std::vector<ExprPtr> args) {
  DataType t = DataType::String();
  if (fn == "REGEXP") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kString}, 2));
    t = DataType::Boolean();
  } else if (fn == "REGEXP_EXTRACT") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kString, K::kInteger}, 2));
  } else {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kString, K::kString}, 3));
  }
  const Expr& pattern = *args[1];
  if (pattern.kind == ExprKind::kLiteral && pattern.literal.is_string()) {
    RETURN_IF_ERROR(CompileRegex(pattern.literal.string_value(), fn).status());
  }
  // NULL for a pattern that does not compile (a non-constant one), and for REGEXP_EXTRACT when
  // nothing matches.
  return NewCall(fn, std::move(args), t.WithNullable(true));
}

}  // namespace eddy::resolve_internal
