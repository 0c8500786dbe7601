#include "common/connectors/filesystem_staging.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "gtest/gtest.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

class FilesystemStagingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/eddy_staging_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << text;
  }
  // The table directory's entries, hidden ones included.
  std::set<std::string> Entries() const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.insert(e.path().filename().string());
    return names;
  }

  std::string dir_;
};

TEST_F(FilesystemStagingTest, OverwriteReplacesTheVisibleFilesWithTheLastAttemptsParts) {
  Write(dir_ + "/old.csv", "1\n");
  Write(dir_ + "/.hidden", "x\n");
  Write(BatchStagingDir(dir_, "job", 0) + "/part-job-0-0.csv", "failed attempt\n");
  Write(BatchStagingDir(dir_, "job", 2) + "/part-job-0-0.csv", "2\n");
  Write(BatchStagingDir(dir_, "job", 2) + "/.part-job-1-0.csv.inprogress.2", "never published\n");
  ASSERT_TRUE(CommitBatchStaging("t", dir_, "job", /*overwrite=*/true).ok());
  EXPECT_EQ(Entries(), (std::set<std::string>{".hidden", "part-job-0-0.csv"}));
  std::ifstream in(dir_ + "/part-job-0-0.csv");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "2");
}

TEST_F(FilesystemStagingTest, AppendKeepsTheTableAndNothingStagedLeavesItAsItWas) {
  Write(dir_ + "/old.csv", "1\n");
  Write(BatchStagingDir(dir_, "job", 1) + "/part-job-0-0.csv", "2\n");
  ASSERT_TRUE(CommitBatchStaging("t", dir_, "job", /*overwrite=*/false).ok());
  EXPECT_EQ(Entries(), (std::set<std::string>{"old.csv", "part-job-0-0.csv"}));
  ASSERT_TRUE(CommitBatchStaging("t", dir_, "other", /*overwrite=*/false).ok());
  EXPECT_EQ(Entries(), (std::set<std::string>{"old.csv", "part-job-0-0.csv"}));
  // An overwrite whose job wrote no row empties the table, as its query's result is empty.
  ASSERT_TRUE(CommitBatchStaging("t", dir_, "empty", /*overwrite=*/true).ok());
  EXPECT_EQ(Entries(), std::set<std::string>{});
}

TEST_F(FilesystemStagingTest, DiscardRemovesOnlyTheJobsStaging) {
  Write(dir_ + "/old.csv", "1\n");
  Write(BatchStagingDir(dir_, "job", 0) + "/part-job-0-0.csv", "2\n");
  DiscardBatchStaging(dir_, "job");
  DiscardBatchStaging(dir_, "never-ran");
  EXPECT_EQ(Entries(), std::set<std::string>{"old.csv"});
}

}  // namespace
}  // namespace eddy
