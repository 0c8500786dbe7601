// The partition commit of a checkpointed write into a partitioned filesystem table by two sink
// subtasks that write the same partitions without a shuffle by partition, on a coordinator and
// three worker processes: a poller watches the table's directory and, the moment a partition's
// _SUCCESS appears, counts the rows its published files hold. The committer commits a partition
// only once every writer published its parts up to a checkpoint whose watermark (the smallest of
// the writers') passed the partition's end, so each count must already be the partition's final
// one. The writers' event times advance at different speeds: a writer that committed on its own
// watermark would announce a partition while the other still writes rows into it. A job stopped
// with a savepoint commits, before STOP JOB returns, the partitions the savepoint published that
// its trigger finds due (as Flink's stop without drain), and leaves the others to its restore.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <thread>

#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"
#include "tests/util/files.h"

namespace eddy::testing {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kRows = 16000;  // ids 1..8000 on source subtask 0, 8001..16000 on subtask 1
constexpr int64_t kHalf = kRows / 2;
constexpr int64_t kHourMs = 3600 * 1000;

// The event time of an id, in ms after 2024-01-01 00:00:00 UTC: subtask 0's rows 2.7 s apart,
// subtask 1's 5.4 s apart, so subtask 1 runs twice as fast through the same hours.
int64_t EventMillis(int64_t id) { return id <= kHalf ? id * 2700 : (id - kHalf) * 5400; }

class PartitionCommitTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ASSERT_NO_FATAL_FAILURE(StartCluster(FaultToleranceOptions()));
  }
  void RunAndCheckEveryCommit(bool kill);
  void StopAndCheckTheCommits(bool drain);
};

// The rows the published (visible) files of a partition directory hold.
int64_t PublishedRows(const fs::path& partition) {
  int64_t rows = 0;
  std::error_code ec;
  for (const auto& file : fs::directory_iterator(partition, ec)) {
    const std::string name = file.path().filename().string();
    if (name.empty() || name[0] == '.' || name[0] == '_') continue;
    std::istringstream in(ReadFileToString(file.path().string()));
    std::string line;
    while (std::getline(in, line)) ++rows;
  }
  return rows;
}

