#include "common/expr/expr_printer.h"

#include <gtest/gtest.h>

#include "common/expr/tests/test_util.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

const std::vector<std::string> kNames = {"word", "cnt", "a", "b"};

std::string P(const ExprPtr& e) { return ExprToString(*e, kNames); }

TEST(ExprPrinter, FlinkDigestStyle) {
  auto word = Col(0, DataType::String());
  auto cnt = Col(1, DataType::BigInt());
  auto a = Col(2, DataType::Int());
  auto b = Col(3, DataType::Int());
  EXPECT_EQ(P(Call("=", {word, StrLit("a")})), "=(word, 'a')");
  EXPECT_EQ(P(Call(">", {cnt, BigLit(1)})), ">(cnt, 1)");
  EXPECT_EQ(P(Call("+", {a, IntLit(1)})), "+(a, 1)");
  EXPECT_EQ(P(Call("AND", {Call(">", {a, IntLit(1)}), Call("<", {b, IntLit(2)})})),
            "AND(>(a, 1), <(b, 2))");
  EXPECT_EQ(P(Call("LIKE", {word, StrLit("F%")})), "LIKE(word, 'F%')");
  EXPECT_EQ(P(Call("UPPER", {word})), "UPPER(word)");
  EXPECT_EQ(P(Call("IS NULL", {a})), "IS NULL(a)");
  EXPECT_EQ(P(Call("CASE", {Call("=", {a, IntLit(1)}), StrLit("x"), StrLit("y")})),
            "CASE(=(a, 1), 'x', 'y')");
  EXPECT_EQ(P(Call("NEGATE", {a})), "-(a)");
  // The implicit cast MakeCall inserts shows, as in Flink's plans.
  EXPECT_EQ(P(Call("+", {a, cnt})), "+(CAST(a AS BIGINT), cnt)");
  EXPECT_EQ(P(MakeCast(a, DataType::Varchar(3), true)), "TRY_CAST(a AS VARCHAR(3))");
  EXPECT_EQ(ExprToString(*Col(7, DataType::Int()), kNames), "$7");
}

TEST(ExprPrinter, Literals) {
  EXPECT_EQ(P(DecLit(150, 3, 2)), "1.50");
  EXPECT_EQ(P(DblLit(1e7)), "1.0E7");
  EXPECT_EQ(P(DblLit(0.5)), "0.5");
  EXPECT_EQ(P(BoolLit(true)), "TRUE");
  EXPECT_EQ(P(NullLit()), "NULL");
  EXPECT_EQ(P(StrLit("it's")), "'it''s'");
  EXPECT_EQ(P(MakeLiteral(Value::Int(19753), DataType::Date())), "2024-01-31");
  EXPECT_EQ(P(IntLit(-3)), "-3");
}

}  // namespace
}  // namespace eddy
