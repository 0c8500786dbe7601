// The binaries' command lines as users type them: --help lists each binary's flags with dashes,
// unknown flags and bad values are named as typed and exit with status 2, dashed names, the
// shell's -e/-f and both `--name value` and `--name=value` work, and absl's --flagfile and
// --helpfull are there.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

class CommandLineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshTestDir("command-line-" + CurrentTestName());
    std::filesystem::create_directories(dir_);
  }
  RunResult Run(const std::string& binary, std::vector<std::string> args) {
    args.insert(args.begin(), EddyBinary(binary));
    return RunToCompletion(args, dir_, 60000);
  }
  std::string dir_;
};

TEST_F(CommandLineTest, HelpListsEachBinarysFlagsAsTyped) {
  for (const char* binary :
       {"eddy", "eddy-coordinator", "eddy-worker", "eddy-bench", "eddy-bench-checkpoints"}) {
    RunResult r = Run(binary, {"--help"});
    EXPECT_EQ(r.exit_code, 0) << binary << r.err;
    EXPECT_THAT(r.out, StartsWith(std::string("Usage: ") + binary + " [flags]\n"));
    EXPECT_THAT(r.out, HasSubstr("\n  --help  show this help\n")) << binary;
    EXPECT_THAT(r.out, HasSubstr("\n  --helpfull  ")) << binary;
    EXPECT_THAT(r.out, HasSubstr("\n  --flagfile FILE  ")) << binary;
    EXPECT_THAT(r.out, Not(HasSubstr("(default true)"))) << binary;
    EXPECT_THAT(r.out, Not(HasSubstr("--flagfile VALUE"))) << binary;  // absl's flags: not listed
    // Every listed flag is spelled with dashes.
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      EXPECT_FALSE(std::regex_search(line, std::regex("^  (-., )?--[a-z-]*_"))) << line;
    }
  }
  RunResult coordinator = Run("eddy-coordinator", {"--help"});
  EXPECT_THAT(coordinator.out, HasSubstr("\n  --heartbeat-timeout-ms VALUE  a worker silent for "
                                         "this long is lost (default 10000)\n"));
  EXPECT_THAT(coordinator.out, HasSubstr("\n  --checkpoints-dir VALUE  "));
  EXPECT_THAT(coordinator.out, HasSubstr("\n  --filesystem-allowed-dirs VALUE  "));
  RunResult worker = Run("eddy-worker", {"--help"});
  EXPECT_THAT(worker.out, HasSubstr("\n  --advertise-host VALUE  "));
  EXPECT_THAT(worker.out, HasSubstr("\n  --managed-memory-mb VALUE  "));
  EXPECT_THAT(worker.out, HasSubstr("share of the managed memory) (default -1)\n"));
  RunResult shell = Run("eddy", {"--help"});
  EXPECT_THAT(shell.out, HasSubstr("\n  -e, --execute VALUE  run the given SQL statements\n"));
  EXPECT_THAT(shell.out, HasSubstr("\n  -f, --file VALUE  run the SQL script in FILE\n"));
  EXPECT_THAT(shell.out,
              HasSubstr("\n  --log-level VALUE  trace, debug, info, warn, error, off (default "
                        "warn)\n"));
  EXPECT_THAT(shell.out, Not(HasSubstr("--e VALUE")));
  EXPECT_THAT(shell.out, Not(HasSubstr("--f VALUE")));
}

