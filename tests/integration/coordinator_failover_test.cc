// Coordinator failures on a coordinator and three worker processes: the coordinator is killed
// (SIGKILL) at moments drawn from a seed (printed; EDDY_TEST_SEED replays a run) and started again
// on the same data directory. A checkpointed job killed between a checkpoint's trigger and its
// completion, and again while the restarted coordinator deploys it anew, finishes with every
// window published exactly once, as does one whose coordinator dies while it waits to restart
// after a worker loss; an INSERT whose submission is cut short either never became a job or runs
// to the exact result; finished jobs stay listed across a restart and are pruned beyond
// --jobstore-max-capacity.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "tests/integration/cluster_test.h"
#include "tests/integration/printed_counts.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

class CoordinatorFailoverTest : public ClusterTest {
 protected:
  void Start(std::vector<std::string> coordinator_args = {}) {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ASSERT_NO_FATAL_FAILURE(StartCluster(FaultToleranceOptions(std::move(coordinator_args))));
  }

  // The id of the job SHOW JOBS lists under `name` ("" if none), and its row.
  std::pair<std::string, std::vector<std::string>> JobNamed(const std::string& name) {
    std::istringstream in(cluster_->Eddy("SHOW JOBS;", 20000).out);
    std::string line;
    while (std::getline(in, line)) {
      std::vector<std::string> cells = TableRowCells(line);
      if (cells.size() > 2 && cells[1] == name) return {cells[0], cells};
    }
    return {"", {}};
  }
  // Waits (up to 20 s) until SHOW JOBS names a completed checkpoint of the running job.
  bool WaitForACompletedCheckpoint(const std::string& job) {
    return !ClusterTest::WaitForACompletedCheckpoint(job, "", /*while_running=*/true).empty();
  }
  // Waits (up to 10 s) for the current coordinator to log that it triggers a checkpoint of the
  // job it had not triggered yet; returns its id, or 0.
  int64_t WaitForANewCheckpointTrigger(const std::string& job) {
    const std::string marker = "job " + job + ": triggering checkpoint ";
    const std::string path = cluster_->CurrentCoordinatorLogPath();
    const size_t seen = CountOccurrences(ReadFileToString(path), marker);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      const std::string log = ReadFileToString(path);
      if (static_cast<size_t>(CountOccurrences(log, marker)) > seen) {
        const size_t at = log.rfind(marker);
        return std::atoll(log.c_str() + at + marker.size());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return 0;
  }
  bool CheckpointCompleted(const std::string& job, int64_t id) {
    return std::filesystem::exists(cluster_->coordinator_data_dir() + "/checkpoints/" + job +
                                   "/chk-" + std::to_string(id) + "/_metadata");
  }
  // Every line of the published (not hidden) files under `dir`, counted; hidden files go to
  // `hidden`.
  static std::map<std::string, int> PublishedLines(const std::string& dir,
                                                   std::vector<std::string>* hidden) {
    std::map<std::string, int> lines;
    if (!std::filesystem::exists(dir)) return lines;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      const std::string name = entry.path().filename().string();
      if (name[0] == '.') {
        if (hidden != nullptr) hidden->push_back(name);
        continue;
      }
      std::istringstream in(ReadFileToString(entry.path().string()));
      std::string line;
      while (std::getline(in, line)) ++lines[line];
    }
    return lines;
  }

  // Every window of WindowJob published exactly once under `out`, and no hidden file left.
  void ExpectEveryWindowOnce(const std::string& out, int64_t rows);
};

// A tumbling event-time window aggregation (100 ids per 1-second window, 4 keys) of a bounded
// sequence into CSV files, checkpointed every second.
std::string WindowJob(int64_t rows, const std::string& out, const std::string& settings = "") {
  return settings +
         "SET 'execution.checkpointing.interval' = '1 s';"
         "SET 'parallelism.default' = '2';"
         "SET 'pipeline.name' = 'windows';"
         "CREATE TEMPORARY TABLE seq (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id * 10, 3), "
         "WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'rows-per-second' = '3000', "
         "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" +
         std::to_string(rows) +
         "');"
         "CREATE TEMPORARY TABLE files (k BIGINT, c BIGINT, s BIGINT) WITH ("
         "'connector' = 'filesystem', 'path' = '" +
         out +
         "', 'format' = 'csv');"
         "INSERT INTO files SELECT id % 4, COUNT(*), SUM(id) "
         "FROM TABLE(TUMBLE(TABLE seq, DESCRIPTOR(ts), INTERVAL '1' SECOND)) "
         "GROUP BY window_start, window_end, id % 4;";
}

