#include "tests/util/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace eddy::testing {

Subprocess Subprocess::Start(const std::vector<std::string>& argv, const std::string& stdout_path,
                             const std::string& stderr_path, const std::string& stdin_path) {
  std::vector<std::string> args = argv;
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, stdin_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  Subprocess p;
  pid_t pid;
  if (posix_spawn(&pid, cargs[0], &fa, nullptr, cargs.data(), environ) == 0) p.pid_ = pid;
  posix_spawn_file_actions_destroy(&fa);
  return p;
}

Subprocess& Subprocess::operator=(Subprocess&& o) noexcept {
  if (this != &o) {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    pid_ = o.pid_;
    o.pid_ = -1;
  }
  return *this;
}

Subprocess::~Subprocess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

void Subprocess::Signal(int sig) const {
  if (pid_ > 0) kill(pid_, sig);
}

int Subprocess::Wait(int timeout_ms) {
  if (pid_ <= 0) return -1;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    int status = 0;
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (std::chrono::steady_clock::now() > deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

RunResult RunToCompletion(const std::vector<std::string>& argv, const std::string& scratch_dir,
                          int timeout_ms) {
  // Unique names: tests may run several clients at once (one waiting on a job, one inspecting).
  static std::atomic<int> counter{0};
  const std::string stem = scratch_dir + "/run" + std::to_string(counter++);
  std::string out = stem + ".out", err = stem + ".err";
  Subprocess p = Subprocess::Start(argv, out, err);
  RunResult r;
  if (!p.started()) {
    r.err = "cannot start " + argv[0];
    return r;
  }
  r.exit_code = p.Wait(timeout_ms);
  r.out = ReadFileToString(out);
  r.err = ReadFileToString(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

}  // namespace eddy::testing
