// Worker failures on a coordinator and three worker processes: a worker running subtasks of a
// job is killed (SIGKILL) at a moment drawn from a seed, and the job's restart strategy restarts
// it on the remaining slots until it finishes; without a restart strategy the job fails naming
// the worker. A checkpointed SELECT survives the kill and its client sees every change exactly
// once; one without checkpoints fails. The seed is printed; EDDY_TEST_SEED replays a run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "tests/integration/changelog_table.h"
#include "tests/integration/cluster_test.h"
#include "tests/integration/nexmark_events.h"
#include "tests/integration/printed_counts.h"
#include "tests/integration/process_cluster.h"
#include "tests/integration/throttled_sequence.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;

// The newest completed checkpoint of the job in `dir` (the highest chk-<n> with a _metadata file).
std::filesystem::path NewestCompletedCheckpoint(const std::filesystem::path& dir) {
  std::filesystem::path newest;
  int64_t newest_id = -1;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("chk-", 0) != 0 || !std::filesystem::exists(entry.path() / "_metadata"))
      continue;
    const int64_t id = std::atoll(name.c_str() + 4);
    if (id > newest_id) {
      newest_id = id;
      newest = entry.path();
    }
  }
  return newest;
}

class FailoverTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ASSERT_NO_FATAL_FAILURE(StartCluster(FaultToleranceOptions()));
  }

  std::vector<std::string> JobRow(const std::string& job) { return cluster_->JobRow(job); }
  std::string WaitForStatus(const std::string& job, const std::set<std::string>& wanted,
                            std::chrono::seconds timeout) {
    return cluster_->WaitForJobStatus(job, wanted, timeout);
  }
  // Waits (up to 30 s) until the job restarted at least `restarts` times and runs again.
  bool WaitForRestarts(const std::string& job, int restarts) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      std::vector<std::string> row = JobRow(job);
      if (row.size() > 4 && row[2] == "RUNNING" && std::atoi(row[4].c_str()) >= restarts) {
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  // Submits `sql` (a checkpointed job with a restart strategy), kills a worker running its subtasks
  // once a checkpoint completed, and waits until the job finished from a restored checkpoint.
  void RunWithAKillAfterACheckpoint(const std::string& sql) {
    RunResult submitted = cluster_->Eddy(sql);
    ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
    const std::string job = JobIdIn(submitted.err);
    ASSERT_FALSE(WaitForACompletedCheckpoint(job).empty()) << cluster_->CoordinatorLog();
    ASSERT_GE(KillAWorkerRunningSubtasks(), 0);
    ASSERT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)), "FINISHED")
        << cluster_->CoordinatorLog();
    EXPECT_THAT(cluster_->CoordinatorLog(),
                ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));
  }
  // Runs `sql` (a checkpointed SELECT named `name`) in the shell to its end while a worker running
  // it is killed once a checkpoint completed and then restarted; returns what the shell printed.
  RunResult RunSelectAcrossAKill(const std::string& name, const std::string& sql) {
    std::future<RunResult> shell =
        std::async(std::launch::async, [&] { return cluster_->Eddy(sql, 120000); });
    const std::string job = WaitForRunningJobNamed(name);
    EXPECT_FALSE(job.empty()) << cluster_->CoordinatorLog();
    if (!job.empty()) {
      WaitForACompletedCheckpoint(job);
      const int victim = KillAWorkerRunningSubtasks();
      EXPECT_GE(victim, 0);
      if (victim >= 0) {
        EXPECT_TRUE(cluster_->RestartWorker(victim));
      }
    }
    RunResult printed = shell.get();
    EXPECT_THAT(cluster_->CoordinatorLog(),
                ::testing::ContainsRegex(
                    "job " + job + " .* attempt [2-6] deployed: .*, restored from checkpoint"));
    return printed;
  }
  // Flips one bit of one of the newest completed checkpoint's own files (a RocksDB MANIFEST,
  // CURRENT or OPTIONS) in the job's checkpoint directory `dir`, both picked by the seed; returns
  // the file ("" when there is none).
  std::filesystem::path CorruptOneBitOfTheNewestCheckpoint(const std::filesystem::path& dir) {
    const std::filesystem::path newest = NewestCompletedCheckpoint(dir);
    std::vector<std::filesystem::path> own;
    if (!newest.empty()) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(newest)) {
        if (entry.is_regular_file() && entry.path().filename() != "_metadata" &&
            entry.file_size() > 0) {
          own.push_back(entry.path());
        }
      }
    }
    if (own.empty()) return {};
    std::sort(own.begin(), own.end());
    const std::filesystem::path file = own[Random()() % own.size()];
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    const auto size = static_cast<uint64_t>(std::filesystem::file_size(file));
    const auto at = static_cast<std::streamoff>(Random()() % size);
    char c = 0;
    f.seekg(at);
    f.get(c);
    f.seekp(at);
    f.put(static_cast<char>(c ^ 0x10));
    return file;
  }
};

constexpr char kThrottledAggregation[] =
    "SET 'parallelism.default' = '2';"
    "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
    "'rows-per-second' = '4000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
    "'fields.id.end' = '40000');"
    "CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');"
    "INSERT INTO hole SELECT id % 10, COUNT(*) FROM seq GROUP BY id % 10;";

TEST_F(FailoverTest, ALostWorkerRestartsTheJobOnTheRemainingSlotsUntilItFinishes) {
  RunResult submitted = cluster_->Eddy(
      "SET 'restart-strategy.type' = 'fixed-delay';"
      "SET 'restart-strategy.fixed-delay.attempts' = '3';"
      "SET 'restart-strategy.fixed-delay.delay' = '500 ms';" +
      std::string(kThrottledAggregation));
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_EQ(WaitForStatus(job, {"RUNNING"}, std::chrono::seconds(20)), "RUNNING");
  const int victim = KillAWorkerRunningSubtasks();
  ASSERT_GE(victim, 0);
  EXPECT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(90)), "FINISHED")
      << cluster_->CoordinatorLog();
  // Restarted at least once (a restart placed on the dead worker before it was known lost fails
  // to deploy and counts as one more), and the first failure names the killed worker.
  std::vector<std::string> row = JobRow(job);
  ASSERT_GE(row.size(), 7u);
  EXPECT_NE(row[4], "0");
  const std::string log = cluster_->CoordinatorLog();
  EXPECT_THAT(log, ::testing::ContainsRegex("attempt 1 failed, restarting in 500 ms: .*" +
                                            cluster_->WorkerId(victim)));
  EXPECT_THAT(log, ::testing::ContainsRegex(
                       "attempt [2-4] deployed: .*, from the beginning: checkpointing is off"));
}

