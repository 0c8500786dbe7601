// Type resolution of the time functions EXTRACT (and YEAR, MONTH, ... which become EXTRACT),
// TIMESTAMPADD, TIMESTAMPDIFF, DATE_FORMAT, UNIX_TIMESTAMP, FROM_UNIXTIME, TO_DATE and
// TO_TIMESTAMP with a pattern. The time unit of
// EXTRACT / TIMESTAMPADD / TIMESTAMPDIFF arrives as an upper-case string literal (the parser's).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/expr/datetime_pattern.h"
#include "common/expr/function_registry.h"
#include "common/expr/resolve_internal.h"

namespace eddy::resolve_internal {
namespace {

using K = ArgKind;

const std::vector<std::string>& ExtractUnits() {
  static const std::vector<std::string> units = {
      "YEAR", "QUARTER", "MONTH",  "WEEK",        "DAY",         "DOY",        "DOW",  "ISODOW",
      "HOUR", "MINUTE",  "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND", "EPOCH"};
  return units;
}

const std::vector<std::string>& TimestampUnits() {
  static const std::vector<std::string> units = {"MILLISECOND", "SECOND", "MINUTE",  "HOUR", "DAY",
                                                 "WEEK",        "MONTH",  "QUARTER", "YEAR"};
  return units;
}

// The unit literal of args[0], checked against `allowed` (SQL_TSI_DAY is DAY, FRAC_SECOND is
// MILLISECOND).
absl::StatusOr<std::string> Unit(const std::string& fn, std::vector<ExprPtr>& args,
                                 const std::vector<std::string>& allowed) {
  if (args.empty() || args[0]->kind != ExprKind::kLiteral || !args[0]->literal.is_string()) {
    return absl::InvalidArgumentError(absl::StrCat("'", fn, "' expects a time unit first"));
  }
  std::string unit = args[0]->literal.string_value();
  if (unit.rfind("SQL_TSI_", 0) == 0) unit = unit.substr(8);
  if (unit == "FRAC_SECOND") unit = "MILLISECOND";
  for (const auto& u : allowed) {
    if (u == unit) {
      args[0] = MakeLiteral(Value::String(unit), DataType::String().WithNullable(false));
      return unit;
    }
  }
  return absl::InvalidArgumentError(absl::StrCat("Invalid time unit '", unit, "' in '", fn,
                                                 "'; expected one of ",
                                                 absl::StrJoin(allowed, ", ")));
}

bool IsTimeOfDayUnit(const std::string& unit) {
  return unit == "MILLISECOND" || unit == "SECOND" || unit == "MINUTE" || unit == "HOUR";
}

absl::Status CheckConstantPattern(const std::vector<ExprPtr>& args, size_t i) {
  if (IsLiteralArg(args, i) && args[i]->literal.is_string()) {
    return DateTimePattern::Compile(args[i]->literal.string_value()).status();
  }
  return absl::OkStatus();
}

}  // namespace

// EXTRACT(unit, x) and YEAR(x), QUARTER, MONTH, WEEK, DAYOFYEAR, DAYOFMONTH, DAYOFWEEK, HOUR,
// MINUTE, SECOND: BIGINT.
Resolved ResolveExtract(const std::string& fn, std::vector<ExprPtr> args) {
  // A TIME has only the units of the time of day (HOUR(t), EXTRACT(SECOND FROM t), ...).
  const size_t value_arg = fn == "EXTRACT" ? 1 : 0;
  if (args.size() == value_arg + 1 && args[value_arg]->type.id == TypeId::kTime) {
    std::string unit = fn;
    if (fn == "EXTRACT") {
      ASSIGN_OR_RETURN(unit, Unit(fn, args, ExtractUnits()));
    } else {
      args.insert(args.begin(), MakeLiteral(Value::String(unit), DataType::String()));
    }
    if (!IsTimeOfDayUnit(unit) && unit != "MICROSECOND" && unit != "NANOSECOND") {
      return absl::InvalidArgumentError(absl::StrCat(
          "Cannot apply '", fn, "' to a TIME value: ", unit, " is not a unit of the time of day"));
    }
    const bool nullable = args[1]->type.nullable;
    return NewCall("EXTRACT", std::move(args), DataType::BigInt().WithNullable(nullable));
  }
  if (fn != "EXTRACT") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kTimestamp}, 1));
    std::string unit = fn == "DAYOFYEAR"    ? "DOY"
                       : fn == "DAYOFMONTH" ? "DAY"
                       : fn == "DAYOFWEEK"  ? "DOW"
                                            : fn;
    args.insert(args.begin(), MakeLiteral(Value::String(unit), DataType::String()));
  } else {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kTimeUnit, K::kTimestamp}, 2));
    RETURN_IF_ERROR(Unit(fn, args, ExtractUnits()).status());
  }
  const bool nullable = args[1]->type.nullable;
  return NewCall("EXTRACT", std::move(args), DataType::BigInt().WithNullable(nullable));
}