// The fault-free answer of WindowJob: one line `k,count,sum` per (window, key). The sums differ
// from window to window, so a window published twice shows as a line counted twice.
std::map<std::string, int> ExpectedWindows(int64_t rows) {
  std::map<std::string, int> lines;
  for (const auto& [window_key, value] : CountAndSumPerWindowOfIdsModFour(rows, 1)) {
    ++lines[std::to_string(window_key.second) + "," + std::to_string(value.first) + "," +
            std::to_string(value.second)];
  }
  return lines;
}

void CoordinatorFailoverTest::ExpectEveryWindowOnce(const std::string& out, int64_t rows) {
  std::vector<std::string> hidden;
  const std::map<std::string, int> published = PublishedLines(out, &hidden);
  const std::map<std::string, int> expected = ExpectedWindows(rows);
  EXPECT_TRUE(hidden.empty()) << hidden.front();
  int missing = 0, repeated = 0, wrong = 0;
  for (const auto& [line, n] : expected) {
    auto it = published.find(line);
    if (it == published.end()) ++missing;
    if (it != published.end() && it->second > 1) ++repeated;
  }
  for (const auto& [line, n] : published) wrong += expected.count(line) == 0 ? 1 : 0;
  EXPECT_EQ(missing, 0);
  EXPECT_EQ(repeated, 0);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(published, expected);
}

TEST_F(CoordinatorFailoverTest,
       AJobFinishesExactlyWhenTheCoordinatorDiesMidCheckpointAndMidRestart) {
  ASSERT_NO_FATAL_FAILURE(Start());
  constexpr int64_t kRows = 60000;
  const std::string out = files_ + "/out";
  RunResult submitted = cluster_->Eddy(WindowJob(kRows, out));
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_TRUE(WaitForACompletedCheckpoint(job)) << cluster_->CoordinatorLog();

  // 1. Killed between a checkpoint's trigger and its completion: a few milliseconds (from the
  // seed) after the coordinator logged the trigger. Should the checkpoint complete within them
  // anyway, the kill is tried again at a later checkpoint (that kill counts as one more).
  bool killed_mid_checkpoint = false;
  for (int tries = 0; tries < 4 && !killed_mid_checkpoint; ++tries) {
    const int64_t checkpoint = WaitForANewCheckpointTrigger(job);
    ASSERT_GT(checkpoint, 0) << cluster_->CoordinatorLog();
    const int delay_ms = static_cast<int>(Random()() % 8);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    ASSERT_TRUE(cluster_->RestartCoordinator());
    killed_mid_checkpoint = !CheckpointCompleted(job, checkpoint);
    std::cout << "coordinator killed " << delay_ms << " ms after triggering checkpoint "
              << checkpoint
              << (killed_mid_checkpoint ? ", before it completed" : ", after it completed")
              << std::endl;
    // The job comes back: RUNNING again, as its next attempt, and checkpoints again.
    ASSERT_TRUE(WaitForACompletedCheckpoint(job)) << cluster_->CoordinatorLog();
  }
  EXPECT_TRUE(killed_mid_checkpoint) << "every kill came after the checkpoint completed";
  EXPECT_THAT(cluster_->CoordinatorLog(), HasSubstr("job " + job + " (windows) recovered"));

  // 2. Killed again while the restarted coordinator brings the job back: before the workers
  // registered again, while the job waits for them, or as its next attempt is deployed.
  ASSERT_TRUE(cluster_->RestartCoordinator());
  const int restart_delay_ms = static_cast<int>(Random()() % 3500);
  std::this_thread::sleep_for(std::chrono::milliseconds(restart_delay_ms));
  std::cout << "coordinator killed again " << restart_delay_ms << " ms into its restart"
            << std::endl;
  ASSERT_TRUE(cluster_->RestartCoordinator());

  ASSERT_EQ(cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED", "CANCELED"},
                                       std::chrono::seconds(180)),
            "FINISHED")
      << cluster_->CoordinatorLog();
  const std::string log = cluster_->CoordinatorLog();
  EXPECT_THAT(log, ContainsRegex("job " + job +
                                 " \\(windows\\) attempt [0-9]+ deployed: .*, "
                                 "restored from checkpoint"));
  // Attempts number on across coordinators: each new one above every attempt that may still run.
  std::vector<std::string> row = cluster_->JobRow(job);
  ASSERT_GE(row.size(), 5u);
  EXPECT_GE(std::atoi(row[4].c_str()), 2) << "restarts";

  ExpectEveryWindowOnce(out, kRows);
}

