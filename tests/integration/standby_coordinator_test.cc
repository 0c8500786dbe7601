// Standby coordinators: two coordinator processes on one data directory, the second started with
// --standby, and three workers and every client given both addresses (always in the first order,
// so that they must skip a dead one). The active coordinator is killed (SIGKILL) twice at moments
// drawn from a seed (printed; EDDY_TEST_SEED replays a run) while a checkpointed aggregation runs,
// a new standby being started after each takeover: each time the standby takes the data directory
// over and the workers and the client follow it, and the job ends with exactly the counts and sums
// the test computes itself. A coordinator started on a directory in use without --standby is
// refused naming the holder.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/cluster_test.h"
#include "tests/integration/printed_counts.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kRows = 45000;

class StandbyCoordinatorTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ASSERT_NO_FATAL_FAILURE(StartCluster(ClusterOptions{.workers = 3,
                                                        .slots_per_worker = 2,
                                                        .heartbeat_timeout_ms = 3000,
                                                        .standby_coordinator = true}));
  }
  // Per key, the final count and sum the print sinks of every worker show.
  std::map<int64_t, std::pair<int64_t, int64_t>> LargestPrinted() const {
    return LargestCountAndSumPrinted(cluster_->AllWorkerStdout());
  }
};

TEST_F(StandbyCoordinatorTest,
       StandbysTakeOverFromKilledActiveCoordinatorsTwiceAndTheJobEndsExact) {
  RunResult submitted = cluster_->Eddy(
      "SET 'execution.checkpointing.interval' = '1 s';"
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '3000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '" +
      std::to_string(kRows) +
      "');"
      "CREATE TEMPORARY TABLE out (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'print');"
      "INSERT INTO out SELECT id % 10, COUNT(*), SUM(id) FROM seq GROUP BY id % 10;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  // Twice: each time once a checkpoint completed, at a moment drawn from the seed; the second
  // time the coordinator that took over dies and the standby started since takes over.
  for (int kill = 1; kill <= 2; ++kill) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      std::vector<std::string> row = cluster_->JobRow(job);
      if (row.size() > 5 && row[2] == "RUNNING" && !row[5].empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(Random()() % 1500));
    std::cout << "killing the active coordinator (" << kill << ")" << std::endl;
    ASSERT_TRUE(cluster_->KillActiveCoordinator());

    // The standby serves within a few seconds, having recovered the job from the job store.
    std::string log;
    const auto takeover = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while ((log = cluster_->ActiveCoordinatorLog()).empty() &&
           std::chrono::steady_clock::now() < takeover) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_FALSE(log.empty()) << cluster_->CoordinatorLog();
    EXPECT_THAT(log, HasSubstr("standby: the data directory"));
    EXPECT_THAT(log, HasSubstr("this coordinator takes over"));
    if (log.find("JOB_STATUS_FINISHED") == std::string::npos &&
        log.find("0 jobs to deploy again, 1 finished") == std::string::npos) {
      EXPECT_THAT(log, HasSubstr("1 jobs to deploy again"));
    }
  }

  // The client, given both addresses, reaches the new active coordinator.
  EXPECT_EQ(cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)),
            "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->ActiveCoordinatorLog(),
              ::testing::ContainsRegex("job " + job + " .* attempt [3-9] deployed: "));
  // Every worker followed it: all three registered with it.
  EXPECT_EQ(CountOccurrences(cluster_->ActiveCoordinatorLog(), "registered at"), 3);

  const std::map<int64_t, std::pair<int64_t, int64_t>> expected = CountAndSumOfIdsModTen(kRows);
  EXPECT_EQ(LargestPrinted(), expected);
}

TEST_F(StandbyCoordinatorTest, ACoordinatorWithoutStandbyIsRefusedADirectoryInUse) {
  RunResult r = RunToCompletion({EddyBinary("eddy-coordinator"), "--port", "0", "--data-dir",
                                 cluster_->coordinator_data_dir()},
                                dir_, 20000);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("is in use by coordinator pid "));
  EXPECT_THAT(r.err, HasSubstr("start this coordinator with --standby"));
}

}  // namespace
}  // namespace eddy::testing
