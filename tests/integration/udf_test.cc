// User-defined functions (examples/udf) in distributed jobs on a coordinator and three worker
// processes: the coordinator ships the library to the workers (the file is gone before the job
// runs), scalar, table and aggregate functions run across subtasks, a checkpointed job with a
// user aggregate survives a worker killed (SIGKILL) at a seeded moment with the fault-free answer,
// and a function that throws fails its job with the function's message while the workers live on.
// The seed is printed; EDDY_TEST_SEED replays a run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/changelog_table.h"
#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"
#include "tests/integration/throttled_sequence.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;

const std::string kExampleLibrary =
    std::string(EDDY_BIN_DIR) + "/../examples/udf/libeddy_example_udfs.so";

class UdfTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();
    ASSERT_NO_FATAL_FAILURE(StartCluster(
        ClusterOptions{.workers = 3, .slots_per_worker = 2, .heartbeat_timeout_ms = 3000}));
    // A copy of the library that only the coordinator reads, removed before any job runs.
    library_ = dir_ + "/shipped/libudfs.so";
    std::filesystem::create_directories(dir_ + "/shipped");
    std::filesystem::copy_file(kExampleLibrary, library_);
  }

  std::string Functions() const {
    return "CREATE TEMPORARY SYSTEM FUNCTION split AS 'split_words' USING JAR '" + library_ +
           "';"
           "CREATE TEMPORARY SYSTEM FUNCTION wavg AS 'weighted_avg' USING JAR '" +
           library_ +
           "';"
           "CREATE TEMPORARY SYSTEM FUNCTION half AS 'weighted' USING JAR '" +
           library_ + "';";
  }

  std::string library_;
};

// The changes of an `| op | a | b | ... |` table the shell printed, as print-sink lines.
std::string PrintedChanges(const std::string& shell_output) {
  std::string changes;
  std::istringstream in(shell_output);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells = TableRowCells(line);
    if (cells.size() < 2) continue;
    const std::string& kind = cells[0];
    if (kind != "+I" && kind != "-U" && kind != "+U" && kind != "-D") continue;
    std::string row = kind + "[";
    for (size_t i = 1; i < cells.size(); ++i) row += (i > 1 ? ", " : "") + cells[i];
    changes += row + "]\n";
  }
  return changes;
}

// A double that is a multiple of 0.5, as the client prints it (17.0, 17.5).
std::string Halves(int64_t twice) {
  return std::to_string(twice / 2) + (twice % 2 == 0 ? ".0" : ".5");
}

constexpr int64_t kRows = 24000;

// Each id is split into two words, id % 5 at position 0 and id % 3 at position 1 (a table
// function); per word and position the job counts the ids, averages them weighted by position + 1
// (an aggregate function) and halves the count (a scalar function over the aggregate).
std::string WordStatsSelect(const std::string& name) {
  return "SET 'pipeline.name' = '" + name + "';" + ThrottledSequenceTable(kRows) +
         "SELECT k, c, w, half(c, 0.5) AS h FROM (SELECT CONCAT(word, '-', CAST(pos AS STRING)) "
         "AS k, COUNT(*) AS c, wavg(id, pos + 1) AS w FROM seq, LATERAL TABLE(split(CONCAT("
         "CAST(id % 5 AS STRING), ' ', CAST(id % 3 AS STRING)))) GROUP BY CONCAT(word, '-', "
         "CAST(pos AS STRING)));";
}

// The fault-free answer, computed here: "k, c, w, h" per key.
std::map<std::string, std::string> ExpectedWordStats() {
  std::map<std::string, std::pair<int64_t, int64_t>> count_sum;
  for (int64_t id = 1; id <= kRows; ++id) {
    auto& a = count_sum[std::to_string(id % 5) + "-0"];
    a.first += 1;
    a.second += id;
    auto& b = count_sum[std::to_string(id % 3) + "-1"];
    b.first += 1;
    b.second += id;
  }
  std::map<std::string, std::string> expected;
  for (const auto& [k, cs] : count_sum) {
    // The ids of a key are an arithmetic progression: their average is a multiple of 0.5.
    const int64_t twice_avg = 2 * cs.second / cs.first;
    expected[k] =
        k + ", " + std::to_string(cs.first) + ", " + Halves(twice_avg) + ", " + Halves(cs.first);
  }
  return expected;
}

