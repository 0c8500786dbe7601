// The filesystem connector through the real binaries: the eddy CLI's embedded cluster reads CSV and
// JSON files and writes part-<job id>-<subtask>-<n> files with exact contents; an interrupted job
// leaves no file at all; and on a cluster of processes each worker enforces its own
// --filesystem-allowed-dirs even where the coordinator allows more.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

namespace fs = std::filesystem;

void WriteFile(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class FilesystemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshTestDir("fs-" + CurrentTestName());
    fs::create_directories(dir_);
    dir_ = fs::canonical(dir_).string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // eddy -f on an embedded cluster allowed to use dir_.
  RunResult Eddy(const std::string& sql, std::vector<std::string> extra = {}) {
    WriteFile(dir_ + "/job.sql", sql);
    std::vector<std::string> argv = {EddyBinary("eddy"), "-f", dir_ + "/job.sql",
                                     "--filesystem-allowed-dirs", dir_};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return RunToCompletion(argv, dir_);
  }

  std::string dir_;
};

TEST_F(FilesystemTest, CliReadsAndWritesCsvAndJsonFiles) {
  WriteFile(dir_ + "/in/orders.csv",
            "id,item,price,at\n"
            "1,\"pen, blue\",1.50,2024-01-31 10:00:00\n"
            "2,\"the \"\"best\"\" ink\",12.25,2024-01-31 10:00:00.250\n"
            "3,,0.10,\n");
  const std::string sql =
      "CREATE TABLE orders (id BIGINT, item STRING, price DECIMAL(10, 2), at TIMESTAMP(3)) WITH ("
      "'connector' = 'filesystem', 'path' = '" +
      dir_ +
      "/in/orders.csv', 'format' = 'csv', "
      "'csv.ignore-first-line' = 'true');\n"
      "CREATE TABLE as_json (id BIGINT, item STRING, total DECIMAL(10, 2), at TIMESTAMP(3)) WITH ("
      "'connector' = 'filesystem', 'path' = '" +
      dir_ +
      "/out/json', 'format' = 'json');\n"
      "INSERT INTO as_json SELECT id, item, price * 2, at FROM orders;\n"
      "CREATE TABLE from_json (id BIGINT, item STRING, total DECIMAL(10, 2), at TIMESTAMP(3)) WITH "
      "("
      "'connector' = 'filesystem', 'path' = '" +
      dir_ +
      "/out/json', 'format' = 'json');\n"
      "CREATE TABLE as_csv (item STRING, total DECIMAL(10, 2)) WITH ("
      "'connector' = 'filesystem', 'path' = '" +
      dir_ +
      "/out/csv', 'format' = 'csv', "
      "'csv.field-delimiter' = ';');\n"
      "INSERT INTO as_csv SELECT item, total FROM from_json WHERE total > 1;\n";
  RunResult r = Eddy(sql);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string first_job = JobIdIn(r.err);
  ASSERT_FALSE(first_job.empty()) << r.err;
  EXPECT_EQ(ListDirectory(dir_ + "/out/json"),
            (std::vector<std::string>{"part-" + first_job + "-0-0.json"}));
  EXPECT_EQ(ReadFileToString(dir_ + "/out/json/part-" + first_job + "-0-0.json"),
            "{\"id\":1,\"item\":\"pen, blue\",\"total\":3.00,\"at\":\"2024-01-31 10:00:00\"}\n"
            "{\"id\":2,\"item\":\"the \\\"best\\\" ink\",\"total\":24.50,"
            "\"at\":\"2024-01-31 10:00:00.25\"}\n"
            "{\"id\":3,\"item\":\"\",\"total\":0.20,\"at\":null}\n");
  const std::vector<std::string> csv = ListDirectory(dir_ + "/out/csv");
  ASSERT_EQ(csv.size(), 1u);
  EXPECT_NE(csv[0], "part-" + first_job + "-0-0.csv");
  EXPECT_EQ(ReadFileToString(dir_ + "/out/csv/" + csv[0]),
            "pen, blue;3.00\n"
            "\"the \"\"best\"\" ink\";24.50\n");
}

