// Materialized tables on a coordinator and worker processes, each statement from its own shell
// (so the table's definition and refresh state come from the coordinator's catalog): the continuous
// refresh job suspended (stopped with a savepoint) at a moment drawn from a seed and resumed from
// that savepoint writes every row of its query exactly once; suspending a suspended table and
// resuming one whose job runs get Flink's messages; DROP MATERIALIZED TABLE cancels the running
// job and drops the table; the table and its refresh state survive a coordinator restart.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <thread>

#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kRows = 12000;
constexpr char kTable[] = "`default_catalog`.`default_database`.`mt`";

class MaterializedTableTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ASSERT_NO_FATAL_FAILURE(StartCluster(FaultToleranceOptions()));
  }
  std::string SavepointsDir() const {
    return "SET 'state.savepoints.dir' = '" + files_ + "/savepoints';";
  }
  // How many times each id is in the committed (visible) files under `dir`.
  static std::map<int64_t, int> IdsWritten(const std::string& dir) {
    std::map<int64_t, int> ids;
    std::error_code ec;
    for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
      if (!entry.is_regular_file() || entry.path().filename().string()[0] == '.') continue;
      std::ifstream in(entry.path());
      std::string line;
      while (std::getline(in, line)) {
        if (!line.empty()) ++ids[std::stoll(line)];
      }
    }
    return ids;
  }
};

TEST_F(MaterializedTableTest, SuspendAndResumeWriteEveryRowOfTheQueryOnce) {
  const std::string out = files_ + "/mt";
  RunResult created = Eddy(
      "SET 'parallelism.default' = '2';"
      "CREATE TABLE seq (id BIGINT) WITH ('connector' = 'datagen', 'scan.parallelism' = '1', "
      "'rows-per-second' = '3000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '" +
      std::to_string(kRows) +
      "');"
      "CREATE MATERIALIZED TABLE mt WITH ('connector' = 'filesystem', 'path' = '" +
      out +
      "', 'format' = 'csv') FRESHNESS = INTERVAL '1' SECOND AS SELECT id FROM seq WHERE id > 0;");
  ASSERT_EQ(created.exit_code, 0) << created.err;
  const std::string job = JobIdIn(created.err);
  ASSERT_FALSE(job.empty()) << created.err;
  // The freshness is the job's checkpoint interval: a checkpoint completes within seconds.
  ASSERT_FALSE(
      WaitForACompletedCheckpoint(job, "", /*while_running=*/true, std::chrono::seconds(30))
          .empty())
      << cluster_->CoordinatorLog();
  std::this_thread::sleep_for(std::chrono::milliseconds(Random()() % 1500));

  RunResult suspended = Eddy(SavepointsDir() + "ALTER MATERIALIZED TABLE mt SUSPEND;");
  ASSERT_EQ(suspended.exit_code, 0) << suspended.err << cluster_->CoordinatorLog();
  EXPECT_EQ(
      cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED", "CANCELED"}, std::chrono::seconds(60)),
      "FINISHED");
  const std::map<int64_t, int> before_resume = IdsWritten(out);
  std::cout << "rows written before RESUME: " << before_resume.size() << "\n";

  RunResult again = Eddy(SavepointsDir() + "ALTER MATERIALIZED TABLE mt SUSPEND;");
  EXPECT_NE(again.exit_code, 0);
  EXPECT_THAT(again.err,
              HasSubstr(std::string("Materialized table ") + kTable +
                        " continuous refresh job has been suspended, jobId is " + job + "."));

  RunResult resumed = Eddy("ALTER MATERIALIZED TABLE mt RESUME;");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const std::string resumed_job = JobIdIn(resumed.err);
  ASSERT_FALSE(resumed_job.empty()) << resumed.err;
  EXPECT_NE(resumed_job, job);
  ASSERT_EQ(cluster_->WaitForJobStatus(resumed_job, {"FINISHED", "FAILED", "CANCELED"},
                                       std::chrono::seconds(120)),
            "FINISHED")
      << cluster_->CoordinatorLog();

  // Every id once: none lost across the pause, none written twice by the resumed job.
  const std::map<int64_t, int> ids = IdsWritten(out);
  EXPECT_EQ(ids.size(), static_cast<size_t>(kRows));
  int64_t duplicated = 0;
  for (const auto& [id, count] : ids) {
    if (count != 1) ++duplicated;
    EXPECT_GE(id, 1);
    EXPECT_LE(id, kRows);
  }
  EXPECT_EQ(duplicated, 0);

  RunResult dropped = Eddy("DROP MATERIALIZED TABLE mt; SHOW TABLES;");
  ASSERT_EQ(dropped.exit_code, 0) << dropped.err;
  EXPECT_THAT(dropped.out, Not(HasSubstr("| mt ")));
  EXPECT_THAT(dropped.out, HasSubstr("| seq "));
}

