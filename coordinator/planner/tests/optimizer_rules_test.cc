// The logical optimizer rules (optimizer.h), each seen in the plans it changes: constant folding,
// filter simplification, filter push-down and column pruning, including how they treat shared
// sub-plans.
#include "common/expr/function_registry.h"
#include "coordinator/planner/optimizer.h"
#include "coordinator/planner/tests/planner_test_util.h"
#include "gmock/gmock.h"

namespace eddy::planner_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class OptimizerRulesTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl(
        "CREATE TABLE wide (a BIGINT, b STRING, c INT, d DOUBLE) WITH ('connector' = "
        "'datagen', 'number-of-rows' = '10')");
    MustDdl(
        "CREATE TABLE seq (id BIGINT, x INT) WITH ('connector' = 'datagen', "
        "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100')");
    MustDdl("CREATE TABLE out (b STRING, cnt BIGINT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE o1 (a BIGINT) WITH ('connector' = 'blackhole')");
    MustDdl("CREATE TABLE o2 (b STRING) WITH ('connector' = 'blackhole')");
    MustDdl("CREATE TABLE ox (x INT) WITH ('connector' = 'blackhole')");
  }

  // The `== Optimized Physical Plan ==` section of EXPLAIN.
  std::string PhysicalPlan(const std::string& statement) {
    std::string text = Explain("EXPLAIN " + statement);
    size_t begin = text.find("== Optimized Physical Plan ==");
    size_t end = text.find("== Optimized Execution Plan ==");
    if (begin == std::string::npos || end == std::string::npos) return text;
    return text.substr(begin, end - begin);
  }

  static std::string Scan(const std::string& table, const std::string& fields) {
    return "TableSourceScan(table=[[default_catalog, default_database, " + table + "]], fields=[" +
           fields + "])";
  }
};

TEST_F(OptimizerRulesTest, FoldsCallsOverLiteralsButLeavesOnesThatFail) {
  std::string plan =
      PhysicalPlan("INSERT INTO o2 SELECT UPPER('x') || b FROM wide WHERE c > 1 + 1");
  EXPECT_THAT(plan, HasSubstr("Calc(select=[||('X', b) AS b], where=[>(c, 2)])")) << plan;
  // 1 / 0 fails when a row reaches it, as without folding.
  plan = PhysicalPlan("INSERT INTO o1 SELECT a FROM wide WHERE c > 1 / 0");
  EXPECT_THAT(plan, HasSubstr("where=[>(c, /(1, 0))]")) << plan;
}

TEST_F(OptimizerRulesTest, DropsAlwaysTrueConditionsAndEmptiesAlwaysFalseFilters) {
  std::string plan = PhysicalPlan("INSERT INTO o1 SELECT a FROM wide WHERE 1 = 1");
  EXPECT_THAT(plan, Not(HasSubstr("where="))) << plan;
  plan = PhysicalPlan("INSERT INTO o1 SELECT a FROM wide WHERE c > 3 AND TRUE AND 2 > 1");
  EXPECT_THAT(plan, HasSubstr("where=[>(c, 3)]")) << plan;

  // FALSE or NULL: no row can pass, nothing is read.
  for (const char* never : {"1 = 0", "c > 3 AND FALSE", "CAST(NULL AS BOOLEAN)"}) {
    auto job = Plan(std::string("INSERT INTO o1 SELECT a FROM wide WHERE ") + never);
    ASSERT_TRUE(job.ok()) << job.status();
    EXPECT_TRUE(ScansOf(*job, "datagen").empty()) << never << ": " << Ops(*job);
    ASSERT_EQ(NodesOf(*job, v1::PlanNode::kValues).size(), 1u) << never;
    EXPECT_EQ(NodesOf(*job, v1::PlanNode::kValues)[0]->values().batches_size(), 0) << never;
  }
}

TEST_F(OptimizerRulesTest, PushesGroupKeyConditionsBelowTheAggregateAndKeepsTheRestAbove) {
  std::string plan = PhysicalPlan(
      "INSERT INTO out SELECT * FROM (SELECT b, COUNT(*) AS cnt FROM wide GROUP BY b) "
      "WHERE b = 'x' AND cnt > 1");
  EXPECT_THAT(plan, HasSubstr("+- Calc(select=[b, cnt], where=[>(cnt, 1)])\n"
                              "   +- GroupAggregate(groupBy=[b], select=[b, COUNT(*) AS cnt])\n"
                              "      +- Exchange(distribution=[hash[b]])\n"
                              "         +- Calc(select=[b], where=[=(b, 'x')])\n"
                              "            +- " +
                              Scan("wide", "b")))
      << plan;
}

TEST_F(OptimizerRulesTest, PushesFiltersIntoEveryUnionBranchThroughProjections) {
  std::string plan = PhysicalPlan(
      "INSERT INTO o2 SELECT v FROM (SELECT b AS v FROM wide UNION ALL "
      "SELECT UPPER(b) FROM wide) WHERE v LIKE 'a%'");
  EXPECT_THAT(plan, HasSubstr("Calc(select=[b AS v], where=[LIKE(b, 'a%')])")) << plan;
  EXPECT_THAT(plan, HasSubstr("where=[LIKE(UPPER(b), 'a%')]")) << plan;
}