TEST_F(FailoverTest, WithoutARestartStrategyALostWorkerFailsTheJob) {
  RunResult submitted = cluster_->Eddy(kThrottledAggregation);
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_EQ(WaitForStatus(job, {"RUNNING"}, std::chrono::seconds(20)), "RUNNING");
  ASSERT_GE(KillAWorkerRunningSubtasks(), 0);
  EXPECT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(60)), "FAILED");
  std::vector<std::string> row = JobRow(job);
  ASSERT_GE(row.size(), 7u);
  EXPECT_EQ(row[4], "0");
  EXPECT_THAT(cluster_->CoordinatorLog(), ::testing::Not(HasSubstr("attempt 2 deployed")));
}

// A checkpoint a second, up to five restarts half a second apart, two subtasks per task.
constexpr char kCheckpointedAndRestarted[] =
    "SET 'execution.checkpointing.interval' = '1 s';"
    "SET 'restart-strategy.type' = 'fixed-delay';"
    "SET 'restart-strategy.fixed-delay.attempts' = '5';"
    "SET 'restart-strategy.fixed-delay.delay' = '500 ms';"
    "SET 'parallelism.default' = '2';";

TEST_F(FailoverTest, ACheckpointedAggregationRestoresAndCountsEveryRowExactlyOnce) {
  constexpr int64_t kRows = 40000;
  RunResult submitted = cluster_->Eddy(
      std::string(kCheckpointedAndRestarted) + ThrottledSequenceTable(kRows) +
      "CREATE TEMPORARY TABLE out (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'print');"
      "INSERT INTO out SELECT id % 10, COUNT(*), SUM(id) FROM seq GROUP BY id % 10;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  // Kill only once a checkpoint completed, so that the restart restores one.
  WaitForACompletedCheckpoint(job);
  const int victim = KillAWorkerRunningSubtasks();
  ASSERT_GE(victim, 0);
  ASSERT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)), "FINISHED")
      << cluster_->CoordinatorLog();
  const std::string log = cluster_->CoordinatorLog();
  EXPECT_THAT(log,
              ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));

  // The fault-free answer, computed here: every key k counts kRows / 10 ids and sums them.
  const std::map<int64_t, std::pair<int64_t, int64_t>> expected = CountAndSumOfIdsModTen(kRows);
  EXPECT_EQ(LargestCountAndSumPrinted(cluster_->AllWorkerStdout()), expected);
}

// The same aggregation keyed by a ROW holding an ARRAY: the collection keys travel through the
// hash exchange, sit in RocksDB state and come back from the checkpoint after the kill.
TEST_F(FailoverTest, ACheckpointedAggregationOnACollectionKeyRestoresEveryGroupExactlyOnce) {
  constexpr int64_t kRows = 40000;
  RunResult submitted = cluster_->Eddy(
      std::string(kCheckpointedAndRestarted) + ThrottledSequenceTable(kRows) +
      "CREATE TEMPORARY TABLE out (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'print');"
      "INSERT INTO out SELECT g.k.m, c, s FROM (SELECT k, COUNT(*) AS c, SUM(id) AS s FROM ("
      "SELECT CAST(ROW(id % 10, ARRAY[id % 10, id % 5]) AS ROW<m BIGINT, a ARRAY<BIGINT>>) AS k, "
      "id FROM seq) AS t GROUP BY k) AS g;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  WaitForACompletedCheckpoint(job);
  const int victim = KillAWorkerRunningSubtasks();
  ASSERT_GE(victim, 0);
  ASSERT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)), "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));
  const std::map<int64_t, std::pair<int64_t, int64_t>> expected = CountAndSumOfIdsModTen(kRows);
  EXPECT_EQ(LargestCountAndSumPrinted(cluster_->AllWorkerStdout()), expected);
}

// A state file of the newest checkpoint loses one bit while a worker dies: the restart skips that
// checkpoint, naming the file, and restores the one before it; every row still counts once.
TEST_F(FailoverTest, ACorruptedStateFileMakesTheRestartUseThePreviousCheckpoint) {
  constexpr int64_t kRows = 40000;
  const std::string checkpoints = files_ + "/checkpoints";
  RunResult submitted = cluster_->Eddy(
      std::string(kCheckpointedAndRestarted) +
      "SET 'state.checkpoints.num-retained' = '3';"
      "SET 'state.checkpoints.dir' = '" +
      checkpoints + "';" + ThrottledSequenceTable(kRows) +
      "CREATE TEMPORARY TABLE out (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'print');"
      "INSERT INTO out SELECT id % 10, COUNT(*), SUM(id) FROM seq GROUP BY id % 10;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  const std::string first = WaitForACompletedCheckpoint(job);
  ASSERT_FALSE(first.empty()) << cluster_->CoordinatorLog();
  ASSERT_FALSE(WaitForACompletedCheckpoint(job, first).empty()) << cluster_->CoordinatorLog();

  const std::filesystem::path victim_file =
      CorruptOneBitOfTheNewestCheckpoint(std::filesystem::path(checkpoints) / job);
  ASSERT_FALSE(victim_file.empty());
  // At once, before the next checkpoint could complete.
  const int victim =
      KillAWorkerRunningSubtasks(std::chrono::milliseconds(0), std::chrono::milliseconds(0));
  ASSERT_GE(victim, 0);
  ASSERT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)), "FINISHED")
      << cluster_->CoordinatorLog();
  const std::string log = cluster_->CoordinatorLog();
  EXPECT_THAT(log, ::testing::HasSubstr("not restoring from a checkpoint that cannot be trusted: "
                                        "state file '" +
                                        victim_file.string()));
  EXPECT_THAT(log,
              ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));

  const std::map<int64_t, std::pair<int64_t, int64_t>> expected = CountAndSumOfIdsModTen(kRows);
  EXPECT_EQ(LargestCountAndSumPrinted(cluster_->AllWorkerStdout()), expected);
}