TEST_F(UdfTest, ShippedFunctionsOfEveryKindRunAcrossWorkersAndSurviveAWorkerKill) {
  // Checkpointed and restarted: the aggregate's accumulators come back from the checkpoint.
  std::future<RunResult> shell = std::async(std::launch::async, [&] {
    return cluster_->Eddy(
        "SET 'execution.checkpointing.interval' = '1 s';"
        "SET 'restart-strategy.type' = 'fixed-delay';"
        "SET 'restart-strategy.fixed-delay.attempts' = '5';"
        "SET 'restart-strategy.fixed-delay.delay' = '500 ms';"
        "SET 'parallelism.default' = '2';" +
            Functions() + WordStatsSelect("udf-stats"),
        120000);
  });
  const std::string job = WaitForRunningJobNamed("udf-stats");
  ASSERT_FALSE(job.empty()) << cluster_->CoordinatorLog();
  // The workers got the library from the coordinator: the file is gone from here on.
  std::filesystem::remove(library_);
  ASSERT_FALSE(WaitForACompletedCheckpoint(job).empty()) << cluster_->CoordinatorLog();
  const int victim = KillAWorkerRunningSubtasks();
  ASSERT_GE(victim, 0);
  ASSERT_TRUE(cluster_->RestartWorker(victim));
  const RunResult printed = shell.get();
  ASSERT_EQ(printed.exit_code, 0) << printed.err << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex("job " + job +
                                       " .* attempt [2-6] deployed: .*, restored from checkpoint"));
  const ChangelogTable table = ReplayChangelog(PrintedChanges(printed.out), 1);
  EXPECT_EQ(table.errors, std::vector<std::string>{});
  EXPECT_EQ(table.rows, ExpectedWordStats());
}

TEST_F(UdfTest, AThrowingFunctionFailsItsJobWithItsMessageAndTheWorkersLiveOn) {
  std::filesystem::remove(library_);  // the CREATE below reads the example library itself
  const RunResult r = cluster_->Eddy(
      "SET 'parallelism.default' = '2';"
      "CREATE TEMPORARY SYSTEM FUNCTION checked AS 'checked_code' USING JAR '" +
          kExampleLibrary +
          "';"
          "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
          "'rows-per-second' = '2000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
          "'fields.id.end' = '4000');"
          "SELECT id, checked(CASE WHEN id = 3000 THEN 'bad-3000' ELSE 'ok' END) FROM seq;",
      120000);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("User-defined function 'checked' failed: invalid code 'bad-3000'"));
  // Every worker is still registered and serves the next job.
  const std::vector<WorkerRow> workers =
      WaitForWorkers([](const std::vector<WorkerRow>& rows) { return rows.size() == 3; },
                     std::chrono::seconds(10));
  EXPECT_EQ(workers.size(), 3u);
  const RunResult next = cluster_->Eddy(
      "SET 'parallelism.default' = '3';"
      "CREATE TEMPORARY SYSTEM FUNCTION mask AS 'mask_digits' USING JAR '" +
      kExampleLibrary + "';SELECT mask(CAST(n AS STRING)) FROM (VALUES (12), (3)) AS t(n);");
  ASSERT_EQ(next.exit_code, 0) << next.err;
  EXPECT_THAT(next.out, HasSubstr("| +I |"));
  EXPECT_THAT(next.out, HasSubstr("**"));
}

}  // namespace
}  // namespace eddy::testing