TEST_F(CommandLineTest, UnknownFlagsAndBadValuesAreNamedAsTypedAndExitWithTwo) {
  struct Case {
    const char* binary;
    std::vector<std::string> args;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"eddy-coordinator",
       {"--heartbeat-timeout-ms", "soon"},
       "eddy-coordinator: flag --heartbeat-timeout-ms expects an integer, got 'soon'\n"},
      {"eddy-coordinator",
       {"--jobstore-expiration-time", "a while"},
       "eddy-coordinator: --jobstore-expiration-time must be seconds or a duration such as "
       "'30 min', got 'a while'\n"},
      {"eddy-coordinator",
       {"--jobstore-max-capacity", "-1"},
       "eddy-coordinator: --jobstore-max-capacity must be 0 or more, got -1\n"},
      {"eddy-worker",
       {"--heartbeat-timeout-ms=5000"},
       "eddy-worker: unknown flag --heartbeat-timeout-ms\n"},
      {"eddy-worker", {"--state-cache-mb"}, "eddy-worker: flag --state-cache-mb needs a value\n"},
      {"eddy-worker", {"stray"}, "eddy-worker: unexpected argument 'stray' (see --help)\n"},
      {"eddy", {"--f", "job.sql"}, "eddy: unknown flag --f\n"},
      {"eddy", {"-e"}, "eddy: flag -e needs a value\n"},
      {"eddy", {"-e", ""}, "eddy: flag -e needs a value\n"},
      {"eddy",
       {"--workers=two", "-e", "SELECT 1;"},
       "eddy: flag --workers expects an integer, got 'two'\n"},
      {"eddy", {"--help=maybe"}, "eddy: flag --help expects true or false, got 'maybe'\n"},
      {"eddy", {"stray"}, "eddy: unexpected argument 'stray' (see --help)\n"},
      {"eddy",
       {"--coordinator", "localhost", "--managed-memory-mb", "64", "-e", "SELECT 1;"},
       "eddy: --managed-memory-mb applies to the embedded cluster, not to --coordinator\n"},
      {"eddy",
       {"--managed-memory-mb", "-5", "-e", "SELECT 1;"},
       "eddy: --managed-memory-mb must be >= 0\n"},
      {"eddy-worker",
       {"--managed-memory-mb", "-2"},
       "eddy-worker: --managed-memory-mb must be >= 0 (or -1), got -2\n"},
      {"eddy-bench",
       {"--rows", "many"},
       "eddy-bench: flag --rows expects an integer, got 'many'\n"},
  };
  for (const Case& c : cases) {
    RunResult r = Run(c.binary, c.args);
    EXPECT_EQ(r.exit_code, 2) << c.binary << " " << c.args[0] << r.err;
    EXPECT_THAT(r.err, StartsWith(c.error)) << c.binary << " " << c.args[0];
  }
}

TEST_F(CommandLineTest, DashedNamesAliasesAndBothValueFormsRun) {
  std::ofstream(dir_ + "/job.sql") << "SELECT 'from a file' AS s;\n";
  RunResult file = Run("eddy", {"--slots", "2", "--log-level=warn", "-f", dir_ + "/job.sql"});
  EXPECT_EQ(file.exit_code, 0) << file.err;
  EXPECT_THAT(file.out, HasSubstr("from a file"));
  RunResult execute = Run("eddy", {"--workers=1", "--data-dir", dir_ + "/data", "--execute",
                                   "SELECT 'from the command line' AS s;"});
  EXPECT_EQ(execute.exit_code, 0) << execute.err;
  EXPECT_THAT(execute.out, HasSubstr("from the command line"));
}

