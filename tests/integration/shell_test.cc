// The interactive `eddy` shell as users drive it: from a pipe (statements across lines, an error
// that does not end the session, QUIT) and from a pseudo-terminal (prompts, line editing by
// readline, Ctrl-C cancelling a running query but not the shell), each on its embedded cluster.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(ShellTest, StdinSessionRunsStatementsAcrossLinesAndSurvivesErrors) {
  const std::string dir = FreshTestDir("shell-stdin");
  std::filesystem::create_directories(dir);
  const std::string input = dir + "/input.sql";
  std::ofstream(input) << "CREATE TEMPORARY VIEW w AS\n"
                          "  SELECT * FROM (VALUES ('a;b'), ('c'), ('c')) AS t(word);\n"
                          "SELECT nope FROM w;\n"
                          "SELECT word,\n"
                          "       COUNT(*) AS cnt\n"
                          "FROM w GROUP BY word;\n"
                          "QUIT;\n"
                          "SELECT 'after quit';\n";
  RunResult r = RunToCompletion({"/bin/sh", "-c", EddyBinary("eddy") + " < " + input}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[INFO] Execute statement succeeded."));
  EXPECT_THAT(r.err, HasSubstr("[ERROR] Could not execute SQL statement. Reason:\n"
                               "Validation error at line 1, column 8: column 'nope' not found"));
  // The statement after the error ran, with the ';' inside the literal kept.
  EXPECT_THAT(r.out, HasSubstr("| +I |                            a;b |                    1 |\n"
                               "| +I |                              c |                    1 |\n"
                               "| -U |                              c |                    1 |\n"
                               "| +U |                              c |                    2 |\n"));
  EXPECT_THAT(r.out, HasSubstr("Received a total of 4 rows"));
  EXPECT_THAT(r.out, Not(HasSubstr("after quit")));
}

// A REPLACE TABLE ... AS SELECT whose job cannot start (here: an unbounded source in batch mode,
// refused when the job is planned, after the table was replaced) puts the old table back.
TEST(ShellTest, AReplacedTableComesBackWhenTheReplacingJobCannotStart) {
  const std::string dir = FreshTestDir("shell-replace-table");
  std::filesystem::create_directories(dir);
  const std::string input = dir + "/input.sql";
  std::ofstream(input)
      << "SET 'execution.runtime-mode' = 'batch';\n"
         "CREATE TABLE kept (k INT) COMMENT 'old' WITH ('connector' = 'blackhole');\n"
         "CREATE TABLE endless (k BIGINT) WITH ('connector' = 'datagen');\n"
         "REPLACE TABLE kept WITH ('connector' = 'print') AS SELECT k FROM endless;\n"
         "SHOW CREATE TABLE kept;\n";
  RunResult r = RunToCompletion({"/bin/sh", "-c", EddyBinary("eddy") + " < " + input}, dir);
  EXPECT_THAT(r.err, HasSubstr("Querying an unbounded table "
                               "'default_catalog.default_database.endless' in batch mode"));
  EXPECT_THAT(r.out, HasSubstr("CREATE TABLE `default_catalog`.`default_database`.`kept` (\n"
                               "  `k` INT\n"
                               ")\n"
                               "COMMENT 'old'\n"
                               "WITH (\n"
                               "  'connector' = 'blackhole'\n"
                               ")\n"));
  std::filesystem::remove_all(dir);
}

