#include "common/expr/evaluator.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/expr/gather.h"
#include "common/expr/tests/test_util.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

const DataType kInt = DataType::Int();
const DataType kBig = DataType::BigInt();
const DataType kStr = DataType::String();
const DataType kBool = DataType::Boolean();
const Value N = Value::Null();

Value I(int64_t v) { return Value::Int(v); }
Value D(double v) { return Value::Double(v); }
Value S(std::string s) { return Value::String(std::move(s)); }
Value B(bool b) { return Value::Bool(b); }

std::vector<Value> Eval(const ExprPtr& e, const ChangelogBatch& b) {
  auto r = Evaluate(*e, b);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return {};
  EXPECT_EQ(r->size(), b.num_rows());
  EXPECT_TRUE(r->type().SameAs(e->type)) << r->type().ToString() << " vs " << e->type.ToString();
  return Values(*r);
}

std::string EvalError(const ExprPtr& e, const ChangelogBatch& b) {
  auto r = Evaluate(*e, b);
  return r.ok() ? "<ok>" : std::string(r.status().message());
}

TEST(Evaluator, IntegerArithmeticWithNulls) {
  auto b = MakeBatch({kInt, kInt}, {{I(7), I(2)}, {I(-7), I(2)}, {N, I(1)}, {I(3), N}});
  EXPECT_EQ(Eval(Call("+", {Col(0, kInt), Col(1, kInt)}), b),
            (std::vector<Value>{I(9), I(-5), N, N}));
  EXPECT_EQ(Eval(Call("-", {Col(0, kInt), Col(1, kInt)}), b),
            (std::vector<Value>{I(5), I(-9), N, N}));
  EXPECT_EQ(Eval(Call("*", {Col(0, kInt), Col(1, kInt)}), b),
            (std::vector<Value>{I(14), I(-14), N, N}));
  // Integer division truncates toward zero; % keeps the dividend's sign (Java).
  EXPECT_EQ(Eval(Call("/", {Col(0, kInt), Col(1, kInt)}), b),
            (std::vector<Value>{I(3), I(-3), N, N}));
  EXPECT_EQ(Eval(Call("%", {Col(0, kInt), Col(1, kInt)}), b),
            (std::vector<Value>{I(1), I(-1), N, N}));
  EXPECT_EQ(Eval(Call("NEGATE", {Col(0, kInt)}), b), (std::vector<Value>{I(-7), I(7), N, I(-3)}));
}

TEST(Evaluator, IntegerOverflowWrapsLikeJava) {
  auto b = MakeBatch({kInt}, {{I(2147483647)}});
  EXPECT_EQ(Eval(Call("+", {Col(0, kInt), IntLit(1)}), b), (std::vector<Value>{I(-2147483648LL)}));
  auto m = MakeBatch({kInt}, {{I(-2147483648LL)}});
  EXPECT_EQ(Eval(Call("/", {Col(0, kInt), IntLit(-1)}), m), (std::vector<Value>{I(-2147483648LL)}));
}

TEST(Evaluator, DivisionByZero) {
  auto b = MakeBatch({kInt, kInt}, {{I(1), I(1)}, {I(1), I(0)}});
  EXPECT_EQ(EvalError(Call("/", {Col(0, kInt), Col(1, kInt)}), b), "Division by zero in '/'");
  EXPECT_EQ(EvalError(Call("%", {Col(0, kInt), Col(1, kInt)}), b), "Division by zero in '%'");
  // A NULL divisor row is NULL, not an error.
  auto n = MakeBatch({kInt, kInt}, {{I(1), N}});
  EXPECT_EQ(Eval(Call("/", {Col(0, kInt), Col(1, kInt)}), n), (std::vector<Value>{N}));
  // DOUBLE division by zero is Infinity, as Java.
  EXPECT_TRUE(std::isinf(Fold(Call("/", {DblLit(1), DblLit(0)})).double_value()));
  EXPECT_EQ(FoldError(Call("/", {DecLit(100, 3, 2), DecLit(0, 3, 2)})), "Division by zero in '/'");
}

