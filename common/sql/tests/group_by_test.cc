// GROUP BY elements: GROUPING SETS, ROLLUP, CUBE, parenthesized lists and the grand total `()`,
// their mixes with plain keys, and the errors of malformed ones.
#include <gtest/gtest.h>

#include "common/sql/tests/test_util.h"

namespace eddy::sql {
namespace {

using testing::Parse;
using testing::Query;

TEST(GroupBy, GroupingSetsRollupAndCube) {
  EXPECT_EQ(Query("SELECT a, b, COUNT(*) FROM t GROUP BY GROUPING SETS ((a, b), (a), ())"),
            "SELECT a, b, COUNT(*) FROM t GROUP BY GROUPING SETS ((a, b), a, ())");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY ROLLUP (a, b)"),
            "SELECT a FROM t GROUP BY ROLLUP (a, b)");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY cube(a, b)"), "SELECT a FROM t GROUP BY CUBE (a, b)");
  EXPECT_EQ(Query("SELECT a FROM t group by grouping sets (a, b)"),
            "SELECT a FROM t GROUP BY GROUPING SETS (a, b)");
}

TEST(GroupBy, MixesWithPlainKeysAndNesting) {
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY a, ROLLUP (b, c), CUBE (d)"),
            "SELECT a FROM t GROUP BY a, ROLLUP (b, c), CUBE (d)");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY GROUPING SETS (ROLLUP (a, b), CUBE (c), "
                  "GROUPING SETS ((d), ()), e)"),
            "SELECT a FROM t GROUP BY GROUPING SETS (ROLLUP (a, b), CUBE (c), GROUPING SETS "
            "(d, ()), e)");
  // A parenthesized list inside ROLLUP / CUBE is one composite element.
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY ROLLUP (a, (b, c))"),
            "SELECT a FROM t GROUP BY ROLLUP (a, (b, c))");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY (a, b), ()"), "SELECT a FROM t GROUP BY (a, b), ()");
  EXPECT_EQ(Query("SELECT COUNT(*) FROM t GROUP BY ()"), "SELECT COUNT(*) FROM t GROUP BY ()");
  // A parenthesized expression stays an expression.
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY (a + 1) * 2, (b)"),
            "SELECT a FROM t GROUP BY ((a + 1) * 2), b");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY ROLLUP ((a + 1) * 2, (b, (c)))"),
            "SELECT a FROM t GROUP BY ROLLUP (((a + 1) * 2), (b, c))");
}

TEST(GroupBy, KeywordsAreContextual) {
  // Columns and functions named like the keywords keep working.
  EXPECT_EQ(Query("SELECT rollup, cube, grouping FROM t GROUP BY rollup, cube, grouping"),
            "SELECT rollup, cube, grouping FROM t GROUP BY rollup, cube, grouping");
  EXPECT_EQ(Query("SELECT GROUPING(a), GROUPING_ID(a, b) FROM t GROUP BY CUBE (a, b)"),
            "SELECT GROUPING(a), GROUPING_ID(a, b) FROM t GROUP BY CUBE (a, b)");
}

TEST(GroupBy, ElementsKeepTheirPositions) {
  StatementPtr s = Parse("SELECT a FROM t\nGROUP BY a, ROLLUP (b, (c, d)), ()");
  ASSERT_NE(s, nullptr);
  const auto& group_by = s->query->group_by;
  ASSERT_EQ(group_by.size(), 3u);
  EXPECT_EQ(group_by[0]->kind, ExprKind::kIdentifier);
  const Expr& rollup = *group_by[1];
  EXPECT_EQ(rollup.kind, ExprKind::kGroupingElement);
  EXPECT_EQ(rollup.op, "ROLLUP");
  EXPECT_EQ(rollup.pos.line, 2);
  EXPECT_EQ(rollup.pos.column, 13);
  ASSERT_EQ(rollup.args.size(), 2u);
  EXPECT_EQ(rollup.args[1]->kind, ExprKind::kGroupingElement);
  EXPECT_EQ(rollup.args[1]->op, "()");
  EXPECT_EQ(rollup.args[1]->args.size(), 2u);
  EXPECT_EQ(group_by[2]->op, "()");
  EXPECT_TRUE(group_by[2]->args.empty());
  EXPECT_EQ(group_by[2]->pos.column, 33);
}

TEST(GroupBy, Errors) {
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY ROLLUP ()"),
            "ERROR: SQL parse error at line 1, column 26: ROLLUP needs at least one expression, "
            "e.g. ROLLUP (a, b)");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY CUBE ()"),
            "ERROR: SQL parse error at line 1, column 26: CUBE needs at least one expression, "
            "e.g. CUBE (a, b)");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY GROUPING SETS ()"),
            "ERROR: SQL parse error at line 1, column 26: GROUPING SETS needs at least one "
            "grouping set, e.g. GROUPING SETS ((a), ())");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY ROLLUP (a, CUBE (b))"),
            "ERROR: SQL parse error at line 1, column 37: CUBE cannot be nested in ROLLUP or "
            "CUBE; nest them in GROUPING SETS instead");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY CUBE (a, ())"),
            "ERROR: SQL parse error at line 1, column 35: the grand total '()' is not allowed in "
            "ROLLUP or CUBE, which add it themselves");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY ROLLUP (a, b"),
            "ERROR: SQL parse error at line 1, column 38: expected ')' but found end of input");
  EXPECT_EQ(Query("SELECT a FROM t GROUP BY GROUPING SETS (a,)"),
            "ERROR: SQL parse error at line 1, column 43: expected expression but found ')'");
}

}  // namespace
}  // namespace eddy::sql
