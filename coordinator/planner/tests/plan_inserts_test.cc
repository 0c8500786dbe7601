// Q1/Q2 (word count; count of its counts) end to end through the planner: node sequence,
// UPDATE_BEFORE generation per sink, sources, and the job's name and boundedness.
#include "common/batch/batch_codec.h"
#include "common/types/type_proto.h"
#include "coordinator/planner/tests/planner_test_util.h"
#include "gmock/gmock.h"

namespace eddy::planner_test {
namespace {

constexpr char kQ1[] = "SELECT word, COUNT(*) AS cnt FROM words GROUP BY word";
constexpr char kQ2[] =
    "SELECT cnt, COUNT(*) AS num_words FROM (SELECT word, COUNT(*) AS cnt FROM words GROUP BY "
    "word) GROUP BY cnt";

class WordCountTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl(
        "CREATE TEMPORARY VIEW words AS SELECT * FROM (VALUES ('a'), ('a'), ('b'), ('a'), ('c'), "
        "('b')) AS t(word)");
    MustDdl("CREATE TABLE sink1 (word STRING, cnt BIGINT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE sink2 (cnt BIGINT, num_words BIGINT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE hole1 (word STRING, cnt BIGINT) WITH ('connector' = 'blackhole')");
    MustDdl("CREATE TABLE hole2 (cnt BIGINT, num_words BIGINT) WITH ('connector' = 'blackhole')");
  }
};

TEST_F(WordCountTest, Q1IntoPrint) {
  auto job = Plan(std::string("INSERT INTO sink1 ") + kQ1);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "values,group_aggregate,sink");
  EXPECT_EQ(job->name, "insert-into_default_catalog.default_database.sink1");
  EXPECT_TRUE(job->bounded);
  const auto& values = job->nodes[0];
  ASSERT_EQ(values.values().batches_size(), 1);
  auto batch = DecodeBatch(values.values().batches(0));
  ASSERT_TRUE(batch.ok()) << batch.status();
  ASSERT_EQ(batch->num_rows(), 6u);
  EXPECT_EQ(FormatRow(*batch, 0), "+I[a]");
  EXPECT_EQ(FormatRow(*batch, 4), "+I[c]");
  const auto& agg = job->nodes[1];
  EXPECT_EQ(agg.inputs_size(), 1);
  EXPECT_EQ(agg.inputs(0), values.id());
  ASSERT_EQ(agg.group_aggregate().group_keys_size(), 1);
  EXPECT_EQ(agg.group_aggregate().group_keys(0), 0);
  ASSERT_EQ(agg.group_aggregate().calls_size(), 1);
  EXPECT_EQ(agg.group_aggregate().calls(0).function(), "COUNT");
  EXPECT_TRUE(agg.group_aggregate().calls(0).count_star());
  EXPECT_EQ(agg.group_aggregate().calls(0).arg(), -1);
  EXPECT_TRUE(agg.group_aggregate().generate_update_before());
  EXPECT_TRUE(agg.group_aggregate().input_insert_only());  // VALUES only inserts
  EXPECT_EQ(agg.description(), "GroupAggregate(groupBy=[word], select=[word, COUNT(*) AS cnt])");
  const auto& sink = job->nodes[2];
  EXPECT_EQ(sink.inputs(0), agg.id());
  EXPECT_EQ(sink.sink().connector(), "print");
  EXPECT_EQ(sink.sink().table_name(), "default_catalog.default_database.sink1");
  EXPECT_TRUE(sink.sink().options().empty());
  EXPECT_EQ(sink.description(),
            "Sink(table=[default_catalog.default_database.sink1], fields=[word, cnt])");
}

TEST_F(WordCountTest, Q1IntoBlackholeIsUpsert) {
  auto job = Plan(std::string("INSERT INTO hole1 ") + kQ1);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "values,group_aggregate,sink");
  EXPECT_FALSE(job->nodes[1].group_aggregate().generate_update_before());
}

