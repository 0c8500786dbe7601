// GROUPING SETS, ROLLUP and CUBE as Flink plans them: the grouping sets in Calcite's order in the
// AST, an Expand feeding one aggregate grouped by the keys and `$e`, GROUPING / GROUPING_ID from
// `$e`, HAVING pushed below the aggregate, mini-batch's local aggregate after the Expand, window
// aggregates of grouping sets, and the errors.
#include <string>

#include "coordinator/planner/tests/planner_test_util.h"

namespace eddy::planner_test {
namespace {

class GroupingSetsTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl(
        "CREATE TABLE t (a STRING NOT NULL, b INT, c STRING, v BIGINT) WITH ('connector' = "
        "'datagen')");
    MustDdl(
        "CREATE TABLE ev (k STRING, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL "
        "'1' SECOND) WITH ('connector' = 'datagen')");
    MustDdl("CREATE TABLE out1 (a STRING, b INT, n BIGINT) WITH ('connector' = 'blackhole')");
    MustDdl("CREATE TABLE pv (k STRING, pt AS PROCTIME()) WITH ('connector' = 'datagen')");
    MustDdl(
        "CREATE TABLE per_minute (k STRING, n BIGINT, g BIGINT) WITH ('connector' = 'blackhole')");
  }

  // The section of an EXPLAIN of `query` that starts with `header` (up to the next one).
  std::string Section(const std::string& query, const std::string& header) {
    const std::string text = Explain("EXPLAIN " + query);
    const size_t begin = text.find(header);
    if (begin == std::string::npos) return text;
    const size_t body = begin + header.size() + 1;
    const size_t end = text.find("\n\n== ", body);
    return text.substr(body, end == std::string::npos ? std::string::npos : end - body + 1);
  }
  std::string Ast(const std::string& query) { return Section(query, "== Abstract Syntax Tree =="); }
  std::string ExecPlan(const std::string& query) {
    return Section(query, "== Optimized Execution Plan ==");
  }
};

TEST_F(GroupingSetsTest, RollupIsAnExpandUnderOneAggregate) {
  const std::string q = "SELECT a, b, COUNT(*) AS n FROM t GROUP BY ROLLUP (a, b)";
  EXPECT_EQ(Ast(q), R"(LogicalAggregate(group=[{0, 1}], groups=[[{0, 1}, {0}, {}]], n=[COUNT()])
+- LogicalProject(a=[$0], b=[$1])
   +- LogicalTableScan(table=[[default_catalog, default_database, t]])
)");
  EXPECT_EQ(ExecPlan(q), R"(Calc(select=[a, b, n])
+- GroupAggregate(groupBy=[a, b, $e], select=[a, b, $e, COUNT(*) AS n])
   +- Exchange(distribution=[hash[a, b, $e]])
      +- Expand(projects=[{a, b, 0 AS $e}, {a, null AS b, 1 AS $e}, {null AS a, null AS b, 3 AS $e}])
         +- TableSourceScan(table=[[default_catalog, default_database, t]], fields=[a, b])
)");
}

TEST_F(GroupingSetsTest, GroupingSetsAreSortedAsCalciteSortsThem) {
  // Enclosing sets first, otherwise lexicographically; `$e` has a bit per key, 1 where left out.
  EXPECT_NE(Ast("SELECT a FROM t GROUP BY GROUPING SETS ((), (b), (a, b), (a), b)")
                .find("the grouping set (b) occurs 2 times"),
            std::string::npos);
  // Keys are numbered as they first appear (c, a, b).
  EXPECT_NE(Ast("SELECT a, b, c FROM t GROUP BY GROUPING SETS ((), (c), (a, b), (a))")
                .find("groups=[[{0}, {1, 2}, {1}, {}]]"),
            std::string::npos)
      << Ast("SELECT a, b, c FROM t GROUP BY GROUPING SETS ((), (c), (a, b), (a))");
  EXPECT_NE(Ast("SELECT a FROM t GROUP BY CUBE (a, b)").find("groups=[[{0, 1}, {0}, {1}, {}]]"),
            std::string::npos);
  EXPECT_NE(ExecPlan("SELECT a, b FROM t GROUP BY CUBE (a, b)")
                .find("Expand(projects=[{a, b, 0 AS $e}, {a, null AS b, 1 AS $e}, {null AS a, b, "
                      "2 AS $e}, {null AS a, null AS b, 3 AS $e}])"),
            std::string::npos);
  // Plain keys are in every set: GROUP BY a, ROLLUP (b, c) = (a, b, c), (a, b), (a).
  EXPECT_NE(
      Ast("SELECT a FROM t GROUP BY a, ROLLUP (b, c)").find("groups=[[{0, 1, 2}, {0, 1}, {0}]]"),
      std::string::npos);
  // Nested: GROUPING SETS (ROLLUP (a), CUBE (b)) = (a), (), (b), ().
  EXPECT_NE(Ast("SELECT a FROM t GROUP BY GROUPING SETS (ROLLUP (a), (b, c))")
                .find("groups=[[{0}, {1, 2}, {}]]"),
            std::string::npos);
  // One set is a plain GROUP BY.
  EXPECT_NE(Ast("SELECT a FROM t GROUP BY GROUPING SETS ((a, b))").find("group=[{0, 1}])"),
            std::string::npos);
}

