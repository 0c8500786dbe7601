// Stable state ids: set on exactly the stateful nodes, derived from the plan (the same query
// planned again gets the same ids), distinct within a job, and carried into the job graph's stages.
#include "coordinator/planner/state_ids.h"

#include <set>

#include "coordinator/planner/job_graph.h"
#include "coordinator/planner/tests/planner_test_util.h"

namespace eddy::planner_test {
namespace {

class StateIdsTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl("CREATE TEMPORARY VIEW words AS SELECT * FROM (VALUES ('a'), ('b'), ('a')) AS t(word)");
    MustDdl("CREATE TABLE sink1 (word STRING, cnt BIGINT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE sink2 (cnt BIGINT, n BIGINT) WITH ('connector' = 'print')");
  }

  // node id -> state id of every node of the plan.
  std::vector<std::pair<int, uint32_t>> Ids(const std::string& sql) {
    auto job = Plan(sql);
    EXPECT_TRUE(job.ok()) << job.status();
    std::vector<std::pair<int, uint32_t>> out;
    if (!job.ok()) return out;
    for (const auto& n : job->nodes) out.emplace_back(n.id(), n.state_id());
    return out;
  }
};

constexpr char kNested[] =
    "EXECUTE STATEMENT SET BEGIN "
    "INSERT INTO sink1 SELECT word, COUNT(*) FROM words GROUP BY word; "
    "INSERT INTO sink2 SELECT cnt, COUNT(*) FROM "
    "(SELECT word, COUNT(*) AS cnt FROM words GROUP BY word) GROUP BY cnt; END";

TEST_F(StateIdsTest, OnlyStatefulNodesHaveOneAndTheyAreDistinct) {
  auto job = Plan(kNested);
  ASSERT_TRUE(job.ok()) << job.status();
  std::set<uint32_t> ids;
  int stateful = 0;
  for (const auto& n : job->nodes) {
    if (n.op_case() == v1::PlanNode::kGroupAggregate) {
      ++stateful;
      EXPECT_EQ(n.state_id(), static_cast<uint32_t>(n.id()) + 1);
      EXPECT_TRUE(ids.insert(n.state_id()).second);
    } else {
      EXPECT_EQ(n.state_id(), 0u) << n.description();
    }
  }
  EXPECT_EQ(stateful, 2);  // the shared inner aggregate once, the outer one
}

TEST_F(StateIdsTest, PlanningTheSameQueryAgainGivesTheSameIds) {
  EXPECT_EQ(Ids(kNested), Ids(kNested));
  config_["table.exec.mini-batch.enabled"] = "true";
  config_["table.exec.mini-batch.allow-latency"] = "1 s";
  config_["table.optimizer.agg-phase-strategy"] = "TWO_PHASE";
  EXPECT_EQ(Ids(kNested), Ids(kNested));
}

TEST_F(StateIdsTest, TwoPhaseAggregatesKeepStateOnlyInTheGlobalPhase) {
  config_["table.exec.mini-batch.enabled"] = "true";
  config_["table.exec.mini-batch.allow-latency"] = "1 s";
  config_["table.optimizer.agg-phase-strategy"] = "TWO_PHASE";
  auto job = Plan("INSERT INTO sink1 SELECT word, COUNT(*) FROM words GROUP BY word");
  ASSERT_TRUE(job.ok()) << job.status();
  auto locals = NodesOf(*job, v1::PlanNode::kLocalGroupAggregate);
  auto globals = NodesOf(*job, v1::PlanNode::kGlobalGroupAggregate);
  ASSERT_EQ(locals.size(), 1u);
  ASSERT_EQ(globals.size(), 1u);
  EXPECT_EQ(locals[0]->state_id(), 0u);
  EXPECT_EQ(globals[0]->state_id(), static_cast<uint32_t>(globals[0]->id()) + 1);
}

TEST_F(StateIdsTest, JobGraphStagesKeepTheIds) {
  config_["parallelism.default"] = "2";
  auto job = Plan("INSERT INTO sink1 SELECT word, COUNT(*) FROM words GROUP BY word");
  ASSERT_TRUE(job.ok()) << job.status();
  auto graph = BuildJobGraph(job->nodes, config_);
  ASSERT_TRUE(graph.ok()) << graph.status();
  int found = 0;
  for (const auto& stage : graph->stages) {
    for (const auto& n : stage.nodes) {
      EXPECT_EQ(n.state_id(), planner::StateIdOf(n)) << n.description();
      found += n.state_id() != 0;
    }
  }
  EXPECT_EQ(found, 1);
}

}  // namespace
}  // namespace eddy::planner_test
