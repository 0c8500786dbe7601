// A coordinator and three worker processes: a cancelled parallel job leaves no subtask running on
// any worker and frees every slot; a worker killed with SIGKILL fails the jobs that ran on it with
// a status naming the worker, and the cluster keeps serving on the others.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

class JobLifecycleTest : public ClusterTest {
 protected:
  void SetUp() override {
    // A short heartbeat timeout so that a killed worker is noticed quickly.
    ASSERT_NO_FATAL_FAILURE(StartCluster(
        ClusterOptions{.workers = 3, .slots_per_worker = 2, .heartbeat_timeout_ms = 3000}));
  }
};

constexpr char kEndlessAggregation[] =
    "CREATE TEMPORARY TABLE ticks (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = "
    "'5000');"
    "CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');"
    "INSERT INTO hole SELECT id % 100, COUNT(*) FROM ticks GROUP BY id % 100;";

int Running(const std::vector<WorkerRow>& rows) {
  int n = 0;
  for (const auto& w : rows) n += w.running_subtasks;
  return n;
}

int WorkersRunning(const std::vector<WorkerRow>& rows) {
  int n = 0;
  for (const auto& w : rows) n += w.running_subtasks > 0 ? 1 : 0;
  return n;
}

TEST_F(JobLifecycleTest, CancelledParallelJobLeavesNoSubtaskRunningAnywhere) {
  auto submit =
      cluster_->Eddy("SET 'parallelism.default' = '6';" + std::string(kEndlessAggregation));
  ASSERT_EQ(submit.exit_code, 0) << submit.err;
  const std::string job = JobIdIn(submit.err);
  ASSERT_EQ(job.size(), 32u) << submit.err;

  // Six slots on three workers, two subtasks (scan chain, aggregate chain) per slot.
  auto rows =
      WaitForWorkers([](const auto& r) { return Running(r) == 12; }, std::chrono::seconds(15));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(Running(rows), 12);
  EXPECT_EQ(WorkersRunning(rows), 3);
  for (const auto& w : rows) EXPECT_EQ(w.free_slots, 0) << w.worker_id;

  auto stop = cluster_->Eddy("STOP JOB '" + job + "';");
  ASSERT_EQ(stop.exit_code, 0) << stop.err;
  rows = WaitForWorkers([](const auto& r) { return Running(r) == 0; }, std::chrono::seconds(10));
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& w : rows) {
    EXPECT_EQ(w.running_subtasks, 0) << w.worker_id;
    EXPECT_EQ(w.free_slots, w.slots) << w.worker_id;
  }
  auto jobs = cluster_->Eddy("SHOW JOBS;");
  EXPECT_NE(jobs.out.find("CANCELED"), std::string::npos) << jobs.out;

  // The freed slots take the next job at full parallelism.
  auto again =
      cluster_->Eddy("SET 'parallelism.default' = '6';" + std::string(kEndlessAggregation));
  EXPECT_EQ(again.exit_code, 0) << again.err;
}

TEST_F(JobLifecycleTest, KilledWorkerFailsItsJobWithAStatusNamingTheWorker) {
  // The client waits for the job (dml-sync) while a worker dies under it.
  auto waiting = std::async(std::launch::async, [this] {
    return cluster_->Eddy("SET 'table.dml-sync' = 'true'; SET 'parallelism.default' = '6';" +
                          std::string(kEndlessAggregation));
  });
  auto rows =
      WaitForWorkers([](const auto& r) { return Running(r) == 12; }, std::chrono::seconds(15));
  ASSERT_EQ(Running(rows), 12);
  const std::string victim_id = cluster_->WorkerId(1);
  ASSERT_FALSE(victim_id.empty());
  const pid_t victim = cluster_->worker_pid(1);
  ASSERT_EQ(kill(victim, SIGKILL), 0);

  ASSERT_EQ(waiting.wait_for(std::chrono::seconds(30)), std::future_status::ready)
      << "the job did not fail after its worker was killed";
  RunResult r = waiting.get();
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // Whichever comes first names the dead worker by id and advertised address: its exchange
  // streams breaking mid-job, or its heartbeats stopping.
  const std::string victim_host = cluster_->topology().worker_host(1);
  const bool stream_broke = r.err.find("disconnected before end-of-input") != std::string::npos ||
                            r.err.find("exchange channel") != std::string::npos;
  const bool heartbeat_lost = r.err.find("was lost (no heartbeat for ") != std::string::npos;
  EXPECT_TRUE(stream_broke || heartbeat_lost) << r.err;
  EXPECT_NE(r.err.find(victim_id + " at " + victim_host + ":"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("ipv4:"), std::string::npos) << r.err;

  // SHOW JOBS tells the same: FAILED, and why.
  auto jobs = cluster_->Eddy("SHOW JOBS;");
  EXPECT_NE(jobs.out.find("FAILED"), std::string::npos) << jobs.out;
  EXPECT_TRUE(jobs.out.find("disconnected before end-of-input") != std::string::npos ||
              jobs.out.find("exchange channel") != std::string::npos ||
              jobs.out.find("was lost (no heartbeat for ") != std::string::npos)
      << jobs.out;
  EXPECT_NE(jobs.out.find(victim_id + " at " + victim_host + ":"), std::string::npos) << jobs.out;

  // The survivors cancelled their subtasks; the lost worker is gone from the list.
  rows = WaitForWorkers([](const auto& r) { return r.size() == 2 && Running(r) == 0; },
                        std::chrono::seconds(10));
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& w : rows) {
    EXPECT_EQ(w.running_subtasks, 0) << w.worker_id;
    EXPECT_EQ(w.free_slots, w.slots) << w.worker_id;
  }
  // Four slots are left: a job needing six is refused at once, one needing four runs.
  auto too_big =
      cluster_->Eddy("SET 'parallelism.default' = '6';" + std::string(kEndlessAggregation));
  EXPECT_EQ(too_big.exit_code, 1);
  EXPECT_NE(too_big.err.find("not enough slots: need 6, have 4"), std::string::npos) << too_big.err;
  auto fits = cluster_->Eddy(
      "SET 'table.dml-sync' = 'true'; SET 'parallelism.default' = '4';"
      "CREATE TEMPORARY TABLE few (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = "
      "'1000');"
      "CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');"
      "INSERT INTO hole SELECT id % 10, COUNT(*) FROM few GROUP BY id % 10;");
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
}

}  // namespace
}  // namespace eddy::testing
