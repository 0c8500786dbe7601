#include "common/base/allowed_paths.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace eddy {
namespace {

namespace fs = std::filesystem;

class AllowedPathsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = (fs::temp_directory_path() / ("eddy-allowed-" + std::to_string(getpid()))).string();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/allowed/sub");
    fs::create_directories(root_ + "/other");
    std::ofstream(root_ + "/other/secret.csv") << "x\n";
    fs::create_symlink(root_ + "/other", root_ + "/allowed/link");
    root_ = *CanonicalFilesystemPath(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  bool Allowed(const std::string& path) {
    auto dirs = ParseFilesystemAllowedDirs(root_ + "/allowed");
    EXPECT_TRUE(dirs.ok());
    auto canonical = CanonicalFilesystemPath(path);
    EXPECT_TRUE(canonical.ok()) << canonical.status();
    return IsUnderAllowedDir(*canonical, *dirs);
  }

  std::string root_;
};

TEST_F(AllowedPathsTest, InsideIsAllowedIncludingPathsThatDoNotExistYet) {
  EXPECT_TRUE(Allowed(root_ + "/allowed"));
  EXPECT_TRUE(Allowed(root_ + "/allowed/"));
  EXPECT_TRUE(Allowed(root_ + "/allowed/sub/a.csv"));
  EXPECT_TRUE(Allowed(root_ + "/allowed/new/dir/out"));
  EXPECT_TRUE(Allowed(root_ + "/allowed/sub/../x.csv"));
}

TEST_F(AllowedPathsTest, DotDotSymlinksAndPrefixesDoNotEscape) {
  EXPECT_FALSE(Allowed(root_ + "/allowed/../other/secret.csv"));
  EXPECT_FALSE(Allowed(root_ + "/allowed/missing/../../other"));
  EXPECT_FALSE(Allowed(root_ + "/allowed/link/secret.csv"));
  EXPECT_FALSE(Allowed(root_ + "/allowed/link"));
  EXPECT_FALSE(Allowed(root_ + "/allowedx/a.csv"));  // a name prefix is not a parent
  EXPECT_FALSE(Allowed("/etc/passwd"));
  EXPECT_FALSE(CanonicalFilesystemPath(std::string("/etc/passwd\0/../../", 20) + root_).ok());
  EXPECT_FALSE(CanonicalFilesystemPath("").ok());
}

TEST_F(AllowedPathsTest, FlagParsing) {
  auto dirs = ParseFilesystemAllowedDirs(" " + root_ + "/allowed/ ,," + root_ + "/other");
  ASSERT_TRUE(dirs.ok());
  EXPECT_EQ(*dirs, (std::vector<std::string>{root_ + "/allowed", root_ + "/other"}));
  auto none = ParseFilesystemAllowedDirs("");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(IsUnderAllowedDir(root_ + "/allowed", *none));
  EXPECT_EQ(DescribeAllowedDirs(*none), "none");
  EXPECT_EQ(DescribeAllowedDirs({"/a", "/b"}), "'/a', '/b'");
  EXPECT_TRUE(IsUnderAllowedDir("/anything", {"/"}));
  EXPECT_EQ(DefaultFilesystemAllowedDir(), *CanonicalFilesystemPath(fs::current_path().string()));
}

}  // namespace
}  // namespace eddy
