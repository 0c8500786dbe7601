// Starts the real binaries — eddy-coordinator and two eddy-worker processes — submits
// jobs with `eddy --coordinator`, and checks results, error handling, and clean SIGTERM shutdown.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"
#include "tests/util/eventually.h"

namespace eddy::testing {
namespace {

class ClusterProcessTest : public ClusterTest {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(StartCluster(ClusterOptions{.workers = 2})); }

  std::string WorkerStdout() { return cluster_->AllWorkerStdout(); }
};

constexpr char kSetup[] =
    "SET 'table.dml-sync' = 'true';"
    "CREATE TABLE IF NOT EXISTS counts (word STRING, cnt BIGINT) WITH ('connector' = 'print');";

TEST_F(ClusterProcessTest, RunsWordCountOnWorkerProcessesAndPrintsItsChangelog) {
  auto r = Eddy(std::string(kSetup) +
                "INSERT INTO counts SELECT word, COUNT(*) AS cnt FROM "
                "(VALUES ('a'), ('a'), ('b'), ('a'), ('c'), ('b')) AS t(word) GROUP BY word;");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // table.dml-sync: the statement ends with its job and says so as Flink's client does.
  EXPECT_NE(r.err.find("[INFO] Complete execution of the SQL update statement.\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("Job ID: "), std::string::npos) << r.err;
  EXPECT_EQ(WorkerStdout(),
            "+I[a, 1]\n-U[a, 1]\n+U[a, 2]\n+I[b, 1]\n-U[a, 2]\n+U[a, 3]\n+I[c, 1]\n-U[b, 1]\n"
            "+U[b, 2]\n");
}

TEST_F(ClusterProcessTest, BadStatementsFailClearlyAndTheClusterKeepsServing) {
  auto missing = Eddy("INSERT INTO nowhere SELECT 1;");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("table 'default_catalog.default_database.nowhere' not found"),
            std::string::npos)
      << missing.err;
  auto syntax = Eddy("SELEC 1;");
  EXPECT_EQ(syntax.exit_code, 1);
  EXPECT_NE(syntax.err.find("SQL parse error at line 1, column 1"), std::string::npos)
      << syntax.err;
  auto ok = Eddy(std::string(kSetup) + "INSERT INTO counts VALUES ('z', CAST(7 AS BIGINT));");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(WorkerStdout(), "+I[z, 7]\n");
}

TEST_F(ClusterProcessTest, UnboundedDatagenJobRunsUntilStopped) {
  auto submit = Eddy(
      "CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50');"
      "CREATE TABLE slow (v BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'gen');"
      "INSERT INTO slow SELECT v FROM gen;");
  ASSERT_EQ(submit.exit_code, 0) << submit.err;
  std::string job = JobIdIn(submit.err);
  ASSERT_EQ(job.size(), 32u) << submit.err;
  // Rows keep arriving while the job runs.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (CountOccurrences(WorkerStdout(), "gen> +I[") < 5) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "no rows from the datagen job";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  auto running = Eddy("SHOW JOBS;");
  ASSERT_EQ(running.exit_code, 0) << running.err;
  EXPECT_NE(running.out.find(job), std::string::npos) << running.out;
  EXPECT_NE(running.out.find("RUNNING"), std::string::npos) << running.out;
  // DESCRIBE JOB shows that job's row alone; an unknown id is an error.
  auto described = Eddy("DESCRIBE JOB '" + job + "';");
  ASSERT_EQ(described.exit_code, 0) << described.err;
  EXPECT_NE(described.out.find(job), std::string::npos) << described.out;
  EXPECT_NE(described.out.find("1 row in set"), std::string::npos) << described.out;
  EXPECT_NE(Eddy("DESCRIBE JOB 'no-such-job';").err.find("job 'no-such-job' not found"),
            std::string::npos);
  auto stop = Eddy("STOP JOB '" + job + "';");
  ASSERT_EQ(stop.exit_code, 0) << stop.err;
  auto stopped = Eddy("SHOW JOBS;");
  EXPECT_NE(stopped.out.find("CANCELED"), std::string::npos) << stopped.out;
  // Output stops: once no worker reports a running subtask, no row is printed any more.
  ASSERT_TRUE(Eventually([&] {
    std::vector<WorkerRow> workers = cluster_->ShowWorkers();
    if (workers.size() != 2) return false;
    for (const WorkerRow& w : workers) {
      if (w.running_subtasks > 0) return false;
    }
    return true;
  }));
  const int rows = CountOccurrences(WorkerStdout(), "gen> +I[");
  EXPECT_TRUE(HoldsFor([&] { return CountOccurrences(WorkerStdout(), "gen> +I[") == rows; },
                       std::chrono::milliseconds(500)));
}

TEST_F(ClusterProcessTest, AllBinariesStopCleanlyOnSigterm) {
  for (int i = 0; i < cluster_->workers(); ++i) cluster_->worker(i).Signal(SIGTERM);
  cluster_->coordinator().Signal(SIGTERM);
  for (int i = 0; i < cluster_->workers(); ++i) EXPECT_EQ(cluster_->worker(i).Wait(15000), 0);
  EXPECT_EQ(cluster_->coordinator().Wait(15000), 0);
}

}  // namespace
}  // namespace eddy::testing
