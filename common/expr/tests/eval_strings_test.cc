#include <gtest/gtest.h>

#include "common/expr/like_matcher.h"
#include "common/expr/tests/test_util.h"

namespace eddy {
namespace {

using namespace eddy::testing;  // NOLINT

const DataType kStr = DataType::String();
Value S(std::string s) { return Value::String(std::move(s)); }
Value I(int64_t v) { return Value::Int(v); }
Value B(bool b) { return Value::Bool(b); }

TEST(EvalStrings, ConcatUpperLowerLength) {
  EXPECT_EQ(Fold(Call("||", {StrLit("ab"), StrLit("cd")})), S("abcd"));
  EXPECT_EQ(Fold(Call("CONCAT", {StrLit("a"), StrLit("b"), StrLit("c")})), S("abc"));
  EXPECT_EQ(Fold(Call("CONCAT", {StrLit("a"), TypedNull(kStr)})), Value::Null());
  EXPECT_EQ(Fold(Call("CONCAT_WS", {StrLit("-"), StrLit("a"), TypedNull(kStr), StrLit("b")})),
            S("a-b"));
  EXPECT_EQ(Fold(Call("CONCAT_WS", {TypedNull(kStr), StrLit("a")})), Value::Null());
  EXPECT_EQ(Fold(Call("UPPER", {StrLit("Hello, wörld")})), S("HELLO, WöRLD"));
  EXPECT_EQ(Fold(Call("LOWER", {StrLit("HeLLo")})), S("hello"));
  EXPECT_EQ(Fold(Call("CHAR_LENGTH", {StrLit("wörld")})), I(5));  // code points, not bytes
  EXPECT_EQ(Fold(Call("CHAR_LENGTH", {StrLit("")})), I(0));
  EXPECT_EQ(Fold(Call("TRIM", {StrLit("  a b  ")})), S("a b"));
  EXPECT_EQ(Fold(Call("LTRIM", {StrLit("  a ")})), S("a "));
  EXPECT_EQ(Fold(Call("RTRIM", {StrLit("  a ")})), S("  a"));
}

TEST(EvalStrings, Substring) {
  EXPECT_EQ(Fold(Call("SUBSTRING", {StrLit("hello"), IntLit(2), IntLit(3)})), S("ell"));
  EXPECT_EQ(Fold(Call("SUBSTRING", {StrLit("hello"), IntLit(2)})), S("ello"));
  EXPECT_EQ(Fold(Call("SUBSTR", {StrLit("hello"), IntLit(-3)})), S("llo"));
  EXPECT_EQ(Fold(Call("SUBSTRING", {StrLit("hello"), IntLit(0), IntLit(2)})), S("he"));
  EXPECT_EQ(Fold(Call("SUBSTRING", {StrLit("hello"), IntLit(9)})), S(""));
  EXPECT_EQ(Fold(Call("SUBSTRING", {StrLit("hello"), IntLit(4), IntLit(100)})), S("lo"));
  EXPECT_EQ(Fold(Call("SUBSTRING", {StrLit("añb"), IntLit(2), IntLit(1)})), S("ñ"));
  EXPECT_EQ(Fold(Call("SUBSTRING", {TypedNull(kStr), IntLit(1)})), Value::Null());
}

TEST(EvalStrings, StringColumnsWithNulls) {
  auto b = MakeBatch({kStr, kStr}, {{S("a"), S("x")}, {Value::Null(), S("y")}, {S("c"), S("")}});
  auto r = Evaluate(*Call("||", {Col(0, kStr), Col(1, kStr)}), b);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values(*r), (std::vector<Value>{S("ax"), Value::Null(), S("c")}));
  auto u = Evaluate(*Call("UPPER", {Col(0, kStr)}), b);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(Values(*u), (std::vector<Value>{S("A"), Value::Null(), S("C")}));
}

bool Like(std::string s, std::string p, std::string esc = "") {
  std::vector<ExprPtr> args = {StrLit(std::move(s)), StrLit(std::move(p))};
  if (!esc.empty()) args.push_back(StrLit(esc));
  Value v = Fold(Call("LIKE", std::move(args)));
  EXPECT_TRUE(v.is_bool());
  return v.is_bool() && v.bool_value();
}

TEST(EvalLike, Wildcards) {
  EXPECT_TRUE(Like("Flink", "F%"));
  EXPECT_FALSE(Like("flink", "F%"));  // case-sensitive
  EXPECT_TRUE(Like("Flink", "%ink"));
  EXPECT_TRUE(Like("Flink", "%li%"));
  EXPECT_FALSE(Like("Flink", "%lo%"));
  EXPECT_TRUE(Like("Flink", "Flink"));
  EXPECT_FALSE(Like("Flink", "Flin"));
  EXPECT_TRUE(Like("Flink", "F_i_k"));
  EXPECT_FALSE(Like("Flink", "F_k"));
  EXPECT_TRUE(Like("", "%"));
  EXPECT_FALSE(Like("", "_"));
  EXPECT_TRUE(Like("abcabd", "%ab_"));
  EXPECT_TRUE(Like("aXbXc", "a%b%c"));
  EXPECT_FALSE(Like("aXbXd", "a%b%c"));
  EXPECT_TRUE(Like("ñu", "_u"));  // _ is one code point
  EXPECT_TRUE(Like("mississippi", "%iss%ppi"));
}

TEST(EvalLike, Escapes) {
  EXPECT_TRUE(Like("100%", "100!%", "!"));
  EXPECT_FALSE(Like("1000", "100!%", "!"));
  EXPECT_TRUE(Like("a_b", "a!_b", "!"));
  EXPECT_FALSE(Like("axb", "a!_b", "!"));
  EXPECT_TRUE(Like("a!b", "a!!b", "!"));
  EXPECT_EQ(FoldError(Call("LIKE", {StrLit("a"), StrLit("a!x"), StrLit("!")})),
            "Invalid escape sequence in LIKE pattern 'a!x'");
  EXPECT_EQ(FoldError(Call("LIKE", {StrLit("a"), StrLit("a"), StrLit("!!")})),
            "Invalid escape character '!!' in LIKE: it must be a single character");
}

TEST(EvalLike, ColumnsAndNulls) {
  auto b = MakeBatch({kStr, kStr}, {{S("apple"), S("a%")},
                                    {S("banana"), S("a%")},
                                    {Value::Null(), S("a%")},
                                    {S("cherry"), S("%rr_")},
                                    {S("date"), Value::Null()}});
  auto r = Evaluate(*Call("LIKE", {Col(0, kStr), Col(1, kStr)}), b);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values(*r),
            (std::vector<Value>{B(true), B(false), Value::Null(), B(true), Value::Null()}));
  auto lit = Evaluate(*Call("LIKE", {Col(0, kStr), StrLit("%an%")}), b);
  ASSERT_TRUE(lit.ok());
  EXPECT_EQ(Values(*lit),
            (std::vector<Value>{B(false), B(true), Value::Null(), B(false), B(false)}));
  EXPECT_EQ(Fold(Call("LIKE", {StrLit("a"), TypedNull(kStr)})), Value::Null());
}

}  // namespace
}  // namespace eddy
