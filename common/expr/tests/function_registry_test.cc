#include "common/expr/function_registry.h"

#include <gtest/gtest.h>

#include "common/expr/tests/test_util.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

const DataType kInt = DataType::Int();
const DataType kBig = DataType::BigInt();
const DataType kStr = DataType::String();

TEST(FunctionRegistry, IntegerPromotion) {
  auto e = Call("+", {Col(0, DataType::TinyInt()), Col(1, DataType::SmallInt())});
  EXPECT_EQ(e->type.ToString(), "SMALLINT");
  ASSERT_EQ(e->args[0]->function, "CAST");
  EXPECT_EQ(e->args[0]->type.ToString(), "SMALLINT");
  EXPECT_EQ(e->args[1]->kind, ExprKind::kColumn);

  EXPECT_EQ(Call("*", {Col(0, kInt), Col(1, kBig)})->type.ToString(), "BIGINT");
  // INT / INT stays INT, as Flink.
  EXPECT_EQ(Call("/", {Col(0, kInt), Col(1, kInt)})->type.ToString(), "INT");
  EXPECT_EQ(Call("MOD", {Col(0, kInt), Col(1, kInt)})->function, "%");
}

TEST(FunctionRegistry, NullabilityFollowsArguments) {
  auto nn = Col(0, kInt.WithNullable(false));
  EXPECT_EQ(Call("+", {nn, IntLit(1)})->type.ToString(), "INT NOT NULL");
  EXPECT_EQ(Call("+", {nn, Col(1, kInt)})->type.ToString(), "INT");
  EXPECT_EQ(Call("IS NULL", {Col(1, kInt)})->type.ToString(), "BOOLEAN NOT NULL");
  EXPECT_EQ(Call("IS NOT TRUE", {Col(1, DataType::Boolean())})->type.ToString(),
            "BOOLEAN NOT NULL");
  // COALESCE is nullable only when every argument is.
  EXPECT_EQ(Call("COALESCE", {Col(1, kInt), IntLit(0)})->type.ToString(), "INT NOT NULL");
  EXPECT_EQ(Call("COALESCE", {Col(1, kInt), Col(2, kInt)})->type.ToString(), "INT");
}

TEST(FunctionRegistry, ApproximateWins) {
  auto e = Call("+", {Col(0, kInt), Col(1, DataType::Float())});
  EXPECT_EQ(e->type.ToString(), "DOUBLE");
  EXPECT_EQ(e->args[0]->type.ToString(), "DOUBLE");
  EXPECT_EQ(e->args[1]->type.ToString(), "DOUBLE");
  EXPECT_EQ(Call("-", {Col(0, DataType::Decimal(10, 2)), DblLit(1.5)})->type.ToString(), "DOUBLE");
}

TEST(FunctionRegistry, DecimalResultTypes) {
  auto d52 = Col(0, DataType::Decimal(5, 2));
  auto d103 = Col(1, DataType::Decimal(10, 3));
  EXPECT_EQ(Call("+", {d52, d103})->type.ToString(), "DECIMAL(11, 3)");
  EXPECT_EQ(Call("*", {d52, d103})->type.ToString(), "DECIMAL(15, 5)");
  // '/' : integer digits 5-2+3 = 6, scale max(6, 2+10+1) = 13 -> 19 digits > 18, so the scale
  // shrinks to 18 - 6 = 12.
  EXPECT_EQ(Call("/", {d52, d103})->type.ToString(), "DECIMAL(18, 12)");
  EXPECT_EQ(Call("/", {Col(0, DataType::Decimal(4, 2)), Col(1, DataType::Decimal(2, 0))})
                ->type.ToString(),
            "DECIMAL(8, 6)");
  EXPECT_EQ(Call("%", {d52, d103})->type.ToString(), "DECIMAL(10, 3)");
  // INT + DECIMAL(5, 2): INT becomes DECIMAL(10, 0).
  auto e = Call("+", {Col(2, kInt), d52});
  EXPECT_EQ(e->type.ToString(), "DECIMAL(13, 2)");
  EXPECT_EQ(e->args[0]->type.ToString(), "DECIMAL(10, 0)");
  // Precision is clamped to 18.
  EXPECT_EQ(Call("*", {Col(0, DataType::Decimal(18, 2)), Col(1, DataType::Decimal(18, 2))})
                ->type.ToString(),
            "DECIMAL(18, 4)");
}

