// SELECT results through the client API on an embedded cluster: the rows come back in order and
// complete; a client that does not fetch holds the query back (bounded buffer, the job keeps
// running instead of finishing); failures and cancellation reach the fetching client; with
// checkpointing, rows come only once a completed checkpoint covers them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "client/eddy_client.h"
#include "client/embedded/embedded_cluster.h"
#include "common/batch/batch_codec.h"

namespace eddy {
namespace {

using ::testing::HasSubstr;

class QueryResultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = EmbeddedCluster::Start({.workers = 2, .slots = 2});
    ASSERT_TRUE(c.ok()) << c.status();
    cluster_ = std::move(*c);
    client_ = std::make_unique<EddyClient>(cluster_->coordinator_address(), "query-test");
    Run("CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen', "
        "'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', "
        "'fields.id.start' = '1', 'fields.id.end' = '200000')");
  }
  void Run(const std::string& sql) {
    auto r = client_->Execute(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status();
  }
  std::string Query(const std::string& sql) {
    auto r = client_->Execute(sql);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) return "";
    EXPECT_EQ(r->kind(), v1::ExecuteStatementResponse::QUERY);
    return r->job_id();
  }
  v1::JobStatus Status(const std::string& job) {
    auto info = client_->GetJob(job);
    return info.ok() ? info->status() : v1::JOB_STATUS_UNKNOWN;
  }

  std::unique_ptr<EmbeddedCluster> cluster_;
  std::unique_ptr<EddyClient> client_;
};

TEST_F(QueryResultsTest, AClientThatDoesNotFetchHoldsTheQueryBackThenGetsEveryRowInOrder) {
  Run("SET 'parallelism.default' = '2'");
  std::string job = Query("SELECT id FROM ids WHERE id > 0");
  ASSERT_FALSE(job.empty());
  // 200,000 rows need ~196 batches; the collect buffer holds 16, so without fetching the job
  // cannot finish.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(Status(job), v1::JOB_STATUS_RUNNING);

  int64_t rows = 0, sum = 0;
  bool ended = false;
  for (int i = 0; i < 2000 && !ended; ++i) {
    auto fetched = client_->FetchResults(job, 200);
    ASSERT_TRUE(fetched.ok()) << fetched.status();
    for (const auto& encoded : fetched->batches()) {
      auto batch = DecodeBatch(encoded);
      ASSERT_TRUE(batch.ok()) << batch.status();
      for (size_t r = 0; r < batch->num_rows(); ++r) {
        EXPECT_EQ(batch->kind(r), RowKind::kInsert);
        sum += batch->column(0).GetValue(r).int_value();
      }
      rows += static_cast<int64_t>(batch->num_rows());
    }
    ended = fetched->end();
  }
  EXPECT_TRUE(ended);
  EXPECT_EQ(rows, 200000);
  EXPECT_EQ(sum, int64_t{200000} * 200001 / 2);
  auto info = client_->WaitJob(job, 10000);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->status(), v1::JOB_STATUS_FINISHED) << info->error();
}

TEST_F(QueryResultsTest, WithCheckpointingRowsComeOnlyOnceACompletedCheckpointCoversThem) {
  Run("SET 'execution.checkpointing.interval' = '300 ms'");
  Run("CREATE TEMPORARY TABLE slow (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '200', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '1000000')");
  std::string job = Query("SELECT id FROM slow");
  ASSERT_FALSE(job.empty());
  std::vector<int64_t> ids;
  int64_t checkpoint_at_first_rows = -1;
  for (int i = 0; i < 200 && ids.size() < 100; ++i) {
    auto fetched = client_->FetchResults(job, 200);
    ASSERT_TRUE(fetched.ok()) << fetched.status();
    for (const auto& encoded : fetched->batches()) {
      auto batch = DecodeBatch(encoded);
      ASSERT_TRUE(batch.ok()) << batch.status();
      for (size_t r = 0; r < batch->num_rows(); ++r) {
        ids.push_back(batch->column(0).GetValue(r).int_value());
      }
    }
    if (!ids.empty() && checkpoint_at_first_rows < 0) {
      auto info = client_->GetJob(job);
      ASSERT_TRUE(info.ok()) << info.status();
      EXPECT_EQ(info->status(), v1::JOB_STATUS_RUNNING);
      checkpoint_at_first_rows = info->last_checkpoint_id();
    }
  }
  // The sink commits a checkpoint's rows when the coordinator tells it the checkpoint completed.
  EXPECT_GE(checkpoint_at_first_rows, 1);
  ASSERT_GE(ids.size(), 100u);
  for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(ids[i], static_cast<int64_t>(i) + 1);
  ASSERT_TRUE(client_->CancelJob(job).ok());
}

TEST_F(QueryResultsTest, AFetchOfAnInsertJobSaysItIsNoQuery) {
  Run("CREATE TEMPORARY TABLE hole (id BIGINT) WITH ('connector' = 'blackhole')");
  auto submitted = client_->Execute("INSERT INTO hole SELECT id FROM ids");
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  auto fetched = client_->FetchResults(submitted->job_id(), 0);
  EXPECT_EQ(fetched.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(fetched.status().message()),
              HasSubstr("job " + submitted->job_id() + " is not a query"));
  auto info = client_->WaitJob(submitted->job_id(), 30000);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->status(), v1::JOB_STATUS_FINISHED) << info->error();
}

TEST_F(QueryResultsTest, AFailedQueryFailsTheFetch) {
  std::string job = Query("SELECT 10 / (id - id) FROM ids");
  ASSERT_FALSE(job.empty());
  absl::Status status;
  for (int i = 0; i < 200 && status.ok(); ++i) {
    auto fetched = client_->FetchResults(job, 100);
    status = fetched.status();
    if (status.ok() && fetched->end()) break;
  }
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("Division by zero"));
}

TEST_F(QueryResultsTest, ACancelledQueryStopsAndSaysSo) {
  Run("CREATE TEMPORARY TABLE ticks (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '1000')");
  std::string job = Query("SELECT id FROM ticks");
  ASSERT_FALSE(job.empty());
  auto first = client_->FetchResults(job, 2000);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(client_->CancelJob(job).ok());
  auto info = client_->WaitJob(job, 10000);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->status(), v1::JOB_STATUS_CANCELED);
  auto after = client_->FetchResults(job, 100);
  EXPECT_EQ(after.status().code(), absl::StatusCode::kCancelled) << after.status();
  // The slots are free again.
  auto workers = client_->ListWorkers();
  ASSERT_TRUE(workers.ok());
  for (const auto& w : *workers) EXPECT_EQ(w.free_slots(), w.slots());
}

}  // namespace
}  // namespace eddy
