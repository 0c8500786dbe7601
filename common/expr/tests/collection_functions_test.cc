// The collection functions: constructors with unified element types, a[i] and m[k] (NULL out of
// range or for a missing key), field access, CARDINALITY, ELEMENT, comparisons, and typing errors.
#include <gtest/gtest.h>

#include "common/expr/tests/test_util.h"
#include "common/types/collection_codec.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

std::string Text(const ExprPtr& e) {
  const Value v = Fold(e);
  return v.is_null() ? "null" : FormatValue(v, e->type);
}

std::string CallError(std::string_view fn, std::vector<ExprPtr> args) {
  auto r = MakeCall(fn, std::move(args));
  return r.ok() ? "<ok>" : std::string(r.status().message());
}

TEST(CollectionFunctions, ConstructorsUnifyTypes) {
  ExprPtr a = Call("ARRAY", {IntLit(1), DecLit(25, 3, 1)});
  EXPECT_EQ(a->type.ToString(), "ARRAY<DECIMAL(11, 1) NOT NULL> NOT NULL");
  EXPECT_EQ(Text(a), "[1.0, 2.5]");
  ExprPtr with_null = Call("ARRAY", {IntLit(1), NullLit()});
  EXPECT_EQ(with_null->type.ToString(), "ARRAY<INT> NOT NULL");
  EXPECT_EQ(Text(with_null), "[1, NULL]");
  ExprPtr m = Call("MAP", {StrLit("a"), IntLit(1), StrLit("b"), BigLit(2), StrLit("a"), IntLit(3)});
  EXPECT_EQ(m->type.ToString(), "MAP<STRING NOT NULL, BIGINT NOT NULL> NOT NULL");
  EXPECT_EQ(Text(m), "{a=3, b=2}");  // a duplicate key keeps its place and takes the last value
  ExprPtr r = Call("ROW", {IntLit(1), StrLit("x")});
  EXPECT_EQ(r->type.ToString(), "ROW<`EXPR$0` INT NOT NULL, `EXPR$1` STRING NOT NULL> NOT NULL");
  EXPECT_EQ(Text(r), "(1, x)");
  EXPECT_EQ(
      Text(Call("ARRAY", {Call("ARRAY", {IntLit(1)}), Call("ARRAY", {IntLit(2), IntLit(3)})})),
      "[[1], [2, 3]]");
}

TEST(CollectionFunctions, ElementAccess) {
  ExprPtr a = Call("ARRAY", {IntLit(10), IntLit(20)});
  EXPECT_EQ(Fold(Call("ITEM", {a, IntLit(1)})), Value::Int(10));
  EXPECT_EQ(Fold(Call("ITEM", {a, IntLit(2)})), Value::Int(20));
  EXPECT_EQ(Fold(Call("ITEM", {a, IntLit(0)})), Value::Null());
  EXPECT_EQ(Fold(Call("ITEM", {a, IntLit(3)})), Value::Null());
  EXPECT_EQ(Fold(Call("ITEM", {a, IntLit(-1)})), Value::Null());
  EXPECT_EQ(Fold(Call("ITEM", {a, TypedNull(DataType::Int())})), Value::Null());
  EXPECT_TRUE(Call("ITEM", {a, IntLit(1)})->type.nullable);
  ExprPtr m = Call("MAP", {StrLit("k"), DblLit(0.5)});
  EXPECT_EQ(Fold(Call("ITEM", {m, StrLit("k")})), Value::Double(0.5));
  EXPECT_EQ(Fold(Call("ITEM", {m, StrLit("z")})), Value::Null());
  ExprPtr im = Call("MAP", {BigLit(7), StrLit("seven")});
  EXPECT_EQ(Fold(Call("ITEM", {im, IntLit(7)})), Value::String("seven"));  // key cast to BIGINT
  ExprPtr r = Call("ROW", {IntLit(1), StrLit("x")});
  EXPECT_EQ(Fold(Call("FIELD", {r, StrLit("expr$1")})), Value::String("x"));
  EXPECT_EQ(CallError("FIELD", {r, StrLit("nope")}),
            "ROW ROW<`EXPR$0` INT NOT NULL, `EXPR$1` STRING NOT NULL> has no field 'nope' (fields: "
            "EXPR$0, "
            "EXPR$1)");
  EXPECT_EQ(CallError("ITEM", {a, StrLit("x")}), "an ARRAY index must be an integer, found STRING");
  EXPECT_EQ(CallError("ITEM", {IntLit(1), IntLit(1)}),
            "'[...]' applies to an ARRAY or a MAP, not to INT");
}

TEST(CollectionFunctions, CardinalityElementAndComparison) {
  EXPECT_EQ(Fold(Call("CARDINALITY", {Call("ARRAY", {IntLit(1), IntLit(1), IntLit(1)})})),
            Value::Int(3));
  EXPECT_EQ(Fold(Call("CARDINALITY", {Call("MAP", {IntLit(1), IntLit(1), IntLit(1), IntLit(2)})})),
            Value::Int(1));
  EXPECT_EQ(Fold(Call("CARDINALITY", {TypedNull(DataType::Array(DataType::Int()))})),
            Value::Null());
  EXPECT_EQ(Fold(Call("ELEMENT", {Call("ARRAY", {StrLit("a")})})), Value::String("a"));
  EXPECT_EQ(FoldError(Call("ELEMENT", {Call("ARRAY", {IntLit(1), IntLit(2)})})),
            "ELEMENT of an array of 2 elements (it takes at most one)");
  ExprPtr a = Call("ARRAY", {IntLit(1), NullLit()});
  ExprPtr b = Call("ARRAY", {IntLit(1), NullLit()});
  ExprPtr c = Call("ARRAY", {IntLit(1), IntLit(2)});
  EXPECT_EQ(Fold(Call("=", {a, b})), Value::Bool(true));
  EXPECT_EQ(Fold(Call("=", {a, c})), Value::Bool(false));
  EXPECT_EQ(Fold(Call("<>", {a, c})), Value::Bool(true));
  EXPECT_EQ(CallError("<", {a, c}),
            "Cannot apply '<' to arguments of type <ARRAY<INT>> and <ARRAY<INT NOT NULL>>");
  EXPECT_EQ(CallError("CARDINALITY", {IntLit(1)}),
            "Cannot apply 'CARDINALITY' to arguments of type <INT>");
}

TEST(CollectionFunctions, ColumnsOfCollections) {
  const DataType t = DataType::Array(DataType::BigInt());
  ChangelogBatch batch(std::vector<DataType>{t});
  ExprPtr ctor = Call("ARRAY", {BigLit(4), BigLit(5)});
  batch.AppendValues({Fold(ctor)}, RowKind::kInsert);
  batch.AppendValues({Value::Null()}, RowKind::kInsert);
  auto r = Evaluate(*Call("ITEM", {Col(0, t), IntLit(2)}), batch);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values(*r), (std::vector<Value>{Value::Int(5), Value::Null()}));
}

}  // namespace
}  // namespace eddy