// With only the corrupted checkpoint retained, nothing can be trusted: the job fails and says which
// file, instead of starting over and repeating what the checkpoint had committed.
TEST_F(FailoverTest, WhenNoCheckpointCanBeTrustedTheJobFailsNamingTheFile) {
  const std::string checkpoints = files_ + "/checkpoints";
  RunResult submitted =
      cluster_->Eddy(std::string(kCheckpointedAndRestarted) + "SET 'state.checkpoints.dir' = '" +
                     checkpoints + "';" + kThrottledAggregation);
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_FALSE(WaitForACompletedCheckpoint(job).empty()) << cluster_->CoordinatorLog();
  const std::filesystem::path victim_file =
      CorruptOneBitOfTheNewestCheckpoint(std::filesystem::path(checkpoints) / job);
  ASSERT_FALSE(victim_file.empty());
  ASSERT_GE(KillAWorkerRunningSubtasks(std::chrono::milliseconds(0), std::chrono::milliseconds(0)),
            0);
  ASSERT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(60)), "FAILED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::HasSubstr("no completed checkpoint can be trusted (1 skipped); the "
                                   "newest: state file '" +
                                   victim_file.string()));
}

// A tmpfs mounted for one test (root only: without the right to mount, the test is skipped), and
// unmounted at its end.
class ScopedTmpfs {
 public:
  ScopedTmpfs(const std::string& dir, const std::string& size) : dir_(dir) {
    std::filesystem::create_directories(dir);
    mounted_ =
        std::system(
            ("mount -t tmpfs -o size=" + size + " tmpfs '" + dir + "' 2>/dev/null").c_str()) == 0;
  }
  ~ScopedTmpfs() {
    if (mounted_) (void)std::system(("umount -l '" + dir_ + "'").c_str());
  }
  bool mounted() const { return mounted_; }

 private:
  std::string dir_;
  bool mounted_ = false;
};

// A fixture whose checkpoint storage is a small tmpfs, mounted before the cluster starts (worker
// processes run in mount namespaces of their own, which see only what was mounted before them).
class FullStorageTest : public FailoverTest {
 protected:
  void SetUp() override {
    storage_ = FreshTestDir("failover-storage-" + CurrentTestName());
    disk_ = std::make_unique<ScopedTmpfs>(storage_, "2m");
    if (!disk_->mounted()) GTEST_SKIP() << "mounting a tmpfs needs root";
    FailoverTest::SetUp();
  }
  void TearDown() override {
    if (disk_->mounted()) FailoverTest::TearDown();
    disk_.reset();
    std::filesystem::remove_all(storage_);
  }
  std::string storage_;
  std::unique_ptr<ScopedTmpfs> disk_;
};

// The checkpoint storage fills up: checkpoints abort (not counted against the tolerable failures,
// which are 0 here) and the job runs on; once there is room again checkpoints complete, and a
// worker lost after that is recovered from one with every row counted once.
TEST_F(FullStorageTest, AFullCheckpointStorageAbortsCheckpointsWhileTheJobGoesOn) {
  const std::string checkpoints = storage_;
  constexpr int64_t kRows = 60000;
  RunResult submitted = cluster_->Eddy(
      std::string(kCheckpointedAndRestarted) + "SET 'state.checkpoints.dir' = '" + checkpoints +
      "';" + ThrottledSequenceTable(kRows) +
      "CREATE TEMPORARY TABLE out (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'print');"
      "INSERT INTO out SELECT id % 10, COUNT(*), SUM(id) FROM seq GROUP BY id % 10;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  const std::string first = WaitForACompletedCheckpoint(job);
  ASSERT_FALSE(first.empty()) << cluster_->CoordinatorLog();

  // Fill the disk up.
  const std::string filler = checkpoints + "/filler";
  (void)std::system(("dd if=/dev/zero of='" + filler + "' bs=4k 2>/dev/null").c_str());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (std::chrono::steady_clock::now() < deadline &&
         cluster_->CoordinatorLog().find("the checkpoint storage is full") == std::string::npos) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex("checkpoint [0-9]+ failed: .*No space left on device"));
  EXPECT_EQ(JobRow(job)[2], "RUNNING");

  // Room again: checkpoints complete, and a lost worker is recovered from one.
  std::filesystem::remove(filler);
  const std::string after = WaitForACompletedCheckpoint(job, first);
  ASSERT_FALSE(after.empty()) << cluster_->CoordinatorLog();
  ASSERT_GE(KillAWorkerRunningSubtasks(), 0);
  ASSERT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)), "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));
  const std::map<int64_t, std::pair<int64_t, int64_t>> expected = CountAndSumOfIdsModTen(kRows);
  EXPECT_EQ(LargestCountAndSumPrinted(cluster_->AllWorkerStdout()), expected);
}

// Every distinct (window, key) -> (count, sum) a `print` sink printed for a tumbling-window job.
// An at-least-once sink may print a window again after a restore, but always with the same value.
std::map<std::pair<int64_t, int64_t>, std::set<std::pair<int64_t, int64_t>>> PrintedWindows(
    const std::string& out) {
  std::map<std::pair<int64_t, int64_t>, std::set<std::pair<int64_t, int64_t>>> windows;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    const size_t open = line.find("+I[");
    if (open == std::string::npos) continue;
    int h = 0, m = 0, sec = 0, ms = 0;
    long long k = 0, c = 0, sum = 0;
    if (std::sscanf(line.c_str() + open, "+I[1970-01-01 %d:%d:%d.%d, %lld, %lld, %lld]", &h, &m,
                    &sec, &ms, &k, &c, &sum) != 7) {
      continue;
    }
    windows[{h * 3600 + m * 60 + sec, k}].insert({c, sum});
  }
  return windows;
}

TEST_F(FailoverTest, ACheckpointedWindowAggregationFiresEveryWindowOnceWithItsRightValue) {
  constexpr int64_t kRows = 40000;  // event time id * 10 ms: 100 ids per 1-second window
  RunResult submitted = cluster_->Eddy(
      std::string(kCheckpointedAndRestarted) +
      "CREATE TEMPORARY TABLE seq (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id * 10, 3), "
      "WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'rows-per-second' = '4000', "
      "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '" +
      std::to_string(kRows) +
      "');"
      "CREATE TEMPORARY TABLE out (w TIMESTAMP(3), k BIGINT, c BIGINT, s BIGINT) "
      "WITH ('connector' = 'print');"
      "INSERT INTO out SELECT window_start, id % 4, COUNT(*), SUM(id) "
      "FROM TABLE(TUMBLE(TABLE seq, DESCRIPTOR(ts), INTERVAL '1' SECOND)) "
      "GROUP BY window_start, window_end, id % 4;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  WaitForACompletedCheckpoint(job);
  ASSERT_GE(KillAWorkerRunningSubtasks(), 0);
  ASSERT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)), "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));

  std::map<std::pair<int64_t, int64_t>, std::set<std::pair<int64_t, int64_t>>> expected;
  for (const auto& [key, value] : CountAndSumPerWindowOfIdsModFour(kRows, 1)) {
    expected[key] = {value};
  }
  EXPECT_EQ(PrintedWindows(cluster_->AllWorkerStdout()), expected);
}