TEST_F(FilesystemTest, InterruptedJobLeavesNoFile) {
  // An endless source: the sink never sees the end of its input.
  WriteFile(dir_ + "/job.sql",
            "CREATE TABLE ticks (id BIGINT, name STRING) WITH ('connector' = 'datagen', "
            "'rows-per-second' = '20000');\n"
            "CREATE TABLE out (id BIGINT, name STRING) WITH ('connector' = 'filesystem', "
            "'path' = '" +
                dir_ +
                "/out', 'format' = 'csv');\n"
                "INSERT INTO out SELECT * FROM ticks;\n");
  Subprocess eddy = Subprocess::Start(
      {EddyBinary("eddy"), "-f", dir_ + "/job.sql", "--filesystem-allowed-dirs", dir_},
      dir_ + "/eddy.out", dir_ + "/eddy.err");
  ASSERT_TRUE(eddy.started());
  // Wait until the in-progress file has more than one flush of rows in it.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::string in_progress;
  while (std::chrono::steady_clock::now() < deadline) {
    for (const auto& name : ListDirectory(dir_ + "/out")) {
      std::error_code ec;
      if (name[0] == '.' && fs::file_size(dir_ + "/out/" + name, ec) > 0) in_progress = name;
    }
    if (!in_progress.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_FALSE(in_progress.empty()) << ReadFileToString(dir_ + "/eddy.err");
  EXPECT_NE(in_progress.find(".inprogress"), std::string::npos) << in_progress;
  eddy.Signal(SIGINT);
  EXPECT_EQ(eddy.Wait(60000), 130) << ReadFileToString(dir_ + "/eddy.err");
  EXPECT_TRUE(ListDirectory(dir_ + "/out").empty());
}

TEST_F(FilesystemTest, WorkersEnforceTheirOwnAllowedDirectories) {
  const std::string worker_dir = dir_ + "/worker-allowed";
  WriteFile(worker_dir + "/in.csv", "a,1\nb,2\n");
  ClusterOptions options;
  options.workers = 2;
  options.isolate_workers = false;
  options.coordinator_args = {"--filesystem-allowed-dirs", dir_};
  options.worker_args = {"--filesystem-allowed-dirs", worker_dir};
  ProcessCluster cluster(dir_ + "/cluster", options);
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  const std::string ddl =
      "CREATE TEMPORARY TABLE src (w STRING, n INT) WITH ('connector' = 'filesystem', "
      "'path' = '" +
      worker_dir +
      "/in.csv', 'format' = 'csv');"
      "CREATE TEMPORARY TABLE good (w STRING, n INT) WITH ('connector' = 'filesystem', "
      "'path' = '" +
      worker_dir +
      "/out', 'format' = 'csv');"
      "CREATE TEMPORARY TABLE coordinator_only (w STRING, n INT) WITH ("
      "'connector' = 'filesystem', 'path' = '" +
      dir_ +
      "/elsewhere', 'format' = 'csv');"
      "CREATE TEMPORARY TABLE nowhere (w STRING, n INT) WITH ("
      "'connector' = 'filesystem', 'path' = '/tmp', 'format' = 'csv');"
      "SET 'table.dml-sync' = 'true';";
  RunResult ok = cluster.Eddy(ddl + "INSERT INTO good SELECT * FROM src;");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const std::vector<std::string> files = ListDirectory(worker_dir + "/out");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(ReadFileToString(worker_dir + "/out/" + files[0]), "a,1\nb,2\n");
  // The coordinator allows the path, the worker does not: the deployment is refused.
  RunResult refused = cluster.Eddy(ddl + "INSERT INTO coordinator_only SELECT * FROM src;");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("filesystem sink for table "
                             "'default_catalog.default_database.coordinator_only': path '" +
                             dir_ +
                             "/elsewhere' is outside the directories this worker allows "
                             "(--filesystem-allowed-dirs: '" +
                             worker_dir + "')"),
            std::string::npos)
      << refused.err;
  EXPECT_FALSE(fs::exists(dir_ + "/elsewhere"));
  // Neither allows it: the coordinator refuses it when planning.
  RunResult planned = cluster.Eddy(ddl + "INSERT INTO nowhere SELECT * FROM src;");
  EXPECT_NE(planned.exit_code, 0);
  EXPECT_NE(planned.err.find("Validation error: path '/tmp' of filesystem table "
                             "'default_catalog.default_database.nowhere' is outside the "
                             "directories this server allows"),
            std::string::npos)
      << planned.err;
  // The workers keep serving.
  RunResult again = cluster.Eddy(ddl + "INSERT INTO good SELECT * FROM src;");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(ListDirectory(worker_dir + "/out").size(), 2u);
}

}  // namespace
}  // namespace eddy::testing
