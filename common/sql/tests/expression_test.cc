#include <gtest/gtest.h>

#include "common/sql/tests/test_util.h"

namespace eddy::sql {
namespace {

using testing::Expr;

TEST(Expression, Precedence) {
  EXPECT_EQ(Expr("a OR b AND NOT c = 1"), "(a OR (b AND (NOT (c = 1))))");
  EXPECT_EQ(Expr("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(Expr("1 * 2 + 3"), "((1 * 2) + 3)");
  EXPECT_EQ(Expr("a || b = c"), "((a || b) = c)");
  EXPECT_EQ(Expr("(1 + 2) * 3"), "((1 + 2) * 3)");
  EXPECT_EQ(Expr("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(Expr("a / b % c"), "((a / b) % c)");
  EXPECT_EQ(Expr("-a * b"), "((-a) * b)");
  EXPECT_EQ(Expr("- - 1"), "(-(-1))");
  EXPECT_EQ(Expr("+x"), "(+x)");
  EXPECT_EQ(Expr("NOT NOT a"), "(NOT (NOT a))");
  EXPECT_EQ(Expr("a AND b OR c AND d"), "((a AND b) OR (c AND d))");
  EXPECT_EQ(Expr("NOT a = 1 AND b"), "((NOT (a = 1)) AND b)");
  EXPECT_EQ(Expr("a + 1 > b * 2"), "((a + 1) > (b * 2))");
}

TEST(Expression, ComparisonOperators) {
  EXPECT_EQ(Expr("a = 1"), "(a = 1)");
  EXPECT_EQ(Expr("a <> 1"), "(a <> 1)");
  EXPECT_EQ(Expr("a != 1"), "(a <> 1)");  // normalized
  EXPECT_EQ(Expr("a < 1"), "(a < 1)");
  EXPECT_EQ(Expr("a <= 1"), "(a <= 1)");
  EXPECT_EQ(Expr("a > 1"), "(a > 1)");
  EXPECT_EQ(Expr("a >= 1"), "(a >= 1)");
}

TEST(Expression, BinaryNodeFields) {
  absl::StatusOr<ExprPtr> e = ParseExpression("a != b");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ExprKind::kBinary);
  EXPECT_EQ((*e)->op, "<>");
  ASSERT_EQ((*e)->args.size(), 2u);
  EXPECT_EQ((*e)->args[0]->kind, ExprKind::kIdentifier);
  e = ParseExpression("x and y");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->op, "AND");  // keyword operators upper-case
  e = ParseExpression("not x");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ExprKind::kUnary);
  EXPECT_EQ((*e)->op, "NOT");
}

TEST(Expression, Predicates) {
  EXPECT_EQ(Expr("a IS NULL"), "(a IS NULL)");
  EXPECT_EQ(Expr("a IS NOT NULL"), "(a IS NOT NULL)");
  EXPECT_EQ(Expr("a IS TRUE"), "(a IS TRUE)");
  EXPECT_EQ(Expr("a IS NOT FALSE"), "(a IS NOT FALSE)");
  EXPECT_EQ(Expr("s LIKE 'a%'"), "(s LIKE 'a%')");
  EXPECT_EQ(Expr("s NOT LIKE 'a!%' ESCAPE '!'"), "(s NOT LIKE 'a!%' ESCAPE '!')");
  EXPECT_EQ(Expr("x IN (1, 2, 3)"), "(x IN (1, 2, 3))");
  EXPECT_EQ(Expr("x NOT IN ('a')"), "(x NOT IN ('a'))");
  EXPECT_EQ(Expr("x BETWEEN 1 AND 10"), "(x BETWEEN 1 AND 10)");
  EXPECT_EQ(Expr("x NOT BETWEEN a + 1 AND b AND c"), "((x NOT BETWEEN (a + 1) AND b) AND c)");
  EXPECT_EQ(Expr("a IS NULL OR b IS NOT NULL"), "((a IS NULL) OR (b IS NOT NULL))");
  EXPECT_EQ(Expr("NOT x IN (1)"), "(NOT (x IN (1)))");
  EXPECT_EQ(Expr("a IS NOT DISTINCT FROM b + 1"), "(a IS NOT DISTINCT FROM (b + 1))");
  EXPECT_EQ(Expr("a IS DISTINCT FROM b AND c"), "((a IS DISTINCT FROM b) AND c)");
  EXPECT_EQ(Expr("EXISTS (SELECT 1)"), "EXISTS (SELECT 1)");
}

TEST(Expression, PredicateNodeFields) {
  absl::StatusOr<ExprPtr> e = ParseExpression("x NOT IN (1, 2)");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ExprKind::kIn);
  EXPECT_TRUE((*e)->negated);
  EXPECT_EQ((*e)->args.size(), 3u);
  e = ParseExpression("x IS NOT NULL");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ExprKind::kIsNull);
  EXPECT_TRUE((*e)->negated);
  e = ParseExpression("x BETWEEN 1 AND 2");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ExprKind::kBetween);
  EXPECT_FALSE((*e)->negated);
  EXPECT_EQ((*e)->args.size(), 3u);
}