// A cascading window aggregation: 1-second windows grouped by window_time too feed 5-second
// windows over that window_time. Both window aggregates restore their windows, and the second its
// watermark, after the kill; every 5-second window is printed with the one-level answer.
TEST_F(FailoverTest, ACheckpointedCascadingWindowAggregationGivesTheOneLevelAnswer) {
  constexpr int64_t kRows = 40000;  // event time id * 10 ms: 500 ids per 5-second window
  RunResult submitted = cluster_->Eddy(
      std::string(kCheckpointedAndRestarted) +
      "CREATE TEMPORARY TABLE seq (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id * 10, 3), "
      "WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'rows-per-second' = '4000', "
      "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '" +
      std::to_string(kRows) +
      "');"
      "CREATE TEMPORARY VIEW per_second AS SELECT id % 4 AS k, window_time AS rt, COUNT(*) AS c, "
      "SUM(id) AS s FROM TABLE(TUMBLE(TABLE seq, DESCRIPTOR(ts), INTERVAL '1' SECOND)) "
      "GROUP BY window_start, window_end, window_time, id % 4;"
      "CREATE TEMPORARY TABLE out (w TIMESTAMP(3), k BIGINT, c BIGINT, s BIGINT) "
      "WITH ('connector' = 'print');"
      "INSERT INTO out SELECT window_start, k, SUM(c), SUM(s) "
      "FROM TABLE(TUMBLE(TABLE per_second, DESCRIPTOR(rt), INTERVAL '5' SECOND)) "
      "GROUP BY window_start, window_end, k;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  WaitForACompletedCheckpoint(job);
  ASSERT_GE(KillAWorkerRunningSubtasks(), 0);
  ASSERT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)), "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));

  // The fault-free answer: 5-second windows computed directly from the rows.
  std::map<std::pair<int64_t, int64_t>, std::set<std::pair<int64_t, int64_t>>> expected;
  for (const auto& [key, value] : CountAndSumPerWindowOfIdsModFour(kRows, 5)) {
    expected[key] = {value};
  }
  EXPECT_EQ(PrintedWindows(cluster_->AllWorkerStdout()), expected);
}

TEST_F(FailoverTest, AFilesystemSinkPublishesEveryRowExactlyOnceAcrossKillsAndRestarts) {
  constexpr int64_t kRows = 40000;
  const std::string out = files_ + "/out";
  RunResult submitted = cluster_->Eddy(
      std::string(kCheckpointedAndRestarted) + ThrottledSequenceTable(kRows) +
      "CREATE TEMPORARY TABLE files (id BIGINT, twice BIGINT) WITH ('connector' = 'filesystem', "
      "'path' = '" +
      out +
      "', 'format' = 'csv', 'sink.rolling-policy.file-size' = '16kb');"
      "INSERT INTO files SELECT id, id * 2 FROM seq;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  // Two kills, each after a checkpoint; the first victim comes back before the second kill.
  const std::string checkpoint = WaitForACompletedCheckpoint(job);
  ASSERT_FALSE(checkpoint.empty()) << cluster_->CoordinatorLog();
  const int first = KillAWorkerRunningSubtasks();
  ASSERT_GE(first, 0);
  ASSERT_TRUE(WaitForRestarts(job, 1)) << cluster_->CoordinatorLog();
  ASSERT_TRUE(cluster_->RestartWorker(first));
  ASSERT_FALSE(WaitForACompletedCheckpoint(job, checkpoint).empty()) << cluster_->CoordinatorLog();
  ASSERT_GE(KillAWorkerRunningSubtasks(), 0);
  ASSERT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)), "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));

  // Every id exactly once in the published parts, and nothing else left in the directory.
  std::map<int64_t, int> seen;
  std::vector<std::string> hidden;
  int parts = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    if (name[0] == '.') {
      hidden.push_back(name);
      continue;
    }
    ++parts;
    std::istringstream in(ReadFileToString(entry.path().string()));
    std::string line;
    while (std::getline(in, line)) {
      long long id = 0, twice = 0;
      ASSERT_EQ(std::sscanf(line.c_str(), "%lld,%lld", &id, &twice), 2) << name << ": " << line;
      ASSERT_EQ(twice, 2 * id) << name;
      ++seen[id];
    }
  }
  EXPECT_TRUE(hidden.empty()) << hidden.front();
  EXPECT_GT(parts, 2);
  int64_t missing = 0, repeated = 0;
  for (int64_t id = 1; id <= kRows; ++id) {
    auto it = seen.find(id);
    if (it == seen.end()) ++missing;
    if (it != seen.end() && it->second > 1) ++repeated;
  }
  EXPECT_EQ(missing, 0);
  EXPECT_EQ(repeated, 0);
  EXPECT_EQ(seen.size(), static_cast<size_t>(kRows));
}

// Per id, how many times the published parts under `dir` (CSV lines `id,twice`) hold it; a line
// whose second field is not twice its id is a failure.
std::map<int64_t, int> PublishedIds(const std::string& dir) {
  std::map<int64_t, int> seen;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name[0] == '.') continue;
    std::istringstream in(ReadFileToString(entry.path().string()));
    std::string line;
    while (std::getline(in, line)) {
      long long id = 0, twice = 0;
      if (std::sscanf(line.c_str(), "%lld,%lld", &id, &twice) != 2 || twice != 2 * id) {
        ADD_FAILURE() << name << ": " << line;
        continue;
      }
      ++seen[id];
    }
  }
  return seen;
}

