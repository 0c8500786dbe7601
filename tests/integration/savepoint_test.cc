// Savepoints on a coordinator and three worker processes: a checkpointed aggregation stopped with
// a savepoint at a moment drawn from a seed (printed; EDDY_TEST_SEED replays a run), the savepoint
// moved elsewhere, and the query resumed from it at another parallelism must end with the exact
// counts and sums the test computes itself; a worker killed (SIGKILL) while the savepoint is taken
// either fails the stop (the job restarts and is stopped again) or comes after it, and the resumed
// result is exact either way; a damaged savepoint and a query whose state does not fit are refused
// naming the file and the operator, and start nothing; WITH DRAIN fires every window first.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/cluster_test.h"
#include "tests/integration/printed_counts.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr int64_t kRows = 24000;

class SavepointTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ASSERT_NO_FATAL_FAILURE(StartCluster(FaultToleranceOptions()));
  }

  // The session settings and tables of the aggregation; the source runs at parallelism 1 (its
  // positions then restore at any parallelism of the aggregate).
  std::string Setup(int parallelism) const {
    return "SET 'execution.checkpointing.interval' = '1 s';"
           "SET 'restart-strategy.type' = 'fixed-delay';"
           "SET 'restart-strategy.fixed-delay.attempts' = '5';"
           "SET 'restart-strategy.fixed-delay.delay' = '500 ms';"
           "SET 'state.savepoints.dir' = '" +
           files_ + "/savepoints';" + "SET 'parallelism.default' = '" +
           std::to_string(parallelism) +
           "';"
           "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
           "'scan.parallelism' = '1', 'rows-per-second' = '3000', 'fields.id.kind' = "
           "'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" +
           std::to_string(kRows) +
           "');"
           "CREATE TEMPORARY TABLE out (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = "
           "'print');";
  }
  static constexpr char kQuery[] =
      "INSERT INTO out SELECT id % 10, COUNT(*), SUM(id) FROM seq GROUP BY id % 10;";

  // Submits the aggregation; returns its job id once a checkpoint completed.
  std::string SubmitAndWaitForACheckpoint(const std::string& sql) {
    RunResult submitted = cluster_->Eddy(sql);
    EXPECT_EQ(submitted.exit_code, 0) << submitted.err;
    const std::string job = JobIdIn(submitted.err);
    EXPECT_TRUE(WaitForACompletedCheckpoint(job)) << cluster_->CoordinatorLog();
    return job;
  }
  // Waits (up to 30 s) until SHOW JOBS names a completed checkpoint of the running job.
  bool WaitForACompletedCheckpoint(const std::string& job) {
    return !ClusterTest::WaitForACompletedCheckpoint(job, "", /*while_running=*/true,
                                                     std::chrono::seconds(30))
                .empty();
  }
  // STOP JOB ... WITH SAVEPOINT; the savepoint's directory ("" when the statement failed: `out`
  // gets its result).
  std::string StopWithSavepoint(const std::string& job, RunResult* out = nullptr,
                                const std::string& extra = "") {
    RunResult r = cluster_->Eddy("STOP JOB '" + job + "' WITH SAVEPOINT" + extra + ";", 120000);
    if (out != nullptr) *out = r;
    if (r.exit_code != 0) return "";
    std::istringstream in(r.out);
    std::string line;
    while (std::getline(in, line)) {
      std::vector<std::string> cells = TableRowCells(line);
      if (cells.size() == 1 && cells[0].find("/savepoint-") != std::string::npos) return cells[0];
    }
    ADD_FAILURE() << "no savepoint path in: " << r.out;
    return "";
  }
  // The fault-free answer: per key k, the count and sum of the ids 1..kRows with id % 10 == k.
  static std::map<int64_t, std::pair<int64_t, int64_t>> Expected() {
    return CountAndSumOfIdsModTen(kRows);
  }
  // Per key, the final count and sum the print sinks of every worker (and `more`) show: state lost
  // in the savepoint shows as too small a value, a row counted twice as too large a one.
  std::map<int64_t, std::pair<int64_t, int64_t>> LargestPrinted(
      const std::string& more = "") const {
    return LargestCountAndSumPrinted(cluster_->AllWorkerStdout() + more);
  }
  int64_t TotalCount(const std::map<int64_t, std::pair<int64_t, int64_t>>& m) const {
    int64_t total = 0;
    for (const auto& [k, cs] : m) total += cs.first;
    return total;
  }
  // Resumes the aggregation from `savepoint` at `parallelism` and waits until it finished.
  std::string Resume(const std::string& savepoint, int parallelism) {
    RunResult submitted = cluster_->Eddy(Setup(parallelism) + "SET 'execution.savepoint.path' = '" +
                                         savepoint + "';" + kQuery);
    EXPECT_EQ(submitted.exit_code, 0) << submitted.err;
    const std::string job = JobIdIn(submitted.err);
    EXPECT_EQ(cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)),
              "FINISHED")
        << cluster_->CoordinatorLog();
    return job;
  }
  int JobCount() {
    int n = 0;
    std::istringstream in(cluster_->Eddy("SHOW JOBS;", 20000).out);
    std::string line;
    while (std::getline(in, line)) {
      if (TableRowCells(line).size() > 2 && JobIdIn("Job ID: " + TableRowCells(line)[0]) != "") {
        ++n;
      }
    }
    return n;
  }
};

