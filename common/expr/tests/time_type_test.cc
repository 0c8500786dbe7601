// TIME(p) in expressions: casts to and from STRING and TIMESTAMP, comparison, EXTRACT of the
// time-of-day units, TIME +/- INTERVAL wrapping around midnight, CURRENT_TIME.
#include <gtest/gtest.h>

#include "common/expr/tests/test_util.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

Value I(int64_t v) { return Value::Int(v); }
Value S(std::string s) { return Value::String(std::move(s)); }

ExprPtr TimeLit(int32_t ms, int p = 0) {
  return MakeLiteral(Value::Int(ms), DataType::Time(p).WithNullable(false));
}
ExprPtr IntervalLit(int64_t ms) {
  return MakeLiteral(Value::Int(ms), DataType::Interval().WithNullable(false));
}
constexpr int32_t k123456 = (12 * 3600 + 34 * 60 + 56) * 1000;

TEST(TimeType, CastsToAndFromString) {
  EXPECT_EQ(Fold(MakeCast(TimeLit(k123456), DataType::String())), S("12:34:56"));
  EXPECT_EQ(Fold(MakeCast(TimeLit(k123456 + 123, 3), DataType::String())), S("12:34:56.123"));
  EXPECT_EQ(Fold(MakeCast(StrLit("12:34:56.789"), DataType::Time(3))), I(k123456 + 789));
  EXPECT_EQ(Fold(MakeCast(StrLit("12:34:56.789"), DataType::Time(0))), I(k123456));
  EXPECT_EQ(FoldError(MakeCast(StrLit("25:00:00"), DataType::Time(0))),
            "Cannot cast '25:00:00' to TIME(0)");
  EXPECT_EQ(Fold(MakeCast(StrLit("noon"), DataType::Time(0), /*try_cast=*/true)), Value::Null());
}

TEST(TimeType, CastsToAndFromTimestamp) {
  // TIME -> TIMESTAMP: that time on 1970-01-01.
  EXPECT_EQ(Fold(MakeCast(TimeLit(k123456 + 5, 3), DataType::Timestamp(3))), I(k123456 + 5));
  EXPECT_EQ(Fold(MakeCast(TimeLit(k123456 + 5, 3), DataType::Timestamp(6))),
            I((k123456 + 5) * int64_t{1000}));
  // TIMESTAMP -> TIME: the time of day, truncated to the precision.
  auto ts = MakeLiteral(Value::Int(1706695200123), DataType::Timestamp(3));  // 2024-01-31 10:00
  EXPECT_EQ(Fold(MakeCast(ts, DataType::Time(3))), I(36000123));
  EXPECT_EQ(Fold(MakeCast(ts, DataType::Time(0))), I(36000000));
  auto before_epoch = MakeLiteral(Value::Int(-1000), DataType::Timestamp(3));
  EXPECT_EQ(Fold(MakeCast(before_epoch, DataType::Time(0))), I(86399000));
  EXPECT_EQ(Fold(MakeCast(TimeLit(k123456 + 789, 3), DataType::Time(1))), I(k123456 + 700));
  EXPECT_FALSE(CheckCast(DataType::Time(0), DataType::Date()).ok());
  EXPECT_FALSE(CheckCast(DataType::Int(), DataType::Time(0)).ok());
}

TEST(TimeType, ComparesAndTakesTheWiderPrecision) {
  EXPECT_EQ(Fold(Call("<", {TimeLit(1000), TimeLit(2000, 3)})), Value::Bool(true));
  EXPECT_EQ(Fold(Call("=", {TimeLit(1000), TimeLit(1000, 3)})), Value::Bool(true));
  EXPECT_EQ(CommonType(DataType::Time(0), DataType::Time(3)), DataType::Time(3));
  EXPECT_EQ(CommonType(DataType::Time(0), DataType::Timestamp(3)), std::nullopt);
}

TEST(TimeType, ExtractsTimeOfDayUnits) {
  const int32_t t = k123456 + 789;
  EXPECT_EQ(Fold(Call("HOUR", {TimeLit(t, 3)})), I(12));
  EXPECT_EQ(Fold(Call("MINUTE", {TimeLit(t, 3)})), I(34));
  EXPECT_EQ(Fold(Call("SECOND", {TimeLit(t, 3)})), I(56));
  EXPECT_EQ(Fold(Call("EXTRACT", {StrLit("MILLISECOND"), TimeLit(t, 3)})), I(789));
  EXPECT_EQ(CallError("EXTRACT", {StrLit("YEAR"), TimeLit(t)}),
            "Cannot apply 'EXTRACT' to a TIME value: YEAR is not a unit of the time of day");
  EXPECT_EQ(CallError("MONTH", {TimeLit(t)}),
            "Cannot apply 'MONTH' to a TIME value: MONTH is not a unit of the time of day");
}

TEST(TimeType, PlusIntervalWrapsAroundTheDay) {
  const int32_t t23 = 23 * 3600000;
  EXPECT_EQ(Fold(Call("+", {TimeLit(t23), IntervalLit(2 * 3600000)})), I(3600000));
  EXPECT_EQ(Fold(Call("+", {IntervalLit(2 * 3600000), TimeLit(t23)})), I(3600000));
  EXPECT_EQ(Fold(Call("-", {TimeLit(3600000), IntervalLit(2 * 3600000)})), I(t23));
  EXPECT_EQ(Fold(Call("+", {TimeLit(0), IntervalLit(3 * 86400000LL + 1000)})), I(1000));
  EXPECT_EQ(Fold(Call("-", {TimeLit(0), IntervalLit(86400000LL + 1000)})), I(86399000));
  auto r = MakeCall("+", {TimeLit(0, 3), IntervalLit(1)});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->type, DataType::Time(3).WithNullable(false));
}

TEST(TimeType, CurrentTimeIsATimeOfDayInWholeSeconds) {
  for (const char* fn : {"CURRENT_TIME", "LOCALTIME"}) {
    ExprPtr call = Call(fn, {});
    EXPECT_EQ(call->type, DataType::Time(0).WithNullable(false));
    const Value v = Fold(call);
    ASSERT_TRUE(v.is_int());
    EXPECT_GE(v.int_value(), 0);
    EXPECT_LT(v.int_value(), 86400000);
    EXPECT_EQ(v.int_value() % 1000, 0);
  }
}

}  // namespace
}  // namespace eddy