TEST(FunctionRegistry, ResolutionIsIdempotent) {
  // Plans are re-resolved after deserialization; resolving a resolved call must not change it.
  auto e = Call("+", {Col(0, kInt), Col(1, DataType::Decimal(5, 2))});
  auto again = Call("+", {e->args[0], e->args[1]});
  EXPECT_EQ(again->type, e->type);
  EXPECT_EQ(again->args[0], e->args[0]);
}

TEST(FunctionRegistry, ComparisonsUseCommonType) {
  auto e = Call("<", {Col(0, kInt), Col(1, DataType::Decimal(5, 2))});
  EXPECT_EQ(e->type.ToString(), "BOOLEAN");
  EXPECT_EQ(e->args[0]->type.ToString(), "DECIMAL(12, 2)");
  EXPECT_EQ(e->args[1]->type.ToString(), "DECIMAL(12, 2)");
  auto s = Call("=", {Col(0, DataType::Varchar(3)), StrLit("a")});
  EXPECT_EQ(s->args[0]->kind, ExprKind::kColumn);  // no cast between string lengths
  auto d = Call(">=", {Col(0, DataType::Date()), Col(1, DataType::Timestamp(3))});
  EXPECT_EQ(d->args[0]->function, "CAST");
  EXPECT_EQ(d->args[0]->type.ToString(), "TIMESTAMP(3)");
}

TEST(FunctionRegistry, TypeErrorsNameOperatorAndTypes) {
  EXPECT_EQ(CallError("+", {Col(0, kStr), Col(1, kInt)}),
            "Cannot apply '+' to arguments of type <STRING> and <INT>");
  EXPECT_EQ(CallError("=", {Col(0, kStr), IntLit(1)}),
            "Cannot apply '=' to arguments of type <STRING> and <INT>");
  EXPECT_EQ(CallError("upper", {Col(0, kInt)}), "Cannot apply 'UPPER' to arguments of type <INT>");
  EXPECT_EQ(CallError("AND", {Col(0, kInt), BoolLit(true)}),
            "Cannot apply 'AND' to arguments of type <INT> and <BOOLEAN>");
  EXPECT_EQ(CallError("LIKE", {Col(0, kInt), StrLit("a%")}),
            "Cannot apply 'LIKE' to arguments of type <INT> and <STRING>");
  EXPECT_EQ(CallError("FOO", {}), "Unknown function 'FOO'");
  EXPECT_EQ(CallError("ROUND", {DblLit(1), IntLit(1), IntLit(2)}),
            "Invalid number of arguments to function 'ROUND': 3");
  EXPECT_EQ(CallError("COALESCE", {Col(0, kInt), StrLit("x")}),
            "Cannot apply 'COALESCE' to arguments of type <INT> and <STRING>");
  EXPECT_EQ(CallError("CASE", {Col(0, kInt), IntLit(1)}),
            "Cannot apply 'CASE': condition 1 is of type <INT>, expected <BOOLEAN>");
  EXPECT_EQ(CallError("+", {NullLit(), NullLit()}), "Illegal use of 'NULL' in '+'");
  EXPECT_EQ(CallError("SUBSTRING", {Col(0, kStr), StrLit("1")}),
            "Cannot apply 'SUBSTRING' to arguments of type <STRING> and <STRING>");
}

TEST(FunctionRegistry, UntypedNullTakesOtherType) {
  auto e = Call("+", {Col(0, kBig), NullLit()});
  EXPECT_EQ(e->type.ToString(), "BIGINT");
  EXPECT_EQ(e->args[1]->kind, ExprKind::kLiteral);
  EXPECT_EQ(e->args[1]->type.ToString(), "BIGINT");
}

TEST(FunctionRegistry, CaseTypes) {
  auto c = Col(0, DataType::Boolean());
  auto with_else = Call("CASE", {c, IntLit(1), DecLit(25, 3, 1)});
  EXPECT_EQ(with_else->type.ToString(), "DECIMAL(11, 1) NOT NULL");
  auto no_else = Call("CASE", {c, IntLit(1)});
  EXPECT_EQ(no_else->type.ToString(), "INT");
  auto iff = Call("IF", {c, StrLit("a"), StrLit("b")});
  EXPECT_EQ(iff->function, "CASE");
  EXPECT_EQ(iff->type.ToString(), "STRING NOT NULL");
}

