// Edge cases of the string, regular expression, hash, math, time and JSON functions: NULLs, empty
// strings, multi-byte UTF-8, out-of-range positions, and planning-time errors.
#include <gtest/gtest.h>

#include <limits>

#include "common/expr/datetime_pattern.h"
#include "common/expr/json_value.h"
#include "common/expr/tests/test_util.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

const DataType kStr = DataType::String();
Value S(std::string s) { return Value::String(std::move(s)); }
Value I(int64_t v) { return Value::Int(v); }
Value B(bool b) { return Value::Bool(b); }
Value N() { return Value::Null(); }

std::string CallError(std::string_view fn, std::vector<ExprPtr> args) {
  auto r = MakeCall(fn, std::move(args));
  return r.ok() ? "<ok>" : std::string(r.status().message());
}

TEST(ScalarFunctions, ReplaceAndSplitIndex) {
  EXPECT_EQ(Fold(Call("REPLACE", {StrLit("aXbXc"), StrLit("X"), StrLit("--")})), S("a--b--c"));
  EXPECT_EQ(Fold(Call("REPLACE", {StrLit("añb"), StrLit(""), StrLit(".")})), S(".a.ñ.b."));
  EXPECT_EQ(Fold(Call("REPLACE", {StrLit(""), StrLit("x"), StrLit("y")})), S(""));
  EXPECT_EQ(Fold(Call("REPLACE", {TypedNull(kStr), StrLit("x"), StrLit("y")})), N());
  EXPECT_EQ(Fold(Call("SPLIT_INDEX", {StrLit("a,,b,"), StrLit(","), IntLit(1)})), S(""));
  EXPECT_EQ(Fold(Call("SPLIT_INDEX", {StrLit("a,,b,"), StrLit(","), IntLit(3)})), S(""));
  EXPECT_EQ(Fold(Call("SPLIT_INDEX", {StrLit("a,,b,"), StrLit(","), IntLit(4)})), N());
  EXPECT_EQ(Fold(Call("SPLIT_INDEX", {StrLit("a::b"), StrLit("::"), IntLit(1)})), S("b"));
  EXPECT_EQ(Fold(Call("SPLIT_INDEX", {StrLit("a b"), StrLit(""), IntLit(1)})), S("b"));
  EXPECT_EQ(Fold(Call("SPLIT_INDEX", {StrLit("ab"), StrLit(","), IntLit(-1)})), N());
  EXPECT_EQ(Fold(Call("SPLIT_INDEX", {StrLit(""), StrLit(","), IntLit(0)})), N());
}

TEST(ScalarFunctions, PaddingInMultiByteText) {
  EXPECT_EQ(Fold(Call("LPAD", {StrLit("ñ"), IntLit(4), StrLit("äb")})), S("äbäñ"));
  EXPECT_EQ(Fold(Call("RPAD", {StrLit("ñ"), IntLit(4), StrLit("äb")})), S("ñäbä"));
  EXPECT_EQ(Fold(Call("LPAD", {StrLit("héllo"), IntLit(2), StrLit("x")})), S("hé"));
  EXPECT_EQ(Fold(Call("RPAD", {StrLit("héllo"), IntLit(0), StrLit("x")})), S(""));
  EXPECT_EQ(Fold(Call("LPAD", {StrLit("a"), IntLit(-1), StrLit("x")})), N());
  EXPECT_EQ(Fold(Call("LPAD", {StrLit("a"), IntLit(3), StrLit("")})), N());
}

TEST(ScalarFunctions, InitcapReverseRepeatLeftRight) {
  EXPECT_EQ(Fold(Call("INITCAP", {StrLit("hELLO wörld 2nd-go")})), S("Hello WöRld 2nd-Go"));
  EXPECT_EQ(Fold(Call("INITCAP", {StrLit("")})), S(""));
  EXPECT_EQ(Fold(Call("REVERSE", {StrLit("añ€😀b")})), S("b😀€ña"));
  EXPECT_EQ(Fold(Call("REPEAT", {StrLit("ab"), IntLit(3)})), S("ababab"));
  EXPECT_EQ(Fold(Call("REPEAT", {StrLit("ab"), IntLit(-1)})), S(""));
  EXPECT_EQ(Fold(Call("LEFT", {StrLit("ñandú"), IntLit(2)})), S("ña"));
  EXPECT_EQ(Fold(Call("RIGHT", {StrLit("ñandú"), IntLit(2)})), S("dú"));
  EXPECT_EQ(Fold(Call("RIGHT", {StrLit("ab"), IntLit(5)})), S("ab"));
  EXPECT_EQ(Fold(Call("LEFT", {StrLit("ab"), IntLit(-5)})), S(""));
}

