// TIMESTAMP_LTZ conversions through the session time zone: casts carry the zone they were planned
// in (ScopedPlanningTimeZone), keep it through a plan's proto, and plans do not show it.
#include "common/expr/zoned_calls.h"

#include <gtest/gtest.h>

#include "common/expr/expr_printer.h"
#include "common/expr/expr_proto.h"
#include "common/expr/tests/test_util.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

constexpr int64_t kHour = 3600 * 1000;

ExprPtr LtzLit(int64_t v, int p = 3) {
  return MakeLiteral(Value::Int(v), DataType::TimestampLtz(p));
}
ExprPtr TsLit(int64_t v, int p = 3) { return MakeLiteral(Value::Int(v), DataType::Timestamp(p)); }

TEST(ZonedCalls, CastsBetweenLtzAndWallClockTypesConvertInThePlanningZone) {
  ScopedPlanningTimeZone zone("GMT+08:00");
  EXPECT_EQ(Fold(MakeCast(LtzLit(4001), DataType::Timestamp(3))), Value::Int(8 * kHour + 4001));
  EXPECT_EQ(Fold(MakeCast(TsLit(8 * kHour + 4001), DataType::TimestampLtz(3))), Value::Int(4001));
  EXPECT_EQ(Fold(MakeCast(LtzLit(4001), DataType::String())),
            Value::String("1970-01-01 08:00:04.001"));
  EXPECT_EQ(Fold(MakeCast(StrLit("1970-01-01 08:00:00"), DataType::TimestampLtz(0))),
            Value::Int(0));
  // 1970-01-01 23:00 in +08:00 is 15:00 UTC; its date there is the 2nd.
  EXPECT_EQ(Fold(MakeCast(LtzLit(15 * kHour), DataType::Date())), Value::Int(0));
  EXPECT_EQ(Fold(MakeCast(LtzLit(17 * kHour), DataType::Date())), Value::Int(1));
  EXPECT_EQ(Fold(MakeCast(MakeLiteral(Value::Int(1), DataType::Date()), DataType::TimestampLtz(3))),
            Value::Int(24 * kHour - 8 * kHour));
  // Between LTZ precisions nothing depends on the zone.
  ExprPtr widened = MakeCast(LtzLit(4001), DataType::TimestampLtz(6));
  EXPECT_EQ(widened->args.size(), 1u);
  EXPECT_EQ(Fold(widened), Value::Int(4001000));
}

TEST(ZonedCalls, ComparisonsWithATimestampReadItInTheZone) {
  ScopedPlanningTimeZone zone("GMT+08:00");
  // TIMESTAMP '1970-01-01 08:00:04.001' in +08:00 is the instant 4001 ms.
  ExprPtr eq = Call("=", {LtzLit(4001), TsLit(8 * kHour + 4001)});
  EXPECT_EQ(eq->args[1]->type.id, TypeId::kTimestampLtz);
  EXPECT_EQ(Fold(eq), Value::Bool(true));
  EXPECT_EQ(Fold(Call("<", {LtzLit(1), LtzLit(2)})), Value::Bool(true));
  // A time function reads the wall clock.
  EXPECT_EQ(Fold(Call("HOUR", {LtzLit(4001)})), Value::Int(8));
}

TEST(ZonedCalls, TheZoneTravelsWithThePlanAndIsNotPrinted) {
  ExprPtr cast;
  {
    ScopedPlanningTimeZone zone("GMT-03:30");
    cast = MakeCast(Col(0, DataType::TimestampLtz(3)), DataType::Timestamp(3));
  }
  ASSERT_EQ(cast->args.size(), 2u);
  EXPECT_EQ(ExprToString(*cast, {"ltz"}), "CAST(ltz AS TIMESTAMP(3))");
  v1::Expr proto;
  ExprToProto(*cast, &proto);
  // Deserialized elsewhere (in UTC), the cast keeps its zone.
  absl::StatusOr<ExprPtr> back = ExprFromProto(proto, {DataType::TimestampLtz(3)});
  ASSERT_TRUE(back.ok()) << back.status();
  ChangelogBatch batch = MakeBatch({DataType::TimestampLtz(3)}, {{Value::Int(0)}});
  absl::StatusOr<Column> out = Evaluate(**back, batch);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->GetValue(0), Value::Int(-(3 * kHour + kHour / 2)));
  // A zone-dependent cast without its zone is a malformed plan.
  proto.mutable_call()->mutable_args()->RemoveLast();
  EXPECT_FALSE(ExprFromProto(proto, {DataType::TimestampLtz(3)}).ok());
}

TEST(ZonedCalls, TimeFunctionsAndTheirTypes) {
  ScopedPlanningTimeZone zone("GMT+08:00");
  EXPECT_EQ(Call("PROCTIME", {})->type, DataType::TimestampLtz(3).WithNullable(false));
  EXPECT_EQ(Call("CURRENT_TIMESTAMP", {})->type, DataType::TimestampLtz(3).WithNullable(false));
  ExprPtr local = Call("LOCALTIMESTAMP", {});
  EXPECT_EQ(local->type, DataType::Timestamp(3).WithNullable(false));
  EXPECT_EQ(ExprToString(*local, {}), "LOCALTIMESTAMP()");
  // LOCALTIMESTAMP is CURRENT_TIMESTAMP read in the zone (the two clocks differ by milliseconds).
  absl::StatusOr<Value> now = EvaluateConstant(*Call("CURRENT_TIMESTAMP", {}));
  absl::StatusOr<Value> wall = EvaluateConstant(*local);
  ASSERT_TRUE(now.ok() && wall.ok());
  EXPECT_NEAR(static_cast<double>(wall->int_value() - now->int_value()),
              static_cast<double>(8 * kHour), 60000.0);
  EXPECT_EQ(Call("TO_TIMESTAMP_LTZ", {BigLit(4001), IntLit(3)})->type.id, TypeId::kTimestampLtz);
}

}  // namespace
}  // namespace eddy