TEST_F(GroupingSetsTest, GroupingFunctionsReadTheExpandId) {
  const std::string q =
      "SELECT a, b, GROUPING(a) AS ga, GROUPING(b) AS gb, GROUPING_ID(a, b) AS gid, "
      "GROUPING(b, a) AS gba, COUNT(*) AS n FROM t GROUP BY CUBE (a, b)";
  EXPECT_NE(Ast(q).find("LogicalAggregate(group=[{0, 1}], groups=[[{0, 1}, {0}, {1}, {}]], "
                        "n=[COUNT()], ga=[GROUPING($0)], gb=[GROUPING($1)], "
                        "gid=[GROUPING_ID($0, $1)], gba=[GROUPING($1, $0)])"),
            std::string::npos)
      << Ast(q);
  // Branches of one value share an OR; trailing ones of the ELSE value go (Calcite's CASE
  // simplification).
  EXPECT_NE(ExecPlan(q).find("Calc(select=[a, b, CASE(OR(=($e, 0), =($e, 1)), 0, 1) AS ga, "
                             "CASE(=($e, 0), 0, =($e, 1), 1, =($e, 2), 0, 1) AS gb, "
                             "CASE(=($e, 0), 0, =($e, 1), 1, =($e, 2), 2, 3) AS gid, "
                             "CASE(=($e, 0), 0, =($e, 1), 2, =($e, 2), 1, 3) AS gba, n])"),
            std::string::npos)
      << ExecPlan(q);
  // Without grouping sets GROUPING is 0, and no Expand is needed.
  EXPECT_EQ(ExecPlan("SELECT COUNT(*) AS n, GROUPING(a) AS g FROM t GROUP BY a"),
            R"(Calc(select=[n, 0 AS g])
+- GroupAggregate(groupBy=[a], select=[a, COUNT(*) AS n])
   +- Exchange(distribution=[hash[a]])
      +- TableSourceScan(table=[[default_catalog, default_database, t]], fields=[a])
)");
  // A key of every set is always grouped.
  EXPECT_NE(ExecPlan("SELECT GROUPING(a) AS g FROM t GROUP BY a, ROLLUP (b)").find("0 AS g"),
            std::string::npos);
}

TEST_F(GroupingSetsTest, KeysLeftOutBySomeSetBecomeNullable) {
  auto job = Plan(
      "INSERT INTO out1 SELECT a, CAST(GROUPING(a) AS INT), COUNT(*) FROM t GROUP BY ROLLUP (a)");
  ASSERT_TRUE(job.ok()) << job.status();
  const auto expands = NodesOf(*job, v1::PlanNode::kExpand);
  ASSERT_EQ(expands.size(), 1u);
  // a is STRING NOT NULL in t, nullable after the Expand.
  EXPECT_TRUE(expands[0]->output_schema().fields(0).type().nullable());
  EXPECT_FALSE(expands[0]->output_schema().fields(1).type().nullable());  // $e
  ASSERT_EQ(expands[0]->expand().projections_size(), 2);
  EXPECT_EQ(expands[0]->expand().projections(1).columns(0), -1);
  EXPECT_EQ(expands[0]->expand().projections(1).expand_id(), 1);
  EXPECT_EQ(expands[0]->expand().expand_id_column(), 1);
}

