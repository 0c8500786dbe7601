#include "common/expr/function_registry.h"

#include <algorithm>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/expr/function_table.h"
#include "common/expr/resolve_internal.h"
#include "common/expr/zoned_calls.h"
#include "common/types/collection_codec.h"
#include "common/types/timestamp_precision.h"

namespace eddy {
namespace resolve_internal {

constexpr int kMaxP = kMaxDecimalPrecision;

std::string TypeText(const DataType& t) {
  return absl::StrCat("<", t.WithNullable(true).ToString(), ">");
}

absl::Status CannotApply(const std::string& fn, const std::vector<ExprPtr>& args) {
  std::string types;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) types += (i + 1 == args.size()) ? " and " : ", ";
    types += TypeText(args[i]->type);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("Cannot apply '", fn, "' to arguments of type ", types));
}

absl::Status WrongArgCount(const std::string& fn, size_t n) {
  return absl::InvalidArgumentError(
      absl::StrCat("Invalid number of arguments to function '", fn, "': ", n));
}

absl::Status IllegalNull(const std::string& fn) {
  return absl::InvalidArgumentError(absl::StrCat("Illegal use of 'NULL' in '", fn, "'"));
}

bool AnyNullable(const std::vector<ExprPtr>& args) {
  for (const auto& a : args) {
    if (a->type.nullable) return true;
  }
  return false;
}

bool IsNullType(const ExprPtr& e) { return e->type.id == TypeId::kNull; }
bool AllNullType(const std::vector<ExprPtr>& args) {
  return std::all_of(args.begin(), args.end(), IsNullType);
}

int IntegerRank(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt:
      return 1;
    case TypeId::kSmallInt:
      return 2;
    case TypeId::kInt:
      return 3;
    case TypeId::kBigInt:
      return 4;
    default:
      return 0;
  }
}

// Decimal digits needed for an integer type (BIGINT needs 19, clamped to our 18).
int IntegerDigits(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt:
      return 3;
    case TypeId::kSmallInt:
      return 5;
    case TypeId::kInt:
      return 10;
    default:
      return kMaxP;
  }
}

DataType AsDecimal(const DataType& t) {
  if (t.id == TypeId::kDecimal) return t;
  return DataType::Decimal(IntegerDigits(t.id), 0).WithNullable(t.nullable);
}

DataType ClampedDecimal(int p, int s) {
  s = std::min(s, kMaxP);
  p = std::clamp(p, std::max(s, 1), kMaxP);
  return DataType::Decimal(p, s);
}

// Whether an operand of type `from` must be cast to `to` before a kernel that expects `to`.
// Strings of any length share one physical layout, and so do timestamps of one unit (see
// timestamp_precision.h): a TIMESTAMP(0) value is a TIMESTAMP(3) one.
bool NeedsCast(const DataType& from, const DataType& to) {
  if (from.id != to.id) return true;
  if (from.id == TypeId::kString || from.id == TypeId::kBinary) return false;
  if (from.IsTimestampLike()) {
    return TimestampUnitsPerSecond(from.precision) != TimestampUnitsPerSecond(to.precision);
  }
  return !from.SameAs(to);
}

ExprPtr CastIfNeeded(ExprPtr e, const DataType& to) {
  if (!NeedsCast(e->type, to)) return e;
  return MakeCast(std::move(e), to);
}

ExprPtr NewCall(std::string name, std::vector<ExprPtr> args, DataType type) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCall;
  e->function = std::move(name);
  e->args = std::move(args);
  e->type = type;
  return e;
}

// ---- numeric result types ----