TEST_F(WordCountTest, Q2IntoPrint) {
  auto job = Plan(std::string("INSERT INTO sink2 ") + kQ2);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "values,group_aggregate,calc,group_aggregate,sink");
  EXPECT_TRUE(job->nodes[1].group_aggregate().generate_update_before());
  EXPECT_TRUE(job->nodes[3].group_aggregate().generate_update_before());
  EXPECT_TRUE(job->nodes[1].group_aggregate().input_insert_only());
  // The outer aggregate consumes the inner one's updates: it must be able to retract.
  EXPECT_FALSE(job->nodes[3].group_aggregate().input_insert_only());
  const auto& calc = job->nodes[2];
  EXPECT_EQ(calc.calc().projections_size(), 1);
  EXPECT_FALSE(calc.calc().has_filter());
  EXPECT_EQ(calc.description(), "Calc(select=[cnt])");
  EXPECT_EQ(job->nodes[3].description(),
            "GroupAggregate(groupBy=[cnt], select=[cnt, COUNT(*) AS num_words])");
  for (size_t i = 1; i < job->nodes.size(); ++i) {
    EXPECT_EQ(job->nodes[i].inputs(0), job->nodes[i - 1].id());
  }
}

TEST_F(WordCountTest, Q2IntoBlackholeInnerAggregateStillRetracts) {
  auto job = Plan(std::string("INSERT INTO hole2 ") + kQ2);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "values,group_aggregate,calc,group_aggregate,sink");
  EXPECT_TRUE(job->nodes[1].group_aggregate().generate_update_before());
  EXPECT_FALSE(job->nodes[3].group_aggregate().generate_update_before());
}

TEST_F(WordCountTest, Q1OverDatagen) {
  MustDdl(
      "CREATE TABLE gen (word STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '100', "
      "'fields.word.length' = '1')");
  auto job = Plan("INSERT INTO sink1 SELECT word, COUNT(*) AS cnt FROM gen GROUP BY word");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,group_aggregate,sink");
  EXPECT_TRUE(job->bounded);
  const v1::DatagenSource gen = DatagenOf(job->nodes[0]);
  EXPECT_TRUE(gen.bounded());
  EXPECT_EQ(gen.number_of_rows(), 100);
  EXPECT_EQ(gen.rows_per_second(), 10000);
  ASSERT_EQ(gen.fields_size(), 1);
  EXPECT_EQ(gen.fields(0).name(), "word");
  EXPECT_EQ(gen.fields(0).kind(), "random");
  EXPECT_EQ(gen.fields(0).length(), 1);
  EXPECT_EQ(job->nodes[0].description(),
            "TableSourceScan(table=[[default_catalog, default_database, gen]], fields=[word])");
  auto schema = SchemaFromProto(job->nodes[0].output_schema());
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(schema->Names(), std::vector<std::string>{"word"});
}

TEST_F(WordCountTest, UnboundedDatagen) {
  MustDdl("CREATE TABLE gen (word STRING) WITH ('connector' = 'datagen')");
  auto job = Plan("INSERT INTO sink1 SELECT word, COUNT(*) AS cnt FROM gen GROUP BY word");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_FALSE(job->bounded);
  EXPECT_FALSE(DatagenOf(job->nodes[0]).bounded());
}

TEST_F(WordCountTest, SequenceMakesDatagenBounded) {
  MustDdl(
      "CREATE TABLE gen (id BIGINT, word STRING) WITH ('connector' = 'datagen', "
      "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10')");
  auto job = Plan("INSERT INTO sink1 SELECT word, id FROM gen");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_TRUE(job->bounded);
  EXPECT_EQ(Ops(*job), "datagen,calc,sink");
  const v1::DatagenField f = DatagenOf(job->nodes[0]).fields(0);
  EXPECT_EQ(f.kind(), "sequence");
  EXPECT_TRUE(f.has_start());
  EXPECT_EQ(f.start(), 1);
  EXPECT_EQ(f.end(), 10);
}

