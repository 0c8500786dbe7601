#include <gtest/gtest.h>

#include <cmath>

#include "common/expr/tests/test_util.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

Value I(int64_t v) { return Value::Int(v); }
Value D(double v) { return Value::Double(v); }
Value S(std::string s) { return Value::String(std::move(s)); }
Value B(bool b) { return Value::Bool(b); }

Value Cast(ExprPtr e, DataType t) { return Fold(MakeCast(std::move(e), t)); }
Value TryCast(ExprPtr e, DataType t) { return Fold(MakeCast(std::move(e), t, true)); }
std::string CastError(ExprPtr e, DataType t) { return FoldError(MakeCast(std::move(e), t)); }

TEST(EvalCast, NumericToNumeric) {
  EXPECT_EQ(Cast(IntLit(300), DataType::SmallInt()), I(300));
  EXPECT_EQ(CastError(IntLit(300), DataType::TinyInt()),
            "Cannot cast 300 to TINYINT: value out of range");
  EXPECT_EQ(TryCast(IntLit(300), DataType::TinyInt()), Value::Null());
  EXPECT_EQ(Cast(IntLit(-5), DataType::Double()), D(-5.0));
  // DOUBLE / DECIMAL -> integer truncates toward zero.
  EXPECT_EQ(Cast(DblLit(-2.9), DataType::Int()), I(-2));
  EXPECT_EQ(Cast(DecLit(299, 3, 2), DataType::Int()), I(2));
  EXPECT_EQ(Cast(DecLit(-299, 3, 2), DataType::BigInt()), I(-2));
  EXPECT_EQ(CastError(DblLit(1e20), DataType::BigInt()),
            "Cannot cast 1.0E20 to BIGINT: value out of range");
  EXPECT_EQ(TryCast(DblLit(std::nan("")), DataType::Int()), Value::Null());
  // DECIMAL rescale rounds HALF_UP.
  EXPECT_EQ(Cast(DecLit(12345, 5, 3), DataType::Decimal(5, 2)), I(1235));
  EXPECT_EQ(Cast(DecLit(-12345, 5, 3), DataType::Decimal(5, 2)), I(-1235));
  EXPECT_EQ(Cast(DecLit(125, 3, 2), DataType::Decimal(6, 4)), I(12500));
  EXPECT_EQ(CastError(DecLit(12345, 5, 2), DataType::Decimal(4, 2)),
            "Cannot cast 123.45 to DECIMAL(4, 2): value out of range");
  EXPECT_EQ(Cast(IntLit(7), DataType::Decimal(5, 2)), I(700));
  EXPECT_EQ(Cast(DblLit(0.125), DataType::Decimal(5, 2)), I(13));
  EXPECT_EQ(Cast(DblLit(2.675), DataType::Decimal(5, 2)), I(268));
  EXPECT_EQ(Cast(DecLit(15, 3, 1), DataType::Double()), D(1.5));
  // BOOLEAN <-> numbers.
  EXPECT_EQ(Cast(BoolLit(true), DataType::Int()), I(1));
  EXPECT_EQ(Cast(IntLit(0), DataType::Boolean()), B(false));
  EXPECT_EQ(Cast(DblLit(0.5), DataType::Boolean()), B(true));
}

TEST(EvalCast, ToString) {
  EXPECT_EQ(Cast(IntLit(-42), DataType::String()), S("-42"));
  EXPECT_EQ(Cast(DblLit(1e7), DataType::String()), S("1.0E7"));
  EXPECT_EQ(Cast(DblLit(0.1), DataType::String()), S("0.1"));
  EXPECT_EQ(Cast(MakeLiteral(Value::Double(0.1), DataType::Float()), DataType::String()), S("0.1"));
  EXPECT_EQ(Cast(DecLit(150, 5, 2), DataType::String()), S("1.50"));
  EXPECT_EQ(Cast(BoolLit(true), DataType::String()), S("TRUE"));
  EXPECT_EQ(Cast(MakeLiteral(Value::Int(19753), DataType::Date()), DataType::String()),
            S("2024-01-31"));
  EXPECT_EQ(
      Cast(MakeLiteral(Value::Int(1706695200123), DataType::Timestamp(3)), DataType::String()),
      S("2024-01-31 10:00:00.123"));
  // VARCHAR(n) truncates to n code points.
  EXPECT_EQ(Cast(StrLit("héllo"), DataType::Varchar(2)), S("hé"));
  EXPECT_EQ(Cast(IntLit(12345), DataType::Varchar(3)), S("123"));
}