// Type of a numeric binary operation, or nullopt when the operands are not both numeric.
std::optional<DataType> ArithmeticType(const std::string& op, const DataType& a,
                                       const DataType& b) {
  if (!a.IsNumeric() || !b.IsNumeric()) return std::nullopt;
  if (a.IsApproximate() || b.IsApproximate()) return DataType::Double();
  if (a.IsInteger() && b.IsInteger()) {
    return IntegerRank(a.id) >= IntegerRank(b.id) ? DataType{a.id} : DataType{b.id};
  }
  DataType da = AsDecimal(a), db = AsDecimal(b);
  int p1 = da.precision, s1 = da.scale, p2 = db.precision, s2 = db.scale;
  if (op == "+" || op == "-") {
    int s = std::max(s1, s2);
    return ClampedDecimal(std::max(p1 - s1, p2 - s2) + s + 1, s);
  }
  if (op == "*") return ClampedDecimal(p1 + p2, s1 + s2);
  if (op == "/") {
    int int_digits = p1 - s1 + s2;
    int s = std::max(6, s1 + p2 + 1);
    if (int_digits + s > kMaxP) s = std::max(std::min(s, 6), kMaxP - int_digits);
    return ClampedDecimal(int_digits + s, s);
  }
  // "%": the common type.
  int s = std::max(s1, s2);
  return ClampedDecimal(std::max(p1 - s1, p2 - s2) + s, s);
}

// Converts an arithmetic operand to what the kernel expects for a result of type `result`:
// integers to the result integer type or to DECIMAL(digits, 0), anything to DOUBLE.
ExprPtr ArithmeticOperand(ExprPtr e, const DataType& result) {
  if (result.id == TypeId::kDecimal) {
    if (e->type.id == TypeId::kDecimal) return e;
    return MakeCast(e, AsDecimal(e->type));
  }
  return CastIfNeeded(std::move(e), DataType{result.id});
}

// ---- per-family resolution ----

// A year-month interval added to or subtracted from a DATE, TIMESTAMP, TIMESTAMP_LTZ or TIME
// (INTERVAL + x too), or two of them added or subtracted: x's type (DATE stays DATE; a TIME does
// not move, as in Flink), or the interval type.
absl::StatusOr<ExprPtr> ResolveMonthArithmetic(const std::string& fn, std::vector<ExprPtr> args) {
  const TypeId a = args[0]->type.id, b = args[1]->type.id;
  const bool additive = fn == "+" || fn == "-";
  auto takes_months = [](const DataType& t) {
    return t.id == TypeId::kDate || t.id == TypeId::kTime || t.IsTimestampLike();
  };
  DataType t;
  if (additive && a == TypeId::kIntervalYearMonth && b == TypeId::kIntervalYearMonth) {
    t = DataType::IntervalYearMonth();
  } else if (additive && takes_months(args[0]->type) && b == TypeId::kIntervalYearMonth) {
    t = args[0]->type;
  } else if (fn == "+" && a == TypeId::kIntervalYearMonth && takes_months(args[1]->type)) {
    std::swap(args[0], args[1]);
    t = args[0]->type;
  } else {
    return CannotApply(fn, args);
  }
  DataType result = t.WithNullable(AnyNullable(args));
  return NewCall(fn, std::move(args), result);
}

// TIMESTAMP + INTERVAL, INTERVAL + TIMESTAMP, TIMESTAMP - INTERVAL, INTERVAL +/- INTERVAL (and the
// same with TIMESTAMP_LTZ, which stays TIMESTAMP_LTZ: an instant moved by a duration; and with
// TIME, which stays TIME and wraps around midnight); the timestamp goes first so that the kernel
// subtracts the right way round.
absl::StatusOr<ExprPtr> ResolveTimeArithmetic(const std::string& fn, std::vector<ExprPtr> args) {
  const TypeId a = args[0]->type.id, b = args[1]->type.id;
  if (a == TypeId::kIntervalYearMonth || b == TypeId::kIntervalYearMonth) {
    return ResolveMonthArithmetic(fn, std::move(args));
  }
  const bool additive = fn == "+" || fn == "-";
  DataType t;
  if (additive && a == TypeId::kInterval && b == TypeId::kInterval) {
    t = DataType::Interval();
  } else if (additive && args[0]->type.IsTimestampLike() && b == TypeId::kInterval) {
    t = DataType{a, std::max(3, args[0]->type.precision)};
  } else if (fn == "+" && a == TypeId::kInterval && args[1]->type.IsTimestampLike()) {
    std::swap(args[0], args[1]);
    t = DataType{b, std::max(3, args[0]->type.precision)};
  } else if (additive && a == TypeId::kTime && b == TypeId::kInterval) {
    t = args[0]->type;
  } else if (fn == "+" && a == TypeId::kInterval && b == TypeId::kTime) {
    std::swap(args[0], args[1]);
    t = args[0]->type;
  } else {
    return CannotApply(fn, args);
  }
  DataType result = t.WithNullable(AnyNullable(args));
  return NewCall(fn, std::move(args), result);
}