TEST(Expression, Literals) {
  struct Case {
    const char* sql;
    LiteralKind kind;
    const char* text;
  };
  const Case cases[] = {
      {"NULL", LiteralKind::kNull, "NULL"},
      {"true", LiteralKind::kBoolean, "TRUE"},
      {"FALSE", LiteralKind::kBoolean, "FALSE"},
      {"42", LiteralKind::kInteger, "42"},
      {"99999999999999999999", LiteralKind::kDecimal, "99999999999999999999"},
      {"1.50", LiteralKind::kDecimal, "1.50"},
      {".5", LiteralKind::kDecimal, ".5"},
      {"1e3", LiteralKind::kDouble, "1e3"},
      {"'it''s'", LiteralKind::kString, "it's"},
      {"DATE '2024-01-31'", LiteralKind::kDate, "2024-01-31"},
      {"TIME '10:00:00'", LiteralKind::kTime, "10:00:00"},
      {"TIMESTAMP '2024-01-31 10:00:00.123'", LiteralKind::kTimestamp, "2024-01-31 10:00:00.123"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<ExprPtr> e = ParseExpression(c.sql);
    ASSERT_TRUE(e.ok()) << c.sql << ": " << e.status();
    EXPECT_EQ((*e)->kind, ExprKind::kLiteral) << c.sql;
    EXPECT_EQ((*e)->literal_kind, c.kind) << c.sql;
    EXPECT_EQ((*e)->text, c.text) << c.sql;
  }
}

TEST(Expression, Intervals) {
  absl::StatusOr<ExprPtr> e = ParseExpression("INTERVAL '10' MINUTES");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ExprKind::kInterval);
  EXPECT_EQ((*e)->text, "10");
  EXPECT_EQ((*e)->interval_unit, "MINUTE");
  EXPECT_EQ(Expr("INTERVAL '5' second"), "INTERVAL '5' SECOND");
  EXPECT_EQ(Expr("INTERVAL '1' HOURS"), "INTERVAL '1' HOUR");
  EXPECT_EQ(Expr("INTERVAL '2' DAY"), "INTERVAL '2' DAY");
  EXPECT_EQ(Expr("INTERVAL '3' MONTHS"), "INTERVAL '3' MONTH");
  EXPECT_EQ(Expr("INTERVAL '4' YEAR"), "INTERVAL '4' YEAR");
  EXPECT_EQ(Expr("INTERVAL '1 10:00:00' DAY TO SECOND"), "INTERVAL '1 10:00:00' DAY TO SECOND");
  EXPECT_EQ(Expr("ts - INTERVAL '5' SECOND"), "(ts - INTERVAL '5' SECOND)");
  EXPECT_EQ(Expr("INTERVAL '1' WEEK"),
            "ERROR: SQL parse error at line 1, column 14: expected interval unit (SECOND, MINUTE, "
            "HOUR, DAY, MONTH or YEAR) but found 'WEEK'");
}

TEST(Expression, NamesAndFunctions) {
  EXPECT_EQ(Expr("a.b.c"), "a.b.c");
  EXPECT_EQ(Expr("`a.b`"), "a.b");
  EXPECT_EQ(Expr("UPPER(name)"), "UPPER(name)");
  EXPECT_EQ(Expr("COUNT(*)"), "COUNT(*)");
  EXPECT_EQ(Expr("COUNT(DISTINCT x)"), "COUNT(DISTINCT x)");
  EXPECT_EQ(Expr("COUNT(ALL x)"), "COUNT(x)");
  EXPECT_EQ(Expr("NOW()"), "NOW()");
  EXPECT_EQ(Expr("CURRENT_TIMESTAMP"), "CURRENT_TIMESTAMP()");
  EXPECT_EQ(Expr("current_date"), "current_date()");
  EXPECT_EQ(Expr("LEFT(s, 2)"), "LEFT(s, 2)");
  EXPECT_EQ(Expr("RIGHT(s, 2) || left(s, 1)"), "(RIGHT(s, 2) || left(s, 1))");
  EXPECT_EQ(Expr("SUBSTR(s, 1 + 1, 3)"), "SUBSTR(s, (1 + 1), 3)");
  EXPECT_EQ(Expr("db.my_fn(x)"), "db.my_fn(x)");

  absl::StatusOr<ExprPtr> e = ParseExpression("COUNT(*)");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ExprKind::kFunction);
  EXPECT_EQ((*e)->name.ToString(), "COUNT");
  ASSERT_EQ((*e)->args.size(), 1u);
  EXPECT_EQ((*e)->args[0]->kind, ExprKind::kStar);
  EXPECT_TRUE((*e)->args[0]->name.parts.empty());

  e = ParseExpression("CURRENT_TIMESTAMP");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ExprKind::kFunction);
  EXPECT_TRUE((*e)->args.empty());
}