// A script runs statement by statement, as Flink's client runs a file: the statements before a
// failing one run, nothing after it does, and the error's position counts from its own statement.
TEST_F(CommandLineTest, AScriptRunsUpToItsFirstFailingStatement) {
  std::ofstream(dir_ + "/job.sql") << "SELECT 'before' AS s;\n"
                                      "\n"
                                      "-- the failing one:\n"
                                      "SELECT 1\n"
                                      "  FROM nowhere;\n"
                                      "SELECT 'after' AS s;\n";
  RunResult r = Run("eddy", {"--log-level=warn", "-f", dir_ + "/job.sql"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("before"));
  EXPECT_THAT(r.out, Not(HasSubstr("after")));
  EXPECT_THAT(r.err, HasSubstr("Validation error at line 2, column 8: table "
                               "'default_catalog.default_database.nowhere' not found"));
}

// A script that ends inside BEGIN STATEMENT SET; without END; submits nothing and says so.
TEST_F(CommandLineTest, AScriptEndingInsideAStatementSetFailsAndSubmitsNothing) {
  RunResult r = Run("eddy", {"--log-level=warn", "-e",
                             "CREATE TABLE o (x INT) WITH ('connector' = 'print');\n"
                             "BEGIN STATEMENT SET;\n"
                             "INSERT INTO o VALUES (1);\n"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("The input ended inside a statement set: \"BEGIN STATEMENT SET;\" "
                               "has no \"END;\", so its 1 INSERT statement(s) were not "
                               "submitted."));
  EXPECT_THAT(r.err, Not(HasSubstr("Job ID")));
  EXPECT_THAT(r.out, Not(HasSubstr("+I[1]")));
}

// -i FILE sets the session up before the script (or the shell), quietly; a statement that starts a
// job there, or a failing one, stops eddy before the script runs, showing what the file printed.
TEST_F(CommandLineTest, AnInitializationFileSetsTheSessionUpBeforeTheScript) {
  std::ofstream(dir_ + "/init.sql") << "SET 'sql-client.execution.result-mode' = 'tableau';\n"
                                       "CREATE TEMPORARY VIEW greeting AS SELECT 'hello' AS word;\n"
                                       "SHOW TABLES;\n";
  RunResult r = Run(
      "eddy", {"--log-level=warn", "-i", dir_ + "/init.sql", "-e", "SELECT word FROM greeting;"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("| +I |                          hello |"));
  EXPECT_THAT(r.out, Not(HasSubstr("table name")));  // SHOW TABLES in the init file is quiet
  EXPECT_THAT(r.err, Not(HasSubstr("Execute statement succeeded")));

  std::ofstream(dir_ + "/query.sql") << "CREATE TEMPORARY VIEW v AS SELECT 1 AS x;\n"
                                        "SELECT x FROM v;\n";
  r = Run("eddy", {"--log-level=warn", "-i", dir_ + "/query.sql", "-e", "SELECT 'script' AS s;"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[INFO] Execute statement succeeded."));  // shown on failure
  EXPECT_THAT(r.err, HasSubstr("The initialization file '" + dir_ +
                               "/query.sql' may not contain a query, an INSERT or anything else "
                               "that starts a job (as Flink's SQL client): 'SELECT x FROM v'"));
  EXPECT_THAT(r.out, Not(HasSubstr("script")));

  std::ofstream(dir_ + "/broken.sql") << "CREATE TABLE t (a INT) WITH ('connector' = 'nope');\n";
  r = Run("eddy", {"--log-level=warn", "-i", dir_ + "/broken.sql", "-e", "SELECT 'script' AS s;"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("unknown connector 'nope'"));
  EXPECT_THAT(r.out, Not(HasSubstr("script")));

  r = Run("eddy", {"--log-level=warn", "-i", dir_ + "/missing.sql", "-e", "SELECT 1;"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("cannot read SQL file '" + dir_ + "/missing.sql'"));
}

TEST_F(CommandLineTest, FlagfileAndHelpfullComeFromAbsl) {
  std::ofstream(dir_ + "/flags") << "# a flag file: absl's spelling, one flag a line\n"
                                    "--execute=SELECT 'from a flag file' AS s;\n"
                                    "--log_level=warn\n";
  RunResult r = Run("eddy", {"--flagfile", dir_ + "/flags", "--slots=2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("from a flag file"));
  // absl's list of every flag, in absl's spelling (it exits with status 1 after --helpfull).
  RunResult full = Run("eddy-coordinator", {"--helpfull"});
  EXPECT_THAT(full.out, HasSubstr("--heartbeat_timeout_ms"));
  EXPECT_THAT(full.out, HasSubstr("--flagfile"));
}

}  // namespace
}  // namespace eddy::testing
