// TranslateCommandLine: dashed names and one-letter aliases to absl's spelling, and the errors
// that name a flag as the user spelled it.
#include "common/base/command_line.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"

ABSL_FLAG(std::string, file, "", "run the SQL script in FILE");
ABSL_FLAG(std::optional<std::string>, execute, std::nullopt, "run the given SQL statements");
ABSL_FLAG(int, workers, 1, "number of workers");
ABSL_FLAG(int, heartbeat_timeout_ms, 10000, "a worker silent for this long is lost");
ABSL_FLAG(bool, verbose, false, "log more");

namespace eddy {
namespace {

using ::testing::ElementsAre;

constexpr FlagAlias kAliases[] = {{'f', "file"}, {'e', "execute"}};

absl::StatusOr<TranslatedCommandLine> Translate(std::vector<std::string> args) {
  args.insert(args.begin(), "prog");
  return TranslateCommandLine(args, kAliases);
}

std::vector<std::string> Args(std::vector<std::string> args) {
  auto t = Translate(std::move(args));
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? t->args : std::vector<std::string>{};
}

std::string Error(std::vector<std::string> args) {
  auto t = Translate(std::move(args));
  EXPECT_FALSE(t.ok());
  return t.ok() ? "" : std::string(t.status().message());
}

TEST(TranslateCommandLineTest, AliasesAndLongFormsSetTheSameFlag) {
  EXPECT_THAT(Args({"-f", "job.sql", "--workers=3"}),
              ElementsAre("prog", "--file=job.sql", "--workers=3"));
  EXPECT_THAT(Args({"--file", "x.sql", "--workers", "3"}),
              ElementsAre("prog", "--file=x.sql", "--workers=3"));
  EXPECT_THAT(Args({"-e", "SELECT 1;", "-f=job.sql"}),
              ElementsAre("prog", "--execute=SELECT 1;", "--file=job.sql"));
}

TEST(TranslateCommandLineTest, DashedNamesBecomeAbslNames) {
  EXPECT_THAT(Args({"--heartbeat-timeout-ms", "5000"}),
              ElementsAre("prog", "--heartbeat_timeout_ms=5000"));
  EXPECT_THAT(Args({"--heartbeat-timeout-ms=5000"}),
              ElementsAre("prog", "--heartbeat_timeout_ms=5000"));
  EXPECT_THAT(Args({"--heartbeat_timeout_ms=5000"}),
              ElementsAre("prog", "--heartbeat_timeout_ms=5000"));
  EXPECT_THAT(Args({"-heartbeat-timeout-ms=5000"}),
              ElementsAre("prog", "--heartbeat_timeout_ms=5000"));
}

TEST(TranslateCommandLineTest, ValuesAreKeptAsGiven) {
  EXPECT_THAT(Args({"--file", "--not-a-flag", "-e", "-- comment\nSELECT 1;"}),
              ElementsAre("prog", "--file=--not-a-flag", "--execute=-- comment\nSELECT 1;"));
  EXPECT_THAT(Args({"--file=a-b=c", "--file", ""}), ElementsAre("prog", "--file=a-b=c", "--file="));
}

TEST(TranslateCommandLineTest, UnknownFlagsAndMissingValuesAreNamedAsSpelled) {
  EXPECT_EQ(Error({"--f", "x"}), "unknown flag --f");
  EXPECT_EQ(Error({"--e=x"}), "unknown flag --e");
  EXPECT_EQ(Error({"-x"}), "unknown flag -x");
  EXPECT_EQ(Error({"--heartbeat-timeout-msx=1"}), "unknown flag --heartbeat-timeout-msx");
  EXPECT_EQ(Error({"--workers"}), "flag --workers needs a value");
  EXPECT_EQ(Error({"-f"}), "flag -f needs a value");
  EXPECT_EQ(Error({"--no-workers"}), "unknown flag --no-workers");
}

TEST(TranslateCommandLineTest, BadValuesAreNamedWithTheFlag) {
  EXPECT_EQ(Error({"--heartbeat-timeout-ms", "soon"}),
            "flag --heartbeat-timeout-ms expects an integer, got 'soon'");
  EXPECT_EQ(Error({"--workers="}), "flag --workers expects an integer, got ''");
  EXPECT_EQ(Error({"--workers=99999999999"}),
            "flag --workers expects an integer, got '99999999999'");
  EXPECT_EQ(Error({"--verbose=maybe"}), "flag --verbose expects true or false, got 'maybe'");
  EXPECT_EQ(Error({"--help=maybe"}), "flag --help expects true or false, got 'maybe'");
  // An empty value would leave an optional flag unset: an error rather than ignored.
  EXPECT_EQ(Error({"-e", ""}), "flag -e needs a value");
  EXPECT_EQ(Error({"--execute="}), "flag --execute needs a value");
}

TEST(TranslateCommandLineTest, BooleansTakeNoSeparateValue) {
  EXPECT_THAT(Args({"--verbose", "extra"}), ElementsAre("prog", "--verbose", "extra"));
  EXPECT_THAT(Args({"--verbose=false", "--noverbose"}),
              ElementsAre("prog", "--verbose=false", "--noverbose"));
  EXPECT_EQ(Error({"--noverbose=true"}), "flag --noverbose takes no value");
}

TEST(TranslateCommandLineTest, HelpIsTakenOutAndAbslsOwnFlagsPassThrough) {
  auto help = Translate({"--workers=2", "--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_TRUE(help->help);
  EXPECT_THAT(help->args, ElementsAre("prog", "--workers=2"));
  EXPECT_FALSE(Translate({"--help=false"})->help);
  EXPECT_FALSE(Translate({"--workers=2"})->help);
  EXPECT_THAT(Args({"--helpfull"}), ElementsAre("prog", "--helpfull"));
  EXPECT_THAT(Args({"--flagfile", "flags.txt"}), ElementsAre("prog", "--flagfile=flags.txt"));
}

TEST(TranslateCommandLineTest, PositionalArgumentsAndEverythingAfterDoubleDashPassThrough) {
  EXPECT_THAT(Args({"a", "-", "--workers=2", "--", "--workers", "-f"}),
              ElementsAre("prog", "a", "-", "--workers=2", "--", "--workers", "-f"));
}

TEST(TranslateCommandLineTest, AbslParsesTheTranslatedCommandLine) {
  auto t = Translate({"-f", "job.sql", "--heartbeat-timeout-ms", "5000", "-e", "SELECT 1;", "pos"});
  ASSERT_TRUE(t.ok()) << t.status();
  std::vector<char*> argv;
  for (std::string& arg : t->args) argv.push_back(arg.data());
  std::vector<char*> positional =
      absl::ParseCommandLine(static_cast<int>(argv.size()), argv.data());
  EXPECT_EQ(absl::GetFlag(FLAGS_file), "job.sql");
  EXPECT_EQ(absl::GetFlag(FLAGS_heartbeat_timeout_ms), 5000);
  EXPECT_EQ(absl::GetFlag(FLAGS_execute), "SELECT 1;");
  EXPECT_EQ(absl::GetFlag(FLAGS_workers), 1);
  ASSERT_EQ(positional.size(), 2u);
  EXPECT_STREQ(positional[1], "pos");
  absl::SetFlag(&FLAGS_file, "");
  absl::SetFlag(&FLAGS_heartbeat_timeout_ms, 10000);
  absl::SetFlag(&FLAGS_execute, std::nullopt);
}

TEST(DashedFlagNameTest, UnderscoresBecomeDashes) {
  EXPECT_EQ(DashedFlagName("heartbeat_timeout_ms"), "--heartbeat-timeout-ms");
  EXPECT_EQ(DashedFlagName("port"), "--port");
}

}  // namespace
}  // namespace eddy