TEST(FunctionRegistry, StringAndMathTypes) {
  EXPECT_EQ(Call("CHARACTER_LENGTH", {Col(0, kStr)})->type.ToString(), "INT");
  EXPECT_EQ(Call("UPPER", {Col(0, DataType::Varchar(5))})->type.ToString(), "VARCHAR(5)");
  EXPECT_EQ(Call("SUBSTR", {Col(0, kStr), IntLit(1), IntLit(2)})->function, "SUBSTRING");
  EXPECT_EQ(Call("ROUND", {Col(0, DataType::Decimal(10, 3)), IntLit(1)})->type.ToString(),
            "DECIMAL(9, 1)");
  EXPECT_EQ(Call("ROUND", {Col(0, DataType::Decimal(10, 3))})->type.ToString(), "DECIMAL(8, 0)");
  EXPECT_EQ(Call("ROUND", {Col(0, DataType::Decimal(10, 3)), IntLit(5)})->type.ToString(),
            "DECIMAL(10, 3)");
  EXPECT_EQ(Call("ROUND", {Col(0, DataType::Double()), IntLit(2)})->type.ToString(), "DOUBLE");
  EXPECT_EQ(Call("ROUND", {Col(0, kBig)})->type.ToString(), "BIGINT");
  EXPECT_EQ(Call("FLOOR", {Col(0, DataType::Decimal(10, 3))})->type.ToString(), "DECIMAL(8, 0)");
  EXPECT_EQ(Call("POWER", {Col(0, kInt), IntLit(2)})->type.ToString(), "DOUBLE");
  EXPECT_EQ(Call("ABS", {Col(0, DataType::SmallInt())})->type.ToString(), "SMALLINT");
  EXPECT_EQ(Call("||", {Col(0, kStr), StrLit("x")})->type.ToString(), "STRING");
  EXPECT_EQ(Call("CONCAT_WS", {StrLit("-"), Col(0, kStr)})->type.ToString(), "STRING NOT NULL");
}

TEST(FunctionRegistry, CastChecksAndShortcuts) {
  EXPECT_EQ(CheckCast(DataType::Boolean(), DataType::Date()).message(),
            "Cast from BOOLEAN to DATE is not supported");
  EXPECT_EQ(CheckCast(DataType::Date(), kInt).message(), "Cast from DATE to INT is not supported");
  EXPECT_TRUE(CheckCast(kStr, DataType::Date()).ok());
  EXPECT_TRUE(CheckCast(DataType::Decimal(5, 2), DataType::Boolean()).ok());
  EXPECT_TRUE(CheckCast(DataType::Timestamp(3), DataType::Date()).ok());

  auto c = Col(0, kInt);
  EXPECT_EQ(MakeCast(c, kInt), c);  // no-op cast is elided
  auto t = MakeCast(c, kBig, /*try_cast=*/true);
  EXPECT_EQ(t->function, "TRY_CAST");
  EXPECT_TRUE(t->type.nullable);
  auto nn = MakeCast(Col(0, kInt.WithNullable(false)), kBig);
  EXPECT_EQ(nn->type.ToString(), "BIGINT NOT NULL");
  auto null_cast = MakeCast(NullLit(), kStr);
  EXPECT_EQ(null_cast->kind, ExprKind::kLiteral);
  EXPECT_EQ(null_cast->type.ToString(), "STRING");
}

TEST(FunctionRegistry, CommonTypeRules) {
  EXPECT_EQ(CommonType(kInt, kBig)->ToString(), "BIGINT");
  EXPECT_EQ(CommonType(DataType::Varchar(3), DataType::Varchar(7))->ToString(), "VARCHAR(7)");
  EXPECT_EQ(CommonType(DataType::Varchar(3), kStr)->ToString(), "STRING");
  EXPECT_FALSE(CommonType(kStr, kInt).has_value());
  EXPECT_FALSE(CommonType(DataType::Boolean(), kInt).has_value());
  EXPECT_EQ(CommonType(DataType::Null(), DataType::Date())->ToString(), "DATE");
}

}  // namespace
}  // namespace eddy
