// Sub-plan reuse in statement sets: identical scans, Calcs and aggregates become one plan node with
// several consumers; the table.optimizer.reuse-* keys turn it off; nodes that differ in their
// changelog mode or their table stay apart, and sinks are never merged.
#include <algorithm>

#include "coordinator/planner/tests/planner_test_util.h"

namespace eddy::planner_test {
namespace {

class ReuseTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl("CREATE TABLE words (word STRING, n INT) WITH ('connector' = 'datagen')");
    MustDdl("CREATE TABLE words2 (word STRING, n INT) WITH ('connector' = 'datagen')");
    MustDdl("CREATE TABLE p1 (word STRING) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE p2 (word STRING) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE c1 (word STRING, cnt BIGINT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE c2 (word STRING, cnt BIGINT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE h1 (word STRING, cnt BIGINT) WITH ('connector' = 'blackhole')");
  }

  // Ids of the nodes that read node `id`.
  static std::vector<int> Consumers(const PlannedJob& job, int id) {
    std::vector<int> out;
    for (const auto& n : job.nodes) {
      if (std::find(n.inputs().begin(), n.inputs().end(), id) != n.inputs().end()) {
        out.push_back(n.id());
      }
    }
    return out;
  }

  static constexpr char kFilteredTwice[] =
      "EXECUTE STATEMENT SET BEGIN "
      "INSERT INTO p1 SELECT word FROM words WHERE word LIKE 'F%'; "
      "INSERT INTO p2 SELECT word FROM words WHERE word LIKE 'F%'; END";
};

TEST_F(ReuseTest, SameFilteredScanIsPlannedOnce) {
  auto job = Plan(kFilteredTwice);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,calc,sink,sink");
  EXPECT_EQ(job->name,
            "insert-into_default_catalog.default_database.p1,"
            "insert-into_default_catalog.default_database.p2");
  const auto calcs = NodesOf(*job, v1::PlanNode::kCalc);
  ASSERT_EQ(calcs.size(), 1u);
  EXPECT_EQ(calcs[0]->description(), "Calc(select=[word], where=[LIKE(word, 'F%')])");
  EXPECT_EQ(Consumers(*job, job->nodes[0].id()), std::vector<int>({calcs[0]->id()}));
  const auto sinks = NodesOf(*job, v1::PlanNode::kSink);
  ASSERT_EQ(sinks.size(), 2u);
  EXPECT_EQ(Consumers(*job, calcs[0]->id()), std::vector<int>({sinks[0]->id(), sinks[1]->id()}));
  EXPECT_EQ(sinks[0]->sink().table_name(), "default_catalog.default_database.p1");
  EXPECT_EQ(sinks[1]->sink().table_name(), "default_catalog.default_database.p2");
  // Ids stay dense and inputs come before consumers, as workers expect.
  for (size_t i = 0; i < job->nodes.size(); ++i) {
    EXPECT_EQ(job->nodes[i].id(), static_cast<int>(i));
    for (int in : job->nodes[i].inputs()) EXPECT_LT(in, static_cast<int>(i));
  }
}

TEST_F(ReuseTest, DisabledByConfigKeepsTwoCopies) {
  config_["table.optimizer.reuse-sub-plan-enabled"] = "false";
  auto job = Plan(kFilteredTwice);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,calc,sink,datagen,calc,sink");
  EXPECT_EQ(ScansOf(*job, "datagen").size(), 2u);
}

TEST_F(ReuseTest, SourceReuseDisabledKeepsTwoSources) {
  config_["table.optimizer.reuse-source-enabled"] = "false";
  auto job = Plan(kFilteredTwice);
  ASSERT_TRUE(job.ok()) << job.status();
  // Without a shared source nothing above it is identical either.
  EXPECT_EQ(ScansOf(*job, "datagen").size(), 2u);
  EXPECT_EQ(NodesOf(*job, v1::PlanNode::kCalc).size(), 2u);
}

TEST_F(ReuseTest, ValuesViewFeedingTwoSinksIsOneSource) {
  MustDdl("CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES ('a'), ('b')) AS t(word)");
  auto job = Plan(
      "EXECUTE STATEMENT SET BEGIN INSERT INTO p1 SELECT word FROM v; "
      "INSERT INTO p2 SELECT word FROM v; END");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "values,sink,sink");
  EXPECT_EQ(Consumers(*job, 0).size(), 2u);
}

TEST_F(ReuseTest, DifferentTablesStayApart) {
  // words and words2 have the same columns and options, but they are two sources.
  auto job = Plan(
      "EXECUTE STATEMENT SET BEGIN INSERT INTO p1 SELECT word FROM words; "
      "INSERT INTO p2 SELECT word FROM words2; END");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(ScansOf(*job, "datagen").size(), 2u);
}

TEST_F(ReuseTest, SinksAreNeverMerged) {
  auto job = Plan(
      "EXECUTE STATEMENT SET BEGIN INSERT INTO p1 SELECT word FROM words; "
      "INSERT INTO p1 SELECT word FROM words; END");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,sink,sink");
}

TEST_F(ReuseTest, AggregateSharedOnlyWithTheSameChangelogMode) {
  constexpr char kQ1[] = "SELECT word, COUNT(*) AS cnt FROM words GROUP BY word";
  auto same = Plan(std::string("EXECUTE STATEMENT SET BEGIN INSERT INTO c1 ") + kQ1 +
                   "; INSERT INTO c2 " + kQ1 + "; END");
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(Ops(*same), "datagen,group_aggregate,sink,sink");

  // The print sink needs UPDATE_BEFORE, the blackhole does not: two aggregates, one source.
  auto differ = Plan(std::string("EXECUTE STATEMENT SET BEGIN INSERT INTO c1 ") + kQ1 +
                     "; INSERT INTO h1 " + kQ1 + "; END");
  ASSERT_TRUE(differ.ok()) << differ.status();
  EXPECT_EQ(Ops(*differ), "datagen,group_aggregate,sink,group_aggregate,sink");
  auto aggs = NodesOf(*differ, v1::PlanNode::kGroupAggregate);
  ASSERT_EQ(aggs.size(), 2u);
  EXPECT_TRUE(aggs[0]->group_aggregate().generate_update_before());
  EXPECT_FALSE(aggs[1]->group_aggregate().generate_update_before());
  EXPECT_EQ(aggs[0]->inputs(0), aggs[1]->inputs(0));
}

}  // namespace
}  // namespace eddy::planner_test