TEST(ShellTest, StdinStatementSetRunsAsOneJob) {
  const std::string dir = FreshTestDir("shell-statement-set");
  std::filesystem::create_directories(dir);
  const std::string input = dir + "/input.sql";
  std::ofstream(input) << "CREATE TEMPORARY TABLE a (x INT) WITH ('connector' = 'print', "
                          "'print-identifier' = 'A');\n"
                          "CREATE TEMPORARY TABLE b (x INT) WITH ('connector' = 'print', "
                          "'print-identifier' = 'B');\n"
                          "EXECUTE STATEMENT SET\n"
                          "BEGIN\n"
                          "  INSERT INTO a SELECT * FROM (VALUES (1), (2)) AS t(x);\n"
                          "  INSERT INTO b SELECT * FROM (VALUES (3)) AS t(x);\n"
                          "END;\n"
                          "SHOW JOBS;\n";
  RunResult r = RunToCompletion({"/bin/sh", "-c", EddyBinary("eddy") + " < " + input}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("[ERROR]")));
  EXPECT_EQ(CountOccurrences(r.err, "Job ID: "), 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("A> +I[1]"));
  EXPECT_THAT(r.out, HasSubstr("A> +I[2]"));
  EXPECT_THAT(r.out, HasSubstr("B> +I[3]"));
  EXPECT_EQ(CountOccurrences(r.out, "FINISHED"), 1) << r.out;
}

TEST(ShellTest, BeginStatementSetCollectsInsertsOneAtATimeUntilEnd) {
  const std::string dir = FreshTestDir("shell-begin-statement-set");
  std::filesystem::create_directories(dir);
  const std::string input = dir + "/input.sql";
  std::ofstream(input) << "CREATE TEMPORARY TABLE a (x INT) WITH ('connector' = 'print', "
                          "'print-identifier' = 'A');\n"
                          "CREATE TEMPORARY TABLE b (x INT) WITH ('connector' = 'print', "
                          "'print-identifier' = 'B');\n"
                          "END;\n"
                          "BEGIN STATEMENT SET;\n"
                          "begin  statement set;\n"
                          "SELECT 1;\n"
                          "INSERT INTO a SELECT * FROM (VALUES (1), (2)) AS t(x);\n"
                          "INSERT INTO b\n  SELECT * FROM (VALUES (3)) AS t(x);\n"
                          "END;\n"
                          "BEGIN STATEMENT SET;\n"
                          "END;\n"
                          "SHOW JOBS;\n";
  RunResult r = RunToCompletion({"/bin/sh", "-c", EddyBinary("eddy") + " < " + input}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string only_inserts =
      "[ERROR] Could not execute SQL statement. Reason:\n"
      "Only INSERT statement is allowed in Statement Set.\n";
  EXPECT_THAT(r.err, HasSubstr("No Statement Set to submit, \"END;\" command should be used "
                               "after \"BEGIN STATEMENT SET;\"."));
  EXPECT_THAT(r.err, HasSubstr("[INFO] Begin a statement set.\n" + only_inserts + only_inserts +
                               "[INFO] Add SQL update statement to the statement set.\n"
                               "[INFO] Add SQL update statement to the statement set.\n"
                               "[INFO] Submitting SQL update statement to the cluster...\n"));
  EXPECT_THAT(r.err, HasSubstr("[INFO] Begin a statement set.\n"
                               "[INFO] No statement in the statement set, skip submit.\n"));
  // The two INSERTs ran as one job; the SELECT inside the set did not run.
  EXPECT_EQ(CountOccurrences(r.err, "Job ID: "), 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("A> +I[1]"));
  EXPECT_THAT(r.out, HasSubstr("A> +I[2]"));
  EXPECT_THAT(r.out, HasSubstr("B> +I[3]"));
  EXPECT_THAT(r.out, Not(HasSubstr("EXPR$0")));
  EXPECT_EQ(CountOccurrences(r.out, "FINISHED"), 1) << r.out;
}

TEST(ShellTest, QuitWithAnUnboundedJobRunningCancelsItAndSaysSo) {
  const std::string dir = FreshTestDir("shell-quit-running");
  std::filesystem::create_directories(dir);
  const std::string input = dir + "/input.sql";
  std::ofstream(input)
      << "CREATE TEMPORARY TABLE ticks (id BIGINT) WITH ('connector' = 'datagen', "
         "'rows-per-second' = '100');\n"
         "CREATE TEMPORARY TABLE sink (id BIGINT) WITH ('connector' = 'blackhole');\n"
         "INSERT INTO sink SELECT id FROM ticks;\n"
         "QUIT;\n";
  RunResult r = RunToCompletion({"/bin/sh", "-c", EddyBinary("eddy") + " < " + input}, dir, 60000);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[INFO] Cancelling 1 job(s) still running on the embedded cluster, "
                               "which stops with this shell:\n  " +
                               JobIdIn(r.err) + "  insert-into_default_catalog"));
}