// Every id of 1..rows exactly once.
void ExpectEveryIdOnce(const std::map<int64_t, int>& seen, int64_t rows) {
  int64_t missing = 0, repeated = 0;
  for (int64_t id = 1; id <= rows; ++id) {
    auto it = seen.find(id);
    if (it == seen.end()) ++missing;
    if (it != seen.end() && it->second > 1) ++repeated;
  }
  EXPECT_EQ(missing, 0);
  EXPECT_EQ(repeated, 0);
  EXPECT_EQ(seen.size(), static_cast<size_t>(rows));
}

// Two sequences of `rows` ids at different rates (so one side runs ahead of the other), with
// event time id ms when `timed`, as tables l and r, and a CSV filesystem sink `files` at `out`.
std::string TwoSequencesAndAFileSink(int64_t rows, bool timed, const std::string& out) {
  auto table = [&](const std::string& name, int per_second) {
    return "CREATE TEMPORARY TABLE " + name + " (id BIGINT" +
           (timed ? ", ts AS TO_TIMESTAMP_LTZ(id, 3), WATERMARK FOR ts AS ts" : "") +
           ") WITH ('connector' = 'datagen', 'rows-per-second' = '" + std::to_string(per_second) +
           "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" +
           std::to_string(rows) + "');";
  };
  return table("l", 3000) + table("r", 2000) +
         "CREATE TEMPORARY TABLE files (id BIGINT, twice BIGINT) WITH ('connector' = "
         "'filesystem', 'path' = '" +
         out + "', 'format' = 'csv');";
}

TEST_F(FailoverTest, ACheckpointedJoinRestoresBothSidesAndEmitsEveryMatchExactlyOnce) {
  // Every id matches exactly once, whichever side it reached first. Both sides' state and the
  // barriers aligned across the join's two inputs must survive the kill for that to hold.
  constexpr int64_t kRows = 20000;
  const std::string out = files_ + "/joined";
  ASSERT_NO_FATAL_FAILURE(RunWithAKillAfterACheckpoint(
      std::string(kCheckpointedAndRestarted) + TwoSequencesAndAFileSink(kRows, false, out) +
      "INSERT INTO files SELECT l.id, r.id * 2 FROM l JOIN r ON l.id = r.id;"));
  ExpectEveryIdOnce(PublishedIds(out), kRows);
}

TEST_F(FailoverTest, ACheckpointedIntervalJoinRestoresItsRowsAndTimersAndEmitsEveryMatchOnce) {
  // Event time id ms on both sides; each id matches itself within the one-second bound, after the
  // faster side's rows waited in state (and in the restored timers) for the slower side's.
  constexpr int64_t kRows = 20000;
  const std::string out = files_ + "/interval";
  ASSERT_NO_FATAL_FAILURE(RunWithAKillAfterACheckpoint(
      std::string(kCheckpointedAndRestarted) + TwoSequencesAndAFileSink(kRows, true, out) +
      "INSERT INTO files SELECT l.id, r.id * 2 FROM l JOIN r ON l.id = r.id AND r.ts BETWEEN "
      "l.ts - INTERVAL '1' SECOND AND l.ts;"));
  ExpectEveryIdOnce(PublishedIds(out), kRows);
}

// Orders with id 1..rows at id ms (3000 a second) and versions of key k = 1..rows starting at k ms
// (2000 a second, so orders wait for the watermark), as `versions`: with a PRIMARY KEY, or (when
// `as_view`) a log without one and a versioned view over it that keeps the last row per key. Each
// order joins its own key's version into the file sink `files` at `out`.
std::string TemporalJoinSql(int64_t rows, const std::string& out, bool as_view) {
  const std::string n = std::to_string(rows);
  const std::string versions_ddl =
      " (k BIGINT, vts AS TO_TIMESTAMP_LTZ(k, 3), WATERMARK FOR vts AS vts" +
      std::string(as_view ? "" : ", PRIMARY KEY (k) NOT ENFORCED") +
      ") WITH ('connector' = 'datagen', 'rows-per-second' = '2000', 'fields.k.kind' = "
      "'sequence', 'fields.k.start' = '1', 'fields.k.end' = '" +
      n + "');";
  return "CREATE TEMPORARY TABLE orders (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id, 3), WATERMARK FOR "
         "ts AS ts) WITH ('connector' = 'datagen', 'rows-per-second' = '3000', 'fields.id.kind' = "
         "'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" +
         n + "');" +
         (as_view ? "CREATE TEMPORARY TABLE version_log" + versions_ddl +
                        "CREATE TEMPORARY VIEW versions AS SELECT k, vts FROM (SELECT *, "
                        "ROW_NUMBER() OVER (PARTITION BY k ORDER BY vts DESC) AS rn FROM "
                        "version_log) WHERE rn = 1;"
                  : "CREATE TEMPORARY TABLE versions" + versions_ddl) +
         "CREATE TEMPORARY TABLE files (id BIGINT, twice BIGINT) WITH ('connector' = "
         "'filesystem', 'path' = '" +
         out +
         "', 'format' = 'csv');"
         "INSERT INTO files SELECT o.id, v.k * 2 FROM orders AS o JOIN versions FOR SYSTEM_TIME "
         "AS OF o.ts AS v ON o.id = v.k;";
}

TEST_F(FailoverTest, ACheckpointedTemporalJoinRestoresWaitingRowsAndVersionsAndEmitsEachOnce) {
  // Orders wait in state for the watermark, versions are pruned behind it, and both must survive
  // the kill.
  constexpr int64_t kRows = 20000;
  const std::string out = files_ + "/temporal";
  ASSERT_NO_FATAL_FAILURE(RunWithAKillAfterACheckpoint(std::string(kCheckpointedAndRestarted) +
                                                       TemporalJoinSql(kRows, out, false)));
  ExpectEveryIdOnce(PublishedIds(out), kRows);
}

TEST_F(FailoverTest, ATemporalJoinAgainstAVersionedViewRestoresTheDeduplicationToo) {
  // The versioned side is a deduplication whose state is restored along with the join's.
  constexpr int64_t kRows = 20000;
  const std::string out = files_ + "/temporal_view";
  ASSERT_NO_FATAL_FAILURE(RunWithAKillAfterACheckpoint(std::string(kCheckpointedAndRestarted) +
                                                       TemporalJoinSql(kRows, out, true)));
  ExpectEveryIdOnce(PublishedIds(out), kRows);
}

