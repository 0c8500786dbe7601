// The client's StatementSet and Explain on an embedded cluster: two INSERTs added through the API
// explain with a reused filter and run as one job whose shared scan reads each row once; bad sets
// fail before anything is sent.
#include "client/statement_set.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "client/embedded/embedded_cluster.h"
#include "client/table_environment.h"

namespace eddy {
namespace {

using ::testing::HasSubstr;

class StatementSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = EmbeddedCluster::Start({.workers = 1, .slots = 2});
    ASSERT_TRUE(c.ok()) << c.status();
    cluster_ = std::move(*c);
    client_ = std::make_unique<EddyClient>(cluster_->coordinator_address(), "statement-set-test");
    for (const char* ddl :
         {"CREATE TEMPORARY TABLE ids (id BIGINT, tag STRING) WITH ('connector' = 'datagen', "
          "'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', "
          "'fields.id.start' = '1', 'fields.id.end' = '1000')",
          "CREATE TEMPORARY TABLE hole1 (id BIGINT) WITH ('connector' = 'blackhole')",
          "CREATE TEMPORARY TABLE hole2 (id BIGINT) WITH ('connector' = 'blackhole')"}) {
      auto r = client_->Execute(ddl);
      ASSERT_TRUE(r.ok()) << ddl << ": " << r.status();
    }
  }

  std::unique_ptr<EmbeddedCluster> cluster_;
  std::unique_ptr<EddyClient> client_;
};

TEST_F(StatementSetTest, ExplainsAndRunsTheInsertsAsOneJobWithTheSharedPartOnce) {
  StatementSet set(client_.get());
  set.AddInsertSql("INSERT INTO hole1 SELECT id FROM ids WHERE id > 600;")
      .AddInsert("hole2", "SELECT id FROM ids WHERE id > 600 UNION ALL SELECT id FROM ids");

  auto plan = set.Explain();
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(*plan, HasSubstr("== Optimized Execution Plan =="));
  EXPECT_THAT(*plan, HasSubstr("Calc(select=[id], where=[>(id, 600)])(reuse_id="));
  EXPECT_THAT(*plan, HasSubstr("Reused(reference_id="));
  auto modes = set.Explain(/*changelog_mode=*/true);
  ASSERT_TRUE(modes.ok()) << modes.status();
  EXPECT_THAT(*modes, HasSubstr("changelogMode=[I]"));

  auto submitted = set.Execute();
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  ASSERT_EQ(submitted->kind(), v1::ExecuteStatementResponse::JOB_SUBMITTED);
  auto info = client_->WaitJob(submitted->job_id(), 30000);
  ASSERT_TRUE(info.ok()) << info.status();
  ASSERT_EQ(info->status(), v1::JOB_STATUS_FINISHED) << info->error();
  EXPECT_EQ(info->name(),
            "insert-into_default_catalog.default_database.hole1,"
            "insert-into_default_catalog.default_database.hole2");
  int scans = 0;
  int64_t sink_rows = 0;
  for (const auto& m : info->operators()) {
    if (m.description().rfind("TableSourceScan", 0) == 0) {
      ++scans;
      EXPECT_EQ(m.rows_out(), 1000);
      // Only `id` is read.
      EXPECT_THAT(m.description(), HasSubstr("fields=[id]"));
    }
    if (m.description().rfind("Sink", 0) == 0) sink_rows += m.rows_in();
  }
  EXPECT_EQ(scans, 1);
  EXPECT_EQ(sink_rows, 400 + 400 + 1000);
}

// A Table API Table as the query of an INSERT, beside INSERT SQL, in one job.
TEST_F(StatementSetTest, AddInsertTakesATable) {
  auto env = TableEnvironment::Connect(cluster_->coordinator_address(), "statement-set-table");
  for (const char* ddl :
       {"CREATE TEMPORARY TABLE ids (id BIGINT, tag STRING) WITH ('connector' = 'datagen', "
        "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000')",
        "CREATE TEMPORARY TABLE hole1 (id BIGINT) WITH ('connector' = 'blackhole')",
        "CREATE TEMPORARY TABLE hole2 (id BIGINT) WITH ('connector' = 'blackhole')"}) {
    ASSERT_TRUE(env->ExecuteSql(ddl).ok()) << ddl;
  }
  Table big = env->From("ids").Where(api::Col("id") > api::Lit(900)).Select({api::Col("id")});
  StatementSet set = env->CreateStatementSet();
  set.AddInsert("hole1", big).AddInsertSql("INSERT INTO hole2 SELECT id FROM ids WHERE id <= 10");
  auto sql = set.Sql();
  ASSERT_TRUE(sql.ok()) << sql.status();
  EXPECT_THAT(*sql, HasSubstr("INSERT INTO hole1 " + big.sql() + ";"));
  auto submitted = set.Execute();
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  auto info = env->client()->WaitJob(submitted->job_id(), 30000);
  ASSERT_TRUE(info.ok()) << info.status();
  ASSERT_EQ(info->status(), v1::JOB_STATUS_FINISHED) << info->error();
  int64_t sink_rows = 0;
  for (const auto& m : info->operators()) {
    if (m.description().rfind("Sink", 0) == 0) sink_rows += m.rows_in();
  }
  EXPECT_EQ(sink_rows, 100 + 10);
}

TEST_F(StatementSetTest, BadSetsFailBeforeAnythingIsSent) {
  StatementSet empty(client_.get());
  EXPECT_THAT(std::string(empty.Execute().status().message()),
              HasSubstr("the statement set is empty"));

  StatementSet not_insert(client_.get());
  not_insert.AddInsertSql("INSERT INTO hole1 SELECT id FROM ids").AddInsertSql("SELECT 1");
  EXPECT_THAT(std::string(not_insert.Explain().status().message()),
              HasSubstr("statement 2 of the statement set is not an INSERT"));

  StatementSet bad_sql(client_.get());
  bad_sql.AddInsert("hole1", "SELECT id FROM");
  auto s = bad_sql.Execute().status();
  EXPECT_THAT(std::string(s.message()), HasSubstr("statement 1 of the statement set: "));

  // Planning errors come from the coordinator, naming the table.
  StatementSet unknown(client_.get());
  unknown.AddInsert("nowhere", "SELECT id FROM ids");
  EXPECT_THAT(std::string(unknown.Execute().status().message()), HasSubstr("nowhere"));
  // Nothing ran.
  auto jobs = client_->ListJobs();
  ASSERT_TRUE(jobs.ok());
  EXPECT_TRUE(jobs->empty());
}

TEST_F(StatementSetTest, ExplainOfAQuery) {
  auto plan = client_->Explain("SELECT tag, COUNT(*) FROM ids GROUP BY tag", true);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(*plan, HasSubstr("GroupAggregate(groupBy=[tag]"));
  EXPECT_THAT(*plan, HasSubstr("changelogMode=[I,UB,UA]"));
  EXPECT_THAT(*plan, HasSubstr("fields=[tag]"));
}

}  // namespace
}  // namespace eddy