TEST_F(SavepointTest, StopWithASavepointMoveItAndResumeAtAnotherParallelismCountsEveryRowOnce) {
  const std::string job = SubmitAndWaitForACheckpoint(Setup(2) + kQuery);
  ASSERT_FALSE(job.empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(Random()() % 2500));
  const std::string savepoint = StopWithSavepoint(job);
  ASSERT_FALSE(savepoint.empty()) << cluster_->CoordinatorLog();
  // The stopped job is FINISHED and names its savepoint; it stopped before its input ended.
  std::vector<std::string> row = cluster_->JobRow(job);
  ASSERT_GE(row.size(), 8u);
  EXPECT_EQ(row[2], "FINISHED");
  EXPECT_EQ(row[7], savepoint);
  const int64_t before = TotalCount(LargestPrinted());
  std::cout << "stopped after " << before << " of " << kRows << " rows" << std::endl;
  EXPECT_LT(before, kRows);
  EXPECT_TRUE(fs::exists(fs::path(savepoint) / "_metadata"));
  // The job's checkpoints went with it; the savepoint holds its own copy, which moves.
  const std::string moved = files_ + "/moved/" + fs::path(savepoint).filename().string();
  fs::create_directories(files_ + "/moved");
  fs::rename(savepoint, moved);

  const std::string resumed = Resume(moved, 3);
  EXPECT_THAT(
      cluster_->CoordinatorLog(),
      ::testing::ContainsRegex("job " + resumed +
                               " .* attempt 1 deployed: .*, restored from savepoint " + moved));
  EXPECT_EQ(LargestPrinted(), Expected());
}

TEST_F(SavepointTest, AWorkerKilledDuringTheSavepointFailsTheStopOrComesAfterItAndNothingIsLost) {
  const std::string job = SubmitAndWaitForACheckpoint(Setup(2) + kQuery);
  ASSERT_FALSE(job.empty());
  // The victim is chosen while the job runs; the kill lands at a random moment of the stop (which
  // may already have completed the savepoint and finished the job).
  const int victim = PickAWorkerRunningSubtasks();
  ASSERT_GE(victim, 0);
  RunResult stop;
  std::future<std::string> stopping =
      std::async(std::launch::async, [&] { return StopWithSavepoint(job, &stop); });
  std::this_thread::sleep_for(std::chrono::milliseconds(Random()() % 150));
  std::cout << "killing worker " << victim << " (" << cluster_->WorkerId(victim) << ")"
            << std::endl;
  kill(cluster_->worker_pid(victim), SIGKILL);
  std::string savepoint = stopping.get();
  const std::string dead = cluster_->WorkerId(victim);
  ASSERT_TRUE(cluster_->RestartWorker(victim));
  if (savepoint.empty()) {
    std::cout << "the kill failed the stop: " << stop.err << std::endl;
    // The savepoint failed, or the job was already restarting when the stop came.
    EXPECT_THAT(stop.err, ::testing::AnyOf(HasSubstr("with a savepoint failed"),
                                           HasSubstr("it is RESTARTING, not RUNNING")));
    // The job restarts from its latest checkpoint and can be stopped again.
    ASSERT_TRUE(WaitForACompletedCheckpoint(job)) << cluster_->CoordinatorLog();
    savepoint = StopWithSavepoint(job, &stop);
    ASSERT_FALSE(savepoint.empty()) << stop.err << cluster_->CoordinatorLog();
  } else {
    std::cout << "the savepoint completed before the kill" << std::endl;
  }
  // Once the coordinator dropped the killed worker (heartbeat timeout) and its successor
  // registered, three live workers remain.
  EXPECT_EQ(WaitForWorkers(
                [&](const std::vector<WorkerRow>& rows) {
                  return rows.size() == 3 &&
                         std::none_of(rows.begin(), rows.end(),
                                      [&](const WorkerRow& w) { return w.worker_id == dead; });
                },
                std::chrono::seconds(20))
                .size(),
            3u);
  Resume(savepoint, 2);
  EXPECT_EQ(LargestPrinted(), Expected());
}