TEST_F(GroupingSetsTest, AnArgumentThatIsAKeyIsReadFromACopy) {
  // MAX(b) must see b in the (a) rows, where the key b is NULL.
  EXPECT_EQ(ExecPlan("SELECT a, b, MAX(b) AS mb FROM t GROUP BY a, ROLLUP (b)"),
            R"(Calc(select=[a, b, mb])
+- GroupAggregate(groupBy=[a, b, $e], select=[a, b, $e, MAX(b_0) AS mb])
   +- Exchange(distribution=[hash[a, b, $e]])
      +- Expand(projects=[{a, b, 0 AS $e, b AS b_0}, {a, null AS b, 1 AS $e, b AS b_0}])
         +- TableSourceScan(table=[[default_catalog, default_database, t]], fields=[a, b])
)");
  // A key of every set needs no copy.
  EXPECT_NE(ExecPlan("SELECT a, MAX(a) AS ma FROM t GROUP BY a, ROLLUP (b)").find("MAX(a) AS ma"),
            std::string::npos);
}

TEST_F(GroupingSetsTest, HavingGoesBelowTheAggregate) {
  // A key of every set filters the input; other keys and GROUPING filter the expanded rows.
  EXPECT_EQ(ExecPlan("SELECT a, b, COUNT(*) AS n FROM t GROUP BY a, ROLLUP (b) HAVING a <> 'x' AND "
                     "(b > 1 OR GROUPING(b) = 1) AND COUNT(*) > 1"),
            R"(Calc(select=[a, b, n], where=[>(n, 1)])
+- GroupAggregate(groupBy=[a, b, $e], select=[a, b, $e, COUNT(*) AS n])
   +- Exchange(distribution=[hash[a, b, $e]])
      +- Calc(select=[a, b, $e], where=[OR(>(b, 1), =(CASE(=($e, 0), 0, 1), 1))])
         +- Expand(projects=[{a, b, 0 AS $e}, {a, null AS b, 1 AS $e}])
            +- Calc(select=[a, b], where=[<>(a, 'x')])
               +- TableSourceScan(table=[[default_catalog, default_database, t]], fields=[a, b])
)");
}

TEST_F(GroupingSetsTest, MiniBatchSplitsTheAggregateAfterTheExpand) {
  config_["table.exec.mini-batch.enabled"] = "true";
  config_["table.exec.mini-batch.allow-latency"] = "1 s";
  EXPECT_EQ(ExecPlan("SELECT a, b, COUNT(*) AS n, SUM(v) AS s FROM t GROUP BY ROLLUP (a, b)"),
            R"(Calc(select=[a, b, n, s])
+- GlobalGroupAggregate(groupBy=[a, b, $e], select=[a, b, $e, COUNT(count1$0) AS n, SUM(sum$1) AS s])
   +- Exchange(distribution=[hash[a, b, $e]])
      +- LocalGroupAggregate(groupBy=[a, b, $e], select=[a, b, $e, COUNT(*) AS count1$0, SUM(v) AS sum$1])
         +- Expand(projects=[{a, b, v, 0 AS $e}, {a, null AS b, v, 1 AS $e}, {null AS a, null AS b, v, 3 AS $e}])
            +- MiniBatchAssigner(interval=[1000ms], mode=[ProcTime])
               +- TableSourceScan(table=[[default_catalog, default_database, t]], fields=[a, b, v])
)");
}

TEST_F(GroupingSetsTest, WindowAggregatesOfGroupingSets) {
  EXPECT_EQ(ExecPlan("SELECT k, window_start, window_end, COUNT(*) AS n, GROUPING(k) AS g FROM "
                     "TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY "
                     "window_start, window_end, GROUPING SETS ((k), ())"),
            R"(Calc(select=[k, window_start, window_end, n, CASE(=($e, 0), 0, 1) AS g])
+- WindowAggregate(groupBy=[k, $e], window=[TUMBLE(time_col=[ts], size=[10 s])], select=[k, $e, COUNT(*) AS n, start('w$) AS window_start, end('w$) AS window_end])
   +- Exchange(distribution=[hash[k, $e]])
      +- Expand(projects=[{k, ts, 0 AS $e}, {null AS k, ts, 1 AS $e}])
         +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)])
            +- TableSourceScan(table=[[default_catalog, default_database, ev]], fields=[k, ts])
)");
  // The legacy group window too.
  EXPECT_NE(ExecPlan("SELECT k, COUNT(*) AS n FROM ev GROUP BY TUMBLE(ts, INTERVAL '5' SECOND), "
                     "ROLLUP (k)")
                .find("WindowAggregate(groupBy=[k, $e], window=[TUMBLE(time_col=[ts], size=[5 "
                      "s])]"),
            std::string::npos);
  // A set without the window is no window aggregation: a regular, updating one.
  EXPECT_NE(ExecPlan("SELECT k, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL "
                     "'10' SECOND)) GROUP BY GROUPING SETS ((window_start, window_end, k), (k))")
                .find("GroupAggregate(groupBy=[window_start, window_end, k, $e]"),
            std::string::npos);
}

