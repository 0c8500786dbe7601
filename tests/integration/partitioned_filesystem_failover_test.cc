// A checkpointed write into a partitioned filesystem table (PARTITIONED BY) on a coordinator and
// three worker processes, with a worker running its subtasks killed (SIGKILL) at a moment drawn
// from the seed (printed; EDDY_TEST_SEED replays a run). After the restart from the last completed
// checkpoint the job finishes, and the published files of each partition hold exactly the rows a
// fault-free run writes there: every row once, in its partition, nothing hidden left behind, and
// every partition committed (_SUCCESS) at the end of the input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"
#include "tests/integration/throttled_sequence.h"
#include "tests/util/files.h"

namespace eddy::testing {
namespace {

constexpr int64_t kRows = 30000;

class PartitionedFilesystemFailoverTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ASSERT_NO_FATAL_FAILURE(StartCluster(FaultToleranceOptions()));
  }
};

// The partition directory a fault-free run writes id to: bucket id % 5, and the default partition
// for every 11th id (its bucket is NULL).
std::string PartitionOf(int64_t id) {
  if (id % 11 == 0) return "bucket=__DEFAULT_PARTITION__";
  return "bucket=b" + std::to_string(id % 5);
}

TEST_F(PartitionedFilesystemFailoverTest, EachPartitionHoldsTheFaultFreeRowsAfterAKill) {
  const std::string out = files_ + "/out";
  RunResult submitted = cluster_->Eddy(
      "SET 'execution.checkpointing.interval' = '1 s';"
      "SET 'restart-strategy.type' = 'fixed-delay';"
      "SET 'restart-strategy.fixed-delay.attempts' = '5';"
      "SET 'restart-strategy.fixed-delay.delay' = '500 ms';"
      "SET 'parallelism.default' = '2';" +
      ThrottledSequenceTable(kRows) +
      "CREATE TEMPORARY TABLE parts (id BIGINT, twice BIGINT, bucket STRING) "
      "PARTITIONED BY (bucket) WITH ('connector' = 'filesystem', 'path' = '" +
      out +
      "', 'format' = 'csv', 'sink.rolling-policy.file-size' = '8kb', "
      "'sink.parallelism' = '2', 'sink.partition-commit.policy.kind' = 'success-file');"
      "INSERT INTO parts SELECT id, id * 2, CASE WHEN id % 11 = 0 THEN CAST(NULL AS STRING) "
      "ELSE 'b' || CAST(id % 5 AS STRING) END FROM seq;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_FALSE(WaitForACompletedCheckpoint(job).empty()) << cluster_->CoordinatorLog();
  ASSERT_GE(KillAWorkerRunningSubtasks(), 0);
  ASSERT_EQ(cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)),
            "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));

  // The fault-free output, per partition.
  std::map<std::string, std::multiset<int64_t>> expected;
  for (int64_t id = 1; id <= kRows; ++id) expected[PartitionOf(id)].insert(id);

  std::map<std::string, std::multiset<int64_t>> published;
  std::vector<std::string> hidden, uncommitted;
  for (const auto& partition : std::filesystem::directory_iterator(out)) {
    const std::string name = partition.path().filename().string();
    ASSERT_TRUE(partition.is_directory()) << name << " is not a partition directory";
    if (!std::filesystem::exists(partition.path() / "_SUCCESS")) uncommitted.push_back(name);
    std::multiset<int64_t>& ids = published[name];
    for (const auto& file : std::filesystem::directory_iterator(partition.path())) {
      const std::string file_name = file.path().filename().string();
      if (file_name == "_SUCCESS") continue;
      if (file_name[0] == '.') {
        hidden.push_back(name + "/" + file_name);
        continue;
      }
      std::istringstream in(ReadFileToString(file.path().string()));
      std::string line;
      while (std::getline(in, line)) {
        long long id = 0, twice = 0;
        char extra = 0;
        // Two fields: the partition column is not in the file.
        ASSERT_EQ(std::sscanf(line.c_str(), "%lld,%lld%c", &id, &twice, &extra), 2)
            << name << "/" << file_name << ": " << line;
        ASSERT_EQ(twice, 2 * id);
        ids.insert(id);
      }
    }
  }
  EXPECT_TRUE(hidden.empty()) << hidden.front();
  EXPECT_TRUE(uncommitted.empty()) << uncommitted.front() << " has no _SUCCESS";
  ASSERT_EQ(published.size(), expected.size());
  for (const auto& [partition, ids] : expected) {
    const std::multiset<int64_t>& got = published[partition];
    EXPECT_EQ(got.size(), ids.size()) << partition;
    EXPECT_TRUE(got == ids) << partition << ": the rows differ from a fault-free run's";
  }
}

}  // namespace
}  // namespace eddy::testing