// TIMESTAMPADD(unit, n, t): t's type; a DATE plus hours or smaller units is a TIMESTAMP(3).
Resolved ResolveTimestampAdd(const std::string& fn, std::vector<ExprPtr> args) {
  RETURN_IF_ERROR(CheckSignature(fn, args, {K::kTimeUnit, K::kBigInt, K::kTimestamp}, 3));
  ASSIGN_OR_RETURN(std::string unit, Unit(fn, args, TimestampUnits()));
  DataType t = args[2]->type;
  if (t.id == TypeId::kDate && IsTimeOfDayUnit(unit)) t = DataType::Timestamp(3);
  return NewCall(fn, std::move(args), t.WithNullable(AnyNullable(args)));
}

// TIMESTAMPDIFF(unit, a, b): whole units from a to b, INT.
Resolved ResolveTimestampDiff(const std::string& fn, std::vector<ExprPtr> args) {
  RETURN_IF_ERROR(CheckSignature(fn, args, {K::kTimeUnit, K::kTimestamp, K::kTimestamp}, 3));
  RETURN_IF_ERROR(Unit(fn, args, TimestampUnits()).status());
  return NewCall(fn, std::move(args), DataType::Int().WithNullable(AnyNullable(args)));
}

// DATE_FORMAT(timestamp | string, pattern) STRING; a string is read as a timestamp first (NULL
// when it is none).
Resolved ResolveDateFormat(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() == 2 && args[0]->type.IsString()) {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kString}, 2));
  } else {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kTimestamp, K::kString}, 2));
  }
  RETURN_IF_ERROR(CheckConstantPattern(args, 1));
  const bool nullable = AnyNullable(args) || args[0]->type.IsString();
  return NewCall(fn, std::move(args), DataType::String().WithNullable(nullable));
}

// UNIX_TIMESTAMP() BIGINT, the current epoch second; UNIX_TIMESTAMP(s [, pattern]) parses s
// (Long.MIN_VALUE when it does not parse, as Flink). FROM_UNIXTIME(seconds [, pattern]) STRING.
Resolved ResolveUnixTime(const std::string& fn, std::vector<ExprPtr> args) {
  if (fn == "UNIX_TIMESTAMP") {
    RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kString}, 0));
    RETURN_IF_ERROR(CheckConstantPattern(args, 1));
    return NewCall(fn, std::move(args), DataType::BigInt().WithNullable(AnyNullable(args)));
  }
  RETURN_IF_ERROR(CheckSignature(fn, args, {K::kBigInt, K::kString}, 1));
  RETURN_IF_ERROR(CheckConstantPattern(args, 1));
  return NewCall(fn, std::move(args), DataType::String().WithNullable(AnyNullable(args)));
}

// TO_DATE(s [, pattern]) DATE (default pattern 'yyyy-MM-dd'), TO_TIMESTAMP(s, pattern)
// TIMESTAMP(3): NULL when s does not match the whole pattern.
Resolved ResolveToDateTime(const std::string& fn, std::vector<ExprPtr> args) {
  const bool date = fn == "TO_DATE";
  RETURN_IF_ERROR(CheckSignature(fn, args, {K::kString, K::kString}, date ? 1 : 2));
  RETURN_IF_ERROR(CheckConstantPattern(args, 1));
  DataType t = date ? DataType::Date() : DataType::Timestamp(3);
  return NewCall(fn, std::move(args), t.WithNullable(true));
}

}  // namespace eddy::resolve_internal
