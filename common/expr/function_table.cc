#include "common/expr/function_table.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "common/base/status_macros.h"
#include "common/expr/collection_functions.h"
#include "common/expr/eval_internal.h"
#include "common/expr/resolve_internal.h"
#include "common/expr/zoned_calls.h"

namespace eddy {
namespace {

using namespace resolve_internal;  // NOLINT: the resolvers are what the table lists
using eval_internal::ArgList;

absl::StatusOr<Column> EvalCastCall(const Expr& call, const ArgList& args, size_t) {
  const bool try_cast = call.function == "TRY_CAST";
  if (args.size() == 2) {  // converts through the session zone it carries
    ASSIGN_OR_RETURN(std::shared_ptr<SessionTimeZone> zone, CallTimeZone(call));
    return eval_internal::EvalCast(*args[0], call.type, try_cast, zone.get());
  }
  if (args.size() != 1) return eval_internal::InternalError(call, "expected one argument");
  return eval_internal::EvalCast(*args[0], call.type, try_cast);
}

std::vector<FunctionDef> BuildTable() {
  using eval_internal::EvalAndOr;
  using eval_internal::EvalArithmetic;
  using eval_internal::EvalBinaryFunction;
  using eval_internal::EvalCase;
  using eval_internal::EvalCoalesce;
  using eval_internal::EvalComparison;
  using eval_internal::EvalDateTime;
  using eval_internal::EvalGreatestLeast;
  using eval_internal::EvalHash;
  using eval_internal::EvalJson;
  using eval_internal::EvalLike;
  using eval_internal::EvalMath;
  using eval_internal::EvalNot;
  using eval_internal::EvalPredicate;
  using eval_internal::EvalRandom;
  using eval_internal::EvalRegex;
  using eval_internal::EvalString;
  using eval_internal::EvalStringFunction;
  using eval_internal::EvalTemporal;
  return {
      // arithmetic
      {"+", {}, ResolveArithmetic, EvalArithmetic},
      {"-", {}, ResolveArithmetic, EvalArithmetic},
      {"*", {}, ResolveArithmetic, EvalArithmetic},
      {"/", {}, ResolveArithmetic, EvalArithmetic},
      {"%", {"MOD"}, ResolveArithmetic, EvalArithmetic},
      {"NEGATE", {}, ResolveNegate, EvalArithmetic},
      // comparison
      {"=", {}, ResolveComparison, EvalComparison},
      {"<>", {"!="}, ResolveComparison, EvalComparison},
      {"IS NOT DISTINCT FROM", {}, ResolveComparison, EvalComparison},
      {"IS DISTINCT FROM", {}, ResolveComparison, EvalComparison},
      {"<", {}, ResolveComparison, EvalComparison},
      {"<=", {}, ResolveComparison, EvalComparison},
      {">", {}, ResolveComparison, EvalComparison},
      {">=", {}, ResolveComparison, EvalComparison},
      // logic and predicates
      {"AND", {}, ResolveLogic, nullptr, EvalAndOr},
      {"OR", {}, ResolveLogic, nullptr, EvalAndOr},
      {"NOT", {}, ResolveLogic, EvalNot},
      {"IS NULL", {}, ResolvePredicate, EvalPredicate},
      {"IS NOT NULL", {}, ResolvePredicate, EvalPredicate},
      {"IS TRUE", {}, ResolvePredicate, EvalPredicate},
      {"IS FALSE", {}, ResolvePredicate, EvalPredicate},
      {"IS NOT TRUE", {}, ResolvePredicate, EvalPredicate},
      {"IS NOT FALSE", {}, ResolvePredicate, EvalPredicate},
      {"LIKE", {}, ResolveLike, EvalLike},
      // conditional
      {"CASE", {}, ResolveCase, nullptr, EvalCase},
      {"IF", {}, ResolveIf},
      {"COALESCE", {}, ResolveCoalesce, nullptr, EvalCoalesce},
      {"NULLIF", {}, ResolveNullIf},
      {"GREATEST", {}, ResolveGreatestLeast, EvalGreatestLeast},
      {"LEAST", {}, ResolveGreatestLeast, EvalGreatestLeast},
      // strings
      {"||", {}, ResolveStrings, EvalString},
      {"CONCAT", {}, ResolveStrings, EvalString},
      {"CONCAT_WS", {}, ResolveStrings, EvalString},
      {"UPPER", {}, ResolveStrings, EvalString},
      {"LOWER", {}, ResolveStrings, EvalString},
      {"CHAR_LENGTH", {"CHARACTER_LENGTH"}, ResolveStrings, EvalString},
      {"TRIM", {}, ResolveStrings, EvalString},
      {"LTRIM", {}, ResolveStrings, EvalString},
      {"RTRIM", {}, ResolveStrings, EvalString},
      {"SUBSTRING", {"SUBSTR"}, ResolveSubstring, EvalString},
      {"REPLACE", {}, ResolveStringFunction, EvalStringFunction},
      {"SPLIT_INDEX", {}, ResolveStringFunction, EvalStringFunction},
      {"LPAD", {}, ResolveStringFunction, EvalStringFunction},
      {"RPAD", {}, ResolveStringFunction, EvalStringFunction},
      {"INITCAP", {}, ResolveStringFunction, EvalStringFunction},
      {"REVERSE", {}, ResolveStringFunction, EvalStringFunction},
      {"REPEAT", {}, ResolveStringFunction, EvalStringFunction},
      {"LEFT", {}, ResolveStringFunction, EvalStringFunction},
      {"RIGHT", {}, ResolveStringFunction, EvalStringFunction},
      {"POSITION", {}, ResolveStringFunction, EvalStringFunction},
      {"LOCATE", {}, ResolveStringFunction, EvalStringFunction},
      {"OVERLAY", {}, ResolveStringFunction, EvalStringFunction},
      {"REGEXP", {}, ResolveRegex, EvalRegex},
      {"REGEXP_EXTRACT", {}, ResolveRegex, EvalRegex},
      {"REGEXP_REPLACE", {}, ResolveRegex, EvalRegex},
      // hashing
      {"MD5", {}, ResolveHash, EvalHash},
      {"SHA1", {}, ResolveHash, EvalHash},
      {"SHA224", {}, ResolveHash, EvalHash},
      {"SHA256", {}, ResolveHash, EvalHash},
      {"SHA384", {}, ResolveHash, EvalHash},
      {"SHA512", {}, ResolveHash, EvalHash},
      {"SHA2", {}, ResolveHash, EvalHash},
      // binary strings
      {"ENCODE", {}, ResolveBinaryFunction},
      {"DECODE", {}, ResolveBinaryFunction, EvalBinaryFunction},
      {"TO_BASE64", {}, ResolveBinaryFunction, EvalBinaryFunction},
      {"FROM_BASE64", {}, ResolveBinaryFunction, EvalBinaryFunction},
      // math
      {"ROUND", {}, ResolveMath, EvalMath},
      {"ABS", {}, ResolveMath, EvalMath},
      {"FLOOR", {}, ResolveMath, EvalMath},
      {"CEIL", {"CEILING"}, ResolveMath, EvalMath},
      {"POWER", {"POW"}, ResolveMath, EvalMath},
      {"SQRT", {}, ResolveMath, EvalMath},
      {"EXP", {}, ResolveMath, EvalMath},
      {"LN", {}, ResolveMath, EvalMath},
      {"LOG10", {}, ResolveMath, EvalMath},
      {"TRUNCATE", {}, ResolveMath, EvalMath},
      {"SIGN", {}, ResolveMath, EvalMath},
      {"LOG", {}, ResolveDoubleMath, EvalMath},
      {"LOG2", {}, ResolveDoubleMath, EvalMath},
      {"SIN", {}, ResolveDoubleMath, EvalMath},
      {"COS", {}, ResolveDoubleMath, EvalMath},
      {"TAN", {}, ResolveDoubleMath, EvalMath},
      {"COT", {}, ResolveDoubleMath, EvalMath},
      {"ASIN", {}, ResolveDoubleMath, EvalMath},
      {"ACOS", {}, ResolveDoubleMath, EvalMath},
      {"ATAN", {}, ResolveDoubleMath, EvalMath},
      {"ATAN2", {}, ResolveDoubleMath, EvalMath},
      {"SINH", {}, ResolveDoubleMath, EvalMath},
      {"COSH", {}, ResolveDoubleMath, EvalMath},
      {"TANH", {}, ResolveDoubleMath, EvalMath},
      {"DEGREES", {}, ResolveDoubleMath, EvalMath},
      {"RADIANS", {}, ResolveDoubleMath, EvalMath},
      {"PI", {}, ResolveDoubleMath, EvalMath},
      {"E", {}, ResolveDoubleMath, EvalMath},
      // random numbers: a new value on every call
      {"RAND", {}, ResolveRand, EvalRandom, nullptr, false},
      {"RAND_INTEGER", {}, ResolveRand, EvalRandom, nullptr, false},
      // JSON
      {"JSON_VALUE", {}, ResolveJson, EvalJson},
      {"JSON_QUERY", {}, ResolveJson, EvalJson},
      {"JSON_OBJECT", {}, ResolveJson, EvalJson},
      {"JSON_ARRAY", {}, ResolveJson, EvalJson},
      {"IS JSON", {}, ResolveJson, EvalJson},
      // collections: constructors, a[i] / m[k] (ITEM), r.f (FIELD)
      {"ARRAY", {}, ResolveCollectionCall, EvalCollectionCall},
      {"MAP", {}, ResolveCollectionCall, EvalCollectionCall},
      {"ROW", {}, ResolveCollectionCall, EvalCollectionCall},
      {"ITEM", {}, ResolveCollectionCall, EvalCollectionCall},
      {"FIELD", {}, ResolveCollectionCall, EvalCollectionCall},
      {"CARDINALITY", {}, ResolveCollectionCall, EvalCollectionCall},
      {"ELEMENT", {}, ResolveCollectionCall, EvalCollectionCall},
      // casts (built by MakeCast)
      {"CAST", {}, ResolveNeedsTargetType, EvalCastCall},
      {"TRY_CAST", {}, ResolveNeedsTargetType, EvalCastCall},
      // temporal: the current time changes from call to call
      {"CURRENT_TIMESTAMP", {}, ResolveTemporal, EvalTemporal, nullptr, false},
      {"LOCALTIMESTAMP", {}, ResolveTemporal, EvalTemporal, nullptr, false},
      {"NOW", {}, ResolveTemporal, EvalTemporal, nullptr, false},
      {"CURRENT_DATE", {}, ResolveTemporal, EvalTemporal, nullptr, false},
      {"CURRENT_TIME", {}, ResolveTemporal, EvalTemporal, nullptr, false},
      {"LOCALTIME", {}, ResolveTemporal, EvalTemporal, nullptr, false},
      // PROCTIME(): the wall clock where it is computed; as a column, a processing-time attribute
      {"PROCTIME", {}, ResolveTemporal, EvalTemporal, nullptr, false},
      {"TO_TIMESTAMP", {}, ResolveTemporal, EvalTemporal},
      {"TO_TIMESTAMP_LTZ", {}, ResolveTemporal, EvalTemporal},
      {"EXTRACT", {}, ResolveExtract, EvalDateTime},
      {"YEAR", {}, ResolveExtract, EvalDateTime},
      {"QUARTER", {}, ResolveExtract, EvalDateTime},
      {"MONTH", {}, ResolveExtract, EvalDateTime},
      {"WEEK", {}, ResolveExtract, EvalDateTime},
      {"DAYOFYEAR", {}, ResolveExtract, EvalDateTime},
      {"DAYOFMONTH", {}, ResolveExtract, EvalDateTime},
      {"DAYOFWEEK", {}, ResolveExtract, EvalDateTime},
      {"HOUR", {}, ResolveExtract, EvalDateTime},
      {"MINUTE", {}, ResolveExtract, EvalDateTime},
      {"SECOND", {}, ResolveExtract, EvalDateTime},
      {"TIMESTAMPADD", {}, ResolveTimestampAdd, EvalDateTime},
      {"TIMESTAMPDIFF", {}, ResolveTimestampDiff, EvalDateTime},
      {"DATE_FORMAT", {}, ResolveDateFormat, EvalDateTime},
      {"FROM_UNIXTIME", {}, ResolveUnixTime, EvalDateTime},
      {"TO_DATE", {}, ResolveToDateTime, EvalDateTime},
      // UNIX_TIMESTAMP() reads the clock
      {"UNIX_TIMESTAMP", {}, ResolveUnixTime, EvalDateTime, nullptr, false},
  };
}

}  // namespace

const std::vector<FunctionDef>& ScalarFunctions() {
  static const std::vector<FunctionDef>* table = new std::vector<FunctionDef>(BuildTable());
  return *table;
}

const FunctionDef* FindFunction(std::string_view name) {
  static const auto* by_name = [] {
    auto* m = new absl::flat_hash_map<std::string, const FunctionDef*>();
    for (const FunctionDef& f : ScalarFunctions()) {
      (*m)[std::string(f.name)] = &f;
      for (std::string_view alias : f.aliases) (*m)[std::string(alias)] = &f;
    }
    return m;
  }();
  auto it = by_name->find(absl::AsciiStrToUpper(absl::string_view(name.data(), name.size())));
  return it == by_name->end() ? nullptr : it->second;
}

}  // namespace eddy