// A worker is lost, and while the job waits to restart the coordinator dies too: the restarted
// coordinator deploys the job (its status RESTARTING was stored) on the workers left.
TEST_F(CoordinatorFailoverTest, AJobWaitingToRestartAfterAWorkerLossIsRecoveredByANewCoordinator) {
  ASSERT_NO_FATAL_FAILURE(Start());
  constexpr int64_t kRows = 40000;
  const std::string out = files_ + "/out";
  RunResult submitted =
      cluster_->Eddy(WindowJob(kRows, out,
                               "SET 'restart-strategy.type' = 'fixed-delay';"
                               "SET 'restart-strategy.fixed-delay.attempts' = '3';"
                               "SET 'restart-strategy.fixed-delay.delay' = '4 s';"));
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_TRUE(WaitForACompletedCheckpoint(job)) << cluster_->CoordinatorLog();
  ASSERT_GE(KillAWorkerRunningSubtasks(), 0);
  ASSERT_EQ(cluster_->WaitForJobStatus(job, {"RESTARTING"}, std::chrono::seconds(20)), "RESTARTING")
      << cluster_->CoordinatorLog();
  const int delay_ms = static_cast<int>(Random()() % 3000);
  std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
  std::cout << "coordinator killed " << delay_ms << " ms into the job's restart delay" << std::endl;
  ASSERT_TRUE(cluster_->RestartCoordinator());
  ASSERT_EQ(cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED", "CANCELED"},
                                       std::chrono::seconds(180)),
            "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              HasSubstr("job " + job + " (windows) recovered: attempt 1 was RESTARTING"));
  ExpectEveryWindowOnce(out, kRows);
}

