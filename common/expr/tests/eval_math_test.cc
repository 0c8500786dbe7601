#include <gtest/gtest.h>

#include <cmath>

#include "common/expr/tests/test_util.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

Value I(int64_t v) { return Value::Int(v); }
Value D(double v) { return Value::Double(v); }

TEST(EvalMath, RoundIsHalfUp) {
  EXPECT_EQ(Fold(Call("ROUND", {DblLit(2.5)})), D(3.0));
  EXPECT_EQ(Fold(Call("ROUND", {DblLit(-2.5)})), D(-3.0));
  EXPECT_EQ(Fold(Call("ROUND", {DblLit(2.4)})), D(2.0));
  // Rounds the decimal text, as Flink's BigDecimal route: 2.675 -> 2.68 (binary 2.67499..).
  EXPECT_EQ(Fold(Call("ROUND", {DblLit(2.675), IntLit(2)})), D(2.68));
  EXPECT_EQ(Fold(Call("ROUND", {DblLit(1234.5678), IntLit(-2)})), D(1200.0));
  EXPECT_EQ(Fold(Call("ROUND", {DblLit(0.5)})), D(1.0));
  EXPECT_EQ(Fold(Call("ROUND", {DblLit(9.99), IntLit(1)})), D(10.0));
  // Integers: only negative places change them.
  EXPECT_EQ(Fold(Call("ROUND", {IntLit(15), IntLit(-1)})), I(20));
  EXPECT_EQ(Fold(Call("ROUND", {IntLit(-15), IntLit(-1)})), I(-20));
  EXPECT_EQ(Fold(Call("ROUND", {IntLit(14), IntLit(-1)})), I(10));
  EXPECT_EQ(Fold(Call("ROUND", {IntLit(7)})), I(7));
  // DECIMAL(5, 3) 2.345 -> ROUND(.., 2) = 2.35 as DECIMAL(5, 2); ROUND(-2.5) = -3.
  auto r = Call("ROUND", {DecLit(2345, 5, 3), IntLit(2)});
  EXPECT_EQ(r->type.ToString(), "DECIMAL(5, 2) NOT NULL");
  EXPECT_EQ(Fold(r), I(235));
  EXPECT_EQ(Fold(Call("ROUND", {DecLit(-25, 2, 1)})), I(-3));
  EXPECT_EQ(Fold(Call("ROUND", {DecLit(1250, 4, 0), IntLit(-2)})), I(1300));
}

TEST(EvalMath, AbsFloorCeil) {
  EXPECT_EQ(Fold(Call("ABS", {IntLit(-4)})), I(4));
  EXPECT_EQ(Fold(Call("ABS", {DblLit(-1.5)})), D(1.5));
  EXPECT_EQ(Fold(Call("ABS", {DecLit(-150, 3, 2)})), I(150));
  EXPECT_EQ(Fold(Call("FLOOR", {DblLit(-1.5)})), D(-2.0));
  EXPECT_EQ(Fold(Call("CEIL", {DblLit(-1.5)})), D(-1.0));
  EXPECT_EQ(Fold(Call("FLOOR", {DecLit(-150, 3, 2)})), I(-2));
  EXPECT_EQ(Fold(Call("CEILING", {DecLit(101, 3, 2)})), I(2));
  EXPECT_EQ(Fold(Call("CEIL", {DecLit(-101, 3, 2)})), I(-1));
  EXPECT_EQ(Fold(Call("FLOOR", {IntLit(5)})), I(5));
}

TEST(EvalMath, DoubleFunctions) {
  EXPECT_EQ(Fold(Call("POWER", {IntLit(2), IntLit(10)})), D(1024.0));
  EXPECT_EQ(Fold(Call("SQRT", {IntLit(16)})), D(4.0));
  EXPECT_TRUE(std::isnan(Fold(Call("SQRT", {IntLit(-1)})).double_value()));
  EXPECT_EQ(Fold(Call("LN", {DblLit(1)})), D(0.0));
  EXPECT_EQ(Fold(Call("LOG10", {IntLit(1000)})), D(3.0));
  EXPECT_EQ(Fold(Call("EXP", {IntLit(0)})), D(1.0));
  EXPECT_EQ(Fold(Call("MOD", {IntLit(-7), IntLit(3)})), I(-1));
}

}  // namespace
}  // namespace eddy