// Runs the job (killing a worker running its subtasks at a seeded moment with `kill`), watching
// the table's directory, and checks every partition's rows at its first commit and at the end.
void PartitionCommitTest::RunAndCheckEveryCommit(bool kill) {
  const std::string out = files_ + "/out";
  RunResult submitted = cluster_->Eddy(
      "SET 'execution.checkpointing.interval' = '200 ms';"
      "SET 'restart-strategy.type' = 'fixed-delay';"
      "SET 'restart-strategy.fixed-delay.attempts' = '5';"
      "SET 'restart-strategy.fixed-delay.delay' = '500 ms';"
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE seq (id BIGINT, ts AS TO_TIMESTAMP_LTZ(1704067200000 + CASE WHEN "
      "id <= " +
      std::to_string(kHalf) + " THEN id * 2700 ELSE (id - " + std::to_string(kHalf) +
      ") * 5400 END, 3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '4000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '" +
      std::to_string(kRows) +
      "');"
      "CREATE TEMPORARY TABLE hourly (id BIGINT, hr STRING) PARTITIONED BY (hr) WITH ("
      "'connector' = 'filesystem', 'path' = '" +
      out +
      "', 'format' = 'csv', 'sink.partition-commit.policy.kind' = 'success-file', "
      "'sink.partition-commit.trigger' = 'partition-time', "
      "'partition.time-extractor.timestamp-pattern' = '2024-01-01 $hr:00:00', "
      "'sink.partition-commit.delay' = '1 h');"
      "INSERT INTO hourly SELECT id, CAST(CASE WHEN id <= " +
      std::to_string(kHalf) + " THEN id * 2700 ELSE (id - " + std::to_string(kHalf) +
      ") * 5400 END / " + std::to_string(kHourMs) + " AS STRING) FROM seq;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);

  // The poller: each partition's published rows the first time it is seen committed.
  std::atomic<bool> stop{false};
  std::map<std::string, int64_t> seen_at_commit;
  std::thread poller([&] {
    while (!stop.load()) {
      std::error_code ec;
      for (const auto& partition : fs::directory_iterator(out, ec)) {
        const std::string name = partition.path().filename().string();
        if (seen_at_commit.count(name) || !fs::exists(partition.path() / "_SUCCESS")) continue;
        seen_at_commit[name] = PublishedRows(partition.path());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  if (kill) {
    // After a checkpoint completed, so that the restart restores one.
    EXPECT_FALSE(WaitForACompletedCheckpoint(job).empty()) << cluster_->CoordinatorLog();
    EXPECT_GE(
        KillAWorkerRunningSubtasks(std::chrono::milliseconds(100), std::chrono::milliseconds(2500)),
        0);
  }
  const std::string status =
      cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120));
  stop = true;
  poller.join();
  ASSERT_EQ(status, "FINISHED") << cluster_->CoordinatorLog();
  if (kill) {
    EXPECT_THAT(cluster_->CoordinatorLog(),
                ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));
  }

  std::map<std::string, int64_t> expected;
  for (int64_t id = 1; id <= kRows; ++id) {
    expected["hr=" + std::to_string(EventMillis(id) / kHourMs)] += 1;
  }
  std::map<std::string, int64_t> published;
  for (const auto& [partition, rows] : expected) {
    published[partition] = PublishedRows(fs::path(out) / partition);
    EXPECT_TRUE(fs::exists(fs::path(out) / partition / "_SUCCESS")) << partition;
  }
  EXPECT_EQ(published, expected);
  // Every partition was committed while the job ran or at its end, never before all its rows.
  EXPECT_EQ(seen_at_commit.size(), expected.size());
  for (const auto& [partition, rows] : seen_at_commit) {
    EXPECT_EQ(rows, expected[partition]) << partition << " was committed with " << rows
                                         << " of its " << expected[partition] << " rows published";
  }
}

TEST_F(PartitionCommitTest, APartitionIsCommittedOnlyWithEveryWritersRowsPublished) {
  RunAndCheckEveryCommit(/*kill=*/false);
}

// A worker killed (SIGKILL) at a moment drawn from the seed (printed), perhaps the committer's or
// while partitions are committed: the restored job commits every partition, each only once all
// its rows are published, and publishes every row once.
TEST_F(PartitionCommitTest, CommitsStayCompleteAcrossAKilledWorker) {
  RunAndCheckEveryCommit(/*kill=*/true);
}

// The partitions of each table in `dir` with published rows, and whether each is committed.
std::map<std::string, bool> PublishedPartitions(const std::string& dir) {
  std::map<std::string, bool> out;
  std::error_code ec;
  for (const auto& partition : fs::directory_iterator(dir, ec)) {
    if (PublishedRows(partition.path()) == 0) continue;
    out[partition.path().filename().string()] = fs::exists(partition.path() / "_SUCCESS");
  }
  return out;
}

// Hardly any checkpoint completes before the stop (the interval is 10 minutes): the savepoint
// publishes the rows. The partitions it published are committed by the time STOP JOB returns where
// the trigger finds them due (no delay), and not where it does not (an hour's delay), unless the
// stop drains (WITH DRAIN: event time ends, every partition is complete).
void PartitionCommitTest::StopAndCheckTheCommits(bool drain) {
  const std::string now = files_ + "/now", later = files_ + "/later";
  auto table = [](const std::string& name, const std::string& path, const std::string& delay) {
    return "CREATE TEMPORARY TABLE " + name +
           " (id BIGINT, p STRING) PARTITIONED BY (p) WITH ('connector' = 'filesystem', 'path' = "
           "'" +
           path +
           "', 'format' = 'csv', 'sink.partition-commit.policy.kind' = 'success-file', "
           "'sink.partition-commit.delay' = '" +
           delay + "');";
  };
  RunResult submitted = cluster_->Eddy(
      "SET 'execution.checkpointing.interval' = '10 min';"
      "SET 'state.savepoints.dir' = '" +
      files_ +
      "/savepoints';"
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '400', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '100000000');" +
      table("now_committed", now, "0 s") + table("later_committed", later, "1 h") +
      "EXECUTE STATEMENT SET BEGIN "
      "INSERT INTO now_committed SELECT id, CAST(id / 100 AS STRING) FROM seq;"
      "INSERT INTO later_committed SELECT id, CAST(id / 100 AS STRING) FROM seq;"
      "END;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);
  ASSERT_EQ(cluster_->WaitForJobStatus(job, {"RUNNING"}, std::chrono::seconds(60)), "RUNNING");
  // Rows of several partitions; a new one every quarter of a second, so the savepoint publishes
  // some that no checkpoint before it did.
  std::this_thread::sleep_for(std::chrono::seconds(2));

  RunResult stopped = cluster_->Eddy(
      "STOP JOB '" + job + "' WITH SAVEPOINT" + (drain ? " WITH DRAIN" : "") + ";", 120000);
  ASSERT_EQ(stopped.exit_code, 0) << stopped.err << cluster_->CoordinatorLog();
  // Right after the stop: no waiting for anything to happen later.
  const std::map<std::string, bool> committed_now = PublishedPartitions(now);
  const std::map<std::string, bool> committed_later = PublishedPartitions(later);
  EXPECT_EQ(
      cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED", "CANCELED"}, std::chrono::seconds(1)),
      "FINISHED");
  ASSERT_GE(committed_now.size(), 2u) << "the savepoint published too few partitions";
  for (const auto& [partition, committed] : committed_now) {
    EXPECT_TRUE(committed) << partition << " was published by the savepoint but not committed";
  }
  ASSERT_FALSE(committed_later.empty());
  for (const auto& [partition, committed] : committed_later) {
    EXPECT_EQ(committed, drain) << partition
                                << (drain ? " was not committed after the drain"
                                          : " was committed within its hour's delay");
  }
  EXPECT_THAT(
      cluster_->CoordinatorLog(),
      ::testing::Not(::testing::HasSubstr("not every subtask ended after the stop savepoint")));
}

TEST_F(PartitionCommitTest, StopWithASavepointCommitsThePartitionsItPublished) {
  StopAndCheckTheCommits(/*drain=*/false);
}

TEST_F(PartitionCommitTest, StopWithDrainCommitsEveryPartitionItPublished) {
  StopAndCheckTheCommits(/*drain=*/true);
}

}  // namespace
}  // namespace eddy::testing
