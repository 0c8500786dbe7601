// Checkpoints that cannot help, on a coordinator and three worker processes, each with a clear
// status: a worker lost before any checkpoint completed restarts the job from the beginning (and
// says so), and a checkpoint whose barrier is stuck behind a blocked sink expires after
// 'execution.checkpointing.timeout' and, beyond the tolerable failures, fails the job with Flink's
// message. Seeds are printed; EDDY_TEST_SEED replays a run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"
#include "tests/util/eventually.h"

namespace eddy::testing {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

constexpr char kThrottledCount[] =
    "SET 'parallelism.default' = '2';"
    "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
    "'rows-per-second' = '4000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
    "'fields.id.end' = '20000');"
    "CREATE TEMPORARY TABLE out (k BIGINT, c BIGINT) WITH ('connector' = 'print');"
    "INSERT INTO out SELECT id % 10, COUNT(*) FROM seq GROUP BY id % 10;";

class CheckpointFailureTest : public ClusterTest {};

TEST_F(CheckpointFailureTest, ALostWorkerBeforeAnyCheckpointRestartsFromTheBeginning) {
  ASSERT_NO_FATAL_FAILURE(StartCluster(
      ClusterOptions{.workers = 3, .slots_per_worker = 2, .heartbeat_timeout_ms = 3000}));
  ProcessCluster& cluster = *cluster_;
  // Checkpointing is on, but the first checkpoint is due only after an hour.
  RunResult submitted = cluster.Eddy(
      "SET 'execution.checkpointing.interval' = '1 h';"
      "SET 'restart-strategy.type' = 'fixed-delay';"
      "SET 'restart-strategy.fixed-delay.attempts' = '5';"
      "SET 'restart-strategy.fixed-delay.delay' = '200 ms';" +
      std::string(kThrottledCount));
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_EQ(cluster.WaitForJobStatus(job, {"RUNNING"}, std::chrono::seconds(20)), "RUNNING");
  ASSERT_GE(
      KillAWorkerRunningSubtasks(std::chrono::milliseconds(200), std::chrono::milliseconds(2000)),
      0);
  ASSERT_EQ(cluster.WaitForJobStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(90)),
            "FINISHED")
      << cluster.CoordinatorLog();
  EXPECT_THAT(cluster.CoordinatorLog(),
              ContainsRegex("attempt [2-6] deployed: .*, from the beginning: no completed "
                            "checkpoint to restore"));
  std::vector<std::string> row = cluster.JobRow(job);
  ASSERT_GE(row.size(), 7u);
  EXPECT_NE(row[4], "0");  // restarts
  EXPECT_EQ(row[5], "");   // no checkpoint completed
}

// One task on one worker: no exchange stream breaks when it dies, so the next checkpoint trigger
// (at most an interval later, well before the 3 s heartbeat timeout) finds it gone.
TEST_F(CheckpointFailureTest, AWorkerLostBetweenCheckpointsIsNamedByTheNextTrigger) {
  // Heartbeats time out long after the next trigger, so the trigger is what finds the loss; a
  // checkpoint the kill left pending expires (tolerated) so that the next one is triggered.
  ASSERT_NO_FATAL_FAILURE(StartCluster(
      ClusterOptions{.workers = 2, .slots_per_worker = 1, .heartbeat_timeout_ms = 30000}));
  RunResult submitted = cluster_->Eddy(
      "SET 'execution.checkpointing.interval' = '500 ms';"
      "SET 'execution.checkpointing.timeout' = '2 s';"
      "SET 'execution.checkpointing.tolerable-failed-checkpoints' = '3';"
      "SET 'restart-strategy.type' = 'fixed-delay';"
      "SET 'restart-strategy.fixed-delay.attempts' = '3';"
      "SET 'restart-strategy.fixed-delay.delay' = '0 s';"
      "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '2000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '12000');"
      "CREATE TEMPORARY TABLE out (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');"
      "INSERT INTO out SELECT id % 10, COUNT(*) FROM seq GROUP BY id % 10;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_TRUE(Eventually([&] {
    std::vector<std::string> row = cluster_->JobRow(job);
    return row.size() > 5 && !row[5].empty();  // a checkpoint completed
  }));
  const int victim =
      KillAWorkerRunningSubtasks(std::chrono::milliseconds(0), std::chrono::milliseconds(0));
  ASSERT_GE(victim, 0);
  ASSERT_EQ(cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(60)),
            "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(
      cluster_->CoordinatorLog(),
      ContainsRegex("attempt 1 failed, restarting in 0 ms: worker " + cluster_->WorkerId(victim) +
                    " at [^ ]+ was lost \\(a checkpoint trigger could not reach it\\)"));
}

TEST_F(CheckpointFailureTest, ACheckpointStuckBehindABlockedSinkExpiresAndFailsTheJob) {
  // Every worker prints into a pipe nobody reads: once it is full, the print sink blocks.
  ClusterOptions options{.workers = 3, .slots_per_worker = 2, .heartbeat_timeout_ms = 3000};
  ASSERT_NO_FATAL_FAILURE(PipeWorkerStdout(&options));
  ASSERT_NO_FATAL_FAILURE(StartCluster(options));
  std::unique_ptr<ProcessCluster>& cluster = cluster_;
  RunResult submitted = cluster->Eddy(
      "SET 'execution.checkpointing.interval' = '500 ms';"
      "SET 'execution.checkpointing.timeout' = '2 s';"
      "SET 'execution.checkpointing.tolerable-failed-checkpoints' = '1';"
      "SET 'restart-strategy.type' = 'none';"
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE wide (id BIGINT, pad STRING) WITH ('connector' = 'datagen', "
      "'fields.pad.length' = '1000');"
      "CREATE TEMPORARY TABLE out WITH ('connector' = 'print') LIKE wide (EXCLUDING OPTIONS);"
      "INSERT INTO out SELECT * FROM wide;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_EQ(cluster->WaitForJobStatus(job, {"FAILED", "FINISHED"}, std::chrono::seconds(60)),
            "FAILED")
      << cluster->CoordinatorLog();
  std::vector<std::string> row = cluster->JobRow(job);
  ASSERT_GE(row.size(), 7u);
  EXPECT_THAT(row[6], HasSubstr("Exceeded checkpoint tolerable failure threshold (1)"));
  EXPECT_THAT(cluster->CoordinatorLog(),
              ContainsRegex("checkpoint [0-9]+ failed: Checkpoint expired before completing"));
}

}  // namespace
}  // namespace eddy::testing