TEST(Evaluator, DecimalArithmetic) {
  // 1.25 + 0.125 = 1.375 at scale 3.
  EXPECT_EQ(Fold(Call("+", {DecLit(125, 3, 2), DecLit(125, 4, 3)})), I(1375));
  EXPECT_EQ(Fold(Call("-", {DecLit(125, 3, 2), DecLit(125, 4, 3)})), I(1125));
  // 1.25 * 0.5 = 0.625 (scale 3)
  EXPECT_EQ(Fold(Call("*", {DecLit(125, 3, 2), DecLit(5, 2, 1)})), I(625));
  // 1.00 / 3 = 0.333333 at scale 6; 2.00 / 3 = 0.666667 (HALF_UP).
  auto third = Call("/", {DecLit(100, 3, 2), IntLit(3)});
  EXPECT_EQ(third->type.scale, 13);
  EXPECT_EQ(Fold(Call("/", {DecLit(100, 3, 2), DecLit(3, 1, 0)})), I(333333));
  EXPECT_EQ(Fold(Call("/", {DecLit(200, 3, 2), DecLit(3, 1, 0)})), I(666667));
  // 5.5 % 2 = 1.5
  EXPECT_EQ(Fold(Call("%", {DecLit(55, 2, 1), DecLit(2, 1, 0)})), I(15));
  // INT + DECIMAL: 2 + 0.50 = 2.50
  EXPECT_EQ(Fold(Call("+", {IntLit(2), DecLit(50, 3, 2)})), I(250));
  // Overflow of DECIMAL(18, 0) is an error.
  auto big = DecLit(999999999999999999LL, 18, 0);
  EXPECT_EQ(FoldError(Call("*", {big, DecLit(10, 2, 0)})),
            "Numeric overflow in '*': result does not fit DECIMAL(18, 0)");
}

TEST(Evaluator, DoubleArithmetic) {
  EXPECT_EQ(Fold(Call("+", {IntLit(1), DblLit(0.5)})), D(1.5));
  EXPECT_EQ(Fold(Call("%", {DblLit(5.5), DblLit(2)})), D(1.5));
  EXPECT_EQ(Fold(Call("*", {DecLit(25, 2, 1), DblLit(2)})), D(5.0));
}

TEST(Evaluator, Comparisons) {
  auto b = MakeBatch({kInt, kBig}, {{I(1), I(2)}, {I(2), I(2)}, {I(3), I(2)}, {N, I(2)}});
  auto a = Col(0, kInt), c = Col(1, kBig);
  EXPECT_EQ(Eval(Call("=", {a, c}), b), (std::vector<Value>{B(false), B(true), B(false), N}));
  EXPECT_EQ(Eval(Call("<>", {a, c}), b), (std::vector<Value>{B(true), B(false), B(true), N}));
  EXPECT_EQ(Eval(Call("<", {a, c}), b), (std::vector<Value>{B(true), B(false), B(false), N}));
  EXPECT_EQ(Eval(Call("<=", {a, c}), b), (std::vector<Value>{B(true), B(true), B(false), N}));
  EXPECT_EQ(Eval(Call(">", {a, c}), b), (std::vector<Value>{B(false), B(false), B(true), N}));
  EXPECT_EQ(Eval(Call(">=", {a, c}), b), (std::vector<Value>{B(false), B(true), B(true), N}));
  // Mixed numeric: 1 < 1.5, strings byte-wise.
  EXPECT_EQ(Fold(Call("<", {IntLit(1), DecLit(15, 2, 1)})), B(true));
  EXPECT_EQ(Fold(Call("=", {DecLit(150, 3, 2), DecLit(15, 2, 1)})), B(true));
  EXPECT_EQ(Fold(Call("<", {StrLit("apple"), StrLit("banana")})), B(true));
  EXPECT_EQ(Fold(Call("=", {StrLit("a"), StrLit("a")})), B(true));
  EXPECT_EQ(Fold(Call(">", {DblLit(2.5), IntLit(2)})), B(true));
}

