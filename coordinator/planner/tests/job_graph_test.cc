// BuildJobGraph: where plans split into stages, each stage's parallelism, and the partitioning and
// keys of the edges between them (Q1, Q2, datagen, global aggregates, sink.parallelism).
#include "coordinator/planner/job_graph.h"

#include <gmock/gmock.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/planner/tests/planner_test_util.h"

namespace eddy::planner_test {
namespace {

// "p<parallelism>[<ops>]<-<edges>" per stage, e.g.
// "p2[exchange_source,group_aggregate,sink]<-0:HASH(0)".
std::string Describe(const JobGraph& g) {
  std::vector<std::string> out;
  for (const auto& s : g.stages) {
    std::vector<std::string> ops, edges;
    for (const auto& n : s.nodes) {
      ops.push_back(n.has_table_source()  // a scan by its connector
                        ? n.table_source().connector()
                        : v1::PlanNode::descriptor()->FindFieldByNumber(n.op_case())->name());
    }
    for (const auto& e : s.inputs) {
      std::string keys = e.partitioning == v1::ExchangeSink::HASH
                             ? "(" + absl::StrJoin(e.hash_keys, ",") + ")"
                             : "";
      edges.push_back(
          absl::StrCat(e.producer, ":", v1::ExchangeSink::Partitioning_Name(e.partitioning), keys));
    }
    std::string text = absl::StrCat("p", s.parallelism, "[", absl::StrJoin(ops, ","), "]");
    if (!edges.empty()) absl::StrAppend(&text, "<-", absl::StrJoin(edges, ";"));
    out.push_back(text);
  }
  return absl::StrJoin(out, " ");
}

class JobGraphTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl("CREATE TEMPORARY VIEW words AS SELECT * FROM (VALUES ('a'), ('b'), ('a')) AS t(word)");
    MustDdl(
        "CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' = "
        "'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100')");
    MustDdl("CREATE TABLE sink1 (word STRING, cnt BIGINT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE sink2 (cnt BIGINT, n BIGINT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE total (n BIGINT) WITH ('connector' = 'print')");
    MustDdl(
        "CREATE TABLE narrow (word STRING, cnt BIGINT) WITH ('connector' = 'print', "
        "'sink.parallelism' = '1')");
  }

  std::string Graph(const std::string& sql, const std::string& parallelism) {
    config_["parallelism.default"] = parallelism;
    auto job = Plan(sql);
    if (!job.ok()) return std::string(job.status().message());
    auto g = BuildJobGraph(job->nodes, config_);
    if (!g.ok()) return std::string(g.status().message());
    return Describe(*g);
  }
};

TEST_F(JobGraphTest, Q1AtParallelismOneIsOneTask) {
  EXPECT_EQ(Graph("INSERT INTO sink1 SELECT word, COUNT(*) FROM words GROUP BY word", "1"),
            "p1[values,group_aggregate,sink]");
}

TEST_F(JobGraphTest, Q1ValuesStayAtOneAndHashIntoTheAggregate) {
  EXPECT_EQ(Graph("INSERT INTO sink1 SELECT word, COUNT(*) FROM words GROUP BY word", "4"),
            "p1[values] p4[exchange_source,group_aggregate,sink]<-0:HASH(0)");
}

TEST_F(JobGraphTest, DatagenRunsAtTheDefaultParallelism) {
  const std::string g =
      Graph("INSERT INTO sink2 SELECT id % 10, COUNT(*) FROM gen GROUP BY id % 10", "4");
  EXPECT_EQ(g, "p4[datagen,calc] p4[exchange_source,group_aggregate,sink]<-0:HASH(0)");
}

TEST_F(JobGraphTest, TableDefaultParallelismOverridesTheDefaultWhenPositive) {
  const std::string sql = "INSERT INTO sink2 SELECT id % 10, COUNT(*) FROM gen GROUP BY id % 10";
  config_["table.exec.resource.default-parallelism"] = "3";
  EXPECT_EQ(Graph(sql, "4"),
            "p3[datagen,calc] p3[exchange_source,group_aggregate,sink]<-0:HASH(0)");
  config_["table.exec.resource.default-parallelism"] = "-1";  // none: parallelism.default
  EXPECT_EQ(Graph(sql, "4"),
            "p4[datagen,calc] p4[exchange_source,group_aggregate,sink]<-0:HASH(0)");
  config_["table.exec.resource.default-parallelism"] = "0";
  EXPECT_EQ(Graph(sql, "4"),
            "'table.exec.resource.default-parallelism' must be a positive integer, got '0'");
}

