// Through the client API on an embedded cluster (real gRPC between coordinator and workers): job
// row counts per plan node, the worker list, and that cancelling a job ends every subtask and frees
// its slots.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "client/eddy_client.h"
#include "client/embedded/embedded_cluster.h"

namespace eddy {
namespace {

class ClusterMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto c = EmbeddedCluster::Start({.workers = 2, .slots = 2});
    ASSERT_TRUE(c.ok()) << c.status();
    cluster_ = std::move(*c);
    client_ = std::make_unique<EddyClient>(cluster_->coordinator_address(), "metrics-test");
    // Both workers registered.
    for (int i = 0; i < 200 && Workers().size() < 2; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_EQ(Workers().size(), 2u);
  }

  std::vector<v1::WorkerStatus> Workers() {
    auto w = client_->ListWorkers();
    EXPECT_TRUE(w.ok()) << w.status();
    return w.ok() ? *w : std::vector<v1::WorkerStatus>{};
  }
  int RunningSubtasks() {
    int n = 0;
    for (const auto& w : Workers()) n += w.running_subtasks();
    return n;
  }
  void Run(const std::string& sql) {
    auto r = client_->Execute(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status();
  }
  std::string Submit(const std::string& insert) {
    auto r = client_->Execute(insert);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r->job_id() : "";
  }
  static const v1::OperatorMetrics* Find(const v1::JobInfo& job, const std::string& prefix) {
    for (const auto& m : job.operators()) {
      if (m.description().rfind(prefix, 0) == 0) return &m;
    }
    return nullptr;
  }

  std::unique_ptr<EmbeddedCluster> cluster_;
  std::unique_ptr<EddyClient> client_;
};

TEST_F(ClusterMetricsTest, FinishedJobReportsRowsPerNodeSummedOverSubtasks) {
  Run("SET 'parallelism.default' = '2'");
  Run("CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen', "
      "'number-of-rows' = '10000', 'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', "
      "'fields.id.start' = '1', 'fields.id.end' = '10000')");
  Run("CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole')");
  std::string job = Submit("INSERT INTO hole SELECT id % 10, COUNT(*) FROM ids GROUP BY id % 10");
  auto info = client_->WaitJob(job, 30000);
  ASSERT_TRUE(info.ok()) << info.status();
  ASSERT_EQ(info->status(), v1::JOB_STATUS_FINISHED) << info->error();

  const v1::OperatorMetrics* scan = Find(*info, "TableSourceScan");
  const v1::OperatorMetrics* agg = Find(*info, "GroupAggregate");
  const v1::OperatorMetrics* sink = Find(*info, "Sink");
  ASSERT_NE(scan, nullptr) << info->DebugString();
  ASSERT_NE(agg, nullptr) << info->DebugString();
  ASSERT_NE(sink, nullptr) << info->DebugString();
  EXPECT_EQ(scan->rows_out(), 10000);
  EXPECT_EQ(scan->subtasks(), 2);
  // Every row reaches the aggregate through the hash exchange; upsert output: one +I per key then
  // one +U per further row.
  EXPECT_EQ(agg->rows_in(), 10000);
  EXPECT_EQ(agg->rows_out(), 10000);
  EXPECT_EQ(agg->subtasks(), 2);
  EXPECT_EQ(sink->rows_in(), 10000);
  // The aggregate's ten keys stay in memory (COUNT over a BIGINT key: about 120 bytes each with
  // the cache's bookkeeping); stateless nodes report none.
  EXPECT_GE(agg->state_bytes_in_memory(), 10 * 100);
  EXPECT_LE(agg->state_bytes_in_memory(), 10 * 200);
  EXPECT_EQ(scan->state_bytes_in_memory(), 0);
  EXPECT_EQ(scan->state_bytes_in_store(), 0);

  // The job's slots are free again.
  for (const auto& w : Workers()) EXPECT_EQ(w.free_slots(), w.slots()) << w.DebugString();
}

TEST_F(ClusterMetricsTest, AJoinReportsTheStateItKeepsInMemory) {
  Run("SET 'parallelism.default' = '1'");
  for (const char* side : {"l", "r"}) {
    Run(std::string("CREATE TEMPORARY TABLE ") + side +
        " (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '1000', "
        "'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
        "'fields.id.end' = '1000')");
  }
  Run("CREATE TEMPORARY TABLE pairs (a BIGINT, b BIGINT) WITH ('connector' = 'blackhole')");
  std::string job = Submit("INSERT INTO pairs SELECT l.id, r.id FROM l JOIN r ON l.id = r.id");
  auto info = client_->WaitJob(job, 30000);
  ASSERT_TRUE(info.ok()) << info.status();
  ASSERT_EQ(info->status(), v1::JOB_STATUS_FINISHED) << info->error();
  const v1::OperatorMetrics* join = Find(*info, "Join");
  ASSERT_NE(join, nullptr) << info->DebugString();
  // Both sides' 1,000 rows each, one state value per (side, key).
  EXPECT_GE(join->state_bytes_in_memory(), 2000 * 100);
  EXPECT_LE(join->state_bytes_in_memory(), 2000 * 300);
}

// How many plan nodes of the job start with `prefix`.
int CountNodes(const v1::JobInfo& job, const std::string& prefix) {
  int n = 0;
  for (const auto& m : job.operators()) n += m.description().rfind(prefix, 0) == 0 ? 1 : 0;
  return n;
}

TEST_F(ClusterMetricsTest, StatementSetRunsItsSharedScanAndFilterOnce) {
  Run("CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', "
      "'fields.id.start' = '1', 'fields.id.end' = '10000')");
  Run("CREATE TEMPORARY TABLE hole1 (id BIGINT) WITH ('connector' = 'blackhole')");
  Run("CREATE TEMPORARY TABLE hole2 (id BIGINT) WITH ('connector' = 'blackhole')");
  const std::string statement_set =
      "EXECUTE STATEMENT SET BEGIN "
      "INSERT INTO hole1 SELECT id FROM ids WHERE id % 4 = 0; "
      "INSERT INTO hole2 SELECT id FROM ids WHERE id % 4 = 0 UNION ALL SELECT id FROM ids; "
      "END";
  auto run = [&] {
    std::string job = Submit(statement_set);
    auto info = client_->WaitJob(job, 30000);
    EXPECT_TRUE(info.ok()) << info.status();
    EXPECT_EQ(info->status(), v1::JOB_STATUS_FINISHED) << info->error();
    return *info;
  };

  // Shared: one scan reads the 10,000 rows once, one filter passes 2,500 to both consumers.
  v1::JobInfo shared = run();
  EXPECT_EQ(CountNodes(shared, "TableSourceScan"), 1) << shared.DebugString();
  EXPECT_EQ(CountNodes(shared, "Calc"), 1) << shared.DebugString();
  EXPECT_EQ(Find(shared, "TableSourceScan")->rows_out(), 10000);
  EXPECT_EQ(Find(shared, "Calc")->rows_in(), 10000);
  EXPECT_EQ(Find(shared, "Calc")->rows_out(), 2500);
  int64_t sink_rows = 0;
  for (const auto& m : shared.operators()) {
    if (m.description().rfind("Sink", 0) == 0) sink_rows += m.rows_in();
  }
  EXPECT_EQ(sink_rows, 2500 + 2500 + 10000);

  // Reuse off: each reference to the table is its own scan, each filter its own Calc.
  Run("SET 'table.optimizer.reuse-sub-plan-enabled' = 'false'");
  v1::JobInfo separate = run();
  EXPECT_EQ(CountNodes(separate, "TableSourceScan"), 3) << separate.DebugString();
  EXPECT_EQ(CountNodes(separate, "Calc"), 2) << separate.DebugString();
  int64_t scanned = 0;
  for (const auto& m : separate.operators()) {
    if (m.description().rfind("TableSourceScan", 0) == 0) scanned += m.rows_out();
  }
  EXPECT_EQ(scanned, 30000);
}

// Every 2000th row claims a time of 0, long after the watermark passed the first window: the
// window aggregate drops it and the job's metrics count it (Flink's numLateRecordsDropped).
TEST_F(ClusterMetricsTest, WindowAggregateCountsTheLateRowsItDrops) {
  Run("CREATE TEMPORARY TABLE events (id BIGINT, ts AS TO_TIMESTAMP_LTZ(CASE WHEN id % 2000 = 1999 "
      "THEN 0 ELSE id END, 0), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', "
      "'fields.id.end' = '9999')");
  Run("CREATE TEMPORARY TABLE hole (c BIGINT) WITH ('connector' = 'blackhole')");
  std::string job = Submit(
      "INSERT INTO hole SELECT COUNT(*) FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), "
      "INTERVAL '10' SECOND)) GROUP BY window_start, window_end");
  auto info = client_->WaitJob(job, 30000);
  ASSERT_TRUE(info.ok()) << info.status();
  ASSERT_EQ(info->status(), v1::JOB_STATUS_FINISHED) << info->error();
  const v1::OperatorMetrics* agg = Find(*info, "WindowAggregate");
  ASSERT_NE(agg, nullptr) << info->DebugString();
  EXPECT_EQ(agg->rows_in(), 10000);
  EXPECT_EQ(agg->late_rows_dropped(), 5);  // ids 1999, 3999, 5999, 7999, 9999
  EXPECT_EQ(agg->rows_out(), 1000);        // 10-second windows over ids 0..9999 (as seconds)
}

TEST_F(ClusterMetricsTest, ARunningWindowAggregateReportsItsOpenWindowsInMemory) {
  // One-day windows over ids as seconds: none fires while the test looks, 1,000 keys stay open.
  Run("SET 'parallelism.default' = '1'");
  Run("CREATE TEMPORARY TABLE slow (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id, 0), WATERMARK FOR ts AS "
      "ts) WITH ('connector' = 'datagen', 'rows-per-second' = '2000', 'fields.id.kind' = "
      "'sequence', 'fields.id.start' = '0', 'fields.id.end' = '1000000000')");
  Run("CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole')");
  std::string job = Submit(
      "INSERT INTO hole SELECT id % 1000, COUNT(*) FROM TABLE(TUMBLE(TABLE slow, DESCRIPTOR(ts), "
      "INTERVAL '1' DAY)) GROUP BY window_start, window_end, id % 1000");
  int64_t in_memory = 0;
  for (int i = 0; i < 300 && in_memory < 1000 * 10; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto info = client_->GetJob(job);
    ASSERT_TRUE(info.ok()) << info.status();
    const v1::OperatorMetrics* agg = Find(*info, "WindowAggregate");
    if (agg != nullptr) in_memory = agg->state_bytes_in_memory();
  }
  // 1,000 open (window, key) accumulators of a few dozen bytes each.
  EXPECT_GE(in_memory, 1000 * 10);
  EXPECT_LE(in_memory, 1000 * 1000);
  ASSERT_TRUE(client_->CancelJob(job).ok());
}

TEST_F(ClusterMetricsTest, CancelledJobLeavesNoSubtaskRunningAndFreesItsSlots) {
  Run("SET 'parallelism.default' = '4'");
  Run("CREATE TEMPORARY TABLE ticks (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '20000')");
  Run("CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole')");
  std::string job = Submit("INSERT INTO hole SELECT id % 10, COUNT(*) FROM ticks GROUP BY id % 10");
  ASSERT_FALSE(job.empty());

  // Running: all four slots taken, subtasks reported by heartbeats, rows flowing.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  int64_t rows = 0;
  int running = 0;
  while (std::chrono::steady_clock::now() < deadline && (rows == 0 || running == 0)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto info = client_->GetJob(job);
    ASSERT_TRUE(info.ok());
    const v1::OperatorMetrics* scan = Find(*info, "TableSourceScan");
    rows = scan ? scan->rows_out() : 0;
    running = RunningSubtasks();
  }
  EXPECT_GT(rows, 0) << "no rows counted while the job ran";
  EXPECT_GT(running, 0);
  for (const auto& w : Workers()) EXPECT_EQ(w.free_slots(), 0) << w.DebugString();

  ASSERT_TRUE(client_->CancelJob(job).ok());
  auto info = client_->WaitJob(job, 10000);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->status(), v1::JOB_STATUS_CANCELED);

  // Within a few heartbeats every worker reports nothing running, and the slots are back.
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    running = RunningSubtasks();
  } while (running > 0 && std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(running, 0);
  for (const auto& w : Workers()) {
    EXPECT_EQ(w.free_slots(), w.slots()) << w.DebugString();
    EXPECT_LT(w.last_heartbeat_age_ms(), 5000) << w.DebugString();
  }
}

}  // namespace
}  // namespace eddy
