#include "tests/integration/cluster_test.h"

#include <filesystem>
#include <iostream>
#include <thread>

namespace eddy::testing {

void ClusterTest::StartCluster(ClusterOptions options) {
  dir_ = FreshTestDir("it-" + CurrentTestName());
  cluster_ = std::make_unique<ProcessCluster>(dir_, std::move(options));
  std::cout << cluster_->topology().description() << std::endl;
  ASSERT_TRUE(cluster_->ok()) << cluster_->error();
}

void ClusterTest::TearDown() {
  cluster_.reset();
  if (dir_.empty()) return;
  if (HasFailure()) {
    std::cout << "the cluster's logs are kept in " << dir_ << std::endl;
    return;
  }
  std::filesystem::remove_all(dir_);
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

}  // namespace eddy::testing
