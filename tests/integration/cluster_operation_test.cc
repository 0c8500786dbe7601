// Operating a cluster of real processes (a coordinator and two or three workers): back-to-back
// parallel queries never race for slots, large results cross every channel, a port in use is an
// error at start-up, a restarted coordinator gets its workers back under their own ids and runs
// its stored jobs anew (the old attempt's subtasks cancelled), and addresses and errors name what
// they are.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ClusterOperationTest : public ClusterTest {
 protected:
  void Start(ClusterOptions options) { ASSERT_NO_FATAL_FAILURE(StartCluster(std::move(options))); }

  // Waits until `path`'s content contains `text`; returns the content.
  static std::string WaitForLog(const std::string& path, const std::string& text,
                                std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string log = ReadFileToString(path);
    while (log.find(text) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      log = ReadFileToString(path);
    }
    return log;
  }
};

int Running(const std::vector<WorkerRow>& rows) {
  int n = 0;
  for (const auto& w : rows) n += w.running_subtasks;
  return n;
}

// Every slot of the cluster is needed by each query: the next query can only start once the
// previous one's slots are free, which must be so by the time its result has ended.
TEST_F(ClusterOperationTest, BackToBackQueriesThatNeedEverySlotAllSucceed) {
  Start({.workers = 2, .slots_per_worker = 2});
  std::string sql =
      "SET 'parallelism.default' = '4';"
      "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
      "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '400');";
  constexpr int kQueries = 12;
  for (int i = 0; i < kQueries; ++i) sql += "SELECT COUNT(*) AS n FROM seq;";
  RunResult r = cluster_->Eddy(sql);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("not enough slots")));
  EXPECT_EQ(CountOccurrences(r.out, "|                  400 |"), kQueries) << r.out;
}

// Rows far wider than gRPC's default 4 MiB message limit in one batch reach the client.
TEST_F(ClusterOperationTest, AResultOfManyMegabytesReachesTheClient) {
  Start({.workers = 2, .slots_per_worker = 2});
  RunResult r = cluster_->Eddy(
      "CREATE TEMPORARY TABLE wide (s STRING) WITH ('connector' = 'datagen', "
      "'number-of-rows' = '600', 'fields.s.length' = '20000');"
      "SELECT s FROM wide;");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Received a total of 600 rows"));
  EXPECT_THAT(r.err, Not(HasSubstr("larger than max")));
}

TEST_F(ClusterOperationTest, ASecondCoordinatorOrWorkerOnAPortInUseFailsAtStartup) {
  Start({.workers = 1, .slots_per_worker = 2, .isolate_workers = false});
  const std::string port =
      cluster_->coordinator_address().substr(cluster_->coordinator_address().rfind(':') + 1);
  RunResult coordinator =
      RunToCompletion({EddyBinary("eddy-coordinator"), "--port", port, "--bind-host", "127.0.0.1",
                       "--data-dir", dir_ + "/second-coordinator"},
                      dir_, 20000);
  EXPECT_NE(coordinator.exit_code, 0);
  EXPECT_THAT(coordinator.err, HasSubstr("coordinator cannot listen on 127.0.0.1:" + port));
  RunResult worker = RunToCompletion(
      {EddyBinary("eddy-worker"), "--coordinator", cluster_->coordinator_address(), "--port", port,
       "--bind-host", "127.0.0.1", "--data-dir", dir_ + "/second-worker"},
      dir_, 20000);
  EXPECT_NE(worker.exit_code, 0);
  EXPECT_THAT(worker.err, HasSubstr("worker cannot listen on 127.0.0.1:" + port));
  // The first coordinator still answers every client alone.
  for (int i = 0; i < 3; ++i) {
    RunResult show = cluster_->Eddy("SHOW WORKERS;");
    EXPECT_EQ(ParseShowWorkers(show.out).size(), 1u) << show.out << show.err;
  }
}