TEST(Expression, NonReservedWordsAreIdentifiers) {
  for (const char* word :
       {"count",   "sum",  "data",    "window_start", "window_end", "value", "key",
        "comment", "word", "cnt",     "status",       "name",       "type",  "timestamp",
        "date",    "time", "primary", "watermark",    "set",        "show"}) {
    absl::StatusOr<ExprPtr> e = ParseExpression(word);
    ASSERT_TRUE(e.ok()) << word << ": " << e.status();
    EXPECT_EQ((*e)->kind, ExprKind::kIdentifier) << word;
    EXPECT_EQ((*e)->name.ToString(), word);
  }
  EXPECT_EQ(Expr("value + count"), "(value + count)");
  EXPECT_EQ(Expr("t.end"), "t.end");  // any word after a dot
}

TEST(Expression, ReservedWordsAreNotIdentifiers) {
  EXPECT_EQ(Expr("select"),
            "ERROR: SQL parse error at line 1, column 1: expected expression but found 'select'");
  EXPECT_EQ(Expr("a + from"),
            "ERROR: SQL parse error at line 1, column 5: expected expression but found 'from'");
  EXPECT_EQ(Expr("`from`"), "from");  // quoting makes anything a name
}

TEST(Expression, TimestampIsNotAFunction) {
  EXPECT_EQ(Expr("TIMESTAMP(3)"),
            "ERROR: SQL parse error at line 1, column 10: expected string literal but found '('");
}

TEST(Expression, CastAndCase) {
  EXPECT_EQ(Expr("CAST(x AS BIGINT)"), "CAST(x AS BIGINT)");
  EXPECT_EQ(Expr("TRY_CAST(s AS DECIMAL(10, 2))"), "TRY_CAST(s AS DECIMAL(10, 2))");
  EXPECT_EQ(Expr("CAST(x AS INTEGER NOT NULL)"), "CAST(x AS INT NOT NULL)");
  EXPECT_EQ(Expr("CASE WHEN a > 1 THEN 'big' WHEN a > 0 THEN 'small' ELSE 'none' END"),
            "(CASE WHEN (a > 1) THEN 'big' WHEN (a > 0) THEN 'small' ELSE 'none' END)");
  EXPECT_EQ(Expr("CASE x WHEN 1 THEN 'one' END"), "(CASE x WHEN 1 THEN 'one' END)");

  absl::StatusOr<ExprPtr> e = ParseExpression("try_cast(x AS INT)");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ExprKind::kCast);
  EXPECT_TRUE((*e)->try_cast);
  EXPECT_EQ((*e)->cast_type.name, "INT");

  EXPECT_EQ(Expr("CASE END"),
            "ERROR: SQL parse error at line 1, column 6: expected 'WHEN' but found 'END'");
  EXPECT_EQ(Expr("CASE WHEN a THEN b"),
            "ERROR: SQL parse error at line 1, column 19: expected 'END' but found end of input");
  EXPECT_EQ(Expr("CAST(x AS FOO)"),
            "ERROR: SQL parse error at line 1, column 11: unknown type 'FOO'");
}

TEST(Expression, Subqueries) {
  EXPECT_EQ(Expr("(SELECT MAX(a) FROM t) + 1"), "((SELECT MAX(a) FROM t) + 1)");
  EXPECT_EQ(Expr("x IN (SELECT id FROM t)"), "(x IN ((SELECT id FROM t)))");
  absl::StatusOr<ExprPtr> e = ParseExpression("(SELECT 1)");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->kind, ExprKind::kSubquery);
  ASSERT_NE((*e)->subquery, nullptr);
}

TEST(Expression, PositionsAreThoseOfTheFirstToken) {
  absl::StatusOr<ExprPtr> e = ParseExpression("\n  a +\n   f(b)");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->pos.line, 2);
  EXPECT_EQ((*e)->pos.column, 3);
  const sql::Expr& call = *(*e)->args[1];
  EXPECT_EQ(call.pos.line, 3);
  EXPECT_EQ(call.pos.column, 4);
  EXPECT_EQ(call.args[0]->pos.column, 6);

  e = ParseExpression("  -x");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->pos.column, 3);
}