TEST_F(GroupingSetsTest, AProcessingTimeWindowSeesItsTimeThroughTheExpand) {
  auto job = Plan(
      "INSERT INTO per_minute SELECT k, COUNT(*), GROUPING(k) FROM TABLE(TUMBLE(TABLE pv, "
      "DESCRIPTOR(pt), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, ROLLUP (k)");
  ASSERT_TRUE(job.ok()) << job.status();
  const auto windows = NodesOf(*job, v1::PlanNode::kWindowAggregate);
  ASSERT_EQ(windows.size(), 1u);
  EXPECT_TRUE(windows[0]->has_processing_time()) << windows[0]->description();
  EXPECT_EQ(NodesOf(*job, v1::PlanNode::kExpand).size(), 1u);
}

TEST_F(GroupingSetsTest, Errors) {
  auto error = [&](const std::string& q) { return Explain("EXPLAIN " + q); };
  EXPECT_EQ(error("SELECT a, GROUPING(b) FROM t GROUP BY a"),
            "Validation error at line 1, column 28: Argument to GROUPING operator must be a "
            "grouped expression");
  EXPECT_EQ(error("SELECT a, GROUPING_ID(a, c) FROM t GROUP BY CUBE (a, b)"),
            "Validation error at line 1, column 34: Argument to GROUPING_ID operator must be a "
            "grouped expression");
  EXPECT_EQ(error("SELECT a, GROUPING(a) FROM t"),
            "Validation error at line 1, column 19: GROUPING operator may only occur in an "
            "aggregate query");
  EXPECT_EQ(error("SELECT a FROM t WHERE GROUPING(a) = 0 GROUP BY a"),
            "Validation error at line 1, column 31: GROUPING operator may only occur in SELECT, "
            "HAVING or ORDER BY clause");
  EXPECT_EQ(error("SELECT COUNT(*) FROM t GROUP BY GROUPING(a)"),
            "Validation error at line 1, column 41: GROUPING operator may only occur in SELECT, "
            "HAVING or ORDER BY clause");
  EXPECT_EQ(error("SELECT SUM(GROUPING(a)) FROM t GROUP BY a"),
            "Validation error at line 1, column 20: GROUPING operator may only occur in SELECT, "
            "HAVING or ORDER BY clause");
  EXPECT_EQ(error("SELECT GROUPING() FROM t GROUP BY a"),
            "Validation error at line 1, column 16: Invalid number of arguments to function "
            "'GROUPING': 0");
  EXPECT_EQ(error("SELECT a, COUNT(*) FROM t GROUP BY a, ROLLUP (a)"),
            "Validation error at line 1, column 44: the grouping set (a) occurs 2 times in GROUP "
            "BY; duplicate grouping sets are not supported");
  EXPECT_EQ(error("SELECT COUNT(*) FROM t GROUP BY CUBE (a, b, c, v, a, b, c, v, a, b, c, v, a)"),
            "Validation error at line 1, column 41: CUBE gives 2^13 grouping sets; at most 4096 "
            "are supported");
  EXPECT_EQ(error("SELECT COUNT(*) FROM t GROUP BY CUBE (a, b, c, v, a, b), CUBE (a, b, c, v, "
                  "a, b, c)"),
            "Validation error at line 1, column 41: GROUP BY gives 8192 grouping sets; at most "
            "4096 are supported");
  EXPECT_EQ(error("SELECT k, COUNT(*) FROM ev GROUP BY SESSION(ts, INTERVAL '5' SECOND), "
                  "ROLLUP (k)"),
            "Validation error at line 1, column 45: GROUPING SETS, ROLLUP and CUBE are not "
            "supported in a SESSION window aggregation");
  EXPECT_EQ(error("SELECT a FROM t WHERE (a, b) IS NULL"),
            "SQL parse error at line 1, column 33: expected ')' but found ','");
}

}  // namespace
}  // namespace eddy::planner_test