TEST(ScalarFunctions, PositionAndOverlay) {
  EXPECT_EQ(Fold(Call("POSITION", {StrLit("dú"), StrLit("ñandú")})), I(4));
  EXPECT_EQ(Fold(Call("LOCATE", {StrLit("a"), StrLit("banana"), IntLit(3)})), I(4));
  EXPECT_EQ(Fold(Call("LOCATE", {StrLit("a"), StrLit("banana"), IntLit(99)})), I(0));
  EXPECT_EQ(Fold(Call("POSITION", {StrLit("x"), StrLit("")})), I(0));
  EXPECT_EQ(Fold(Call("OVERLAY", {StrLit("abcdef"), StrLit("XY"), IntLit(3)})), S("abXYef"));
  EXPECT_EQ(Fold(Call("OVERLAY", {StrLit("abcdef"), StrLit("XY"), IntLit(5), IntLit(4)})),
            S("abcdXY"));
  EXPECT_EQ(Fold(Call("OVERLAY", {StrLit("abc"), StrLit("X"), IntLit(9)})), S("abc"));
}

TEST(ScalarFunctions, TrimCharacters) {
  EXPECT_EQ(Fold(Call("TRIM", {StrLit("éaxé"), StrLit("é")})), S("ax"));
  EXPECT_EQ(Fold(Call("LTRIM", {StrLit("xyxaxy"), StrLit("xy")})), S("axy"));
  EXPECT_EQ(Fold(Call("RTRIM", {StrLit("xyxaxy"), StrLit("xy")})), S("xyxa"));
  EXPECT_EQ(Fold(Call("TRIM", {StrLit("xx"), StrLit("x")})), S(""));
}

TEST(ScalarFunctions, RegularExpressions) {
  EXPECT_EQ(Fold(Call("REGEXP_EXTRACT", {StrLit("foothebar"), StrLit("foo(.*?)(bar)"), IntLit(2)})),
            S("bar"));
  EXPECT_EQ(Fold(Call("REGEXP_EXTRACT", {StrLit("a1b22"), StrLit("[0-9]+")})), S("1"));
  EXPECT_EQ(Fold(Call("REGEXP_EXTRACT", {StrLit("abc"), StrLit("(b)"), IntLit(2)})), N());
  EXPECT_EQ(Fold(Call("REGEXP_EXTRACT", {StrLit("abc"), StrLit("(b)"), IntLit(-1)})), N());
  EXPECT_EQ(Fold(Call("REGEXP_EXTRACT", {StrLit("abc"), StrLit("x")})), N());
  EXPECT_EQ(Fold(Call("REGEXP_REPLACE", {StrLit("abc"), StrLit("x*"), StrLit("-")})), S("-a-b-c-"));
  EXPECT_EQ(Fold(Call("REGEXP_REPLACE", {StrLit("añb"), StrLit(""), StrLit(".")})), S(".a.ñ.b."));
  // The replacement is literal: no group references.
  EXPECT_EQ(Fold(Call("REGEXP_REPLACE", {StrLit("ab"), StrLit("(a)"), StrLit("$1\\")})),
            S("$1\\b"));
  EXPECT_EQ(Fold(Call("REGEXP", {StrLit("xabcx"), StrLit("^abc")})), B(false));
  EXPECT_EQ(Fold(Call("REGEXP", {StrLit("xabcx"), StrLit("abc")})), B(true));
  EXPECT_EQ(Fold(Call("REGEXP", {StrLit("x"), StrLit("")})), B(false));
  EXPECT_EQ(Fold(Call("REGEXP", {TypedNull(kStr), StrLit("a")})), N());
}

TEST(ScalarFunctions, InvalidConstantRegexIsAPlanningError) {
  EXPECT_EQ(CallError("REGEXP_REPLACE", {StrLit("a"), StrLit("(a"), StrLit("b")}),
            "Invalid regular expression '(a' in 'REGEXP_REPLACE': missing ): (a");
  // From a column, a bad pattern gives NULL on its rows (FALSE for REGEXP), as in Flink.
  ChangelogBatch batch = MakeBatch({kStr}, {{S("(a")}, {S("a+")}});
  auto e = Call("REGEXP_EXTRACT", {StrLit("caab"), Col(0, kStr), IntLit(0)});
  auto c = Evaluate(*e, batch);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(Values(*c), (std::vector<Value>{N(), S("aa")}));
  auto m = Evaluate(*Call("REGEXP", {StrLit("caab"), Col(0, kStr)}), batch);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(Values(*m), (std::vector<Value>{B(false), B(true)}));
}

