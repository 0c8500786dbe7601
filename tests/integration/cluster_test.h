// The fixture of integration tests that run on a ProcessCluster: StartCluster starts one with the
// test's options in a fresh directory named after the test and prints its topology; after the test
// the processes are stopped and the directory removed, unless the test failed, so that its logs
// stay for reading (the path is printed). Helpers poll the cluster for a state instead of sleeping.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/process_cluster.h"

namespace eddy::testing {

class ClusterTest : public ::testing::Test {
 protected:
  // Fails the test (fatally: wrap in ASSERT_NO_FATAL_FAILURE where it matters) if the cluster
  // does not start.
  void StartCluster(ClusterOptions options);
  void TearDown() override;

  RunResult Eddy(const std::string& sql) { return cluster_->Eddy(sql); }
  // Polls SHOW WORKERS until `done` holds for its rows or `timeout` passes; returns the last rows.
  std::vector<WorkerRow> WaitForWorkers(
      const std::function<bool(const std::vector<WorkerRow>&)>& done,
      std::chrono::milliseconds timeout);

  std::string dir_;
  std::unique_ptr<ProcessCluster> cluster_;
};

}  // namespace eddy::testing
