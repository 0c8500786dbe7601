// Year-month intervals in expressions: DATE / TIMESTAMP / TIME +/- months (end-of-month clamping),
// interval sums, negation, comparison and printing.
#include <gtest/gtest.h>

#include "common/expr/tests/test_util.h"
#include "common/types/value.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

Value I(int64_t v) { return Value::Int(v); }

ExprPtr Months(int64_t m) {
  return MakeLiteral(Value::Int(m), DataType::IntervalYearMonth().WithNullable(false));
}
ExprPtr DateLit(int64_t days) {
  return MakeLiteral(Value::Int(days), DataType::Date().WithNullable(false));
}

constexpr int64_t k20240131 = 19753;  // days since 1970-01-01
constexpr int64_t k20240229 = 19782;
constexpr int64_t kMsPerDay = 86400000;

TEST(IntervalYearMonth, DatePlusMonthsClampsToTheMonthsLastDay) {
  ExprPtr plus = Call("+", {DateLit(k20240131), Months(1)});
  EXPECT_EQ(plus->type, DataType::Date().WithNullable(false));
  EXPECT_EQ(Fold(plus), I(k20240229));
  EXPECT_EQ(Fold(Call("+", {Months(1), DateLit(k20240131)})), I(k20240229));
  EXPECT_EQ(Fold(Call("-", {DateLit(k20240229), Months(12)})), I(k20240229 - 366));  // 2023-02-28
  EXPECT_EQ(Fold(Call("+", {DateLit(k20240229), Months(12)})), I(k20240229 + 365));  // 2025-02-28
}

TEST(IntervalYearMonth, TimestampPlusMonthsKeepsTheTimeOfDay) {
  const int64_t ts = k20240131 * kMsPerDay + 3723004;  // 2024-01-31 01:02:03.004
  ExprPtr t = MakeLiteral(Value::Int(ts), DataType::Timestamp(3).WithNullable(false));
  EXPECT_EQ(Fold(Call("+", {t, Months(1)})), I(k20240229 * kMsPerDay + 3723004));
  ExprPtr t6 = MakeLiteral(Value::Int(ts * 1000), DataType::Timestamp(6).WithNullable(false));
  ExprPtr sum = Call("-", {t6, Months(-1)});
  EXPECT_EQ(sum->type, DataType::Timestamp(6).WithNullable(false));
  EXPECT_EQ(Fold(sum), I((k20240229 * kMsPerDay + 3723004) * 1000));
  ExprPtr time = MakeLiteral(Value::Int(3723004), DataType::Time(3).WithNullable(false));
  EXPECT_EQ(Fold(Call("+", {time, Months(5)})), I(3723004));  // a TIME does not move
}

TEST(IntervalYearMonth, AddsNegatesAndCompares) {
  ExprPtr sum = Call("+", {Months(12), Months(2)});
  EXPECT_EQ(sum->type, DataType::IntervalYearMonth().WithNullable(false));
  EXPECT_EQ(Fold(sum), I(14));
  EXPECT_EQ(Fold(Call("-", {Months(1), Months(3)})), I(-2));
  EXPECT_EQ(Fold(Call("NEGATE", {Months(14)})), I(-14));
  EXPECT_EQ(Fold(Call("<", {Months(11), Months(12)})), Value::Bool(true));
  EXPECT_EQ(Fold(Call("=", {Months(12), Months(12)})), Value::Bool(true));
  EXPECT_EQ(CallError("+", {Months(1), IntLit(1)}).substr(0, 15), "Cannot apply '+");
  EXPECT_EQ(CallError("*", {DateLit(0), Months(1)}).substr(0, 15), "Cannot apply '*");
}

TEST(IntervalYearMonth, PrintsAsFlink) {
  EXPECT_EQ(FormatIntervalYearMonth(14), "+1-02");
  EXPECT_EQ(FormatIntervalYearMonth(-14), "-1-02");
  EXPECT_EQ(FormatIntervalYearMonth(3), "+0-03");
  EXPECT_EQ(FormatIntervalYearMonth(120), "+10-00");
  EXPECT_EQ(DataType::IntervalYearMonth().ToString(), "INTERVAL MONTH");
  EXPECT_EQ(Fold(MakeCast(Months(14), DataType::String())), Value::String("+1-02"));
  EXPECT_FALSE(CheckCast(DataType::String(), DataType::IntervalYearMonth()).ok());
  EXPECT_FALSE(CheckCast(DataType::IntervalYearMonth(), DataType::Int()).ok());
}

}  // namespace
}  // namespace eddy