TEST_F(JobGraphTest, ASourceRunsAtItsOwnScanParallelism) {
  MustDdl(
      "CREATE TABLE gen1 (id BIGINT) WITH ('connector' = 'datagen', 'scan.parallelism' = '1', "
      "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100')");
  EXPECT_EQ(Graph("INSERT INTO sink2 SELECT id % 10, COUNT(*) FROM gen1 GROUP BY id % 10", "3"),
            "p1[datagen,calc] p3[exchange_source,group_aggregate,sink]<-0:HASH(0)");
  EXPECT_NE(DdlError("CREATE TABLE gen0 (id BIGINT) WITH ('connector' = 'datagen', "
                     "'scan.parallelism' = '0')")
                .find("'scan.parallelism'"),
            std::string::npos);
}

TEST_F(JobGraphTest, Q2HashesTwice) {
  EXPECT_EQ(Graph("INSERT INTO sink2 SELECT cnt, COUNT(*) FROM (SELECT word, COUNT(*) AS cnt FROM "
                  "words GROUP BY word) GROUP BY cnt",
                  "2"),
            "p1[values] p2[exchange_source,group_aggregate,calc]<-0:HASH(0) "
            "p2[exchange_source,group_aggregate,sink]<-1:HASH(0)");
}

TEST_F(JobGraphTest, GlobalAggregateIsASingleton) {
  EXPECT_EQ(Graph("INSERT INTO total SELECT COUNT(*) FROM gen", "4"),
            "p4[datagen,calc] p1[exchange_source,group_aggregate,sink]<-0:SINGLETON");
}

TEST_F(JobGraphTest, SinkParallelismRebalances) {
  EXPECT_EQ(Graph("INSERT INTO narrow SELECT word, COUNT(*) FROM words GROUP BY word", "3"),
            "p1[values] p3[exchange_source,group_aggregate]<-0:HASH(0) "
            "p1[exchange_source,sink]<-1:REBALANCE");
}

// sink.shuffle-by-partition.enable hashes a partitioned filesystem sink's rows by their partition
// columns, so each partition is written by one subtask; without it the sink chains.
TEST_F(JobGraphTest, APartitionedFilesystemSinkShufflesByPartitionWhenAsked) {
  const std::string columns =
      "(id BIGINT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = "
      "'filesystem', 'path' = '/tmp/eddy-parts', 'format' = 'csv'";
  MustDdl("CREATE TABLE shuffled " + columns + ", 'sink.shuffle-by-partition.enable' = 'true')");
  MustDdl("CREATE TABLE chained " + columns + ")");
  const std::string rows = " SELECT id, CAST(id % 3 AS STRING) FROM gen";
  EXPECT_EQ(Graph("INSERT INTO shuffled" + rows, "2"),
            "p2[datagen,calc] p2[exchange_source,sink]<-0:HASH(1)");
  EXPECT_EQ(Graph("INSERT INTO chained" + rows, "2"), "p2[datagen,calc,sink]");
}