TEST_F(ClusterOperationTest, ARestartedCoordinatorGetsItsWorkersBackAndRunsItsJobsAnew) {
  Start({.workers = 3, .slots_per_worker = 2, .heartbeat_timeout_ms = 3000});
  std::set<std::string> ids;
  for (int i = 0; i < cluster_->workers(); ++i) ids.insert(cluster_->WorkerId(i));
  ASSERT_EQ(ids.size(), 3u);
  RunResult submitted = cluster_->Eddy(
      "SET 'parallelism.default' = '6';"
      "CREATE TEMPORARY TABLE ticks (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '1000');"
      "CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');"
      "INSERT INTO hole SELECT id % 10, COUNT(*) FROM ticks GROUP BY id % 10;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  auto rows =
      WaitForWorkers([](const auto& r) { return Running(r) == 12; }, std::chrono::seconds(15));
  ASSERT_EQ(Running(rows), 12);

  ASSERT_TRUE(cluster_->RestartCoordinator());
  // The job store gives the new coordinator the job back: its first attempt is told to stop
  // wherever it still runs, and the second one runs (from the beginning: no checkpoints). Every
  // worker registered again under its own id, and only the second attempt's 12 subtasks run: the
  // same answer over three heartbeat intervals in a row.
  int quiet_polls = 0;
  rows = WaitForWorkers(
      [&](const auto& r) {
        std::set<std::string> seen;
        for (const auto& w : r) seen.insert(w.worker_id);
        quiet_polls = seen == ids && Running(r) == 12 ? quiet_polls + 1 : 0;
        if (quiet_polls > 0 && quiet_polls < 3) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        }
        return quiet_polls >= 3;
      },
      std::chrono::seconds(30));
  std::set<std::string> seen;
  for (const auto& w : rows) seen.insert(w.worker_id);
  EXPECT_EQ(seen, ids);
  EXPECT_EQ(Running(rows), 12);
  std::vector<std::string> row = cluster_->JobRow(job);
  ASSERT_GE(row.size(), 7u);
  EXPECT_EQ(row[2], "RUNNING");
  EXPECT_EQ(row[4], "1");  // restarts
  EXPECT_EQ(row[6], "the coordinator restarted");
  EXPECT_THAT(cluster_->CoordinatorLog(),
              HasSubstr("attempt 2 deployed: 12 subtasks on 6 slots, from the beginning: "
                        "checkpointing is off"));
  // Stopped, it stops everywhere and frees its slots.
  RunResult stop = cluster_->Eddy("STOP JOB '" + job + "';");
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  rows = WaitForWorkers([](const auto& r) { return Running(r) == 0; }, std::chrono::seconds(15));
  EXPECT_EQ(Running(rows), 0);
  for (const auto& w : rows) EXPECT_EQ(w.free_slots, w.slots) << w.worker_id;
  EXPECT_EQ(cluster_->WaitForJobStatus(job, {"CANCELED"}, std::chrono::seconds(5)), "CANCELED");
}

TEST_F(ClusterOperationTest, AddressesTakeTheDefaultPortAndWrongOnesAreNamed) {
  Start({.workers = 1, .slots_per_worker = 1, .isolate_workers = false});
  // A worker whose coordinator does not answer says so, with the address it tries: the default
  // port when none is given.
  Subprocess lonely =
      Subprocess::Start({EddyBinary("eddy-worker"), "--coordinator", "127.0.0.2", "--port", "0",
                         "--bind-host", "127.0.0.1", "--data-dir", dir_ + "/lonely"},
                        dir_ + "/lonely.out", dir_ + "/lonely.err");
  ASSERT_TRUE(lonely.started());
  EXPECT_THAT(WaitForLog(dir_ + "/lonely.err", "cannot register with the coordinator",
                         std::chrono::seconds(20)),
              HasSubstr("cannot register with the coordinator at 127.0.0.2:8081 (1 attempts so "
                        "far)"));

  RunResult no_port = RunToCompletion(
      {EddyBinary("eddy"), "--coordinator", "127.0.0.2", "-e", "SHOW TABLES;"}, dir_, 60000);
  EXPECT_NE(no_port.exit_code, 0);
  EXPECT_THAT(no_port.err, HasSubstr("cannot reach the coordinator at 127.0.0.2:8081"));
  RunResult bad = RunToCompletion(
      {EddyBinary("eddy"), "--coordinator", "127.0.0.1:99999", "-e", "SHOW TABLES;"}, dir_);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("port '99999' is not a number from 1 to 65535"));

  // A client pointed at a worker is told it is not talking to a coordinator.
  std::vector<WorkerRow> workers = cluster_->ShowWorkers();
  ASSERT_EQ(workers.size(), 1u);
  RunResult at_worker = RunToCompletion(
      {EddyBinary("eddy"), "--coordinator", workers[0].address, "-e", "SHOW TABLES;"}, dir_);
  EXPECT_EQ(at_worker.exit_code, 1);
  EXPECT_THAT(at_worker.err, HasSubstr("does not serve Eddy's client API"));
}

// A Table API program that links only the thin client library runs against the cluster.
TEST_F(ClusterOperationTest, AThinClientProgramRunsAgainstTheCluster) {
  Start({.workers = 1, .slots_per_worker = 2});
  RunResult r =
      RunToCompletion({EddyBinary("remote_word_count"), cluster_->coordinator_address()}, dir_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("| +U |                              a |                    2 |"));
  EXPECT_THAT(r.out, HasSubstr("Received a total of 4 rows"));
}

}  // namespace
}  // namespace eddy::testing