// Nexmark q3 (sellers in OR, ID or CA of category-10 auctions) as the generator defines it at
// `parallelism`: "name,city,state,auction" lines, each with its count.
std::map<std::string, int> NexmarkQ3(const v1::NexmarkSource& spec, int parallelism) {
  const NexmarkEvents events = GenerateNexmark(spec, parallelism);
  std::map<int64_t, const NexmarkPerson*> sellers;
  for (const NexmarkPerson& p : events.persons) {
    if (p.state == "OR" || p.state == "ID" || p.state == "CA") sellers[p.id] = &p;
  }
  std::map<std::string, int> out;
  for (const NexmarkAuction& a : events.auctions) {
    auto it = sellers.find(a.seller);
    if (a.category != 10 || it == sellers.end()) continue;
    const NexmarkPerson& p = *it->second;
    ++out[p.name + "," + p.city + "," + p.state + "," + std::to_string(a.id)];
  }
  return out;
}

TEST_F(FailoverTest, NexmarkQ3ResumesTheGeneratorsAndTheJoinAndPublishesEachMatchOnce) {
  // 120000 events at 20000 a second (rate.limited): the kill lands while the generators run, and
  // both their positions and the join's state must come back for every match to appear once.
  const v1::NexmarkSource spec = NexmarkSpec(120000, 20000, 1767225600000);
  const std::string out = files_ + "/nexmark_q3";
  ASSERT_NO_FATAL_FAILURE(RunWithAKillAfterACheckpoint(
      std::string(kCheckpointedAndRestarted) +
      "CREATE TEMPORARY TABLE nexmark (event_type INT, person_id BIGINT, person_name STRING, "
      "person_city STRING, person_state STRING, auction_id BIGINT, auction_seller BIGINT, "
      "auction_category BIGINT) WITH ('connector' = 'nexmark', 'events.num' = '120000', "
      "'first-event.rate' = '20000', 'rate.limited' = 'true', 'base-time' = '1767225600000');"
      "CREATE TEMPORARY VIEW person AS SELECT person_id AS id, person_name AS name, person_city "
      "AS city, person_state AS state FROM nexmark WHERE event_type = 0;"
      "CREATE TEMPORARY VIEW auction AS SELECT auction_id AS id, auction_seller AS seller, "
      "auction_category AS category FROM nexmark WHERE event_type = 1;"
      "CREATE TEMPORARY TABLE files (name STRING, city STRING, state STRING, id BIGINT) WITH ("
      "'connector' = 'filesystem', 'path' = '" +
      out +
      "', 'format' = 'csv');"
      "INSERT INTO files SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN "
      "person AS P ON A.seller = P.id WHERE A.category = 10 AND (P.state = 'OR' OR P.state = "
      "'ID' OR P.state = 'CA');"));
  std::map<std::string, int> published;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    if (entry.path().filename().string()[0] == '.') continue;
    std::istringstream in(ReadFileToString(entry.path().string()));
    std::string line;
    while (std::getline(in, line)) ++published[line];
  }
  const std::map<std::string, int> expected = NexmarkQ3(spec, 2);
  EXPECT_GT(expected.size(), 100u);
  EXPECT_EQ(published, expected);
}

TEST_F(FailoverTest, AProcessingTimeWindowAggregationCountsEveryRowOnceAcrossAKill) {
  // One-second windows of processing time over 20000 ids (about 7 s): the windows fire by the
  // workers' clocks while the job runs, those open at the checkpoint are restored, and the rows
  // replayed after it fall into the windows of the restored job's clock. Whatever the windows,
  // the published counts and sums add up to every id exactly once.
  constexpr int64_t kRows = 20000;
  const std::string out = files_ + "/proctime_windows";
  ASSERT_NO_FATAL_FAILURE(RunWithAKillAfterACheckpoint(
      std::string(kCheckpointedAndRestarted) +
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE seq (id BIGINT, proc AS PROCTIME()) WITH ('connector' = "
      "'datagen', 'rows-per-second' = '3000', 'fields.id.kind' = 'sequence', 'fields.id.start' "
      "= '1', 'fields.id.end' = '" +
      std::to_string(kRows) +
      "');"
      "CREATE TEMPORARY TABLE files (k BIGINT, c BIGINT, s BIGINT, ws TIMESTAMP(3)) WITH "
      "('connector' = 'filesystem', 'path' = '" +
      out +
      "', 'format' = 'csv');"
      "INSERT INTO files SELECT id % 4, COUNT(*), SUM(id), window_start FROM TABLE(TUMBLE(TABLE "
      "seq, DESCRIPTOR(proc), INTERVAL '1' SECOND)) GROUP BY window_start, window_end, id % 4;"));
  int64_t count = 0, sum = 0;
  std::set<std::string> windows;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    if (entry.path().filename().string()[0] == '.') continue;
    std::istringstream in(ReadFileToString(entry.path().string()));
    std::string line;
    while (std::getline(in, line)) {
      long long k = 0, c = 0, s = 0;
      char ws[32] = {0};
      ASSERT_EQ(std::sscanf(line.c_str(), "%lld,%lld,%lld,%31[^\n]", &k, &c, &s, ws), 4) << line;
      count += c;
      sum += s;
      windows.insert(ws);
    }
  }
  EXPECT_EQ(count, kRows);
  EXPECT_EQ(sum, kRows * (kRows + 1) / 2);
  EXPECT_GE(windows.size(), 3u) << "the windows fire by the clock while the job runs";
}

// A keyed COUNT/SUM over `rows` ids (4000 a second, two subtasks) as a SELECT named `name`.
std::string CountAndSumSelect(const std::string& name, int64_t rows) {
  return "SET 'parallelism.default' = '2';"
         "SET 'pipeline.name' = '" +
         name + "';" + ThrottledSequenceTable(rows) +
         "SELECT id % 10 AS k, COUNT(*) AS c, SUM(id) AS s FROM seq GROUP BY id % 10;";
}

// The changes of a `| op | k | c | s |` table the shell printed, as print-sink lines
// (`+U[k, c, s]`), in order.
std::string PrintedChanges(const std::string& shell_output) {
  std::string changes;
  std::istringstream in(shell_output);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells = TableRowCells(line);
    if (cells.size() < 4) continue;
    const std::string& kind = cells[0];
    if (kind != "+I" && kind != "-U" && kind != "+U" && kind != "-D") continue;
    changes += kind + "[" + cells[1] + ", " + cells[2] + ", " + cells[3] + "]\n";
  }
  return changes;
}