TEST_F(WordCountTest, StatementSetIsOneJob) {
  auto job = Plan(std::string("EXECUTE STATEMENT SET BEGIN INSERT INTO sink1 ") + kQ1 +
                  "; INSERT INTO hole2 " + kQ2 + "; END");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->name,
            "insert-into_default_catalog.default_database.sink1,"
            "insert-into_default_catalog.default_database.hole2");
  EXPECT_EQ(NodesOf(*job, v1::PlanNode::kSink).size(), 2u);
  // Ids are unique and inputs come first.
  for (size_t i = 0; i < job->nodes.size(); ++i) {
    EXPECT_EQ(job->nodes[i].id(), static_cast<int>(i));
    for (int in : job->nodes[i].inputs()) EXPECT_LT(in, job->nodes[i].id());
  }
}

TEST_F(WordCountTest, StateTtlReachesEveryStatefulAggregate) {
  config_["table.exec.state.ttl"] = "1 h";
  auto job = Plan(std::string("INSERT INTO sink2 ") + kQ2);
  ASSERT_TRUE(job.ok()) << job.status();
  for (const auto* agg : NodesOf(*job, v1::PlanNode::kGroupAggregate)) {
    EXPECT_EQ(agg->group_aggregate().state_ttl_ms(), 3600000);
  }
  EXPECT_EQ(NodesOf(*job, v1::PlanNode::kGroupAggregate).size(), 2u);
  // Two phases: the global aggregates hold the state.
  config_["table.exec.mini-batch.enabled"] = "true";
  config_["table.exec.mini-batch.allow-latency"] = "1 s";
  job = Plan(std::string("INSERT INTO sink2 ") + kQ2);
  ASSERT_TRUE(job.ok()) << job.status();
  auto globals = NodesOf(*job, v1::PlanNode::kGlobalGroupAggregate);
  ASSERT_EQ(globals.size(), 2u);
  for (const auto* agg : globals) EXPECT_EQ(agg->global_group_aggregate().state_ttl_ms(), 3600000);
  config_["table.exec.state.ttl"] = "soon";
  EXPECT_NE(PlanError(std::string("INSERT INTO sink2 ") + kQ2)
                .find("'table.exec.state.ttl' must be a duration"),
            std::string::npos);
}

// The sink carries the table's NOT NULL physical columns for its enforcer, and the enforcer's mode.
TEST_F(WordCountTest, SinkListsNotNullColumnsForTheEnforcer) {
  MustDdl(
      "CREATE TABLE strict (word STRING NOT NULL, note STRING, cnt BIGINT NOT NULL) WITH "
      "('connector' = 'print')");
  const std::string insert =
      "INSERT INTO strict SELECT word, word, COUNT(*) FROM words GROUP BY word";
  auto job = Plan(insert);
  ASSERT_TRUE(job.ok()) << job.status();
  const v1::TableSink& sink = job->nodes.back().sink();
  EXPECT_THAT(sink.not_null_columns(), ::testing::ElementsAre(0, 2));
  EXPECT_FALSE(sink.drop_rows_with_nulls());  // ERROR, the default
  config_["table.exec.sink.not-null-enforcer"] = "DROP";
  job = Plan(insert);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_TRUE(job->nodes.back().sink().drop_rows_with_nulls());
  config_["table.exec.sink.not-null-enforcer"] = "SKIP";
  EXPECT_EQ(Plan(insert).status().message(),
            "'table.exec.sink.not-null-enforcer' must be ERROR or DROP, got 'SKIP'");
  // A table without NOT NULL columns has nothing to enforce.
  config_.clear();
  job = Plan(std::string("INSERT INTO sink1 ") + kQ1);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_TRUE(job->nodes.back().sink().not_null_columns().empty());
}

}  // namespace
}  // namespace eddy::planner_test