// As Flink's: a partitioned filesystem sink with a commit policy reports to one PartitionCommitter
// subtask, a stage of its own fed by a singleton exchange; without partitions, or without a
// policy, there is none.
TEST_F(JobGraphTest, APartitionedFilesystemSinkWithACommitPolicyFeedsOneCommitter) {
  const std::string options =
      "WITH ('connector' = 'filesystem', 'path' = '/tmp/eddy-parts', 'format' = 'csv'";
  const std::string policy = ", 'sink.partition-commit.policy.kind' = 'success-file')";
  MustDdl("CREATE TABLE committed (id BIGINT, dt STRING) PARTITIONED BY (dt) " + options + policy);
  MustDdl("CREATE TABLE flat (id BIGINT, dt STRING) " + options + policy);
  MustDdl("CREATE TABLE uncommitted (id BIGINT, dt STRING) PARTITIONED BY (dt) " + options + ")");
  const std::string rows = " SELECT id, CAST(id % 3 AS STRING) FROM gen";
  EXPECT_EQ(Graph("INSERT INTO committed" + rows, "2"),
            "p2[datagen,calc,sink] p1[exchange_source,partition_committer]<-0:SINGLETON");
  EXPECT_EQ(Graph("INSERT INTO flat" + rows, "2"), "p2[datagen,calc,sink]");
  EXPECT_EQ(Graph("INSERT INTO uncommitted" + rows, "2"), "p2[datagen,calc,sink]");

  config_["parallelism.default"] = "2";
  auto job = Plan("INSERT INTO committed" + rows);
  ASSERT_TRUE(job.ok()) << job.status();
  auto g = BuildJobGraph(job->nodes, config_);
  ASSERT_TRUE(g.ok()) << g.status();
  const v1::PlanNode& writer = g->stages[0].nodes.back();
  EXPECT_TRUE(writer.sink().report_partition_commits());
  const v1::PlanNode& committer = g->stages[1].nodes.back();
  EXPECT_EQ(committer.partition_committer().table_name(),
            "default_catalog.default_database.committed");
  EXPECT_EQ(committer.partition_committer().options().at("sink.partition-commit.policy.kind"),
            "success-file");
  EXPECT_THAT(committer.partition_committer().partition_columns(), ::testing::ElementsAre("dt"));
  // The committer's gate reads the writers' reports.
  // (checkpoint, subtask, subtasks, partition, watermark).
  EXPECT_EQ(g->stages[1].nodes.front().output_schema().fields_size(), 5);
}

TEST_F(JobGraphTest, UnionOfStagesReadsOneGate) {
  EXPECT_EQ(Graph("INSERT INTO total SELECT id FROM gen UNION ALL SELECT CAST(1 AS BIGINT)", "2"),
            "p2[datagen] p1[values] p2[exchange_source,sink]<-0:FORWARD;1:REBALANCE");
}

TEST_F(JobGraphTest, MiniBatchAssignerChainsToItsSource) {
  config_["table.exec.mini-batch.enabled"] = "true";
  config_["table.exec.mini-batch.allow-latency"] = "1 s";
  config_["table.optimizer.agg-phase-strategy"] = "ONE_PHASE";
  EXPECT_EQ(
      Graph("INSERT INTO sink2 SELECT id % 10, COUNT(*) FROM gen GROUP BY id % 10", "2"),
      "p2[datagen,mini_batch_assigner,calc] p2[exchange_source,group_aggregate,sink]<-0:HASH(0)");
}

TEST_F(JobGraphTest, TwoPhaseLocalAggregateChainsBeforeTheShuffle) {
  config_["table.exec.mini-batch.enabled"] = "true";
  config_["table.exec.mini-batch.allow-latency"] = "1 s";
  // The global aggregate's keys are the partials' first columns.
  EXPECT_EQ(Graph("INSERT INTO sink2 SELECT id % 10, COUNT(*) FROM gen GROUP BY id % 10", "2"),
            "p2[datagen,mini_batch_assigner,calc,local_group_aggregate] "
            "p2[exchange_source,global_group_aggregate,sink]<-0:HASH(0)");
  // Q2: the outer local aggregate runs in the inner global aggregate's task.
  EXPECT_EQ(Graph("INSERT INTO sink2 SELECT cnt, COUNT(*) FROM (SELECT word, COUNT(*) AS cnt FROM "
                  "words GROUP BY word) GROUP BY cnt",
                  "2"),
            "p1[values,mini_batch_assigner,local_group_aggregate] "
            "p2[exchange_source,global_group_aggregate,calc,local_group_aggregate]<-0:HASH(0) "
            "p2[exchange_source,global_group_aggregate,sink]<-1:HASH(0)");
  EXPECT_EQ(Graph("INSERT INTO total SELECT COUNT(*) FROM gen", "2"),
            "p2[datagen,mini_batch_assigner,calc,local_group_aggregate] "
            "p1[exchange_source,global_group_aggregate,sink]<-0:SINGLETON");
}

TEST_F(JobGraphTest, AnInvalidAggPhaseStrategyIsAPlanningError) {
  config_["table.optimizer.agg-phase-strategy"] = "SOMETIMES";
  EXPECT_EQ(Graph("INSERT INTO sink1 SELECT word, COUNT(*) FROM words GROUP BY word", "1"),
            "Validation error: 'table.optimizer.agg-phase-strategy' must be AUTO, ONE_PHASE or "
            "TWO_PHASE, got 'SOMETIMES'");
}

}  // namespace
}  // namespace eddy::planner_test
