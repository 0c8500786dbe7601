// Built-in aggregate functions as the binder sees them: name lookup and result types (Flink's
// rules, capped at our DECIMAL precision of 18). Workers implement them in
// worker/operators/accumulator.h.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/types/data_type.h"

namespace eddy {

enum class AggKind {
  kCountStar,
  kCount,
  kSum,
  kAvg,
  kMin,
  kMax,
  kFirstValue,  // the first non-NULL value in arrival order
  kLastValue,   // the last non-NULL value in arrival order
  kListAgg,     // the non-NULL strings in arrival order, joined by a separator
  // A user-defined aggregate function (docs/udf.md): its accumulator is the library's bytes; its
  // argument and result types are the function's. ParseAggKind never returns it.
  kUser,
};

// LISTAGG's separator when the call gives none (Flink's default).
inline constexpr std::string_view kDefaultListAggSeparator = ",";

// Case-insensitive COUNT/SUM/AVG/MIN/MAX/FIRST_VALUE/LAST_VALUE/LISTAGG. `star_argument` is true
// for `COUNT(*)` (kCountStar); a `*` with any other function is an error. Unknown names are
// NotFound.
absl::StatusOr<AggKind> ParseAggKind(std::string_view name, bool star_argument = false);

// The aggregate functions SQL can call (SHOW FUNCTIONS lists them with the scalar ones).
const std::vector<std::string>& BuiltinAggregateNames();
bool IsBuiltinAggregate(std::string_view name);

// Upper-case SQL name ("COUNT" for both COUNT kinds), for EXPLAIN and messages.
std::string_view AggKindName(AggKind kind);

// Result type of `kind` applied to `arg` (ignored for kCountStar), as Flink derives it:
//   COUNT(*), COUNT(x)           -> BIGINT NOT NULL
//   SUM(integer)                 -> the argument's integer type (Flink's findSumAggType)
//   SUM(DECIMAL(p, s))           -> DECIMAL(18, s)   (Flink: DECIMAL(38, s))
//   SUM(FLOAT) / SUM(DOUBLE)     -> FLOAT / DOUBLE   (Flink keeps the argument type)
//   AVG(integer)                 -> the argument's type; the average truncates toward zero
//   AVG(DECIMAL(p, s))           -> DECIMAL(18, max(6, s)), rounded half-up
//                                   (Flink: DECIMAL(38, max(6, s)))
//   AVG(FLOAT) / AVG(DOUBLE)     -> FLOAT / DOUBLE
//   MIN(x), MAX(x)               -> the argument's type
//   FIRST_VALUE(x), LAST_VALUE(x) -> the argument's type
//   LISTAGG(string)              -> STRING
// Every result but COUNT's is nullable: a group whose non-null values have all been retracted
// yields NULL. SUM/AVG of a non-numeric type is InvalidArgument
// "Cannot apply 'SUM' to arguments of type <STRING>"; so is LISTAGG of a non-string.
absl::StatusOr<DataType> AggResultType(AggKind kind, const DataType& arg);

// Two-phase (local-global) aggregation: the accumulator fields a LocalGroupAggregate emits for one
// call, per key and mini-batch, and a GlobalGroupAggregate merges into its state. `name` is Flink's
// accumulator name (the planner appends `$<n>`). `retracting`: the input carries retractions, so
// the fields are signed deltas.
//   COUNT(*)   count1  BIGINT NOT NULL
//   COUNT(x)   count   BIGINT NOT NULL
//   SUM(x)     sum     BIGINT (integers), DECIMAL(18, s), FLOAT or DOUBLE; NULL when the mini-batch
//                      had no non-null x. Retracting: (sum NOT NULL, count BIGINT NOT NULL).
//   AVG(x)     (sum, count): sum BIGINT (integers), DECIMAL(18, s) or DOUBLE, both NOT NULL
//   MIN/MAX(x) min / max of x's type, NULL when the mini-batch had no non-null x
//   user f     acc     STRING NOT NULL: the function's accumulator bytes (of the mini-batch's rows,
//                      retractions included), merged by its merge
//   LISTAGG(x) concatAcc STRING: the mini-batch's values joined by the separator, NULL when
//                    none (Flink also carries the separator, accDelimiter; here it is the plan's)
// DISTINCT calls, and MIN/MAX and LISTAGG over retracting input, cannot be split
// (FailedPrecondition): they keep sets or lists of values, which a row of partial accumulators does
// not carry. Neither can FIRST_VALUE and LAST_VALUE: as Flink's, they have no merge (which of two
// partials came first is not known).
struct AggPartialField {
  std::string_view name;
  DataType type;
};
absl::StatusOr<std::vector<AggPartialField>> AggPartialFields(AggKind kind, const DataType& arg,
                                                              bool distinct, bool retracting);
// With a retracting input the partials must carry each key's row-count delta: a COUNT(*) call's
// count1 serves, otherwise the local aggregate appends this field after all calls' fields.
inline AggPartialField AggPartialRowCountField() {
  return {"count1", DataType::BigInt().WithNullable(false)};
}

}  // namespace eddy
