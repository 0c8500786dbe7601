#include "common/expr/expr_proto.h"

#include <gtest/gtest.h>

#include "common/expr/expr_printer.h"
#include "common/expr/tests/test_util.h"
#include "common/types/type_proto.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

const std::vector<DataType> kInput = {DataType::String(), DataType::BigInt(), DataType::Int(),
                                      DataType::Decimal(10, 2)};
const std::vector<std::string> kNames = {"word", "cnt", "a", "d"};

ExprPtr RoundTrip(const ExprPtr& e) {
  v1::Expr p;
  ExprToProto(*e, &p);
  std::string bytes;
  EXPECT_TRUE(p.SerializeToString(&bytes));
  v1::Expr back;
  EXPECT_TRUE(back.ParseFromString(bytes));
  auto r = ExprFromProto(back, kInput);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : nullptr;
}

TEST(ExprProto, RoundTripKeepsTreeAndTypes) {
  auto word = Col(0, DataType::String());
  auto cnt = Col(1, DataType::BigInt());
  auto a = Col(2, DataType::Int());
  auto d = Col(3, DataType::Decimal(10, 2));
  std::vector<ExprPtr> exprs = {
      Call("AND",
           {Call("LIKE", {word, StrLit("F%")}), Call(">", {Call("+", {a, cnt}), BigLit(3)})}),
      Call("CASE", {Call("IS NULL", {a}), DblLit(1.5), Call("*", {d, IntLit(2)})}),
      Call("ROUND", {d, IntLit(1)}),
      MakeCast(word, DataType::Date(), /*try_cast=*/true),
      Call("COALESCE", {a, TypedNull(DataType::Int()), IntLit(0)}),
      Call("=", {Call("UPPER", {word}), StrLit("X")}),
      Call("NOT", {BoolLit(false)}),
  };
  for (const auto& e : exprs) {
    ExprPtr back = RoundTrip(e);
    ASSERT_NE(back, nullptr);
    EXPECT_EQ(ExprToString(*back, kNames), ExprToString(*e, kNames));
    EXPECT_EQ(back->type, e->type);
  }
}

TEST(ExprProto, LiteralValues) {
  for (const auto& [v, t] : std::vector<std::pair<Value, DataType>>{
           {Value::Int(-5), DataType::TinyInt()},
           {Value::Int(12345), DataType::Decimal(7, 2)},
           {Value::Int(1706695200123), DataType::Timestamp(3)},
           {Value::Double(0.25), DataType::Double()},
           {Value::String("x'y"), DataType::Varchar(4)},
           {Value::String(std::string("\xff\0a", 3)), DataType::Bytes()},
           {Value::Bool(true), DataType::Boolean()},
           {Value::Null(), DataType::Int()}}) {
    v1::Literal p;
    ValueToProto(v, t, &p);
    auto back = ValueFromProto(p, t);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, v);
  }
  v1::Literal s;
  s.set_string_value("1");
  EXPECT_FALSE(ValueFromProto(s, DataType::Int()).ok());
}

TEST(ExprProto, RejectsMalformedPlans) {
  v1::Expr bad_col;
  TypeToProto(DataType::Int(), bad_col.mutable_type());
  bad_col.set_column(9);
  EXPECT_EQ(ExprFromProto(bad_col, kInput).status().message(),
            "Invalid expression in plan: column index 9 out of range for an input of 4 columns");

  v1::Expr wrong_type;
  TypeToProto(DataType::Int(), wrong_type.mutable_type());
  wrong_type.set_column(0);  // column 0 is STRING
  EXPECT_FALSE(ExprFromProto(wrong_type, kInput).ok());

  v1::Expr unknown;
  ExprToProto(*Call("UPPER", {Col(0, DataType::String())}), &unknown);
  unknown.mutable_call()->set_function("FOO");
  EXPECT_EQ(ExprFromProto(unknown, kInput).status().message(), "Unknown function 'FOO'");

  // A call whose argument types do not fit: + over a STRING column.
  v1::Expr bad_args;
  ExprToProto(*Call("+", {Col(1, DataType::BigInt()), BigLit(1)}), &bad_args);
  bad_args.mutable_call()->mutable_args(0)->set_column(0);
  TypeToProto(DataType::String(), bad_args.mutable_call()->mutable_args(0)->mutable_type());
  EXPECT_EQ(ExprFromProto(bad_args, kInput).status().message(),
            "Cannot apply '+' to arguments of type <STRING> and <BIGINT>");

  // Planned type disagrees with the resolved one.
  v1::Expr lying;
  ExprToProto(*Call("+", {Col(2, DataType::Int()), IntLit(1)}), &lying);
  TypeToProto(DataType::Double(), lying.mutable_type());
  EXPECT_FALSE(ExprFromProto(lying, kInput).ok());

  v1::Expr empty;
  EXPECT_FALSE(ExprFromProto(empty, kInput).ok());

  v1::Expr bad_cast;
  ExprToProto(*MakeCast(Col(2, DataType::Int()), DataType::BigInt()), &bad_cast);
  TypeToProto(DataType::Date(), bad_cast.mutable_type());
  EXPECT_EQ(ExprFromProto(bad_cast, kInput).status().message(),
            "Cast from INT to DATE is not supported");
}

}  // namespace
}  // namespace eddy
