// The type resolvers of the scalar functions (function_registry.cc), one per family: each checks a
// call's arguments, inserts implicit casts and computes the result type (Flink's rules, described
// in function_registry.h). Only the function table (function_table.cc) refers to them.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/expr/expr.h"

namespace eddy::resolve_internal {

using Resolved = absl::StatusOr<ExprPtr>;

// ---- helpers shared by the resolver files ----
std::string TypeText(const DataType& t);  // "<INT>"
absl::Status CannotApply(const std::string& fn, const std::vector<ExprPtr>& args);
absl::Status WrongArgCount(const std::string& fn, size_t n);
absl::Status IllegalNull(const std::string& fn);
bool AnyNullable(const std::vector<ExprPtr>& args);
bool IsNullType(const ExprPtr& e);
ExprPtr CastIfNeeded(ExprPtr e, const DataType& to);
ExprPtr NewCall(std::string name, std::vector<ExprPtr> args, DataType type);
absl::StatusOr<DataType> CommonOf(const std::string& fn, const std::vector<ExprPtr>& args,
                                  const std::vector<size_t>& idx);

// What one argument of a function accepts (resolve_signature.cc).
enum class ArgKind {
  kString,     // STRING / VARCHAR
  kInteger,    // TINYINT .. BIGINT, cast to INT
  kBigInt,     // TINYINT .. BIGINT, cast to BIGINT
  kNumeric,    // any number, cast to DOUBLE
  kBoolean,    //
  kTimestamp,  // TIMESTAMP or DATE (kept as it is); TIMESTAMP_LTZ, cast to TIMESTAMP in the zone
  kAny,        //
  kTimeUnit,   // the unit literal of EXTRACT / TIMESTAMPADD / TIMESTAMPDIFF
};

// Checks a call against its signature: between `min_args` and kinds.size() arguments, argument i
// of kind kinds[i]. Untyped NULLs take the kind's type and integers are cast as the kind says.
// Errors name the function, the argument and the types, e.g. "Cannot apply 'LPAD' to arguments of
// type 'LPAD(<STRING>, <STRING>, <STRING>)': argument 2 must be <INTEGER>. Supported form(s):
// 'LPAD(<STRING>, <INTEGER>, <STRING>)'".
absl::Status CheckSignature(const std::string& fn, std::vector<ExprPtr>& args,
                            const std::vector<ArgKind>& kinds, size_t min_args);
// Whether argument `i` is a literal (possibly NULL) known while planning.
bool IsLiteralArg(const std::vector<ExprPtr>& args, size_t i);

Resolved ResolveArithmetic(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveNegate(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveComparison(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveLogic(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolvePredicate(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveLike(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveCase(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveIf(const std::string& fn, std::vector<ExprPtr> args);  // becomes CASE
Resolved ResolveCoalesce(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveStrings(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveSubstring(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveMath(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveTemporal(const std::string& fn, std::vector<ExprPtr> args);
// Added string functions (resolve_string_functions.cc): REPLACE, SPLIT_INDEX, LPAD, RPAD,
// INITCAP, REVERSE, REPEAT, LEFT, RIGHT, POSITION, LOCATE, OVERLAY, and the regular expressions
// REGEXP, REGEXP_EXTRACT, REGEXP_REPLACE (a constant pattern is checked while planning).
Resolved ResolveStringFunction(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveRegex(const std::string& fn, std::vector<ExprPtr> args);
// NULLIF (becomes CASE), GREATEST, LEAST (resolve_misc_functions.cc).
Resolved ResolveNullIf(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveGreatestLeast(const std::string& fn, std::vector<ExprPtr> args);
// MD5, SHA1, SHA224, SHA256, SHA384, SHA512, SHA2(s, bits).
Resolved ResolveHash(const std::string& fn, std::vector<ExprPtr> args);
// ENCODE, DECODE, TO_BASE64, FROM_BASE64 (binary_functions.cc).
Resolved ResolveBinaryFunction(const std::string& fn, std::vector<ExprPtr> args);
// DOUBLE math: LOG, LOG2, trigonometry, PI, E; RAND (SIGN and TRUNCATE resolve as ABS and ROUND).
Resolved ResolveDoubleMath(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveRand(const std::string& fn, std::vector<ExprPtr> args);
// Time functions (resolve_time_functions.cc).
Resolved ResolveExtract(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveTimestampAdd(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveTimestampDiff(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveDateFormat(const std::string& fn, std::vector<ExprPtr> args);
Resolved ResolveUnixTime(const std::string& fn, std::vector<ExprPtr> args);
// TO_DATE(s [, pattern]) and TO_TIMESTAMP(s, pattern).
Resolved ResolveToDateTime(const std::string& fn, std::vector<ExprPtr> args);
// JSON functions (resolve_json_functions.cc).
Resolved ResolveJson(const std::string& fn, std::vector<ExprPtr> args);
// CAST and TRY_CAST are built with MakeCast: called as functions they are an error.
Resolved ResolveNeedsTargetType(const std::string& fn, std::vector<ExprPtr> args);

}  // namespace eddy::resolve_internal