TEST_F(SavepointTest, ADamagedSavepointIsRefusedNamingTheFileAndStartsNothing) {
  const std::string job = SubmitAndWaitForACheckpoint(Setup(2) + kQuery);
  ASSERT_FALSE(job.empty());
  const std::string savepoint = StopWithSavepoint(job);
  ASSERT_FALSE(savepoint.empty());
  const int jobs = JobCount();
  // One byte of one state file, both drawn from the seed.
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(savepoint)) {
    if (e.is_regular_file() && e.path().filename() != "_metadata" && e.file_size() > 0) {
      files.push_back(e.path());
    }
  }
  ASSERT_FALSE(files.empty());
  std::sort(files.begin(), files.end());
  const fs::path file = files[Random()() % files.size()];
  const auto at = static_cast<std::streamoff>(Random()() % fs::file_size(file));
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    char c = 0;
    f.seekg(at);
    f.get(c);
    f.seekp(at);
    f.put(static_cast<char>(c ^ 0x20));
  }
  RunResult r =
      cluster_->Eddy(Setup(2) + "SET 'execution.savepoint.path' = '" + savepoint + "';" + kQuery);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("cannot restore savepoint '" + savepoint + "'"));
  EXPECT_THAT(r.err, HasSubstr(file.string()));
  // A savepoint whose metadata is gone is no savepoint either.
  fs::remove(fs::path(savepoint) / "_metadata");
  r = cluster_->Eddy(Setup(2) + "SET 'execution.savepoint.path' = '" + savepoint + "';" + kQuery);
  EXPECT_THAT(r.err, HasSubstr("savepoint metadata '" + savepoint + "/_metadata' is missing"));
  EXPECT_EQ(JobCount(), jobs);
}

TEST_F(SavepointTest, AQueryWhoseStateDoesNotFitIsRefusedNamingTheOperator) {
  const std::string job = SubmitAndWaitForACheckpoint(Setup(2) + kQuery);
  ASSERT_FALSE(job.empty());
  const std::string savepoint = StopWithSavepoint(job);
  ASSERT_FALSE(savepoint.empty());
  const int jobs = JobCount();
  // The same query shape, another accumulator: MAX keeps other state than SUM.
  RunResult r = cluster_->Eddy(Setup(2) + "SET 'execution.savepoint.path' = '" + savepoint + "';" +
                               "INSERT INTO out SELECT id % 10, COUNT(*), MAX(id) FROM seq "
                               "GROUP BY id % 10;");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("cannot restore savepoint '" + savepoint +
                               "': the state of "
                               "operator GroupAggregate("));
  EXPECT_THAT(r.err, HasSubstr("{COUNT(*), SUM"));
  EXPECT_THAT(r.err, HasSubstr("{COUNT(*), MAX"));
  EXPECT_EQ(JobCount(), jobs);
}

// A job started from a savepoint that loses a worker before its own first checkpoint restores
// the savepoint again (its first checkpoint is at least 4 s away: min-pause), and ends exact.
TEST_F(SavepointTest, AResumedJobFailingBeforeItsFirstCheckpointRestoresTheSavepointAgain) {
  const std::string job = SubmitAndWaitForACheckpoint(Setup(2) + kQuery);
  ASSERT_FALSE(job.empty());
  const std::string savepoint = StopWithSavepoint(job);
  ASSERT_FALSE(savepoint.empty()) << cluster_->CoordinatorLog();
  RunResult submitted = cluster_->Eddy(Setup(2) +
                                       "SET 'execution.checkpointing.interval' = '5 s';"
                                       "SET 'execution.checkpointing.min-pause' = '4 s';"
                                       "SET 'execution.savepoint.path' = '" +
                                       savepoint + "';" + kQuery);
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string resumed = JobIdIn(submitted.err);
  ASSERT_EQ(cluster_->WaitForJobStatus(resumed, {"RUNNING"}, std::chrono::seconds(20)), "RUNNING");
  ASSERT_GE(
      KillAWorkerRunningSubtasks(std::chrono::milliseconds(0), std::chrono::milliseconds(1000)), 0);
  ASSERT_EQ(cluster_->WaitForJobStatus(resumed, {"FINISHED", "FAILED"}, std::chrono::seconds(120)),
            "FINISHED")
      << cluster_->CoordinatorLog();
  const std::string log = cluster_->CoordinatorLog();
  EXPECT_THAT(log, ::testing::ContainsRegex(
                       "job " + resumed +
                       " .* attempt [2-6] deployed: .*, restored from savepoint " + savepoint));
  EXPECT_EQ(LargestPrinted(), Expected());
}