TEST(EvalCast, BinaryStrings) {
  auto bytes = [](std::string s) {
    const int n = static_cast<int>(s.size());
    return MakeLiteral(Value::String(std::move(s)), DataType::Binary(n).WithNullable(false));
  };
  // STRING <-> BYTES: the UTF-8 bytes; a strict decode.
  EXPECT_EQ(Cast(StrLit("h\xc3\xa9"), DataType::Bytes()), S("h\xc3\xa9"));
  EXPECT_EQ(Cast(bytes("h\xc3\xa9"), DataType::String()), S("h\xc3\xa9"));
  EXPECT_EQ(CastError(bytes("\xff"), DataType::String()),
            "Cannot cast x'ff' to STRING: the bytes are not UTF-8");
  EXPECT_EQ(TryCast(bytes("\xff"), DataType::String()), Value::Null());
  EXPECT_EQ(Cast(bytes("h\xc3\xa9x"), DataType::Varchar(2)), S("h\xc3\xa9"));
  // VARBINARY(n) cuts to n bytes; BINARY(n) also pads with zero bytes.
  EXPECT_EQ(Cast(bytes("abc"), DataType::VarBinary(2)), S("ab"));
  EXPECT_EQ(Cast(bytes("a"), DataType::Binary(3)), S(std::string("a\0\0", 3)));
  EXPECT_EQ(Cast(StrLit("abc"), DataType::Binary(2)), S("ab"));
  EXPECT_EQ(CastError(bytes("a"), DataType::Int()), "Cast from BINARY(1) to INT is not supported");
}

TEST(EvalCast, FromString) {
  EXPECT_EQ(Cast(StrLit(" 42 "), DataType::Int()), I(42));
  EXPECT_EQ(Cast(StrLit("-7"), DataType::TinyInt()), I(-7));
  EXPECT_EQ(Cast(StrLit("1.9"), DataType::Int()), I(1));  // Flink tolerates a fraction
  EXPECT_EQ(CastError(StrLit("abc"), DataType::Int()), "Cannot cast 'abc' to INT");
  EXPECT_EQ(CastError(StrLit("128"), DataType::TinyInt()), "Cannot cast '128' to TINYINT");
  EXPECT_EQ(CastError(StrLit(""), DataType::BigInt()), "Cannot cast '' to BIGINT");
  EXPECT_EQ(TryCast(StrLit("abc"), DataType::Int()), Value::Null());
  EXPECT_EQ(Cast(StrLit("9223372036854775807"), DataType::BigInt()), I(9223372036854775807LL));
  EXPECT_EQ(TryCast(StrLit("9223372036854775808"), DataType::BigInt()), Value::Null());
  EXPECT_EQ(Cast(StrLit("1.5e3"), DataType::Double()), D(1500.0));
  EXPECT_EQ(Cast(StrLit("-Infinity"), DataType::Double()), D(-INFINITY));
  EXPECT_EQ(TryCast(StrLit("inf"), DataType::Double()), Value::Null());
  EXPECT_EQ(TryCast(StrLit("0x10"), DataType::Double()), Value::Null());
  EXPECT_EQ(Cast(StrLit("12.345"), DataType::Decimal(5, 2)), I(1235));
  EXPECT_EQ(Cast(StrLit("-0.005"), DataType::Decimal(5, 2)), I(-1));
  EXPECT_EQ(Cast(StrLit("1e2"), DataType::Decimal(5, 0)), I(100));
  EXPECT_EQ(CastError(StrLit("1234"), DataType::Decimal(3, 0)),
            "Cannot cast '1234' to DECIMAL(3, 0)");
  EXPECT_EQ(Cast(StrLit("TRUE"), DataType::Boolean()), B(true));
  EXPECT_EQ(Cast(StrLit("no"), DataType::Boolean()), B(false));
  EXPECT_EQ(CastError(StrLit("maybe"), DataType::Boolean()), "Cannot cast 'maybe' to BOOLEAN");
  EXPECT_EQ(Cast(StrLit("2024-01-31"), DataType::Date()), I(19753));
  EXPECT_EQ(CastError(StrLit("2024-02-30"), DataType::Date()), "Cannot cast '2024-02-30' to DATE");
  EXPECT_EQ(Cast(StrLit("2024-01-31 10:00:00.123"), DataType::Timestamp(3)), I(1706695200123));
  EXPECT_EQ(Cast(StrLit("2024-01-31T10:00:00"), DataType::Timestamp(3)), I(1706695200000));
  EXPECT_EQ(Cast(StrLit("2024-01-31"), DataType::Timestamp(3)), I(1706659200000));
  EXPECT_EQ(Cast(StrLit("2024-01-31 10:00:00.123"), DataType::Timestamp(0)), I(1706695200000));
  EXPECT_EQ(CastError(StrLit("2024-01-31 25:00:00"), DataType::Timestamp(3)),
            "Cannot cast '2024-01-31 25:00:00' to TIMESTAMP(3)");
}