TEST_F(OptimizerRulesTest, AViewFilteredByOneInsertOfAStatementSetIsAggregatedTwice) {
  // As Flink: each INSERT expands the view and the filter moves into its own copy, so the copies
  // differ and only the scan below them is shared.
  MustDdl("CREATE TEMPORARY VIEW counts AS SELECT b, COUNT(*) AS cnt FROM wide GROUP BY b");
  MustDdl("CREATE TABLE out2 (b STRING, cnt BIGINT) WITH ('connector' = 'print')");
  auto job = Plan(
      "EXECUTE STATEMENT SET BEGIN INSERT INTO out SELECT * FROM counts; "
      "INSERT INTO out2 SELECT * FROM counts WHERE b = 'x'; END");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,group_aggregate,sink,calc,group_aggregate,sink");
}

TEST(PushDownFiltersTest, NeverPushesIntoANodeOtherConsumersShare) {
  using planner::LogicalNodePtr;
  Schema schema;
  schema.fields = {{"b", DataType::String()}, {"n", DataType::Int()}};
  LogicalNodePtr values = planner::MakeValues(schema, {});
  planner::LogicalAggCall count;
  count.kind = AggKind::kCountStar;
  count.result_type = DataType::BigInt();
  LogicalNodePtr agg = planner::MakeAggregate(values, {0}, {count}, {"b", "cnt"});
  auto condition = MakeCall("=", {MakeColumnRef(0, DataType::String()),
                                  MakeLiteral(Value::String("x"), DataType::String())});
  ASSERT_TRUE(condition.ok()) << condition.status();
  LogicalNodePtr filtered = planner::MakeFilter(agg, *condition);

  // Shared by two roots: the filter stays above the aggregate.
  auto shared = planner::PushDownFilters({filtered, agg});
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_EQ((*shared)[0]->kind, planner::LogicalKind::kFilter);
  EXPECT_EQ((*shared)[0]->inputs[0], (*shared)[1]);
  EXPECT_EQ((*shared)[1], agg);

  // Read by the filter alone: the condition on the group key goes below it.
  auto alone = planner::PushDownFilters({filtered});
  ASSERT_TRUE(alone.ok()) << alone.status();
  const planner::LogicalNode& top = *(*alone)[0];
  ASSERT_EQ(top.kind, planner::LogicalKind::kAggregate);
  ASSERT_EQ(top.input().kind, planner::LogicalKind::kFilter);
  EXPECT_EQ(top.input().inputs[0], values);
}

TEST_F(OptimizerRulesTest, ScansReadOnlyTheColumnsUsedAbove) {
  std::string plan =
      PhysicalPlan("INSERT INTO out SELECT b, COUNT(*) FROM wide WHERE c > 2 GROUP BY b");
  EXPECT_THAT(plan, HasSubstr("Calc(select=[b], where=[>(c, 2)])\n")) << plan;
  EXPECT_THAT(plan, HasSubstr(Scan("wide", "b, c"))) << plan;
  auto job = Plan("INSERT INTO out SELECT b, COUNT(d) FROM wide GROUP BY b");
  ASSERT_TRUE(job.ok()) << job.status();
  const v1::DatagenSource gen = DatagenOf(*ScansOf(*job, "datagen")[0]);
  ASSERT_EQ(gen.fields_size(), 2);
  EXPECT_EQ(gen.fields(0).name(), "b");
  EXPECT_EQ(gen.fields(1).name(), "d");
  // COUNT(*) reads one column: a row needs one.
  plan = PhysicalPlan("INSERT INTO o1 SELECT COUNT(*) FROM wide");
  EXPECT_THAT(plan, HasSubstr(Scan("wide", "a"))) << plan;
}

TEST_F(OptimizerRulesTest, AnUnreadSequenceStillEndsTheTable) {
  auto job = Plan("INSERT INTO ox SELECT x FROM seq");
  ASSERT_TRUE(job.ok()) << job.status();
  const v1::DatagenSource gen = DatagenOf(*ScansOf(*job, "datagen")[0]);
  ASSERT_EQ(gen.fields_size(), 1);
  EXPECT_EQ(gen.fields(0).name(), "x");
  EXPECT_TRUE(gen.bounded());
  EXPECT_EQ(gen.number_of_rows(), 100);
  EXPECT_TRUE(job->bounded);
}

TEST_F(OptimizerRulesTest, ScansOfOneTableReadTheUnionOfTheirColumnsWhileSourcesAreReused) {
  const std::string both =
      "STATEMENT SET BEGIN INSERT INTO o1 SELECT a FROM wide; INSERT INTO o2 SELECT b FROM wide; "
      "END";
  std::string text = Explain("EXPLAIN " + both);
  EXPECT_THAT(text, HasSubstr(Scan("wide", "a, b") + "(reuse_id=[1])")) << text;
  auto job = Plan("EXECUTE " + both);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(ScansOf(*job, "datagen").size(), 1u) << Ops(*job);

  config_["table.optimizer.reuse-source-enabled"] = "false";
  std::string plan = PhysicalPlan(both);
  EXPECT_THAT(plan, HasSubstr(Scan("wide", "a"))) << plan;
  EXPECT_THAT(plan, HasSubstr(Scan("wide", "b"))) << plan;
  EXPECT_THAT(plan, Not(HasSubstr("fields=[a, b]"))) << plan;
}

}  // namespace
}  // namespace eddy::planner_test