// A child on a pseudo-terminal, and what it printed so far.
class Terminal {
 public:
  explicit Terminal(const std::vector<std::string>& argv,
                    const std::vector<std::pair<std::string, std::string>>& env = {}) {
    pid_ = forkpty(&fd_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      setenv("HOME", "/nonexistent", 1);  // no history file of the user's
      setenv("TERM", "dumb", 1);
      for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
      execv(args[0], args.data());
      _exit(127);
    }
  }
  // Closes the terminal, as closing its window does: the child gets SIGHUP.
  void Hangup() {
    close(fd_);
    fd_ = -1;
  }
  ~Terminal() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  bool started() const { return pid_ > 0 && fd_ >= 0; }
  void Type(const std::string& keys) { (void)!write(fd_, keys.data(), keys.size()); }
  // Reads until the output since the last call contains `text`, or the timeout; returns it.
  std::string WaitFor(const std::string& text, int timeout_ms = 30000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (pending_.find(text) == std::string::npos &&
           std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[4096];
      ssize_t n = read(fd_, buf, sizeof(buf));
      if (n <= 0) break;
      pending_.append(buf, static_cast<size_t>(n));
    }
    std::string seen;
    size_t at = pending_.find(text);
    if (at == std::string::npos) {
      seen.swap(pending_);
      return seen;
    }
    seen = pending_.substr(0, at + text.size());
    pending_.erase(0, at + text.size());
    return seen;
  }
  int Wait(int timeout_ms = 30000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < deadline) {
      if (fd_ >= 0) {
        WaitFor("\x01", 50);  // drain the terminal so the child never blocks writing
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string pending_;
};

// A bounded INSERT the shell waits for (table.dml-sync) shows its progress on a terminal: rows read
// so far and the time, on one line rewritten in place and erased before the job's last message;
// with stderr not a terminal, no such line.
TEST(ShellTest, AWaitedInsertShowsItsProgressOnATerminalOnly) {
  const std::string dir = FreshTestDir("shell-progress");
  std::filesystem::create_directories(dir);
  const std::string script = dir + "/insert.sql";
  std::ofstream(script)
      << "SET 'table.dml-sync' = 'true';\n"
         "CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'datagen', "
         "'rows-per-second' = '4000', 'number-of-rows' = '16000');\n"
         "CREATE TEMPORARY TABLE snk (id BIGINT) WITH ('connector' = 'blackhole');\n"
         "INSERT INTO snk SELECT id FROM src;\n";
  Terminal t({EddyBinary("eddy"), "-f", script});
  ASSERT_TRUE(t.started());
  const std::string shown =
      t.WaitFor("[INFO] Complete execution of the SQL update statement.", 60000);
  EXPECT_THAT(shown, ::testing::ContainsRegex("\\[INFO\\] Job [0-9a-f]+ RUNNING: [1-9][0-9]* rows "
                                              "read, [0-9]+\\.[0-9] s"));
  EXPECT_THAT(shown, HasSubstr("\r\033[K[INFO] Job "));  // rewritten in place, then erased
  EXPECT_EQ(t.Wait(), 0);

  RunResult piped = RunToCompletion({EddyBinary("eddy"), "-f", script}, dir, 60000);
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_THAT(piped.err, HasSubstr("[INFO] Complete execution of the SQL update statement.\n"));
  EXPECT_THAT(piped.err, Not(HasSubstr("rows read")));
}

TEST(ShellTest, TerminalSessionPromptsAndCtrlCCancelsOnlyTheQuery) {
  Terminal t({EddyBinary("eddy")});
  ASSERT_TRUE(t.started());
  EXPECT_THAT(t.WaitFor("Eddy SQL> "), HasSubstr("Eddy SQL shell."));
  // A statement over two lines: the second line gets the continuation prompt.
  t.Type("CREATE TEMPORARY TABLE ticks (id BIGINT)\r");
  EXPECT_THAT(t.WaitFor("> "), Not(HasSubstr("[ERROR]")));
  t.Type("WITH ('connector' = 'datagen', 'rows-per-second' = '5');\r");
  EXPECT_THAT(t.WaitFor("Eddy SQL> "), HasSubstr("[INFO] Execute statement succeeded."));

  // An endless query prints rows until Ctrl-C, which stops it and returns to the prompt.
  t.Type("SELECT id FROM ticks;\r");
  EXPECT_THAT(t.WaitFor("| +I |"), HasSubstr("| op |"));
  t.Type("\x03");
  std::string after = t.WaitFor("Eddy SQL> ");
  EXPECT_THAT(after, HasSubstr("Query terminated by the user"));
  EXPECT_THAT(after, HasSubstr("Received a total of"));

  // The session is intact: the table is still there, and the cancelled job is not running.
  t.Type("SHOW JOBS;\r");
  std::string jobs = t.WaitFor("Eddy SQL> ");
  EXPECT_THAT(jobs, HasSubstr("CANCELED"));
  EXPECT_THAT(jobs, Not(HasSubstr("RUNNING")));
  t.Type("SELECT COUNT(*) AS n FROM (VALUES (1), (2)) AS v(x);\r");
  EXPECT_THAT(t.WaitFor("Eddy SQL> "), HasSubstr("Received a total of 3 rows"));

  t.Type("QUIT;\r");
  EXPECT_EQ(t.Wait(), 0);
}

// CLEAR, the SQL client's command, clears a terminal's screen; piped output gets nothing, and the
// session goes on either way.
TEST(ShellTest, ClearClearsTheTerminalScreenOnly) {
  Terminal t({EddyBinary("eddy")});
  ASSERT_TRUE(t.started());
  t.WaitFor("Eddy SQL> ");
  t.Type("CLEAR;\r");
  std::string cleared = t.WaitFor("Eddy SQL> ");
  EXPECT_THAT(cleared, HasSubstr("\033[H\033[2J"));
  EXPECT_THAT(cleared, Not(HasSubstr("[ERROR]")));
  t.Type("QUIT;\r");
  EXPECT_EQ(t.Wait(), 0);

  const std::string dir = FreshTestDir("shell-clear");
  std::filesystem::create_directories(dir);
  const std::string input = dir + "/clear.sql";
  std::ofstream(input) << "CLEAR;\nSHOW CURRENT CATALOG;\n";
  RunResult piped =
      RunToCompletion({"/bin/sh", "-c", EddyBinary("eddy") + " < " + input}, dir, 60000);
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_THAT(piped.err, Not(HasSubstr("[ERROR]")));
  EXPECT_THAT(piped.out, Not(HasSubstr("\033[")));
  EXPECT_THAT(piped.out, HasSubstr("default_catalog"));
}

TEST(ShellTest, CtrlCAtAContinuationPromptDropsTheUnfinishedStatement) {
  Terminal t({EddyBinary("eddy")});
  ASSERT_TRUE(t.started());
  t.WaitFor("Eddy SQL> ");
  t.Type("SELECT 1 AS x\r");
  t.WaitFor("> ");
  t.Type("FROM nowhere");  // typed, not entered
  t.Type("\x03");
  t.WaitFor("Eddy SQL> ");
  t.Type("SELECT 2 AS y;\r");
  std::string out = t.WaitFor("Eddy SQL> ");
  EXPECT_THAT(out, Not(HasSubstr("[ERROR]")));
  EXPECT_THAT(out, HasSubstr("|           y |"));
  EXPECT_THAT(out, HasSubstr("|           2 |"));
  t.Type("QUIT;\r");
  EXPECT_EQ(t.Wait(), 0);
}

// The SQL client's own settings: show-line-numbers numbers a statement's continuation prompts,
// print-time-cost ends a result's closing line with its time, verbose shows an error's kind; RESET
// turns them off again.
TEST(ShellTest, ClientSettingsNumberLinesTimeResultsAndShowErrorKinds) {
  Terminal t({EddyBinary("eddy")});
  ASSERT_TRUE(t.started());
  t.WaitFor("Eddy SQL> ");
  t.Type("SET 'sql-client.display.show-line-numbers' = 'true';\r");
  t.WaitFor("Eddy SQL> ");
  t.Type("SET 'sql-client.display.print-time-cost' = 'true';\r");
  t.WaitFor("Eddy SQL> ");
  t.Type("SET 'sql-client.verbose' = 'true';\r");
  t.WaitFor("Eddy SQL> ");
  t.Type("SELECT 1 AS x\r");
  EXPECT_THAT(t.WaitFor("2> "), HasSubstr("SELECT 1 AS x"));
  t.Type("UNION ALL\r");
  t.WaitFor("3> ");
  t.Type("SELECT 2;\r");
  const std::string timed = t.WaitFor("Eddy SQL> ");
  EXPECT_THAT(timed, ::testing::ContainsRegex("Received a total of 2 rows \\([0-9]+\\.[0-9][0-9] "
                                              "seconds\\)"));
  t.Type("SELECT nope FROM nowhere;\r");
  EXPECT_THAT(t.WaitFor("Eddy SQL> "), HasSubstr("[ERROR] Could not execute SQL statement. "
                                                 "Reason:\r\nINVALID_ARGUMENT: Validation error"));
  t.Type("RESET;\r");
  t.WaitFor("Eddy SQL> ");
  t.Type("SELECT 3 AS y\r");
  t.WaitFor("> ");
  t.Type(";\r");
  const std::string plain = t.WaitFor("Eddy SQL> ");
  EXPECT_THAT(plain, HasSubstr("Received a total of 1 row\r\n"));
  EXPECT_THAT(plain, Not(HasSubstr("2> ")));
  t.Type("SELECT nope FROM nowhere;\r");
  EXPECT_THAT(t.WaitFor("Eddy SQL> "),
              HasSubstr("[ERROR] Could not execute SQL statement. Reason:\r\nValidation error"));
  t.Type("QUIT;\r");
  EXPECT_EQ(t.Wait(), 0);
}

TEST(ShellTest, TableResultModeShowsAnUnboundedQueryLiveOnATerminal) {
  Terminal t({EddyBinary("eddy")});
  ASSERT_TRUE(t.started());
  t.WaitFor("Eddy SQL> ");
  t.Type(
      "CREATE TEMPORARY TABLE ticks (id BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '5', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '1000000');\r");
  t.WaitFor("Eddy SQL> ");
  t.Type("SET 'sql-client.execution.result-mode' = 'table';\r");
  t.WaitFor("Eddy SQL> ");
  t.Type("SELECT id FROM ticks;\r");
  // The view appears and grows while the query runs, before any Ctrl-C.
  std::string live = t.WaitFor("Ctrl-C stops the query.", 20000);
  EXPECT_THAT(live, HasSubstr("in set"));
  live = t.WaitFor("Ctrl-C stops the query.", 20000);
  EXPECT_THAT(live, HasSubstr("|                    2 |"));
  t.Type("\x03");
  EXPECT_THAT(t.WaitFor("Eddy SQL> "), HasSubstr("Query terminated by the user"));
  t.Type("QUIT;\r");
  EXPECT_EQ(t.Wait(), 0);
}

TEST(ShellTest, ClosingTheTerminalRemovesTheEmbeddedClustersDirectory) {
  const std::string tmp = FreshTestDir("shell-sighup");
  std::filesystem::create_directories(tmp);
  Terminal t({EddyBinary("eddy")}, {{"TMPDIR", tmp}});
  ASSERT_TRUE(t.started());
  t.WaitFor("Eddy SQL> ");
  ASSERT_FALSE(std::filesystem::is_empty(tmp));  // the embedded cluster's data directory
  t.Hangup();
  EXPECT_EQ(t.Wait(), 0);
  EXPECT_TRUE(std::filesystem::is_empty(tmp));
}

}  // namespace
}  // namespace eddy::testing