TEST(ScalarFunctions, ArgumentErrorsNameTheArgument) {
  EXPECT_EQ(CallError("LPAD", {StrLit("a"), StrLit("2"), StrLit("b")}),
            "Cannot apply 'LPAD' to arguments of type 'LPAD(<STRING>, <STRING>, <STRING>)': "
            "argument 2 must be <INTEGER>. Supported form(s): "
            "'LPAD(<STRING>, <INTEGER>, <STRING>)'");
  EXPECT_EQ(CallError("LOCATE", {StrLit("a")}),
            "Invalid number of arguments to function 'LOCATE': 1. Supported form(s): "
            "'LOCATE(<STRING>, <STRING> [, <INTEGER>])'");
  EXPECT_EQ(CallError("NO_SUCH", {}), "Unknown function 'NO_SUCH'");
}

TEST(ScalarFunctions, HashKnownAnswers) {
  EXPECT_EQ(Fold(Call("MD5", {StrLit("")})), S("d41d8cd98f00b204e9800998ecf8427e"));
  EXPECT_EQ(Fold(Call("SHA1", {StrLit("abc")})), S("a9993e364706816aba3e25717850c26c9cd0d89d"));
  EXPECT_EQ(Fold(Call("SHA256", {StrLit("abc")})),
            S("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  EXPECT_EQ(Fold(Call("SHA2", {StrLit("abc"), IntLit(224)})),
            S("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"));
  EXPECT_EQ(Fold(Call("SHA2", {StrLit("abc"), IntLit(1)})), N());
  EXPECT_EQ(Fold(Call("MD5", {TypedNull(kStr)})), N());
}

TEST(ScalarFunctions, GreatestLeastNullIf) {
  EXPECT_EQ(Fold(Call("GREATEST", {IntLit(1), IntLit(7), IntLit(3)})), I(7));
  EXPECT_EQ(Fold(Call("LEAST", {StrLit("b"), StrLit("ä"), StrLit("a")})), S("a"));
  EXPECT_EQ(Fold(Call("GREATEST", {IntLit(1), TypedNull(DataType::Int())})), N());
  EXPECT_EQ(Fold(Call("NULLIF", {IntLit(1), IntLit(1)})), N());
  EXPECT_EQ(Fold(Call("NULLIF", {IntLit(1), BigLit(2)})), I(1));
  EXPECT_EQ(CallError("GREATEST", {IntLit(1), StrLit("a")}),
            "Cannot apply 'GREATEST' to arguments of type <INT> and <STRING>");
}

TEST(ScalarFunctions, SeededRandomIsJavasSequence) {
  auto e = Call("RAND", {IntLit(42)});
  ChangelogBatch three = MakeBatch({DataType::Int()}, {{I(1)}, {I(2)}, {I(3)}});
  auto c = Evaluate(*e, three);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(Values(*c), (std::vector<Value>{Value::Double(0.7275636800328681),
                                            Value::Double(0.6832234717598454),
                                            Value::Double(0.30871945533265976)}));
  // The sequence goes on in the next batch.
  auto next = Evaluate(*e, MakeBatch({DataType::Int()}, {{I(1)}}));
  ASSERT_TRUE(next.ok());
  EXPECT_NE(Values(*next)[0], Value::Double(0.7275636800328681));
  auto ints = Evaluate(*Call("RAND_INTEGER", {IntLit(42), IntLit(10)}), three);
  ASSERT_TRUE(ints.ok());
  EXPECT_EQ(Values(*ints), (std::vector<Value>{I(0), I(3), I(8)}));
}

TEST(ScalarFunctions, TruncateAndSign) {
  EXPECT_EQ(Fold(Call("TRUNCATE", {DblLit(42.329), IntLit(2)})), Value::Double(42.32));
  EXPECT_EQ(Fold(Call("TRUNCATE", {DblLit(-0.5)})), Value::Double(-0.0));
  EXPECT_EQ(Fold(Call("TRUNCATE", {DecLit(-42329, 5, 3), IntLit(1)})), I(-423));  // -42.3
  EXPECT_EQ(Fold(Call("SIGN", {DblLit(-3.5)})), Value::Double(-1.0));
  EXPECT_EQ(Fold(Call("SIGN", {DecLit(0, 4, 2)})), I(0));
}

TEST(DateTimePattern, FormatsAndParses) {
  auto p = DateTimePattern::Compile("yyyy-MM-dd'T'HH:mm:ss.SSS EEEE MMMM a hh D Q");
  ASSERT_TRUE(p.ok()) << p.status();
  std::string out;
  p->Format(-1, &out);  // one millisecond before the epoch
  EXPECT_EQ(out, "1969-12-31T23:59:59.999 Wednesday December PM 11 365 4");
  auto compact = DateTimePattern::Compile("yyyyMMddHHmm");
  ASSERT_TRUE(compact.ok());
  int64_t ms = 0;
  ASSERT_TRUE(compact->Parse("202402291330", &ms));
  EXPECT_EQ(ms, 1709213400000);
  EXPECT_FALSE(compact->Parse("20240230", &ms));
  auto zoned = DateTimePattern::Compile("yyyy-MM-dd HH:mm:ss XXX");
  ASSERT_TRUE(zoned.ok());
  ASSERT_TRUE(zoned->Parse("1970-01-01 02:00:00 +02:00", &ms));
  EXPECT_EQ(ms, 0);
  EXPECT_EQ(DateTimePattern::Compile("yyyy-qq").status().message(),
            "Invalid date-time pattern 'yyyy-qq': unknown letter 'q'");
  EXPECT_EQ(AddMonthsToDays(DaysFromCivil(2023, 1, 31), 13), DaysFromCivil(2024, 2, 29));
}

TEST(ScalarFunctions, TimestampDiffCountsWholeMonths) {
  auto ts = [](const char* s) { return MakeCast(StrLit(s), DataType::Timestamp(3)); };
  auto diff = [&](const char* unit, const char* a, const char* b) {
    return Fold(Call("TIMESTAMPDIFF", {StrLit(unit), ts(a), ts(b)}));
  };
  EXPECT_EQ(diff("MONTH", "2024-01-31 10:00:00", "2024-02-29 09:59:59"), I(0));
  EXPECT_EQ(diff("MONTH", "2024-01-31 10:00:00", "2024-02-29 10:00:00"), I(1));
  EXPECT_EQ(diff("MONTH", "2024-03-31 00:00:00", "2024-02-29 00:00:00"), I(-1));
  EXPECT_EQ(diff("YEAR", "2020-02-29 00:00:00", "2021-02-28 00:00:00"), I(1));
  EXPECT_EQ(diff("SECOND", "2024-01-01 00:00:01", "2024-01-01 00:00:00.001"), I(0));
}

TEST(Json, ParsesAndWrites) {
  json::Value v;
  ASSERT_TRUE(json::Parse(R"( {"a": [1, -0.50, 1e2, "\u00e9\n", true, null], "b": {}} )", &v));
  std::string out;
  json::Write(v, &out);
  EXPECT_EQ(out, R"({"a":[1,-0.50,1E+2,"é\n",true,null],"b":{}})");
  ASSERT_TRUE(json::Parse(R"({"b": 1, "a": {"d": 15e-4, "c": 2}})", &v));
  out.clear();
  json::Write(v, &out);  // keys sorted, as Flink prints them
  EXPECT_EQ(out, R"({"a":{"c":2,"d":0.0015},"b":1})");
  EXPECT_FALSE(json::Parse("{\"a\":1,}", &v));
  EXPECT_FALSE(json::Parse("01", &v));
  EXPECT_FALSE(json::Parse("", &v));
  EXPECT_TRUE(json::Parse("\"x\"", &v));
}

TEST(ScalarFunctions, JsonValueBehaviours) {
  auto jv = [](std::string json, std::string path, std::string on_empty, ExprPtr empty_default,
               std::string on_error, ExprPtr error_default, DataType returning) {
    return MakeCall("JSON_VALUE",
                    {StrLit(json), StrLit(path), TypedNull(returning), StrLit(on_empty),
                     empty_default, StrLit(on_error), error_default});
  };
  auto r = jv(R"({"a":"7"})", "$.a", "NULL", NullLit(), "NULL", NullLit(), DataType::Int());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Fold(*r), I(7));
  r = jv(R"({"a":"x"})", "$.a", "NULL", NullLit(), "DEFAULT", IntLit(-1), DataType::Int());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Fold(*r), I(-1));
  r = jv(R"({})", "lax $.a", "ERROR", NullLit(), "NULL", NullLit(), DataType::String());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(FoldError(*r), "Empty result of JSON_VALUE function is not allowed");
  // Strict (the default): a missing member is an error, not empty.
  r = jv(R"({})", "$.a", "ERROR", NullLit(), "ERROR", NullLit(), DataType::String());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(FoldError(*r), "No results for path: $.a");
  r = jv(R"({"a":[1]})", "$.a", "NULL", NullLit(), "DEFAULT", StrLit("d"), DataType::String());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Fold(*r), S("d"));
  r = jv(R"({})", "$.", "NULL", NullLit(), "NULL", NullLit(), DataType::String());
  EXPECT_EQ(r.status().message(), "Invalid JSON path '$.': a member name is missing after '.'");
}

}  // namespace
}  // namespace eddy