namespace eddy::testing {
namespace {

// A copy of the example library at `dir`/lib/`file`, which a test may remove; its path.
std::string CopyOfExampleLibrary(const std::string& dir, const std::string& file) {
  std::filesystem::create_directories(dir + "/lib");
  const std::string library = dir + "/lib/" + file;
  std::filesystem::copy_file(kExampleLibrary, library);
  return library;
}

// The catalog tests kill no worker: one, on the loopback network.
ClusterOptions OneLoopbackWorker() {
  ClusterOptions options;
  options.workers = 1;
  options.isolate_workers = false;
  return options;
}

// A permanent function keeps its library in the catalog: after the file is gone and the
// coordinator restarted on its data dir, other sessions still call it on the workers.
TEST(UdfCatalogTest, APermanentFunctionOutlivesItsFileAndACoordinatorRestart) {
  const std::string dir = FreshTestDir("udf-catalog");
  const std::string library = CopyOfExampleLibrary(dir, "libkept.so");
  const ClusterOptions options = OneLoopbackWorker();
  {
    ProcessCluster cluster(dir, options);
    ASSERT_TRUE(cluster.ok()) << cluster.error();
    RunResult created =
        cluster.Eddy("CREATE FUNCTION mask AS 'mask_digits' LANGUAGE CPP USING JAR '" + library +
                     "'; CREATE TEMPORARY FUNCTION gone AS 'mask_digits' "
                     "USING JAR '" +
                     library + "';");
    ASSERT_EQ(created.exit_code, 0) << created.err;
  }
  std::filesystem::remove(library);
  ProcessCluster restarted(dir, options);
  ASSERT_TRUE(restarted.ok()) << restarted.error();
  RunResult listed = restarted.Eddy("SHOW USER FUNCTIONS;");
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("mask"));
  EXPECT_THAT(listed.out, ::testing::Not(HasSubstr("gone")));
  RunResult called = restarted.Eddy("SELECT mask('card 42');");
  ASSERT_EQ(called.exit_code, 0) << called.err;
  EXPECT_THAT(called.out, HasSubstr("card **"));
  std::filesystem::remove_all(dir);
}

// ALTER FUNCTION gives a catalog function a new symbol, found in the library it already has (whose
// file is gone by then), and the new definition is what survives a coordinator restart. DESCRIBE
// FUNCTION shows the definition as Flink shows a function's.
TEST(UdfCatalogTest, AnAlteredFunctionKeepsItsLibraryAndItsNewSymbolAcrossARestart) {
  const std::string dir = FreshTestDir("udf-alter");
  const std::string library = CopyOfExampleLibrary(dir, "libaltered.so");
  const ClusterOptions options = OneLoopbackWorker();
  {
    ProcessCluster cluster(dir, options);
    ASSERT_TRUE(cluster.ok()) << cluster.error();
    RunResult created = cluster.Eddy(
        "CREATE FUNCTION fmt AS 'mask_digits' USING JAR '" + library +
        "'; CREATE TEMPORARY FUNCTION tmp AS 'mask_digits' USING JAR '" + library + "';");
    ASSERT_EQ(created.exit_code, 0) << created.err;
    std::filesystem::remove(library);
    RunResult altered = cluster.Eddy(
        "ALTER FUNCTION fmt AS 'checked_code'; ALTER FUNCTION IF EXISTS nope AS 'x';"
        "DESCRIBE FUNCTION EXTENDED fmt; SELECT fmt('ab12') AS v;");
    ASSERT_EQ(altered.exit_code, 0) << altered.err;
    EXPECT_THAT(altered.out, HasSubstr("| class name        | checked_code"));
    EXPECT_THAT(altered.out,
                HasSubstr("| resource uris     | ResourceUri{resourceType=JAR, uri='" + library));
    EXPECT_THAT(altered.out, HasSubstr("| kind              | SCALAR"));
    EXPECT_THAT(altered.out, HasSubstr("| signature         | fmt(<STRING>)"));
    EXPECT_THAT(altered.out, HasSubstr("AB12"));
    RunResult missing = cluster.Eddy("ALTER FUNCTION nope AS 'checked_code';");
    EXPECT_THAT(missing.err, HasSubstr("Function default_catalog.default_database.nope does not "
                                       "exist"));
    RunResult absent = cluster.Eddy("ALTER FUNCTION fmt AS 'no_such_symbol';");
    EXPECT_THAT(absent.err, HasSubstr("exports no function 'no_such_symbol'"));
  }
  ProcessCluster restarted(dir, options);
  ASSERT_TRUE(restarted.ok()) << restarted.error();
  RunResult called = restarted.Eddy("SELECT fmt('xy7') AS v; DESCRIBE FUNCTION fmt;");
  ASSERT_EQ(called.exit_code, 0) << called.err;
  EXPECT_THAT(called.out, HasSubstr("XY7"));
  EXPECT_THAT(called.out, HasSubstr("| temporary         | false"));
  std::filesystem::remove_all(dir);
}

// SHOW JARS lists the libraries ADD JAR added, once each, in order; REMOVE JAR takes one away
// (tests/sql/udf/jars.test has the rest of the JAR statements).
TEST(UdfJarsTest, ShowJarsListsTheAddedLibrariesOnceEach) {
  const std::string dir = FreshTestDir("udf-jars");
  std::filesystem::create_directories(dir);
  const std::string copy = dir + "/libcopy.so";
  std::filesystem::copy_file(kExampleLibrary, copy);
  const RunResult r = RunToCompletion(
      {EddyBinary("eddy"), "-e",
       "ADD JAR '" + kExampleLibrary + "'; ADD JAR '" + copy + "'; ADD JAR '" + kExampleLibrary +
           "'; SHOW JARS; REMOVE JAR '" + kExampleLibrary + "'; SHOW JARS;"},
      dir, 60000);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t first = r.out.find("| " + kExampleLibrary + " ");
  const size_t second = r.out.find("| " + copy + " ");
  ASSERT_NE(first, std::string::npos) << r.out;
  ASSERT_NE(second, std::string::npos) << r.out;
  EXPECT_LT(first, second) << r.out;
  EXPECT_THAT(r.out, HasSubstr("2 rows in set"));
  EXPECT_EQ(r.out.find("| " + kExampleLibrary + " ", first + 1), std::string::npos) << r.out;
  EXPECT_THAT(r.out, HasSubstr("1 row in set"));
}

}  // namespace
}  // namespace eddy::testing
