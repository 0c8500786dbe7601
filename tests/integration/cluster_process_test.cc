// Starts the real binaries — eddy-coordinator and two eddy-worker processes on loopback — submits
// jobs with `eddy --coordinator`, and checks results, error handling, and clean SIGTERM shutdown.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/util/subprocess.h"

namespace eddy {
namespace {

using testing::ReadFileToString;
using testing::RunToCompletion;
using testing::Subprocess;

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  int port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

class ClusterProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("eddy-it-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    port_ = FreePort();
    coordinator_ = Subprocess::Start(
        {Bin("eddy-coordinator"), "--port", std::to_string(port_), "--bind-host", "127.0.0.1",
         "--data-dir", dir_ + "/coordinator"},
        dir_ + "/coordinator.out", dir_ + "/coordinator.err");
    ASSERT_TRUE(coordinator_.started());
    for (int i = 0; i < 2; ++i) {
      std::string w = "/worker" + std::to_string(i);
      workers_.push_back(Subprocess::Start(
          {Bin("eddy-worker"), "--coordinator", Address(), "--port", "0", "--bind-host",
           "127.0.0.1", "--advertise-host", "127.0.0.1", "--slots", "2", "--data-dir", dir_ + w},
          dir_ + w + ".out", dir_ + w + ".err"));
      ASSERT_TRUE(workers_.back().started());
    }
    // Ready when both workers have registered (the coordinator logs each registration).
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (Count(ReadFileToString(dir_ + "/coordinator.err"), "registered at") < 2) {
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "workers did not register";
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  void TearDown() override { std::filesystem::remove_all(dir_); }

  static std::string Bin(const std::string& name) { return std::string(EDDY_BIN_DIR) + "/" + name; }
  std::string Address() const { return "127.0.0.1:" + std::to_string(port_); }
  static int Count(const std::string& s, const std::string& needle) {
    int n = 0;
    for (size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
    return n;
  }
  testing::RunResult Eddy(const std::string& sql) {
    return RunToCompletion({Bin("eddy"), "--coordinator", Address(), "-e", sql}, dir_);
  }
  std::string WorkerStdout() {
    return ReadFileToString(dir_ + "/worker0.out") + ReadFileToString(dir_ + "/worker1.out");
  }

  std::string dir_;
  int port_ = 0;
  Subprocess coordinator_;
  std::vector<Subprocess> workers_;
};

constexpr char kSetup[] =
    "SET 'table.dml-sync' = 'true';"
    "CREATE TABLE IF NOT EXISTS counts (word STRING, cnt BIGINT) WITH ('connector' = 'print');";

TEST_F(ClusterProcessTest, RunsWordCountOnWorkerProcessesAndPrintsItsChangelog) {
  auto r = Eddy(std::string(kSetup) +
                "INSERT INTO counts SELECT word, COUNT(*) AS cnt FROM "
                "(VALUES ('a'), ('a'), ('b'), ('a'), ('c'), ('b')) AS t(word) GROUP BY word;");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("Job ID: "), std::string::npos) << r.err;
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
  EXPECT_NE(syntax.err.find("SQL parse error at line 1, column 1"), std::string::npos) << syntax.err;
  auto ok = Eddy(std::string(kSetup) + "INSERT INTO counts VALUES ('z', CAST(7 AS BIGINT));");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(WorkerStdout(), "+I[z, 7]\n");
}

std::string JobIdIn(const std::string& text) {
  size_t p = text.find("Job ID: ");
  return p == std::string::npos ? "" : text.substr(p + 8, 32);
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
  while (Count(WorkerStdout(), "gen> +I[") < 5) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "no rows from the datagen job";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  auto running = Eddy("SHOW JOBS;");
  ASSERT_EQ(running.exit_code, 0) << running.err;
  EXPECT_NE(running.out.find(job), std::string::npos) << running.out;
  EXPECT_NE(running.out.find("RUNNING"), std::string::npos) << running.out;
  auto stop = Eddy("STOP JOB '" + job + "';");
  ASSERT_EQ(stop.exit_code, 0) << stop.err;
  auto stopped = Eddy("SHOW JOBS;");
  EXPECT_NE(stopped.out.find("CANCELED"), std::string::npos) << stopped.out;
  // Output stops: the task is gone from its worker.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int rows = Count(WorkerStdout(), "gen> +I[");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(Count(WorkerStdout(), "gen> +I["), rows);
}

TEST_F(ClusterProcessTest, AllBinariesStopCleanlyOnSigterm) {
  for (auto& w : workers_) w.Signal(SIGTERM);
  coordinator_.Signal(SIGTERM);
  for (auto& w : workers_) EXPECT_EQ(w.Wait(15000), 0);
  EXPECT_EQ(coordinator_.Wait(15000), 0);
}

}  // namespace
}  // namespace eddy