bool IsTimeArithmetic(const std::vector<ExprPtr>& args) {
  for (const auto& a : args) {
    if (a->type.id == TypeId::kInterval || a->type.id == TypeId::kIntervalYearMonth) return true;
  }
  return false;
}

absl::StatusOr<ExprPtr> ResolveArithmetic(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 2) return WrongArgCount(fn, args.size());
  if (AllNullType(args)) return IllegalNull(fn);
  // An untyped NULL takes the other operand's type.
  for (int i = 0; i < 2; ++i) {
    if (IsNullType(args[i])) args[i] = MakeCast(args[i], args[1 - i]->type);
  }
  if (IsTimeArithmetic(args)) return ResolveTimeArithmetic(fn, std::move(args));
  auto t = ArithmeticType(fn, args[0]->type, args[1]->type);
  if (!t) return CannotApply(fn, args);
  DataType result = t->WithNullable(AnyNullable(args));
  for (auto& a : args) a = ArithmeticOperand(a, result);
  return NewCall(fn, std::move(args), result);
}

absl::StatusOr<ExprPtr> ResolveComparison(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 2) return WrongArgCount(fn, args.size());
  if (AllNullType(args)) return IllegalNull(fn);
  auto common = CommonType(args[0]->type, args[1]->type);
  if (!common) return CannotApply(fn, args);
  // Collections are equal or not (their canonical bytes); they have no order.
  if (common->IsCollection() && fn != "=" && fn != "<>" && fn != "IS NOT DISTINCT FROM" &&
      fn != "IS DISTINCT FROM") {
    return CannotApply(fn, args);
  }
  for (auto& a : args) a = CastIfNeeded(a, *common);
  // IS [NOT] DISTINCT FROM compares NULLs too: never NULL itself.
  const bool null_safe = fn == "IS NOT DISTINCT FROM" || fn == "IS DISTINCT FROM";
  return NewCall(fn, std::move(args),
                 DataType::Boolean().WithNullable(!null_safe && AnyNullable(args)));
}

// Casts untyped NULLs to `t` and checks every argument is of kind `t.id`.
bool CoerceAll(std::vector<ExprPtr>& args, const DataType& t, size_t from = 0) {
  for (size_t i = from; i < args.size(); ++i) {
    if (IsNullType(args[i])) {
      args[i] = MakeCast(args[i], t);
    } else if (args[i]->type.id != t.id) {
      return false;
    }
  }
  return true;
}