TEST(Evaluator, IsDistinctFromTreatsNullAsAValue) {
  auto b = MakeBatch({kInt, kBig}, {{I(1), I(1)}, {I(1), I(2)}, {N, I(2)}, {I(1), N}, {N, N}});
  auto a = Col(0, kInt), c = Col(1, kBig);
  EXPECT_EQ(Eval(Call("IS NOT DISTINCT FROM", {a, c}), b),
            (std::vector<Value>{B(true), B(false), B(false), B(false), B(true)}));
  EXPECT_EQ(Eval(Call("IS DISTINCT FROM", {a, c}), b),
            (std::vector<Value>{B(false), B(true), B(true), B(true), B(false)}));
  auto s = MakeBatch({kStr, kStr}, {{S("x"), S("x")}, {S("x"), N}, {N, N}});
  EXPECT_EQ(Eval(Call("IS NOT DISTINCT FROM", {Col(0, kStr), Col(1, kStr)}), s),
            (std::vector<Value>{B(true), B(false), B(true)}));
  EXPECT_FALSE(Call("IS NOT DISTINCT FROM", {a, c})->type.nullable);
}

TEST(Evaluator, ThreeValuedLogic) {
  // All 9 combinations of TRUE/FALSE/NULL.
  std::vector<std::vector<Value>> rows;
  for (Value x : {B(true), B(false), N}) {
    for (Value y : {B(true), B(false), N}) rows.push_back({x, y});
  }
  auto b = MakeBatch({kBool, kBool}, rows);
  auto x = Col(0, kBool), y = Col(1, kBool);
  EXPECT_EQ(Eval(Call("AND", {x, y}), b), (std::vector<Value>{B(true), B(false), N, B(false),
                                                              B(false), B(false), N, B(false), N}));
  EXPECT_EQ(Eval(Call("OR", {x, y}), b),
            (std::vector<Value>{B(true), B(true), B(true), B(true), B(false), N, B(true), N, N}));
  EXPECT_EQ(Eval(Call("NOT", {x}), b),
            (std::vector<Value>{B(false), B(false), B(false), B(true), B(true), B(true), N, N, N}));
  EXPECT_EQ(Eval(Call("IS TRUE", {x}), b)[6], B(false));
  EXPECT_EQ(Eval(Call("IS NOT TRUE", {x}), b)[6], B(true));
  EXPECT_EQ(Eval(Call("IS FALSE", {x}), b)[3], B(true));
  EXPECT_EQ(Eval(Call("IS NOT FALSE", {x}), b)[6], B(true));
  EXPECT_EQ(Eval(Call("IS NOT FALSE", {x}), b)[3], B(false));
  EXPECT_EQ(Eval(Call("IS NULL", {x}), b),
            (std::vector<Value>{B(false), B(false), B(false), B(false), B(false), B(false), B(true),
                                B(true), B(true)}));
  EXPECT_EQ(Eval(Call("IS NOT NULL", {y}), b)[2], B(false));
  // Three operands.
  EXPECT_EQ(Fold(Call("AND", {BoolLit(true), TypedNull(kBool), BoolLit(false)})), B(false));
  EXPECT_EQ(Fold(Call("OR", {BoolLit(false), TypedNull(kBool), BoolLit(false)})), N);
}

TEST(Evaluator, AndGuardsLaterOperands) {
  // b <> 0 AND a / b > 1 must not divide by zero on the row where b = 0.
  auto b = MakeBatch({kInt, kInt}, {{I(10), I(2)}, {I(1), I(0)}, {I(9), I(3)}});
  auto a = Col(0, kInt), d = Col(1, kInt);
  auto guard = Call("<>", {d, IntLit(0)});
  auto div = Call(">", {Call("/", {a, d}), IntLit(3)});
  EXPECT_EQ(Eval(Call("AND", {guard, div}), b), (std::vector<Value>{B(true), B(false), B(false)}));
  auto zero = Call("=", {d, IntLit(0)});
  EXPECT_EQ(Eval(Call("OR", {zero, div}), b), (std::vector<Value>{B(true), B(true), B(false)}));
}

