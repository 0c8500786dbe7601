// The fixture of integration tests that run on a ProcessCluster: StartCluster starts one with the
// test's options in a fresh directory named after the test and prints its topology; after the test
// the processes are stopped and the directory removed, unless the test failed, so that its logs
// stay for reading (the path is printed). Helpers poll the cluster for a state instead of sleeping.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tests/integration/process_cluster.h"
#include "tests/integration/worker_pipes.h"

namespace eddy::testing {

class ClusterTest : public ::testing::Test {
 protected:
  // Fails the test (fatally: wrap in ASSERT_NO_FATAL_FAILURE where it matters) if the cluster
  // does not start.
  void StartCluster(ClusterOptions options);
  void TearDown() override;
  // Before StartCluster: every worker of `options` prints into a named pipe (in a fresh directory
  // named after the test) that nothing reads until the test starts reading it (pipes()): once a
  // pipe is full, the print sinks on its worker block and back-pressure their jobs. The pipes stay
  // until TearDown stopped the cluster. Fails the test (fatally) when a pipe cannot be made.
  void PipeWorkerStdout(ClusterOptions* options);
  WorkerPipes& pipes() { return *pipes_; }

  // The cluster of the fault-tolerance tests: three workers of two slots and a 3 s heartbeat
  // timeout (a killed worker is noticed soon), with files_, a fresh directory named after the test
  // (created), allowed to the filesystem connector on every process; `coordinator_args` are added
  // to the coordinator's. TearDown removes files_ unless the test failed.
  ClusterOptions FaultToleranceOptions(std::vector<std::string> coordinator_args = {});

  RunResult Eddy(const std::string& sql) { return cluster_->Eddy(sql); }
  // Polls SHOW WORKERS until `done` holds for its rows or `timeout` passes; returns the last rows.
  std::vector<WorkerRow> WaitForWorkers(
      const std::function<bool(const std::vector<WorkerRow>&)>& done,
      std::chrono::milliseconds timeout);

  // The id of the job SHOW JOBS lists under `name`, once it runs (up to 20 s); "" if none does.
  std::string WaitForRunningJobNamed(const std::string& name);
  // Waits until SHOW JOBS names a completed checkpoint of `job` other than `previous` (with
  // `while_running`, only one shown while the job is RUNNING), up to `timeout`. Returns the
  // checkpoint's id, "" when none came.
  std::string WaitForACompletedCheckpoint(const std::string& job, const std::string& previous = "",
                                          bool while_running = false,
                                          std::chrono::seconds timeout = std::chrono::seconds(20));

  // The test's source of random choices: seeded on first use from EDDY_TEST_SEED, or at random,
  // and the seed printed, so that a failure replays.
  std::mt19937_64& Random();
  // After a delay drawn from Random() between `min_delay` and `max_delay`, kills (SIGKILL) a worker
  // whose heartbeats report running subtasks (waiting up to 10 s for one to show), drawn from
  // Random() too. Returns its index, or -1 when no worker runs any.
  int KillAWorkerRunningSubtasks(
      std::chrono::milliseconds min_delay = std::chrono::milliseconds(300),
      std::chrono::milliseconds max_delay = std::chrono::milliseconds(2500));
  // A worker whose heartbeats report running subtasks (waiting up to 10 s for one to show), drawn
  // from Random(); -1 when none runs any. Kills nothing.
  int PickAWorkerRunningSubtasks();

  std::string dir_;
  std::string files_;  // FaultToleranceOptions' directory for filesystem tables
  std::unique_ptr<ProcessCluster> cluster_;

 private:
  std::unique_ptr<WorkerPipes> pipes_;  // destroyed after cluster_ stopped
  std::optional<std::mt19937_64> random_;
};

}  // namespace eddy::testing