// CURRENT_TIMESTAMP, NOW() and PROCTIME() (TIMESTAMP_LTZ(3), the instant), LOCALTIMESTAMP
// (TIMESTAMP(3)), CURRENT_DATE (DATE) and CURRENT_TIME / LOCALTIME (TIME(0)) in the session zone,
// which they carry as an argument (zoned_calls.h), TO_TIMESTAMP_LTZ(epoch, 0 | 3),
// TO_TIMESTAMP(string).
absl::StatusOr<ExprPtr> ResolveTemporal(const std::string& fn, std::vector<ExprPtr> args) {
  if (fn == "CURRENT_TIMESTAMP" || fn == "NOW" || fn == "PROCTIME") {
    if (!args.empty()) return WrongArgCount(fn, args.size());
    return NewCall(fn, std::move(args), DataType::TimestampLtz(3).WithNullable(false));
  }
  if (fn == "CURRENT_DATE" || fn == "LOCALTIMESTAMP" || fn == "CURRENT_TIME" || fn == "LOCALTIME") {
    // As written: no argument; from a plan: the zone it was planned in.
    if (args.empty()) args.push_back(ZoneLiteral(PlanningTimeZone()));
    const Expr& zone = *args[0];
    if (args.size() != 1 || zone.kind != ExprKind::kLiteral || !zone.literal.is_string()) {
      return WrongArgCount(fn, args.size());
    }
    DataType t = fn == "CURRENT_DATE"     ? DataType::Date()
                 : fn == "LOCALTIMESTAMP" ? DataType::Timestamp(3)
                                          : DataType::Time(0);
    return NewCall(fn, std::move(args), t.WithNullable(false));
  }
  if (fn == "TO_TIMESTAMP_LTZ") {
    if (args.size() != 2) return WrongArgCount(fn, args.size());
    if (IsNullType(args[0])) args[0] = MakeCast(args[0], DataType::BigInt());
    const Expr& p = *args[1];
    if (!args[0]->type.IsInteger() || p.kind != ExprKind::kLiteral || !p.literal.is_int() ||
        (p.literal.int_value() != 0 && p.literal.int_value() != 3)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", fn, "' takes an integer epoch and the precision 0 (seconds) or 3 (milliseconds)"));
    }
    return NewCall(fn, std::move(args),
                   DataType::TimestampLtz(3).WithNullable(args[0]->type.nullable));
  }
  // TO_TIMESTAMP(string): 'yyyy-MM-dd HH:mm:ss[.SSS]'; TO_TIMESTAMP(string, pattern): a Java
  // date-time pattern (eval_datetime.cc).
  if (args.size() == 2) return ResolveToDateTime(fn, std::move(args));
  if (args.size() != 1) return WrongArgCount(fn, args.size());
  if (IsNullType(args[0])) args[0] = MakeCast(args[0], DataType::String());
  if (!args[0]->type.IsString()) return CannotApply(fn, args);
  return NewCall(fn, std::move(args), DataType::Timestamp(3));
}

absl::StatusOr<ExprPtr> ResolveLogic(const std::string& fn, std::vector<ExprPtr> args) {
  if (fn == "NOT" ? args.size() != 1 : args.size() < 2) return WrongArgCount(fn, args.size());
  if (!CoerceAll(args, DataType::Boolean())) return CannotApply(fn, args);
  DataType t = DataType::Boolean().WithNullable(AnyNullable(args));
  return NewCall(fn, std::move(args), t);
}

absl::StatusOr<ExprPtr> ResolvePredicate(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 1) return WrongArgCount(fn, args.size());
  bool null_test = fn == "IS NULL" || fn == "IS NOT NULL";
  if (!null_test && !CoerceAll(args, DataType::Boolean())) return CannotApply(fn, args);
  return NewCall(fn, std::move(args), DataType::Boolean().WithNullable(false));
}

absl::StatusOr<ExprPtr> ResolveLike(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 2 && args.size() != 3) return WrongArgCount(fn, args.size());
  if (!CoerceAll(args, DataType::String())) return CannotApply(fn, args);
  DataType t = DataType::Boolean().WithNullable(AnyNullable(args));
  return NewCall(fn, std::move(args), t);
}

// Common type of args[i] for i in `idx`; untyped NULLs are skipped (they are cast afterwards).
absl::StatusOr<DataType> CommonOf(const std::string& fn, const std::vector<ExprPtr>& args,
                                  const std::vector<size_t>& idx) {
  std::optional<DataType> common;
  for (size_t i : idx) {
    if (IsNullType(args[i])) continue;
    if (!common) {
      common = args[i]->type;
      continue;
    }
    common = CommonType(*common, args[i]->type);
    if (!common) {
      std::vector<ExprPtr> picked;
      for (size_t j : idx) picked.push_back(args[j]);
      return CannotApply(fn, picked);
    }
  }
  if (!common) return IllegalNull(fn);
  return *common;
}