TEST(Expression, Errors) {
  EXPECT_EQ(Expr("f(a, b"),
            "ERROR: SQL parse error at line 1, column 7: expected ')' but found end of input");
  EXPECT_EQ(Expr("(a + b"),
            "ERROR: SQL parse error at line 1, column 7: expected ')' but found end of input");
  EXPECT_EQ(
      Expr("a +"),
      "ERROR: SQL parse error at line 1, column 4: expected expression but found end of input");
  EXPECT_EQ(Expr("a b"),
            "ERROR: SQL parse error at line 1, column 3: expected end of input but found 'b'");
  EXPECT_EQ(Expr("a IS 1"),
            "ERROR: SQL parse error at line 1, column 6: expected 'NULL', 'TRUE', 'FALSE' or "
            "'DISTINCT FROM' but found '1'");
  EXPECT_EQ(Expr("x BETWEEN 1 OR 2"),
            "ERROR: SQL parse error at line 1, column 13: expected 'AND' but found 'OR'");
  EXPECT_EQ(Expr("ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY ts DESC, c NULLS FIRST)"),
            "ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY ts DESC, c NULLS FIRST)");
  EXPECT_EQ(Expr("ROW_NUMBER() OVER (ORDER BY ts)"), "ROW_NUMBER() OVER (ORDER BY ts)");
  EXPECT_EQ(Expr("SUM(x) OVER (PARTITION BY y ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT "
                 "ROW)"),
            "SUM(x) OVER (PARTITION BY y ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)");
  EXPECT_EQ(Expr("SUM(x) OVER (ORDER BY ts RANGE INTERVAL '1' HOUR PRECEDING)"),
            "SUM(x) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)");
  EXPECT_EQ(
      Expr("COUNT(*) OVER (ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED "
           "FOLLOWING)"),
      "COUNT(*) OVER (ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)");
  EXPECT_EQ(Expr("AVG(x) OVER w"), "AVG(x) OVER w");
  EXPECT_EQ(Expr("COUNT(DISTINCT x) FILTER (WHERE y > 1)"),
            "COUNT(DISTINCT x) FILTER (WHERE (y > 1))");
  EXPECT_EQ(Expr("COUNT(*) FILTER (y > 1)"),
            "ERROR: SQL parse error at line 1, column 18: expected 'WHERE' but found 'y'");
  EXPECT_EQ(Expr("SUM(x) OVER (ORDER BY ts ROWS BETWEEN UNBOUNDED AND CURRENT ROW)"),
            "ERROR: SQL parse error at line 1, column 49: expected 'PRECEDING' or 'FOLLOWING' but "
            "found 'AND'");
  EXPECT_EQ(
      Expr("ROW_NUMBER() OVER (ORDER BY ts NULLS MIDDLE)"),
      "ERROR: SQL parse error at line 1, column 38: expected 'FIRST' or 'LAST' but found 'MIDDLE'");
}

TEST(Expression, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '(');
  deep += "1";
  EXPECT_EQ(Expr(deep).rfind("ERROR: SQL parse error at line 1, column ", 0), 0u);
  EXPECT_NE(Expr(deep).find("nested too deeply"), std::string::npos);
  std::string minus;
  for (int i = 0; i < 10000; ++i) minus += "- ";  // "--" would start a comment
  EXPECT_NE(Expr(minus + "1").find("nested too deeply"), std::string::npos);
  std::string nots;
  for (int i = 0; i < 10000; ++i) nots += "NOT ";
  EXPECT_NE(Expr(nots + "x").find("nested too deeply"), std::string::npos);
}

}  // namespace
}  // namespace eddy::sql

namespace eddy::sql {
namespace {

using testing::Expr;

TEST(Expression, CollectionConstructorsAndAccess) {
  EXPECT_EQ(Expr("ARRAY[1, a]"), Expr("ARRAY(1, a)"));
  EXPECT_EQ(Expr("MAP['k', 1]"), Expr("MAP('k', 1)"));
  EXPECT_EQ(Expr("a[1]"), Expr("ITEM(a, 1)"));
  EXPECT_EQ(Expr("a[1][i + 1]"), Expr("ITEM(ITEM(a, 1), i + 1)"));
  EXPECT_EQ(Expr("m['k'] + 1"), Expr("ITEM(m, 'k') + 1"));
  EXPECT_EQ(Expr("ROW(1, 'x').f"), Expr("FIELD(ROW(1, 'x'), 'f')"));
  EXPECT_EQ(Expr("a[2].`g`.h"), Expr("FIELD(FIELD(ITEM(a, 2), 'g'), 'h')"));
  EXPECT_EQ(Expr("t.r.f"), "t.r.f");  // a qualified name: the binder finds the ROW column
  EXPECT_EQ(Expr("ARRAY[1"),
            "ERROR: SQL parse error at line 1, column 8: expected ']' but found end of input");
  EXPECT_EQ(Expr("MULTISET[1]"),
            "ERROR: SQL parse error at line 1, column 1: MULTISET values are not supported (ARRAY, "
            "MAP and ROW are)");
}

}  // namespace
}  // namespace eddy::sql
