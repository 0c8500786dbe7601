#include "tests/integration/cluster_test.h"

#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

namespace eddy::testing {

void ClusterTest::StartCluster(ClusterOptions options) {
  dir_ = FreshTestDir("it-" + CurrentTestName());
  cluster_ = std::make_unique<ProcessCluster>(dir_, std::move(options));
  std::cout << cluster_->topology().description() << std::endl;
  ASSERT_TRUE(cluster_->ok()) << cluster_->error();
}

void ClusterTest::PipeWorkerStdout(ClusterOptions* options) {
  pipes_ = std::make_unique<WorkerPipes>(FreshTestDir("fifos-" + CurrentTestName()), options);
  ASSERT_EQ(pipes_->error(), "");
}

ClusterOptions ClusterTest::FaultToleranceOptions(std::vector<std::string> coordinator_args) {
  files_ = FreshTestDir("files-" + CurrentTestName());
  std::filesystem::create_directories(files_);
  coordinator_args.push_back("--filesystem-allowed-dirs");
  coordinator_args.push_back(files_);
  return ClusterOptions{.workers = 3,
                        .slots_per_worker = 2,
                        .heartbeat_timeout_ms = 3000,
                        .coordinator_args = std::move(coordinator_args),
                        .worker_args = {"--filesystem-allowed-dirs", files_}};
}

void ClusterTest::TearDown() {
  cluster_.reset();
  pipes_.reset();  // after the workers stopped writing
  if (HasFailure()) {
    if (!dir_.empty()) std::cout << "the cluster's logs are kept in " << dir_ << std::endl;
    if (!files_.empty()) std::cout << "the test's files are kept in " << files_ << std::endl;
    return;
  }
  if (!dir_.empty()) std::filesystem::remove_all(dir_);
  if (!files_.empty()) std::filesystem::remove_all(files_);
}

std::vector<WorkerRow> ClusterTest::WaitForWorkers(
    const std::function<bool(const std::vector<WorkerRow>&)>& done,
    std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<WorkerRow> rows = cluster_->ShowWorkers();
  while (!done(rows) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    rows = cluster_->ShowWorkers();
  }
  return rows;
}

std::string ClusterTest::WaitForRunningJobNamed(const std::string& name) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::istringstream in(cluster_->Eddy("SHOW JOBS;", 20000).out);
    std::string line;
    while (std::getline(in, line)) {
      std::vector<std::string> cells = TableRowCells(line);
      if (cells.size() > 2 && cells[1] == name && cells[2] == "RUNNING") return cells[0];
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "";
}

std::string ClusterTest::WaitForACompletedCheckpoint(const std::string& job,
                                                     const std::string& previous,
                                                     bool while_running,
                                                     std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<std::string> row = cluster_->JobRow(job);
    if (row.size() > 5 && !row[5].empty() && row[5] != previous &&
        (!while_running || row[2] == "RUNNING")) {
      return row[5];
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "";
}

std::mt19937_64& ClusterTest::Random() {
  if (!random_) {
    const char* env = std::getenv("EDDY_TEST_SEED");
    const uint64_t seed = env != nullptr ? std::strtoull(env, nullptr, 10) : std::random_device{}();
    std::cout << "seed " << seed << " (EDDY_TEST_SEED=" << seed << " replays this run)"
              << std::endl;
    random_.emplace(seed);
  }
  return *random_;
}

int ClusterTest::PickAWorkerRunningSubtasks() {
  // Heartbeats report running subtasks once a second: wait for them to show.
  std::vector<int> busy;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (busy.empty() && std::chrono::steady_clock::now() < deadline) {
    for (const WorkerRow& w : cluster_->ShowWorkers()) {
      for (int i = 0; i < cluster_->workers(); ++i) {
        if (cluster_->WorkerId(i) == w.worker_id && w.running_subtasks > 0) busy.push_back(i);
      }
    }
    if (busy.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (busy.empty()) return -1;
  return busy[std::uniform_int_distribution<size_t>(0, busy.size() - 1)(Random())];
}

int ClusterTest::KillAWorkerRunningSubtasks(std::chrono::milliseconds min_delay,
                                            std::chrono::milliseconds max_delay) {
  std::this_thread::sleep_for(std::chrono::milliseconds(
      std::uniform_int_distribution<int64_t>(min_delay.count(), max_delay.count())(Random())));
  const int victim = PickAWorkerRunningSubtasks();
  if (victim < 0) return -1;
  std::cout << "killing worker " << victim << " (" << cluster_->WorkerId(victim) << ")"
            << std::endl;
  kill(cluster_->worker_pid(victim), SIGKILL);
  return victim;
}

}  // namespace eddy::testing