absl::StatusOr<ExprPtr> ResolveCase(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() < 2) return WrongArgCount(fn, args.size());
  bool has_else = args.size() % 2 == 1;
  std::vector<size_t> values;
  for (size_t i = 0; i + 1 < args.size(); i += 2) {
    if (IsNullType(args[i])) {
      args[i] = MakeCast(args[i], DataType::Boolean());
    } else if (args[i]->type.id != TypeId::kBoolean) {
      return absl::InvalidArgumentError(absl::StrCat("Cannot apply 'CASE': condition ", i / 2 + 1,
                                                     " is of type ", TypeText(args[i]->type),
                                                     ", expected <BOOLEAN>"));
    }
    values.push_back(i + 1);
  }
  if (has_else) values.push_back(args.size() - 1);
  ASSIGN_OR_RETURN(DataType common, CommonOf(fn, args, values));
  bool nullable = !has_else;
  for (size_t i : values) {
    nullable = nullable || args[i]->type.nullable;
    args[i] = CastIfNeeded(args[i], common);
  }
  return NewCall(fn, std::move(args), common.WithNullable(nullable));
}

absl::StatusOr<ExprPtr> ResolveCoalesce(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.empty()) return WrongArgCount(fn, 0);
  std::vector<size_t> all(args.size());
  for (size_t i = 0; i < args.size(); ++i) all[i] = i;
  ASSIGN_OR_RETURN(DataType common, CommonOf(fn, args, all));
  bool nullable = true;
  for (auto& a : args) {
    nullable = nullable && a->type.nullable;
    a = CastIfNeeded(a, common);
  }
  return NewCall(fn, std::move(args), common.WithNullable(nullable));
}

absl::StatusOr<ExprPtr> ResolveStrings(const std::string& fn, std::vector<ExprPtr> args) {
  if (fn == "||") {
    if (args.size() != 2) return WrongArgCount(fn, args.size());
  } else if (fn == "CONCAT") {
    if (args.empty()) return WrongArgCount(fn, 0);
  } else if (fn == "CONCAT_WS") {
    if (args.size() < 2) return WrongArgCount(fn, args.size());
  } else if (fn == "TRIM" || fn == "LTRIM" || fn == "RTRIM") {
    if (args.size() != 1 && args.size() != 2) return WrongArgCount(fn, args.size());
  } else if (args.size() != 1) {
    return WrongArgCount(fn, args.size());
  }
  if (!CoerceAll(args, DataType::String())) return CannotApply(fn, args);
  bool nullable = fn == "CONCAT_WS" ? args[0]->type.nullable : AnyNullable(args);
  DataType t = DataType::String();
  if (fn == "CHAR_LENGTH") {
    t = DataType::Int();
  } else if (fn == "UPPER" || fn == "LOWER") {
    t = args[0]->type;  // keeps VARCHAR(n)
  }
  return NewCall(fn, std::move(args), t.WithNullable(nullable));
}

absl::StatusOr<ExprPtr> ResolveSubstring(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 2 && args.size() != 3) return WrongArgCount(fn, args.size());
  bool ok = args[0]->type.id == TypeId::kString || IsNullType(args[0]);
  for (size_t i = 1; i < args.size(); ++i)
    ok = ok && (args[i]->type.IsInteger() || IsNullType(args[i]));
  if (!ok) return CannotApply(fn, args);
  if (IsNullType(args[0])) args[0] = MakeCast(args[0], DataType::String());
  for (size_t i = 1; i < args.size(); ++i) args[i] = CastIfNeeded(args[i], DataType::Int());
  DataType t = DataType::String().WithNullable(AnyNullable(args));
  return NewCall(fn, std::move(args), t);
}