// Every id of 1..rows exactly once in `lines` (CSV `id,twice`).
void ExpectEveryIdOnce(const std::map<std::string, int>& lines, int64_t rows) {
  std::map<int64_t, int> seen;
  for (const auto& [line, n] : lines) {
    long long id = 0, twice = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lld,%lld", &id, &twice), 2) << line;
    ASSERT_EQ(twice, 2 * id) << line;
    seen[id] += n;
  }
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

TEST_F(CoordinatorFailoverTest, AnInsertCutShortBySubmissionIsEitherNoJobOrRunsExactlyOnce) {
  ASSERT_NO_FATAL_FAILURE(Start());
  constexpr int64_t kRows = 20000;
  const std::string out = files_ + "/out";
  // Permanent tables, so that the statement cut short is the INSERT itself.
  RunResult tables = cluster_->Eddy(
      "CREATE TABLE seq (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5000', "
      "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" +
      std::to_string(kRows) +
      "');"
      "CREATE TABLE files (id BIGINT, twice BIGINT) WITH ('connector' = 'filesystem', "
      "'path' = '" +
      out + "', 'format' = 'csv');");
  ASSERT_EQ(tables.exit_code, 0) << tables.err;
  const std::string insert =
      "SET 'execution.checkpointing.interval' = '1 s';"
      "SET 'parallelism.default' = '2';"
      "SET 'pipeline.name' = 'submitted';"
      "INSERT INTO files SELECT id, id * 2 FROM seq;";
  Subprocess client = Subprocess::Start(
      {EddyBinary("eddy"), "--coordinator", cluster_->coordinator_address(), "-e", insert},
      dir_ + "/client.out", dir_ + "/client.err");
  ASSERT_TRUE(client.started());
  const int delay_ms = 30 + static_cast<int>(Random()() % 400);
  std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
  ASSERT_TRUE(cluster_->RestartCoordinator());
  const int client_exit = client.Wait(60000);
  const std::string client_err = ReadFileToString(dir_ + "/client.err");
  const std::string reported = JobIdIn(client_err);

  // Whether the job exists does not change once the coordinator answers again.
  std::string job;
  for (int i = 0; i < 50 && job.empty(); ++i) {
    job = JobNamed("submitted").first;
    if (job.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::cout << "coordinator killed " << delay_ms << " ms into the submission: the client "
            << (reported.empty() ? "got no job id" : "got job " + reported) << " (exit "
            << client_exit << "), and the restarted coordinator "
            << (job.empty() ? "has no such job" : "runs it") << std::endl;
  if (!reported.empty()) {
    EXPECT_EQ(job, reported) << "a job reported submitted must survive";
  }
  if (job.empty()) {
    // Never a job: nothing of it ran to a published file, and the client was told it failed.
    EXPECT_NE(client_exit, 0) << client_err;
    EXPECT_TRUE(PublishedLines(out, nullptr).empty());
    RunResult again = cluster_->Eddy(insert);
    ASSERT_EQ(again.exit_code, 0) << again.err;
    job = JobIdIn(again.err);
  }
  ASSERT_EQ(cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED", "CANCELED"},
                                       std::chrono::seconds(120)),
            "FINISHED")
      << cluster_->CoordinatorLog();
  std::vector<std::string> hidden;
  ExpectEveryIdOnce(PublishedLines(out, &hidden), kRows);
  EXPECT_TRUE(hidden.empty()) << hidden.front();
}

TEST_F(CoordinatorFailoverTest, FinishedJobsStayListedAcrossARestartAndTheOldestArePruned) {
  ASSERT_NO_FATAL_FAILURE(Start({"--jobstore-max-capacity", "2"}));
  std::vector<std::string> ids;
  for (const std::string name : {"first", "second", "third"}) {
    RunResult r =
        cluster_->Eddy("SET 'pipeline.name' = '" + name +
                       "';"
                       "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', "
                       "'number-of-rows' = '100');"
                       "CREATE TEMPORARY TABLE hole (id BIGINT) WITH ('connector' = 'blackhole');"
                       "INSERT INTO hole SELECT id FROM gen;");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ids.push_back(JobIdIn(r.out + r.err));
    ASSERT_FALSE(ids.back().empty()) << r.out << r.err;
    ASSERT_EQ(cluster_->WaitForJobStatus(ids.back(), {"FINISHED"}, std::chrono::seconds(30)),
              "FINISHED");
  }
  // Three finished jobs, room for two: the oldest goes (within the second the pruning takes).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!JobNamed("first").first.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(JobNamed("first").first, "");
  EXPECT_THAT(cluster_->CoordinatorLog(), HasSubstr("job " + ids[0] +
                                                    " (first) pruned: more finished jobs than "
                                                    "jobstore.max-capacity"));

  ASSERT_TRUE(cluster_->RestartCoordinator());
  std::pair<std::string, std::vector<std::string>> second, third;
  // (Until the new coordinator answers, SHOW JOBS fails and lists nothing.)
  for (int i = 0; i < 100 && (second.first.empty() || third.first.empty()); ++i) {
    second = JobNamed("second");
    third = JobNamed("third");
    if (third.first.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(second.first, ids[1]);
  EXPECT_EQ(third.first, ids[2]);
  ASSERT_GE(second.second.size(), 3u);
  ASSERT_GE(third.second.size(), 3u);
  EXPECT_EQ(second.second[2], "FINISHED");
  EXPECT_EQ(third.second[2], "FINISHED");
  EXPECT_EQ(JobNamed("first").first, "");
}

}  // namespace
}  // namespace eddy::testing