TEST(EvalCast, CharPadsWithBlanksAndTruncates) {
  EXPECT_EQ(Cast(StrLit("ab"), DataType::Char(4)), S("ab  "));
  EXPECT_EQ(Cast(StrLit("abcdef"), DataType::Char(3)), S("abc"));
  EXPECT_EQ(Cast(StrLit("h\xc3\xa9"), DataType::Char(3)), S("h\xc3\xa9 "));  // code points
  EXPECT_EQ(Cast(IntLit(42), DataType::Char(3)), S("42 "));
  EXPECT_EQ(Cast(StrLit("ab"), DataType::Varchar(4)), S("ab"));
  EXPECT_EQ(DataType::Char(3).ToString(), "CHAR(3)");
  EXPECT_EQ(DataType::Varchar(3).ToString(), "VARCHAR(3)");
}

TEST(EvalCast, Temporal) {
  auto ts = MakeLiteral(Value::Int(1706695200123), DataType::Timestamp(3));
  EXPECT_EQ(Cast(ts, DataType::Date()), I(19753));
  EXPECT_EQ(Cast(MakeLiteral(Value::Int(-1), DataType::Timestamp(3)), DataType::Date()), I(-1));
  EXPECT_EQ(Cast(MakeLiteral(Value::Int(19753), DataType::Date()), DataType::Timestamp(3)),
            I(1706659200000));
}

TEST(EvalCast, UnsupportedPairIsAnError) {
  EXPECT_EQ(CastError(BoolLit(true), DataType::Date()),
            "Cast from BOOLEAN to DATE is not supported");
}

TEST(EvalCast, ColumnWithNullsAndTryCast) {
  auto b = MakeBatch({DataType::String()}, {{S("1")}, {Value::Null()}, {S("x")}, {S("4")}});
  auto e = MakeCast(Col(0, DataType::String()), DataType::Int(), /*try_cast=*/true);
  auto r = Evaluate(*e, b);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values(*r), (std::vector<Value>{I(1), Value::Null(), Value::Null(), I(4)}));
  auto strict = Evaluate(*MakeCast(Col(0, DataType::String()), DataType::Int()), b);
  EXPECT_EQ(strict.status().message(), "Cannot cast 'x' to INT");
}

}  // namespace
}  // namespace eddy