// Flink's LogicalTypeMerging.findRoundDecimalType.
DataType RoundDecimalType(int p, int s, int d) {
  if (d >= s) return DataType::Decimal(p, s);
  if (d < 0) return ClampedDecimal(1 + p - s, 0);
  return ClampedDecimal(1 + p - s + d, d);
}

absl::StatusOr<ExprPtr> ResolveMath(const std::string& fn, std::vector<ExprPtr> args) {
  const bool two_args = fn == "POWER";
  const bool round = fn == "ROUND" || fn == "TRUNCATE";
  if (round ? (args.empty() || args.size() > 2) : args.size() != (two_args ? 2u : 1u)) {
    return WrongArgCount(fn, args.size());
  }
  if (AllNullType(args)) return IllegalNull(fn);
  for (auto& a : args) {
    if (IsNullType(a)) a = MakeCast(a, DataType::Double());
  }
  for (const auto& a : args) {
    if (!a->type.IsNumeric()) return CannotApply(fn, args);
  }
  const DataType& x = args[0]->type;
  DataType t;
  if (round) {
    if (args.size() == 2) {
      if (!args[1]->type.IsInteger()) return CannotApply(fn, args);
      args[1] = CastIfNeeded(args[1], DataType::Int());
    }
    if (x.id == TypeId::kDecimal) {
      int d = 0;
      if (args.size() == 2) {
        // The result scale depends on d, so it must be known while planning.
        if (args[1]->kind != ExprKind::kLiteral || !args[1]->literal.is_int()) {
          return absl::InvalidArgumentError(
              fn + " of a DECIMAL requires a constant integer number of digits");
        }
        d = static_cast<int>(args[1]->literal.int_value());
      }
      t = RoundDecimalType(x.precision, x.scale, d);
    } else if (x.id == TypeId::kFloat) {
      args[0] = MakeCast(args[0], DataType::Double());
      t = DataType::Double();
    } else {
      t = DataType{x.id};
    }
  } else if (fn == "ABS" || fn == "SIGN") {
    t = DataType{x.id, x.precision, x.scale};
    if (x.id == TypeId::kFloat) {
      args[0] = MakeCast(args[0], DataType::Double());
      t = DataType::Double();
    }
  } else if (fn == "FLOOR" || fn == "CEIL") {
    if (x.id == TypeId::kDecimal) {
      t = x.scale == 0 ? DataType::Decimal(x.precision, 0)
                       : ClampedDecimal(1 + x.precision - x.scale, 0);
    } else if (x.IsApproximate()) {
      args[0] = CastIfNeeded(args[0], DataType::Double());
      t = DataType::Double();
    } else {
      t = DataType{x.id};
    }
  } else {
    // POWER, SQRT, EXP, LN, LOG10 work on DOUBLE.
    for (auto& a : args) a = CastIfNeeded(a, DataType::Double());
    t = DataType::Double();
  }
  return NewCall(fn, std::move(args), t.WithNullable(AnyNullable(args)));
}

absl::StatusOr<ExprPtr> ResolveNegate(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 1) return WrongArgCount(fn, args.size());
  if (IsNullType(args[0])) return IllegalNull(fn);
  const DataType& x = args[0]->type;
  if (x.id == TypeId::kInterval || x.id == TypeId::kIntervalYearMonth) {
    return NewCall(fn, std::move(args), x);  // -INTERVAL '1' MONTH
  }
  if (!x.IsNumeric()) return CannotApply("-", args);
  DataType t{x.id, x.precision, x.scale};
  if (x.id == TypeId::kFloat) {
    args[0] = MakeCast(args[0], DataType::Double());
    t = DataType::Double();
  }
  return NewCall(fn, std::move(args), t.WithNullable(x.nullable));
}

absl::StatusOr<ExprPtr> ResolveIf(const std::string& fn, std::vector<ExprPtr> args) {
  if (args.size() != 3) return WrongArgCount(fn, args.size());
  return ResolveCase("CASE", std::move(args));
}