TEST_F(MaterializedTableTest, ARunningJobIsNotResumedAgainAndDropCancelsIt) {
  RunResult created = Eddy(
      "CREATE TABLE endless (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = "
      "'100');"
      "CREATE MATERIALIZED TABLE mt WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '2' "
      "SECOND AS SELECT id FROM endless;");
  ASSERT_EQ(created.exit_code, 0) << created.err;
  const std::string job = JobIdIn(created.err);
  ASSERT_FALSE(job.empty()) << created.err;
  EXPECT_EQ(cluster_->WaitForJobStatus(job, {"RUNNING"}, std::chrono::seconds(30)), "RUNNING");

  RunResult resumed = Eddy("ALTER MATERIALIZED TABLE mt RESUME;");
  EXPECT_NE(resumed.exit_code, 0);
  EXPECT_THAT(resumed.err,
              HasSubstr(std::string("Materialized table ") + kTable +
                        " continuous refresh job has been resumed, jobId is " + job + "."));
  RunResult shown = Eddy("SHOW CREATE TABLE mt;");
  EXPECT_THAT(shown.out, HasSubstr("FRESHNESS = INTERVAL '2' SECOND\nREFRESH_MODE = CONTINUOUS\n"
                                   "AS SELECT id FROM endless"));

  RunResult dropped = Eddy("DROP MATERIALIZED TABLE mt;");
  ASSERT_EQ(dropped.exit_code, 0) << dropped.err;
  EXPECT_EQ(
      cluster_->WaitForJobStatus(job, {"CANCELED", "FAILED", "FINISHED"}, std::chrono::seconds(30)),
      "CANCELED");
  RunResult again = Eddy("DROP MATERIALIZED TABLE mt;");
  EXPECT_NE(again.exit_code, 0);
  EXPECT_THAT(again.err, HasSubstr(std::string("Materialized table with identifier ") + kTable +
                                   " does not exist."));
}

// The coordinator's catalog keeps a materialized table's definition and refresh state: after the
// cluster is killed and started again on its data dir, SHOW CREATE TABLE prints it, its recovered
// refresh job is known (RESUME is refused naming it), and DROP MATERIALIZED TABLE cancels that job.
TEST(MaterializedTablePersistenceTest, DefinitionAndRefreshStateSurviveACoordinatorRestart) {
  const std::string dir = FreshTestDir("materialized-table-persistence");
  ClusterOptions options;
  options.workers = 1;
  options.isolate_workers = false;
  std::string job;
  {
    ProcessCluster cluster(dir, options);
    ASSERT_TRUE(cluster.ok()) << cluster.error();
    RunResult created = cluster.Eddy(
        "CREATE TABLE endless (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = "
        "'100');"
        "CREATE MATERIALIZED TABLE mt COMMENT 'kept' WITH ('connector' = 'blackhole') "
        "FRESHNESS = INTERVAL '3' SECOND AS SELECT id FROM endless;");
    ASSERT_EQ(created.exit_code, 0) << created.err;
    job = JobIdIn(created.err);
    ASSERT_FALSE(job.empty()) << created.err;
    ASSERT_EQ(cluster.WaitForJobStatus(job, {"RUNNING"}, std::chrono::seconds(30)), "RUNNING");
    // The cluster goes away with SIGKILL: what was acknowledged is on disk already.
  }
  ProcessCluster restarted(dir, options);
  ASSERT_TRUE(restarted.ok()) << restarted.error();
  RunResult shown = restarted.Eddy("SHOW CREATE TABLE mt;");
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_THAT(shown.out, HasSubstr("CREATE MATERIALIZED TABLE " + std::string(kTable) +
                                   "\nCOMMENT 'kept'\nWITH (\n  'connector' = 'blackhole'\n)\n"
                                   "FRESHNESS = INTERVAL '3' SECOND\nREFRESH_MODE = CONTINUOUS\n"
                                   "AS SELECT id FROM endless"));
  RunResult resumed = restarted.Eddy("ALTER MATERIALIZED TABLE mt RESUME;");
  EXPECT_NE(resumed.exit_code, 0);
  EXPECT_THAT(resumed.err, HasSubstr("continuous refresh job has been resumed, jobId is " + job));
  RunResult dropped = restarted.Eddy("DROP MATERIALIZED TABLE mt;");
  ASSERT_EQ(dropped.exit_code, 0) << dropped.err;
  EXPECT_EQ(
      restarted.WaitForJobStatus(job, {"CANCELED", "FAILED", "FINISHED"}, std::chrono::seconds(30)),
      "CANCELED")
      << restarted.CoordinatorLog();
  EXPECT_THAT(restarted.Eddy("SHOW TABLES;").out, Not(HasSubstr("| mt ")));
}

}  // namespace
}  // namespace eddy::testing