// Per key, the counts the changes show must go 1, 2, 3, ... (one id at a time): a change shown
// twice, lost, or from before a restore after the restore's breaks the step. One line per breach.
std::vector<std::string> CountsOutOfStep(const std::string& changes) {
  std::vector<std::string> breaches;
  std::map<long long, long long> last_count;
  std::istringstream in(changes);
  std::string line;
  while (std::getline(in, line)) {
    long long k = 0, c = 0, sum = 0;
    if (line[0] != '+' || std::sscanf(line.c_str() + 2, "[%lld, %lld, %lld]", &k, &c, &sum) != 3) {
      continue;
    }
    long long& last = last_count[k];
    if (c != last + 1) breaches.push_back(line + " after count " + std::to_string(last));
    last = c;
  }
  return breaches;
}

TEST_F(FailoverTest, ACheckpointedSelectShowsEveryChangeExactlyOnceAcrossAWorkerKill) {
  constexpr int64_t kRows = 32000;
  // The shell runs the query to its end while the test kills and restarts a worker.
  std::future<RunResult> shell = std::async(std::launch::async, [&] {
    return cluster_->Eddy(
        std::string(kCheckpointedAndRestarted) + CountAndSumSelect("exactly-once-select", kRows),
        120000);
  });
  const std::string job = WaitForRunningJobNamed("exactly-once-select");
  ASSERT_FALSE(job.empty()) << cluster_->CoordinatorLog();
  WaitForACompletedCheckpoint(job);
  const int victim = KillAWorkerRunningSubtasks();
  ASSERT_GE(victim, 0);
  ASSERT_TRUE(cluster_->RestartWorker(victim));
  const RunResult printed = shell.get();
  ASSERT_EQ(printed.exit_code, 0) << printed.err << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex("job " + job +
                                       " .* attempt [2-6] deployed: .*, restored from checkpoint"));

  // Applied in order, the changes the client printed end in the fault-free answer, computed here,
  // and each one retracts exactly the row shown before it.
  const std::string changes = PrintedChanges(printed.out);
  ChangelogTable table = ReplayChangelog(changes, 1);
  EXPECT_EQ(table.errors, std::vector<std::string>{});
  EXPECT_EQ(CountsOutOfStep(changes), std::vector<std::string>{});
  std::map<std::string, std::string> expected;
  std::map<int64_t, std::pair<int64_t, int64_t>> sums;
  for (int64_t id = 1; id <= kRows; ++id) {
    sums[id % 10].first += 1;
    sums[id % 10].second += id;
  }
  for (const auto& [k, cs] : sums) {
    expected[std::to_string(k)] =
        std::to_string(k) + ", " + std::to_string(cs.first) + ", " + std::to_string(cs.second);
  }
  EXPECT_EQ(table.rows, expected);
  // Every id counted once: one +I per key and one -U/+U pair per further id.
  EXPECT_EQ(table.messages, 10 + 2 * (kRows - 10));
  EXPECT_THAT(printed.out,
              HasSubstr("Received a total of " + std::to_string(table.messages) + " rows"));
}

TEST_F(FailoverTest, ASelectWithoutCheckpointingFailsWhenAWorkerRunningItIsKilled) {
  std::future<RunResult> shell = std::async(std::launch::async, [&] {
    return cluster_->Eddy(CountAndSumSelect("unsafe-select", 32000), 120000);
  });
  const std::string job = WaitForRunningJobNamed("unsafe-select");
  ASSERT_FALSE(job.empty()) << cluster_->CoordinatorLog();
  const int victim = KillAWorkerRunningSubtasks();
  ASSERT_GE(victim, 0);
  const RunResult printed = shell.get();
  EXPECT_NE(printed.exit_code, 0);
  // The job failed (a subtask lost its exchange partner, or the worker's heartbeats stopped), or
  // the results on the killed worker could not be fetched.
  EXPECT_THAT(printed.err,
              ::testing::AnyOf(HasSubstr("Job " + job + " failed: "),
                               HasSubstr("fetching the results of job " + job + " attempt 1 from " +
                                         cluster_->WorkerId(victim))))
      << printed.err;
  EXPECT_THAT(cluster_->CoordinatorLog(), ::testing::Not(HasSubstr("attempt 2 deployed")));
}

// `rows` sequence ids (4000 a second), with event time id ms, as table `seq`.
std::string TimedSequence(int64_t rows) {
  return "CREATE TEMPORARY TABLE seq (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id, 3), WATERMARK FOR ts "
         "AS ts) WITH ('connector' = 'datagen', 'rows-per-second' = '4000', 'fields.id.kind' = "
         "'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" +
         std::to_string(rows) + "');";
}

TEST_F(FailoverTest, ACheckpointedTopNRestoresItsPartitionsAndShowsEveryChangeOnce) {
  // The two source subtasks' ids interleave, so a key's top 3 changes in no fixed pattern; but a
  // change shown twice or lost makes a later retraction name a row the table does not hold, which
  // the replay reports, and the final table must be each key's three largest ids.
  constexpr int64_t kRows = 24000;
  const RunResult printed = RunSelectAcrossAKill(
      "top-n", std::string(kCheckpointedAndRestarted) + "SET 'pipeline.name' = 'top-n';" +
                   TimedSequence(kRows) +
                   "SELECT k, rn, id FROM (SELECT id % 10 AS k, id, ROW_NUMBER() OVER (PARTITION "
                   "BY id % 10 ORDER BY id DESC) AS rn FROM seq) WHERE rn <= 3;");
  ASSERT_EQ(printed.exit_code, 0) << printed.err << cluster_->CoordinatorLog();
  const ChangelogTable table = ReplayChangelog(PrintedChanges(printed.out), 2);
  EXPECT_EQ(table.errors, std::vector<std::string>{});
  std::map<std::string, std::string> expected;
  for (int64_t k = 0; k < 10; ++k) {
    const int64_t last = kRows - ((kRows - k) % 10);  // the largest id of key k
    for (int64_t rn = 1; rn <= 3; ++rn) {
      const std::string key = std::to_string(k) + ", " + std::to_string(rn);
      expected[key] = key + ", " + std::to_string(last - 10 * (rn - 1));
    }
  }
  EXPECT_EQ(table.rows, expected);
}