absl::StatusOr<ExprPtr> ResolveNeedsTargetType(const std::string& fn, std::vector<ExprPtr>) {
  return absl::InvalidArgumentError(absl::StrCat("'", fn, "' needs a target type; use MakeCast"));
}

}  // namespace resolve_internal

using resolve_internal::AsDecimal;
using resolve_internal::ClampedDecimal;
using resolve_internal::IntegerRank;
using resolve_internal::NewCall;

namespace {

// Of two collection types that differ at most in nullability: the one whose children are nullable
// where either's are.
DataType CommonCollectionType(const DataType& a, const DataType& b) {
  std::vector<Field> children;
  for (size_t i = 0; i < a.fields().size(); ++i) {
    const DataType& ca = a.fields()[i].type;
    const DataType& cb = b.fields()[i].type;
    DataType c = ca.IsCollection()                ? CommonCollectionType(ca, cb)
                 : ca.IsString() || ca.IsBinary() ? CommonType(ca, cb).value_or(ca)
                                                  : ca;
    children.push_back({a.fields()[i].name, c.WithNullable(ca.nullable || cb.nullable)});
  }
  if (a.id == TypeId::kArray) return DataType::Array(children[0].type);
  if (a.id == TypeId::kMap) return DataType::Map(children[0].type, children[1].type);
  return DataType::Row(std::move(children));
}

}  // namespace

std::optional<DataType> CommonType(const DataType& a, const DataType& b) {
  bool nullable = a.nullable || b.nullable;
  if (a.id == TypeId::kNull) return b.WithNullable(true);
  if (b.id == TypeId::kNull) return a.WithNullable(true);
  DataType t;
  if (a.IsNumeric() && b.IsNumeric()) {
    if (a.IsApproximate() || b.IsApproximate()) {
      t = (a.id == TypeId::kFloat && b.id == TypeId::kFloat) ? DataType::Float()
                                                             : DataType::Double();
    } else if (a.IsInteger() && b.IsInteger()) {
      t = IntegerRank(a.id) >= IntegerRank(b.id) ? DataType{a.id} : DataType{b.id};
    } else {
      DataType da = AsDecimal(a), db = AsDecimal(b);
      int s = std::max(da.scale, db.scale);
      t = ClampedDecimal(std::max(da.precision - da.scale, db.precision - db.scale) + s, s);
    }
  } else if (a.id == TypeId::kString && b.id == TypeId::kString) {
    t = (a.length > 0 && b.length > 0) ? DataType::Varchar(std::max(a.length, b.length))
                                       : DataType::String();
  } else if (a.IsBinary() && b.IsBinary()) {
    const int length = std::max(a.length, b.length);
    t = a.length == 0 || b.length == 0     ? DataType::Bytes()
        : a.fixed_length && b.fixed_length ? DataType::Binary(length)
                                           : DataType::VarBinary(length);
  } else if (a.IsTemporal() && b.IsTemporal()) {
    if (a.id == TypeId::kDate && b.id == TypeId::kDate) {
      t = DataType::Date();
    } else {
      // DATE widens to TIMESTAMP; with a TIMESTAMP_LTZ operand both become instants (the others
      // read in the session zone, zoned_calls.h).
      int pa = a.IsTimestampLike() ? a.precision : 0;
      int pb = b.IsTimestampLike() ? b.precision : 0;
      const bool ltz = a.id == TypeId::kTimestampLtz || b.id == TypeId::kTimestampLtz;
      t = ltz ? DataType::TimestampLtz(std::max(pa, pb)) : DataType::Timestamp(std::max(pa, pb));
    }
  } else if (a.id == TypeId::kTime && b.id == TypeId::kTime) {
    t = DataType::Time(std::max(a.precision, b.precision));
  } else if ((a.id == TypeId::kInterval || a.id == TypeId::kIntervalYearMonth) && a.id == b.id) {
    t = DataType{a.id, a.precision};  // intervals of one kind compare
  } else if (a.id == TypeId::kBoolean && b.id == TypeId::kBoolean) {
    t = DataType::Boolean();
  } else if (a.IsCollection() && SameIgnoringNullability(a, b)) {
    t = CommonCollectionType(a, b);
  } else {
    return std::nullopt;
  }
  return t.WithNullable(nullable);
}

