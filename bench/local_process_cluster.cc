#include "bench/local_process_cluster.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "client/eddy_client.h"
#include "common/base/status_macros.h"

extern char** environ;

namespace eddy::bench {
namespace {

absl::StatusOr<int> FreeLoopbackPort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return absl::InternalError("socket() failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  if (port <= 0) return absl::InternalError("no free loopback port");
  return port;
}

// Field 14 (utime) and 15 (stime) of /proc/<pid>/stat, in clock ticks; the command name (field 2)
// is parenthesised and may contain spaces, so parsing starts after its closing ')'.
double ProcessCpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close_paren + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace

absl::StatusOr<std::unique_ptr<LocalProcessCluster>> LocalProcessCluster::Start(
    const std::string& bin_dir, int workers, int slots_per_worker,
    const std::vector<std::string>& extra_worker_flags,
    const std::vector<std::string>& extra_coordinator_flags) {
  std::unique_ptr<LocalProcessCluster> c(new LocalProcessCluster());
  c->dir_ = (std::filesystem::temp_directory_path() / ("eddy-bench-" + std::to_string(getpid())))
                .string();
  std::error_code ec;
  std::filesystem::remove_all(c->dir_, ec);
  std::filesystem::create_directories(c->dir_, ec);
  if (ec) return absl::InternalError("cannot create " + c->dir_ + ": " + ec.message());

  ASSIGN_OR_RETURN(int coordinator_port, FreeLoopbackPort());
  c->coordinator_address_ = "127.0.0.1:" + std::to_string(coordinator_port);
  std::vector<std::string> coordinator = {bin_dir + "/eddy-coordinator",
                                          "--port",
                                          std::to_string(coordinator_port),
                                          "--bind-host",
                                          "127.0.0.1",
                                          "--data-dir",
                                          c->dir_ + "/coordinator",
                                          "--rest-port",
                                          "0",
                                          "--log-level",
                                          "warn"};
  coordinator.insert(coordinator.end(), extra_coordinator_flags.begin(),
                     extra_coordinator_flags.end());
  RETURN_IF_ERROR(c->Spawn(coordinator, c->dir_ + "/coordinator.log"));
  for (int i = 0; i < workers; ++i) {
    ASSIGN_OR_RETURN(int port, FreeLoopbackPort());
    c->worker_addresses_.push_back("127.0.0.1:" + std::to_string(port));
    std::vector<std::string> argv = {bin_dir + "/eddy-worker",
                                     "--coordinator",
                                     c->coordinator_address_,
                                     "--port",
                                     std::to_string(port),
                                     "--bind-host",
                                     "127.0.0.1",
                                     "--advertise-host",
                                     "127.0.0.1",
                                     "--slots",
                                     std::to_string(slots_per_worker),
                                     "--data-dir",
                                     c->dir_ + "/worker" + std::to_string(i),
                                     "--metrics-port",
                                     "0",
                                     "--log-level",
                                     "warn"};
    argv.insert(argv.end(), extra_worker_flags.begin(), extra_worker_flags.end());
    RETURN_IF_ERROR(c->Spawn(argv, c->dir_ + "/worker" + std::to_string(i) + ".log"));
  }

  EddyClient client(c->coordinator_address_, "eddy-bench");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (true) {
    auto listed = client.ListWorkers();
    if (listed.ok() && static_cast<int>(listed->size()) == workers) break;
    if (std::chrono::steady_clock::now() > deadline) {
      return absl::DeadlineExceededError("workers did not register with the coordinator at " +
                                         c->coordinator_address_ + " within 30 s (logs in " +
                                         c->dir_ + ")");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return c;
}

absl::Status LocalProcessCluster::Spawn(const std::vector<std::string>& argv,
                                        const std::string& log_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return absl::InternalError("cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  pids_.push_back(pid);
  return absl::OkStatus();
}

size_t LocalProcessCluster::WorkerPeakRssBytes() const {
  size_t peak = 0;
  for (size_t i = 1; i < pids_.size(); ++i) {
    if (pids_[i] <= 0) continue;
    std::ifstream in("/proc/" + std::to_string(pids_[i]) + "/status");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("VmHWM:", 0) != 0) continue;
      peak = std::max(peak, static_cast<size_t>(std::stoull(line.substr(6))) * 1024);
    }
  }
  return peak;
}

void LocalProcessCluster::ResetPeakRss() {
  for (size_t i = 1; i < pids_.size(); ++i) {
    if (pids_[i] <= 0) continue;
    std::ofstream out("/proc/" + std::to_string(pids_[i]) + "/clear_refs");
    out << "5";
  }
}

double LocalProcessCluster::CpuSeconds() const {
  double total = 0;
  for (pid_t pid : pids_) {
    if (pid > 0) total += ProcessCpuSeconds(pid);
  }
  return total;
}

std::string LocalProcessCluster::worker_log(int i) const {
  return dir_ + "/worker" + std::to_string(i) + ".log";
}

void LocalProcessCluster::KillWorker(int i) {
  pid_t& pid = pids_[1 + i];
  if (pid <= 0) return;
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  pid = -1;
}

LocalProcessCluster::~LocalProcessCluster() {
  // Workers first, so that none reports a lost coordinator.
  for (auto it = pids_.rbegin(); it != pids_.rend(); ++it) {
    if (*it > 0) kill(*it, SIGTERM);
  }
  for (pid_t pid : pids_) {
    if (pid > 0) waitpid(pid, nullptr, 0);
  }
  std::error_code ec;
  if (!getenv("EDDY_BENCH_KEEP")) std::filesystem::remove_all(dir_, ec);
}

}  // namespace eddy::bench
