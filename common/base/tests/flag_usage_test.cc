// FlagUsage: the --help text from absl's registry, as users type the flags.
#include "common/base/flag_usage.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/flags/flag.h"

ABSL_FLAG(std::string, usage_test_file, "", "run the SQL script in FILE");
ABSL_FLAG(int, usage_test_timeout_ms, 10000, "a worker silent for this long is lost");
ABSL_FLAG(bool, usage_test_quiet, false, "log less");
ABSL_FLAG(bool, usage_test_color, true, "color the output");

namespace eddy {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr FlagAlias kAliases[] = {{'f', "usage_test_file"}};

TEST(FlagUsageTest, ListsFlagsWithDashesAliasesHelpAndDefaults) {
  const std::string usage = FlagUsage("eddy", kAliases);
  EXPECT_THAT(usage, StartsWith("Usage: eddy [flags]\n"));
  EXPECT_THAT(usage, HasSubstr("\n  -f, --usage-test-file VALUE  run the SQL script in FILE\n"));
  EXPECT_THAT(usage, HasSubstr("\n  --usage-test-timeout-ms VALUE  a worker silent for this long "
                               "is lost (default 10000)\n"));
  EXPECT_THAT(usage, HasSubstr("\n  --usage-test-quiet  log less\n"));
  EXPECT_THAT(usage, HasSubstr("\n  --usage-test-color  color the output (default true)\n"));
  EXPECT_THAT(usage, Not(HasSubstr("usage_test")));
  EXPECT_LT(usage.find("--usage-test-file"), usage.find("--usage-test-timeout-ms"));
}

TEST(FlagUsageTest, HelpIsABooleanWithoutDefaultAndAliasesAreNotLongFlags) {
  const std::string usage = FlagUsage("eddy", kAliases);
  EXPECT_THAT(usage, HasSubstr("\n  --help  show this help\n"));
  EXPECT_THAT(usage, Not(HasSubstr("--help VALUE")));
  EXPECT_THAT(usage, Not(HasSubstr("show this help (default")));
  EXPECT_THAT(usage, Not(HasSubstr("--f ")));
  EXPECT_THAT(usage, Not(HasSubstr("--f,")));
}

TEST(FlagUsageTest, LeavesOutAbslsOwnFlagsButNamesHelpfullAndFlagfile) {
  const std::string usage = FlagUsage("eddy", kAliases);
  for (const char* absl_flag : {"--flagfile VALUE", "--fromenv", "--tryfromenv", "--undefok"}) {
    EXPECT_THAT(usage, Not(HasSubstr(absl_flag)));
  }
  EXPECT_THAT(usage, HasSubstr("\n  --helpfull  "));
  EXPECT_THAT(usage, HasSubstr("\n  --flagfile FILE  "));
}

}  // namespace
}  // namespace eddy
