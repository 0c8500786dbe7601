// Column expressions of the C++ Table API (Flink's `$("data").like("H%")`, `lit(1)`, `.sum()`,
// `.as("n")`): each expression is the SQL text it stands for, so a Table built from them is a SQL
// query the coordinator plans like any other (and Table API and SQL mix freely).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace eddy::api {

class Expression {
 public:
  explicit Expression(std::string sql) : sql_(std::move(sql)) {}
  const std::string& sql() const { return sql_; }

  Expression As(const std::string& name) const;
  Expression Like(const std::string& pattern) const;
  Expression IsNull() const;
  Expression IsNotNull() const;
  Expression Upper() const;
  Expression Lower() const;
  Expression CharLength() const;
  Expression Cast(const std::string& sql_type) const;  // Cast("BIGINT")
  // Aggregates, for GroupBy(...).Select(...) or a global aggregate.
  Expression Sum() const;
  Expression Count() const;
  Expression Avg() const;
  Expression Min() const;
  Expression Max() const;

 private:
  std::string sql_;
};

// A column by name (quoted, so any name works).
Expression Col(const std::string& name);
// Literals.
Expression Lit(int64_t v);
Expression Lit(int v);
Expression Lit(double v);
Expression Lit(bool v);
Expression Lit(const std::string& v);
Expression Lit(const char* v);
Expression Null(const std::string& sql_type);  // CAST(NULL AS type)
// COUNT(*).
Expression CountStar();
// A call of function `name` — a user-defined function registered with
// TableEnvironment::CreateTemporarySystemFunction (or CREATE FUNCTION), or a built-in.
Expression Call(const std::string& name, const std::vector<Expression>& args);

Expression operator+(const Expression& a, const Expression& b);
Expression operator-(const Expression& a, const Expression& b);
Expression operator*(const Expression& a, const Expression& b);
Expression operator/(const Expression& a, const Expression& b);
Expression operator%(const Expression& a, const Expression& b);
Expression operator==(const Expression& a, const Expression& b);
Expression operator!=(const Expression& a, const Expression& b);
Expression operator<(const Expression& a, const Expression& b);
Expression operator<=(const Expression& a, const Expression& b);
Expression operator>(const Expression& a, const Expression& b);
Expression operator>=(const Expression& a, const Expression& b);
Expression operator&&(const Expression& a, const Expression& b);
Expression operator||(const Expression& a, const Expression& b);
Expression operator!(const Expression& a);

// `name` as a quoted SQL identifier (backticks, doubled inside).
std::string QuoteIdentifier(const std::string& name);

}  // namespace eddy::api
