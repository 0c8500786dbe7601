// BuildDeployments: one deployment per subtask on its slot, ExchangeSources sized to their channel
// count, and ExchangeSink targets naming consumer subtasks, channels and local/remote placement.
#include "coordinator/service/deployment_builder.h"

#include "gtest/gtest.h"

namespace eddy {
namespace {

v1::PlanNode Node(int id, std::vector<int> inputs) {
  v1::PlanNode n;
  n.set_id(id);
  for (int in : inputs) n.add_inputs(in);
  return n;
}

// VALUES (p1) -HASH(0)-> aggregate (p2) -REBALANCE-> sink (p3).
JobGraph ThreeStages() {
  JobGraph g;
  g.stages.resize(3);
  g.stages[0].parallelism = 1;
  g.stages[0].nodes.push_back(Node(0, {}));
  g.stages[0].nodes[0].mutable_values();
  g.stages[1].parallelism = 2;
  g.stages[1].nodes.push_back(Node(5, {}));
  g.stages[1].nodes[0].mutable_exchange_source();
  g.stages[1].nodes.push_back(Node(1, {5}));
  g.stages[1].nodes[1].mutable_group_aggregate()->add_group_keys(0);
  g.stages[1].inputs.push_back({0, 0, v1::ExchangeSink::HASH, {0}});
  g.stages[2].parallelism = 3;
  g.stages[2].nodes.push_back(Node(6, {}));
  g.stages[2].nodes[0].mutable_exchange_source();
  g.stages[2].nodes.push_back(Node(2, {6}));
  g.stages[2].nodes[1].mutable_sink();
  g.stages[2].inputs.push_back({1, 1, v1::ExchangeSink::REBALANCE, {}});
  return g;
}

TEST(DeploymentBuilderTest, WiresSubtasksAcrossWorkers) {
  auto tasks =
      BuildDeployments(ThreeStages(), "job", {"w1", "w2", "w1"}, {"a1", "a2", "a1"}, {{"k", "v"}});
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  ASSERT_EQ(tasks->size(), 6u);  // 1 + 2 + 3 subtasks
  const v1::TaskDeployment& values = (*tasks)[0];
  EXPECT_EQ(values.max_parallelism(), 128);
  EXPECT_EQ(values.config().at("k"), "v");
  ASSERT_EQ(values.nodes_size(), 2);
  const v1::ExchangeSink& hash = values.nodes(1).exchange_sink();
  EXPECT_EQ(values.nodes(1).inputs(0), 0);
  EXPECT_EQ(hash.partitioning(), v1::ExchangeSink::HASH);
  ASSERT_EQ(hash.targets_size(), 2);
  EXPECT_EQ(hash.targets(1).subtask_index(), 1);
  EXPECT_EQ(hash.targets(1).address(), "a2");
  EXPECT_FALSE(hash.targets(1).local());
  EXPECT_TRUE(hash.targets(0).local());
  EXPECT_EQ(hash.targets(0).num_channels(), 1);

  const v1::TaskDeployment& agg1 = (*tasks)[2];
  EXPECT_EQ(agg1.task_index(), 1);
  EXPECT_EQ(agg1.subtask_index(), 1);
  EXPECT_EQ(agg1.parallelism(), 2);
  EXPECT_EQ(agg1.nodes(0).exchange_source().num_channels(), 1);
  const v1::ExchangeSink& rebalance = agg1.nodes(2).exchange_sink();
  ASSERT_EQ(rebalance.targets_size(), 3);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(rebalance.targets(j).channel_index(), 1);  // producer subtask 1
    EXPECT_EQ(rebalance.targets(j).num_channels(), 2);
    EXPECT_EQ(rebalance.targets(j).task_index(), 2);
  }
  EXPECT_TRUE(rebalance.targets(1).local());  // agg subtask 1 and sink subtask 1 share slot 1
  EXPECT_EQ((*tasks)[5].nodes(0).exchange_source().num_channels(), 2);
}

TEST(DeploymentBuilderTest, TooFewSlotsIsAnError) {
  EXPECT_FALSE(BuildDeployments(ThreeStages(), "job", {"w1"}, {"a1"}, {}).ok());
}

}  // namespace
}  // namespace eddy