const std::vector<std::string>& KnownFunctionNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const FunctionDef& f : ScalarFunctions()) out.emplace_back(f.name);
    return out;
  }();
  return names;
}

bool IsKnownFunction(std::string_view function) { return FindFunction(function) != nullptr; }

absl::StatusOr<ExprPtr> MakeCall(std::string_view function, std::vector<ExprPtr> args) {
  const FunctionDef* def = FindFunction(function);
  if (def == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Unknown function '",
        absl::AsciiStrToUpper(absl::string_view(function.data(), function.size())), "'"));
  }
  const std::string fn(def->name);
  for (const auto& a : args) {
    if (a == nullptr)
      return absl::InvalidArgumentError(absl::StrCat("Null argument to '", fn, "'"));
  }
  return def->resolve(fn, std::move(args));
}

absl::Status CheckCast(const DataType& from, const DataType& to) {
  auto unsupported = [&] {
    return absl::InvalidArgumentError(absl::StrCat("Cast from ", from.WithNullable(true).ToString(),
                                                   " to ", to.WithNullable(true).ToString(),
                                                   " is not supported"));
  };
  if (to.id == TypeId::kNull) return from.id == TypeId::kNull ? absl::OkStatus() : unsupported();
  if (from.id == TypeId::kNull) return absl::OkStatus();
  // A collection converts only to the same collection type with other nullabilities (no cast
  // changes its elements, and none goes to or from STRING).
  if (from.IsCollection() || to.IsCollection()) {
    return SameIgnoringNullability(from, to) ? absl::OkStatus() : unsupported();
  }
  if (from.id == to.id) return absl::OkStatus();
  // An interval prints as a string (CAST(i AS STRING) = '+1-02'); no string reads as one.
  if (to.id == TypeId::kString &&
      (from.id == TypeId::kInterval || from.id == TypeId::kIntervalYearMonth)) {
    return absl::OkStatus();
  }
  if (from.id == TypeId::kInterval || from.id == TypeId::kIntervalYearMonth ||
      to.id == TypeId::kInterval || to.id == TypeId::kIntervalYearMonth) {
    return unsupported();
  }
  if (from.id == TypeId::kString || to.id == TypeId::kString) return absl::OkStatus();
  bool from_num = from.IsNumeric() || from.id == TypeId::kBoolean;
  bool to_num = to.IsNumeric() || to.id == TypeId::kBoolean;
  if (from_num && to_num) return absl::OkStatus();
  if (from.IsTemporal() && to.IsTemporal()) return absl::OkStatus();
  // TIME converts to and from TIMESTAMP and TIMESTAMP_LTZ (not DATE), as in Flink.
  if ((from.id == TypeId::kTime && to.IsTimestampLike()) ||
      (to.id == TypeId::kTime && from.IsTimestampLike())) {
    return absl::OkStatus();
  }
  return unsupported();
}

ExprPtr MakeCast(ExprPtr arg, DataType to, bool try_cast) {
  return MakeCastInZone(std::move(arg), to, try_cast, PlanningTimeZone());
}

ExprPtr MakeCastInZone(ExprPtr arg, DataType to, bool try_cast, const std::string& zone) {
  to.nullable = arg->type.nullable || try_cast;
  if (arg->kind == ExprKind::kLiteral && arg->literal.is_null()) {
    return MakeLiteral(Value::Null(), to);
  }
  if (!try_cast && arg->type.SameAs(to)) return arg;
  const bool zoned = IsZoneDependentCast(arg->type, to);
  std::vector<ExprPtr> args{std::move(arg)};
  if (zoned) args.push_back(ZoneLiteral(zone));
  return NewCall(try_cast ? "TRY_CAST" : "CAST", std::move(args), to);
}

}  // namespace eddy