TEST(Evaluator, CaseWithAndWithoutElse) {
  auto b = MakeBatch({kInt}, {{I(1)}, {I(2)}, {I(3)}, {N}});
  auto a = Col(0, kInt);
  auto e = Call("CASE", {Call("=", {a, IntLit(1)}), StrLit("one"), Call("=", {a, IntLit(2)}),
                         StrLit("two"), StrLit("many")});
  EXPECT_EQ(Eval(e, b), (std::vector<Value>{S("one"), S("two"), S("many"), S("many")}));
  auto no_else = Call("CASE", {Call(">", {a, IntLit(1)}), Call("*", {a, IntLit(10)})});
  EXPECT_EQ(Eval(no_else, b), (std::vector<Value>{N, I(20), I(30), N}));
  // Branches are only evaluated where taken: no division by zero for a = 0.
  auto z = MakeBatch({kInt}, {{I(0)}, {I(4)}});
  auto guarded = Call("CASE", {Call("=", {a, IntLit(0)}), IntLit(-1), Call("/", {IntLit(100), a})});
  EXPECT_EQ(Eval(guarded, z), (std::vector<Value>{I(-1), I(25)}));
}

TEST(Evaluator, Coalesce) {
  auto b = MakeBatch({kInt, kInt}, {{I(1), I(10)}, {N, I(20)}, {N, N}});
  auto e = Call("COALESCE", {Col(0, kInt), Col(1, kInt), IntLit(0)});
  EXPECT_EQ(Eval(e, b), (std::vector<Value>{I(1), I(20), I(0)}));
  auto two = Call("COALESCE", {Col(0, kInt), Col(1, kInt)});
  EXPECT_EQ(Eval(two, b), (std::vector<Value>{I(1), I(20), N}));
}

TEST(Evaluator, FilterAndGather) {
  auto b = MakeBatch({kStr, kBig}, {{S("a"), I(1)}, {S("b"), I(5)}, {S("c"), N}, {S("d"), I(7)}});
  auto pred = Call(">", {Col(1, kBig), IntLit(2)});
  auto rows = EvaluateFilter(*pred, b);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (std::vector<uint32_t>{1, 3}));  // NULL counts as false
  ChangelogBatch g = Gather(b, *rows);
  ASSERT_EQ(g.num_rows(), 2u);
  EXPECT_EQ(FormatRow(g, 0), "+I[b, 5]");
  EXPECT_EQ(FormatRow(g, 1), "+I[d, 7]");
  EXPECT_FALSE(EvaluateFilter(*Col(1, kBig), b).ok());
}

TEST(Evaluator, ColumnRefIsBorrowed) {
  auto b = MakeBatch({kInt}, {{I(1)}, {I(2)}});
  auto v = EvaluateView(*Col(0, kInt), b);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->borrowed());
  EXPECT_EQ(&v->get(), &b.column(0));
  EXPECT_FALSE(EvaluateView(*Col(3, kInt), b).ok());  // out-of-range index: error, not a crash
}

TEST(Evaluator, ConstantFolding) {
  EXPECT_TRUE(IsConstant(*Call("+", {IntLit(1), IntLit(2)})));
  EXPECT_FALSE(IsConstant(*Call("+", {Col(0, kInt), IntLit(2)})));
  EXPECT_EQ(Fold(Call("+", {IntLit(1), IntLit(2)})), I(3));
  EXPECT_EQ(Fold(Call("UPPER", {StrLit("abc")})), S("ABC"));
  EXPECT_EQ(Fold(Call("+", {IntLit(1), TypedNull(kInt)})), N);
  EXPECT_FALSE(EvaluateConstant(*Col(0, kInt)).ok());
}

}  // namespace
}  // namespace eddy
