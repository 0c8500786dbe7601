// FlagSet: long flags, one-letter aliases, unknown flags, and the usage text.
#include "common/base/flags.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace eddy {
namespace {

absl::Status Parse(FlagSet& flags, std::vector<std::string> args) {
  args.insert(args.begin(), "prog");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return flags.Parse(static_cast<int>(argv.size()), argv.data());
}

FlagSet ShellFlags() {
  FlagSet flags;
  flags.Add("file", "", "run the SQL script in FILE");
  flags.AddAlias('f', "file");
  flags.Add("workers", "1", "number of workers");
  flags.Add("help", "", "show this help", true);
  return flags;
}

TEST(FlagSetTest, AliasesAndLongFormsSetTheSameFlag) {
  FlagSet a = ShellFlags();
  ASSERT_TRUE(Parse(a, {"-f", "job.sql", "--workers=3"}).ok());
  EXPECT_EQ(a.Get("file"), "job.sql");
  EXPECT_EQ(*a.GetInt("workers"), 3);
  FlagSet b = ShellFlags();
  ASSERT_TRUE(Parse(b, {"--file", "x.sql"}).ok());
  EXPECT_EQ(b.Get("file"), "x.sql");
  EXPECT_TRUE(b.IsSet("file"));
  EXPECT_FALSE(b.IsSet("workers"));
}

TEST(FlagSetTest, UnknownFlagsAndMissingValuesAreErrors) {
  FlagSet a = ShellFlags();
  EXPECT_EQ(Parse(a, {"--f", "x"}).message(), "unknown flag --f");
  FlagSet b = ShellFlags();
  EXPECT_EQ(Parse(b, {"--workers"}).message(), "flag --workers needs a value");
}

TEST(FlagSetTest, UsageShowsAliasesAndNoDefaultForBooleans) {
  FlagSet flags = ShellFlags();
  const std::string usage = flags.Usage("eddy");
  EXPECT_THAT(usage, ::testing::HasSubstr("  -f, --file VALUE  run the SQL script in FILE\n"));
  EXPECT_THAT(usage, ::testing::HasSubstr("  --help  show this help\n"));
  EXPECT_THAT(usage, ::testing::HasSubstr("  --workers VALUE  number of workers (default 1)\n"));
  EXPECT_THAT(usage, ::testing::Not(::testing::HasSubstr("--f ")));
}

}  // namespace
}  // namespace eddy
