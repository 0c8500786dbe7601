// Correlated subqueries in the planner: how names resolve between a subquery and its outer query
// (the subquery's own FROM first), the decorrelated plans of scalar subqueries (grouped by their
// correlation keys, joined on them, COUNT over no rows 0) and the errors of the shapes without a
// decorrelated form, with their positions.
#include <string>

#include "coordinator/planner/tests/planner_test_util.h"

namespace eddy::planner_test {
namespace {

class CorrelatedSubqueryTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl(
        "CREATE TABLE o (id INT, k INT, r INT, v INT) WITH ('connector' = 'datagen', "
        "'number-of-rows' = '3')");
    MustDdl(
        "CREATE TABLE p (k INT, r INT, v INT, zz INT) WITH ('connector' = 'datagen', "
        "'number-of-rows' = '3')");
    MustDdl("CREATE TABLE out (id INT, n BIGINT) WITH ('connector' = 'print')");
  }

  // The optimized execution plan of `query` (the last section of its EXPLAIN), or the error.
  std::string ExecutionPlan(const std::string& query) {
    const std::string text = Explain("EXPLAIN " + query);
    const std::string section = "== Optimized Execution Plan ==\n";
    const size_t at = text.find(section);
    if (at == std::string::npos) return text;
    return text.substr(at + section.size());
  }
};

TEST_F(CorrelatedSubqueryTest, TheSubquerysOwnColumnsComeFirst) {
  // k and v are p's (its FROM has them, so does o's), id only o has: (k, v) is a composite key.
  EXPECT_EQ(PlanError("INSERT INTO out SELECT id, (SELECT COUNT(*) FROM p WHERE k = o.k AND v = "
                      "id) FROM o"),
            "<planned OK>");
  // The same for IN / EXISTS, whose correlated conjuncts join the semi join's condition.
  EXPECT_EQ(PlanError("INSERT INTO out SELECT id, 1 FROM o WHERE EXISTS (SELECT * FROM p WHERE k "
                      "= o.k AND v > id)"),
            "<planned OK>");
  // A qualifier that names one of the subquery's tables stays there, even when the outer query
  // has a table of that name with the column.
  EXPECT_EQ(PlanError("INSERT INTO out SELECT id, (SELECT COUNT(*) FROM p AS x WHERE x.id = 1) "
                      "FROM o AS x"),
            "Validation error at line 1, column 63: column 'id' not found in table 'x'");
  // Ambiguity is decided in the scope that has the name.
  EXPECT_EQ(PlanError("INSERT INTO out SELECT a.id, (SELECT COUNT(*) FROM p AS a, p AS b WHERE k "
                      "= o.k) FROM o"),
            "Validation error at line 1, column 73: column 'k' is ambiguous");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT a.id, (SELECT COUNT(*) FROM p WHERE p.k = id) FROM "
                      "o AS a, o AS b"),
            "Validation error at line 1, column 66: column 'id' is ambiguous");
}

TEST_F(CorrelatedSubqueryTest, AKeyExpressionIsComputedBelowTheAggregate) {
  // MAX over no rows is NULL, which the padded join row already is: no CASE.
  EXPECT_EQ(ExecutionPlan("SELECT id, (SELECT MAX(p.v) FROM p WHERE p.k + 1 = o.k) FROM o"),
            R"(Calc(select=[id, $scalar0 AS EXPR$1])
+- Join(joinType=[LeftOuterJoin], where=[=(k, $f0)], select=[id, k, $f0, $scalar0], leftInputSpec=[NoUniqueKey], rightInputSpec=[JoinKeyContainsUniqueKey])
   :- Exchange(distribution=[hash[k]])
   :  +- TableSourceScan(table=[[default_catalog, default_database, o]], fields=[id, k])
   +- Exchange(distribution=[hash[$f0]])
      +- GroupAggregate(groupBy=[$f0], select=[$f0, MAX(v) AS EXPR$0])
         +- Exchange(distribution=[hash[$f0]])
            +- Calc(select=[+(k, 1) AS $f0, v])
               +- TableSourceScan(table=[[default_catalog, default_database, p]], fields=[k, v])
)");
}

TEST_F(CorrelatedSubqueryTest, AnExpressionOverCountReadsItsValueOverNoRows) {
  // COUNT(*) * 10 + 1 over no rows is 1: chosen where the joined key is NULL.
  const std::string plan =
      ExecutionPlan("SELECT id, (SELECT COUNT(*) * 10 + 1 FROM p WHERE p.k = o.k) AS n FROM o");
  EXPECT_NE(plan.find("Calc(select=[id, CASE(IS NULL(k0), 1, $scalar0) AS n])\n"),
            std::string::npos)
      << plan;
}

TEST_F(CorrelatedSubqueryTest, WithoutAnAggregateEachMatchingRowJoins) {
  EXPECT_EQ(ExecutionPlan("SELECT id, (SELECT p.v FROM p WHERE p.r > 0 AND p.k = o.k) AS v FROM o"),
            R"(Calc(select=[id, $scalar0 AS v])
+- Join(joinType=[LeftOuterJoin], where=[=(k, k0)], select=[id, k, k0, $scalar0], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])
   :- Exchange(distribution=[hash[k]])
   :  +- TableSourceScan(table=[[default_catalog, default_database, o]], fields=[id, k])
   +- Exchange(distribution=[hash[k]])
      +- Calc(select=[k, v], where=[>(r, 0)])
         +- TableSourceScan(table=[[default_catalog, default_database, p]], fields=[k, r, v])
)");
}

TEST_F(CorrelatedSubqueryTest, ShapesWithoutADecorrelatedFormAreErrors) {
  EXPECT_EQ(PlanError("INSERT INTO out SELECT id, (SELECT COUNT(*) FROM p WHERE p.k <> o.k) FROM "
                      "o"),
            "Validation error at line 1, column 58: a correlated scalar subquery may read the "
            "outer query's columns only in WHERE conjuncts `expression = outer column` (the "
            "expression over the subquery's own columns)");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT id, (SELECT COUNT(*) + o.v FROM p WHERE p.k = o.k) "
                      "FROM o"),
            "Validation error at line 1, column 47: a correlated scalar subquery cannot read the "
            "outer query's column 'o.v' in its select list, only in WHERE equalities");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT id, (SELECT COUNT(*) FROM p WHERE p.k = o.k GROUP "
                      "BY p.r) FROM o"),
            "Validation error at line 1, column 77: GROUP BY is not supported in a correlated "
            "scalar subquery");
  // A subquery in a correlated conjunct.
  EXPECT_EQ(PlanError("INSERT INTO out SELECT id, (SELECT COUNT(*) FROM p WHERE p.k = o.k AND "
                      "(SELECT MAX(q.k) FROM p AS q) = o.r) FROM o"),
            "Validation error at line 1, column 72: a correlated scalar subquery may read the "
            "outer query's columns only in WHERE conjuncts `expression = outer column` (the "
            "expression over the subquery's own columns)");
}

}  // namespace
}  // namespace eddy::planner_test
