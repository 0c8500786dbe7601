// Starting the real binaries from tests: a child process with stdin from /dev/null (or a file) and
// stdout/stderr redirected to files, which the test reads afterwards (or while it runs).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "tests/util/files.h"  // ReadFileToString, for the tests that run processes

namespace eddy::testing {

class Subprocess {
 public:
  // Starts argv[0] with the arguments; output goes to the given files (created/truncated), input
  // comes from `stdin_path`.
  static Subprocess Start(const std::vector<std::string>& argv, const std::string& stdout_path,
                          const std::string& stderr_path,
                          const std::string& stdin_path = "/dev/null");
  Subprocess() = default;
  Subprocess(Subprocess&& o) noexcept : pid_(o.pid_) { o.pid_ = -1; }
  Subprocess& operator=(Subprocess&& o) noexcept;
  ~Subprocess();  // kills (SIGKILL) a child still running

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  void Signal(int sig) const;
  // Waits for exit; returns the exit code, 128+signal when killed, or -1 on timeout (child kept).
  int Wait(int timeout_ms = 60000);

 private:
  pid_t pid_ = -1;
};

// Runs a command to completion, capturing stdout/stderr into the result.
struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
RunResult RunToCompletion(const std::vector<std::string>& argv, const std::string& scratch_dir,
                          int timeout_ms = 120000);

}  // namespace eddy::testing