// Workers print into pipes the test reads on its own threads and can stop reading: with the
// reading paused the pipes fill, the print sinks block, and a savepoint's barrier cannot get
// through, so a kill is sure to come while the savepoint is under way.
class StuckSavepointTest : public SavepointTest {
 protected:
  void SetUp() override {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ClusterOptions options = FaultToleranceOptions();
    ASSERT_NO_FATAL_FAILURE(PipeWorkerStdout(&options));
    // Each worker's bytes in a buffer of their own: chunks of two pipes appended to one string
    // would splice a line cut at one chunk's end with another worker's line.
    pipes().StartReading([this](int worker, std::string_view bytes) {
      std::lock_guard<std::mutex> lock(mu_);
      printed_[worker].append(bytes);
    });
    ASSERT_NO_FATAL_FAILURE(StartCluster(std::move(options)));
  }
  std::string Printed() {
    std::lock_guard<std::mutex> lock(mu_);
    std::string all;
    for (const auto& [worker, bytes] : printed_) absl::StrAppend(&all, bytes, "\n");
    return all;
  }

  std::mutex mu_;
  std::map<int, std::string> printed_;  // by worker
};

TEST_F(StuckSavepointTest, AWorkerKilledWhileTheSavepointIsStuckFailsTheStopAndNothingIsLost) {
  const std::string job = SubmitAndWaitForACheckpoint(Setup(2) + kQuery);
  ASSERT_FALSE(job.empty());
  pipes().set_paused(true);  // the sinks block within a second
  std::this_thread::sleep_for(std::chrono::seconds(1));
  RunResult stop;
  std::future<std::string> stopping =
      std::async(std::launch::async, [&] { return StopWithSavepoint(job, &stop); });
  // Killed once the savepoint was triggered, at a moment drawn from the seed.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (cluster_->CoordinatorLog().find("triggering savepoint") == std::string::npos &&
         std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const int victim =
      KillAWorkerRunningSubtasks(std::chrono::milliseconds(0), std::chrono::milliseconds(1000));
  ASSERT_GE(victim, 0);
  pipes().set_paused(false);
  EXPECT_EQ(stopping.get(), "");
  EXPECT_THAT(stop.err, HasSubstr("stopping job " + job + " with a savepoint failed"));
  EXPECT_THAT(stop.err, HasSubstr("the job restarts from its latest checkpoint"));
  // The job restarted without its sources stopped, and is stopped for good the second time.
  ASSERT_TRUE(cluster_->RestartWorker(victim));
  ASSERT_TRUE(WaitForACompletedCheckpoint(job)) << cluster_->CoordinatorLog();
  const std::string savepoint = StopWithSavepoint(job, &stop);
  ASSERT_FALSE(savepoint.empty()) << stop.err << cluster_->CoordinatorLog();
  const std::string dead = cluster_->WorkerId(victim);
  EXPECT_EQ(WaitForWorkers(
                [&](const std::vector<WorkerRow>& rows) {
                  return rows.size() == 3 &&
                         std::none_of(rows.begin(), rows.end(),
                                      [&](const WorkerRow& w) { return w.worker_id == dead; });
                },
                std::chrono::seconds(20))
                .size(),
            3u);
  Resume(savepoint, 3);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the readers catch up
  EXPECT_EQ(LargestPrinted(Printed()), Expected());
}

// WITH DRAIN: event time ends before the savepoint, so a tumbling window still open fires, and
// the job ends FINISHED with a savepoint.
TEST_F(SavepointTest, StopWithDrainFiresTheOpenWindowsBeforeTheSavepoint) {
  RunResult submitted = cluster_->Eddy(
      "SET 'execution.checkpointing.interval' = '1 s';"
      "SET 'state.savepoints.dir' = '" +
      files_ +
      "/savepoints';"
      "CREATE TEMPORARY TABLE ev (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id * 10, 3), WATERMARK FOR "
      "ts AS ts) WITH ('connector' = 'datagen', 'rows-per-second' = '500', 'fields.id.kind' = "
      "'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000000');"
      "CREATE TEMPORARY TABLE wout (w TIMESTAMP(3), c BIGINT) WITH ('connector' = 'print', "
      "'print-identifier' = 'W');"
      "INSERT INTO wout SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE ev, "
      "DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_start, window_end;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_TRUE(WaitForACompletedCheckpoint(job)) << cluster_->CoordinatorLog();
  // Ten ms of event time per row: the one-hour window stays open for 360000 rows.
  EXPECT_EQ(CountOccurrences(cluster_->AllWorkerStdout(), "W> "), 0);
  const std::string savepoint = StopWithSavepoint(job, nullptr, " WITH DRAIN");
  ASSERT_FALSE(savepoint.empty()) << cluster_->CoordinatorLog();
  EXPECT_EQ(cluster_->JobRow(job)[2], "FINISHED");
  const std::string out = cluster_->AllWorkerStdout();
  EXPECT_EQ(CountOccurrences(out, "W> +I["), 1) << out;
}

}  // namespace
}  // namespace eddy::testing
