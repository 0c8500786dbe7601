#include "client/table_expression.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/types/value.h"

namespace eddy::api {
namespace {

Expression Binary(const Expression& a, const char* op, const Expression& b) {
  return Expression(absl::StrCat("(", a.sql(), " ", op, " ", b.sql(), ")"));
}
Expression Call(const char* fn, const Expression& a) {
  return Expression(absl::StrCat(fn, "(", a.sql(), ")"));
}

}  // namespace

std::string QuoteIdentifier(const std::string& name) {
  return absl::StrCat("`", absl::StrReplaceAll(name, {{"`", "``"}}), "`");
}

Expression Expression::As(const std::string& name) const {
  return Expression(absl::StrCat(sql_, " AS ", QuoteIdentifier(name)));
}
Expression Expression::Like(const std::string& pattern) const {
  return Expression(absl::StrCat("(", sql_, " LIKE ", Lit(pattern).sql(), ")"));
}
Expression Expression::IsNull() const { return Expression(absl::StrCat("(", sql_, " IS NULL)")); }
Expression Expression::IsNotNull() const {
  return Expression(absl::StrCat("(", sql_, " IS NOT NULL)"));
}
Expression Expression::Upper() const { return Call("UPPER", *this); }
Expression Expression::Lower() const { return Call("LOWER", *this); }
Expression Expression::CharLength() const { return Call("CHAR_LENGTH", *this); }
Expression Expression::Cast(const std::string& sql_type) const {
  return Expression(absl::StrCat("CAST(", sql_, " AS ", sql_type, ")"));
}
Expression Expression::Sum() const { return Call("SUM", *this); }
Expression Expression::Count() const { return Call("COUNT", *this); }
Expression Expression::Avg() const { return Call("AVG", *this); }
Expression Expression::Min() const { return Call("MIN", *this); }
Expression Expression::Max() const { return Call("MAX", *this); }

Expression Col(const std::string& name) { return Expression(QuoteIdentifier(name)); }
Expression Lit(int64_t v) {
  // The most negative BIGINT has no positive literal; spell it as an expression.
  if (v == INT64_MIN) return Expression("(-9223372036854775807 - 1)");
  return Expression(v < 0 ? absl::StrCat("(", v, ")") : absl::StrCat(v));
}
Expression Lit(int v) { return Lit(static_cast<int64_t>(v)); }
Expression Lit(double v) {
  return Expression(absl::StrCat("CAST('", FormatDouble(v), "' AS DOUBLE)"));
}
Expression Lit(bool v) { return Expression(v ? "TRUE" : "FALSE"); }
Expression Lit(const std::string& v) {
  return Expression(absl::StrCat("'", absl::StrReplaceAll(v, {{"'", "''"}}), "'"));
}
Expression Lit(const char* v) { return Lit(std::string(v)); }
Expression Null(const std::string& sql_type) {
  return Expression(absl::StrCat("CAST(NULL AS ", sql_type, ")"));
}
Expression CountStar() { return Expression("COUNT(*)"); }

Expression Call(const std::string& name, const std::vector<Expression>& args) {
  std::string sql = QuoteIdentifier(name) + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) sql += ", ";
    sql += args[i].sql();
  }
  return Expression(sql + ")");
}

Expression operator+(const Expression& a, const Expression& b) { return Binary(a, "+", b); }
Expression operator-(const Expression& a, const Expression& b) { return Binary(a, "-", b); }
Expression operator*(const Expression& a, const Expression& b) { return Binary(a, "*", b); }
Expression operator/(const Expression& a, const Expression& b) { return Binary(a, "/", b); }
Expression operator%(const Expression& a, const Expression& b) { return Binary(a, "%", b); }
Expression operator==(const Expression& a, const Expression& b) { return Binary(a, "=", b); }
Expression operator!=(const Expression& a, const Expression& b) { return Binary(a, "<>", b); }
Expression operator<(const Expression& a, const Expression& b) { return Binary(a, "<", b); }
Expression operator<=(const Expression& a, const Expression& b) { return Binary(a, "<=", b); }
Expression operator>(const Expression& a, const Expression& b) { return Binary(a, ">", b); }
Expression operator>=(const Expression& a, const Expression& b) { return Binary(a, ">=", b); }
Expression operator&&(const Expression& a, const Expression& b) { return Binary(a, "AND", b); }
Expression operator||(const Expression& a, const Expression& b) { return Binary(a, "OR", b); }
Expression operator!(const Expression& a) {
  return Expression(absl::StrCat("(NOT ", a.sql(), ")"));
}

}  // namespace eddy::api
