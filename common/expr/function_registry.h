// Resolution of scalar function calls: checks argument types, inserts implicit CASTs and computes
// the result type and nullability with Flink's rules. The binder builds every call through
// MakeCall, and plan deserialization re-resolves through it, so the evaluator only sees well-typed
// calls.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/expr/expr.h"
#include "common/types/data_type.h"

namespace eddy {

// Canonical function names (MakeCall upper-cases its input and maps the aliases in brackets):
//   arithmetic  "+" "-" "*" "/" "%" [MOD], "NEGATE" (unary minus)
//   comparison  "=" "<>" "<" "<=" ">" ">=" "IS NOT DISTINCT FROM" "IS DISTINCT FROM" (these two
//               treat NULL as a value and are never NULL)
//   logic       "AND" "OR" (2 or more args), "NOT"
//   predicates  "IS NULL" "IS NOT NULL" "IS TRUE" "IS FALSE" "IS NOT TRUE" "IS NOT FALSE"
//   "LIKE"      (str, pattern [, escape]); SQL % and _ wildcards. NOT LIKE = NOT(LIKE(..)).
//   "CASE"      (cond1, val1, cond2, val2, ..., [else]); a missing ELSE is NULL.
//               "IF"(c, a, b) is resolved to CASE(c, a, b). Simple CASE x WHEN v THEN .. is bound
//               by the binder as CASE(=(x, v), ..).
//   "COALESCE"  (a, b, ...)
//   strings     "||" (2 args) and "CONCAT" (n args; NULL if any arg is NULL), "CONCAT_WS"
//               (sep, a, ...; skips NULL args), "UPPER" "LOWER" "CHAR_LENGTH" [CHARACTER_LENGTH],
//               "TRIM" "LTRIM" "RTRIM" (str[, chars]: the characters of `chars`, default a
//               space; TRIM(BOTH|LEADING|TRAILING c FROM s) in SQL), "SUBSTRING" [SUBSTR] (str,
//               start[, len]; 1-based, in code points); the functions of resolve_internal.h
//               (REPLACE .. OVERLAY, REGEXP*, hashes, EXTRACT .., JSON_*, ...)
//   math        "ROUND" (x[, d]) "ABS" "FLOOR" "CEIL" [CEILING] "POWER" [POW] "SQRT" "EXP" "LN"
//               "LOG10"
//   casts       "CAST" "TRY_CAST": built with MakeCast, never MakeCall (the target type is the
//               call's type).
// Not functions: IN and BETWEEN are expanded by the binder: x IN (a, b) -> OR(=(x, a), =(x, b)),
// x BETWEEN lo AND hi -> AND(>=(x, lo), <=(x, hi)).
//
// Type rules (Flink's): integers promote TINYINT < SMALLINT < INT < BIGINT and integer op integer
// stays integer (also for '/', which truncates; '+' etc. wrap on overflow as Java does); integer op
// DECIMAL casts the integer to DECIMAL(digits, 0) (BIGINT -> DECIMAL(18, 0), see below); anything
// with FLOAT/DOUBLE is DOUBLE. DECIMAL results:
//   +, -  DECIMAL(max(p1-s1, p2-s2) + max(s1, s2) + 1, max(s1, s2))
//   *     DECIMAL(p1 + p2, s1 + s2)
//   /     scale max(6, s1 + p2 + 1), integer digits p1 - s1 + s2; when that exceeds 18 digits the
//         scale shrinks to max(min(scale, 6), 18 - integer digits) (SQL Server's rule, as Flink
//         would do at 38).
//   %     the common type of the operands.
// DECIMAL is limited to precision 18 (int64 unscaled), so every result precision and scale is
// clamped to 18; an arithmetic result that does not fit is an error at run time (Flink returns
// NULL; we refuse to put NULL into a NOT NULL column).
// Comparisons, CASE and COALESCE use the common type of their operands: numeric with numeric,
// string with string, boolean, DATE/TIMESTAMP (DATE widens to TIMESTAMP). STRING vs number is a
// type error, as in Flink.
// Nullability: nullable if any argument is; IS [NOT] NULL/TRUE/FALSE are NOT NULL; COALESCE is
// nullable only if every argument is; CASE if any value is or there is no ELSE; TRY_CAST always.
//
// Errors are InvalidArgument, e.g. "Cannot apply '+' to arguments of type <STRING> and <INT>",
// "Unknown function 'FOO'", "Invalid number of arguments to function 'ROUND': 3".
absl::StatusOr<ExprPtr> MakeCall(std::string_view function, std::vector<ExprPtr> args);

// CAST(arg AS to), or TRY_CAST (NULL instead of an error for bad values). `to`'s nullability is
// ignored: the result is nullable if `arg` is (always for TRY_CAST). Returns `arg` itself when no
// conversion is needed; a NULL literal becomes a NULL literal of type `to`. Call CheckCast first:
// an unsupported pair yields a call the evaluator rejects.
// A cast between TIMESTAMP_LTZ and TIMESTAMP, DATE or STRING converts in the zone of the statement
// being planned (zoned_calls.h), which it carries.
ExprPtr MakeCast(ExprPtr arg, DataType to, bool try_cast = false);
// The same in `zone` (a deserialized plan's cast).
ExprPtr MakeCastInZone(ExprPtr arg, DataType to, bool try_cast, const std::string& zone);

// OK when CAST(from AS to) is supported, else InvalidArgument
// "Cast from BOOLEAN to DATE is not supported".
absl::Status CheckCast(const DataType& from, const DataType& to);

// The type both operands convert to implicitly (for comparisons, CASE, COALESCE, UNION, VALUES);
// nullopt when there is none. Nullable if either is.
std::optional<DataType> CommonType(const DataType& a, const DataType& b);

// True for names MakeCall accepts (after upper-casing and aliasing), plus CAST and TRY_CAST.
bool IsKnownFunction(std::string_view function);
// The canonical names IsKnownFunction accepts (SHOW FUNCTIONS), aliases not included.
const std::vector<std::string>& KnownFunctionNames();

}  // namespace eddy