TEST_F(FailoverTest, ACheckpointedDeduplicationKeepsTheLastRowOfEachKeyExactlyOnce) {
  // Keep-last by event time: a later id replaces its key's row (-U/+U); a change shown twice or
  // lost breaks the replay, and each key ends with its largest id.
  constexpr int64_t kRows = 24000;
  const RunResult printed = RunSelectAcrossAKill(
      "dedup", std::string(kCheckpointedAndRestarted) + "SET 'pipeline.name' = 'dedup';" +
                   TimedSequence(kRows) +
                   "SELECT k, id, id * 2 AS twice FROM (SELECT id % 10 AS k, id, ROW_NUMBER() "
                   "OVER (PARTITION BY id % 10 ORDER BY ts DESC) AS rn FROM seq) WHERE rn = 1;");
  ASSERT_EQ(printed.exit_code, 0) << printed.err << cluster_->CoordinatorLog();
  const ChangelogTable table = ReplayChangelog(PrintedChanges(printed.out), 1);
  EXPECT_EQ(table.errors, std::vector<std::string>{});
  std::map<std::string, std::string> expected;
  for (int64_t k = 0; k < 10; ++k) {
    const int64_t last = kRows - ((kRows - k) % 10);
    expected[std::to_string(k)] =
        std::to_string(k) + ", " + std::to_string(last) + ", " + std::to_string(2 * last);
  }
  EXPECT_EQ(table.rows, expected);
}

TEST_F(FailoverTest, ACheckpointedOverAggregateEmitsEveryRowOnceWithItsRunningCount) {
  // Each id is emitted once, when the watermark passes it, with the number of ids of its key up to
  // it: waiting rows, accumulators and timers must all survive the kill for that to hold.
  constexpr int64_t kRows = 24000;
  const RunResult printed = RunSelectAcrossAKill(
      "over", std::string(kCheckpointedAndRestarted) + "SET 'pipeline.name' = 'over';" +
                  TimedSequence(kRows) +
                  "SELECT id % 10 AS k, id, COUNT(*) OVER (PARTITION BY id % 10 ORDER BY ts) AS c "
                  "FROM seq;");
  ASSERT_EQ(printed.exit_code, 0) << printed.err << cluster_->CoordinatorLog();
  const ChangelogTable table = ReplayChangelog(PrintedChanges(printed.out), 2);
  EXPECT_EQ(table.errors, std::vector<std::string>{});
  std::map<std::string, std::string> expected;
  for (int64_t id = 1; id <= kRows; ++id) {
    const int64_t k = id % 10;
    const std::string key = std::to_string(k) + ", " + std::to_string(id);
    expected[key] = key + ", " + std::to_string(k == 0 ? id / 10 : (id - k) / 10 + 1);
  }
  EXPECT_EQ(table.rows, expected);
  EXPECT_EQ(table.messages, kRows);
}

TEST_F(FailoverTest, ACheckpointedTemporalSortRestoresItsWaitingRowsAndPublishesEachOnce) {
  // Two source subtasks interleave ids at id ms; the sort holds each until the watermark passes it.
  // The rows waiting at the checkpoint come back from the store, the rest are read again.
  constexpr int64_t kRows = 20000;
  const std::string out = files_ + "/temporal_sort";
  ASSERT_NO_FATAL_FAILURE(RunWithAKillAfterACheckpoint(
      std::string(kCheckpointedAndRestarted) + "SET 'parallelism.default' = '2';" +
      TimedSequence(kRows) +
      "CREATE TEMPORARY TABLE files (id BIGINT, twice BIGINT) WITH ('connector' = "
      "'filesystem', 'path' = '" +
      out +
      "', 'format' = 'csv');"
      "INSERT INTO files SELECT id, id * 2 FROM seq ORDER BY ts;"));
  ExpectEveryIdOnce(PublishedIds(out), kRows);
}

TEST_F(FailoverTest, ABatchJobRerunsFromTheStartAfterAKillAndOverwritesItsTableExactlyOnce) {
  // Batch mode takes no checkpoints: the restarted attempt reads everything again, and only the
  // attempt that finishes is committed into the table, replacing what it held.
  constexpr int64_t kRows = 40000;
  const std::string out = files_ + "/batch";
  std::filesystem::create_directories(out);
  {
    std::ofstream old(out + "/old.csv");
    old << "99,99,99\n";
  }
  RunResult submitted = cluster_->Eddy(
      "SET 'execution.runtime-mode' = 'batch';"
      "SET 'restart-strategy.type' = 'fixed-delay';"
      "SET 'restart-strategy.fixed-delay.attempts' = '5';"
      "SET 'restart-strategy.fixed-delay.delay' = '500 ms';"
      "SET 'parallelism.default' = '2';" +
      ThrottledSequenceTable(kRows) +
      "CREATE TEMPORARY TABLE files (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = "
      "'filesystem', 'path' = '" +
      out +
      "', 'format' = 'csv');"
      "INSERT OVERWRITE files SELECT id % 10, COUNT(*), SUM(id) FROM seq GROUP BY id % 10;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_EQ(WaitForStatus(job, {"RUNNING"}, std::chrono::seconds(20)), "RUNNING");
  ASSERT_GE(KillAWorkerRunningSubtasks(), 0);
  ASSERT_EQ(WaitForStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)), "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex(
                  "attempt [2-6] deployed: .*, from the beginning: checkpointing is off"));

  // The fault-free answer: every key k counts kRows / 10 ids and sums them; nothing of the old
  // contents, of the failed attempt or of the staging is left.
  const std::map<int64_t, std::pair<int64_t, int64_t>> expected = CountAndSumOfIdsModTen(kRows);
  std::map<int64_t, std::pair<int64_t, int64_t>> got;
  std::vector<std::string> hidden;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    if (name[0] == '.') {
      hidden.push_back(name);
      continue;
    }
    std::istringstream in(ReadFileToString(entry.path().string()));
    std::string line;
    while (std::getline(in, line)) {
      long long k = 0, c = 0, sum = 0;
      ASSERT_EQ(std::sscanf(line.c_str(), "%lld,%lld,%lld", &k, &c, &sum), 3) << name << line;
      EXPECT_EQ(got.count(k), 0u) << "key " << k << " twice";
      got[k] = {c, sum};
    }
  }
  EXPECT_EQ(hidden, std::vector<std::string>{});
  EXPECT_EQ(got, expected);
}

}  // namespace
}  // namespace eddy::testing
