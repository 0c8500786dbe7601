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

// A child on a pseudo-terminal, and what it printed so far.
class Terminal {
 public:
  explicit Terminal(const std::vector<std::string>& argv) {
    pid_ = forkpty(&fd_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      setenv("HOME", "/nonexistent", 1);  // no history file of the user's
      setenv("TERM", "dumb", 1);
      execv(args[0], args.data());
      _exit(127);
    }
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
      WaitFor("\x01", 50);  // drain the terminal so the child never blocks writing
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

}  // namespace
}  // namespace eddy::testing
