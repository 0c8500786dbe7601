#include "tests/integration/process_cluster.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <thread>

namespace eddy::testing {

std::string EddyBinary(const std::string& name) { return std::string(EDDY_BIN_DIR) + "/" + name; }

std::string FreshTestDir(const std::string& name) {
  std::string dir =
      std::filesystem::temp_directory_path() / ("eddy-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

std::string CurrentTestName() {
  return ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

int FreeTcpPort(const std::string& host) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  inet_pton(AF_INET, host.c_str(), &addr.sin_addr);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  int port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

int CountOccurrences(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

std::string JobIdIn(const std::string& text) {
  size_t p = text.find("Job ID: ");
  return p == std::string::npos ? "" : text.substr(p + 8, 32);
}

std::vector<std::string> TableRowCells(const std::string& line) {
  std::vector<std::string> cells;
  std::istringstream cols(line.substr(line.empty() ? 0 : 1));
  std::string cell;
  while (std::getline(cols, cell, '|')) {
    size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
    cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  return cells;
}

std::vector<WorkerRow> ParseShowWorkers(const std::string& table) {
  std::vector<WorkerRow> rows;
  std::istringstream in(table);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0 || line.find("| worker id") == 0) continue;
    std::vector<std::string> cells = TableRowCells(line);
    if (cells.size() < 5) continue;
    rows.push_back({cells[0], cells[1], std::atoi(cells[2].c_str()), std::atoi(cells[3].c_str()),
                    std::atoi(cells[4].c_str())});
  }
  return rows;
}

ProcessCluster::ProcessCluster(const std::string& dir, ClusterOptions options)
    : dir_(dir),
      options_(std::move(options)),
      topology_(options_.isolate_workers
                    ? NetworkTopology::Create(options_.workers)
                    : NetworkTopology::Loopback(options_.workers, "loopback requested")) {
  std::filesystem::create_directories(dir_);
  const std::string host = topology_.coordinator_host();
  port_ = FreeTcpPort(host);
  coordinator_ = StartCoordinator(port_, false);
  if (!coordinator_.started()) {
    error_ = "cannot start eddy-coordinator";
    return;
  }
  active_log_ = coordinator_logs_.back();
  if (options_.standby_coordinator) {
    // Started once the active one holds the data directory, so that it waits as the standby.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (ReadFileToString(active_log_).find("coordinator serving on port") == std::string::npos &&
           std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    standby_port_ = FreeTcpPort(host);
    first_port_ = port_;
    second_port_ = standby_port_;
    standby_ = StartCoordinator(standby_port_, true);
    if (!standby_.started()) {
      error_ = "cannot start the standby eddy-coordinator";
      return;
    }
  }
  worker_starts_.assign(options_.workers, 0);
  for (int i = 0; i < options_.workers; ++i) {
    workers_.push_back(StartWorker(i));
    if (!workers_.back().started()) {
      error_ = "cannot start eddy-worker " + std::to_string(i);
      return;
    }
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  // Registered on both sides: the coordinator logged each worker, and each worker logged the id it
  // got (WorkerId reads it; the worker logs it only after the coordinator answered).
  auto all_registered = [&] {
    if (CountOccurrences(CoordinatorLog(), "registered at") < options_.workers) return false;
    for (int i = 0; i < options_.workers; ++i) {
      if (WorkerId(i).empty()) return false;
    }
    return true;
  };
  while (!all_registered()) {
    if (std::chrono::steady_clock::now() > deadline) {
      error_ = "workers did not register; coordinator log:\n" + CoordinatorLog();
      for (int i = 0; i < options_.workers; ++i) {
        error_ += "\nworker " + std::to_string(i) + " log:\n" +
                  ReadFileToString(dir_ + "/worker" + std::to_string(i) + ".err");
      }
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

ProcessCluster::~ProcessCluster() {
  workers_.clear();  // SIGKILL whatever still runs, before the namespaces go away
  coordinator_ = Subprocess();
  standby_ = Subprocess();
}

Subprocess ProcessCluster::StartWorker(int i) {
  // Logs of a restarted worker go to worker<i>.<n>.out/.err.
  const std::string name = "/worker" + std::to_string(i) +
                           (worker_starts_[i] == 0 ? "" : "." + std::to_string(worker_starts_[i]));
  ++worker_starts_[i];
  const std::string& worker_host = topology_.worker_host(i);
  std::vector<std::string> argv = topology_.WorkerLauncher(i);
  for (const std::string& a :
       {EddyBinary("eddy-worker"), std::string("--coordinator"), coordinator_address(),
        std::string("--port"), std::string("0"), std::string("--bind-host"), worker_host,
        std::string("--advertise-host"), worker_host, std::string("--slots"),
        std::to_string(options_.slots_per_worker), std::string("--data-dir"),
        dir_ + "/worker" + std::to_string(i), std::string("--metrics-port"), std::string("0")}) {
    argv.push_back(a);
  }
  for (const std::string& a : options_.worker_args) argv.push_back(a);
  std::string out =
      i < static_cast<int>(options_.worker_stdout_paths.size()) && worker_starts_[i] == 1
          ? options_.worker_stdout_paths[i]
          : dir_ + name + ".out";
  return Subprocess::Start(argv, out, dir_ + name + ".err");
}

bool ProcessCluster::RestartWorker(int i) {
  workers_[i] = Subprocess();  // SIGKILL, if it still runs
  workers_[i] = StartWorker(i);
  return workers_[i].started();
}

Subprocess ProcessCluster::StartCoordinator(int port, bool standby) {
  std::vector<std::string> argv = {EddyBinary("eddy-coordinator"),
                                   "--port",
                                   std::to_string(port),
                                   "--bind-host",
                                   topology_.coordinator_host(),
                                   "--heartbeat-timeout-ms",
                                   std::to_string(options_.heartbeat_timeout_ms),
                                   "--data-dir",
                                   dir_ + "/coordinator",
                                   "--rest-port",
                                   "0"};
  if (standby) argv.push_back("--standby");
  for (const std::string& a : options_.coordinator_args) argv.push_back(a);
  const std::string log = coordinator_starts_ == 0
                              ? "/coordinator"
                              : "/coordinator." + std::to_string(coordinator_starts_);
  ++coordinator_starts_;
  coordinator_logs_.push_back(dir_ + log + ".err");
  return Subprocess::Start(argv, dir_ + log + ".out", dir_ + log + ".err");
}

bool ProcessCluster::RestartCoordinator() {
  coordinator_ = Subprocess();  // SIGKILL
  coordinator_ = StartCoordinator(port_, false);
  active_log_ = coordinator_logs_.back();
  return coordinator_.started();
}

bool ProcessCluster::KillActiveCoordinator() {
  coordinator_ = Subprocess();  // SIGKILL: the standby takes over
  std::swap(coordinator_, standby_);
  std::swap(port_, standby_port_);
  const size_t standby_log = coordinator_logs_.size() - 1;  // the standby started last
  active_log_ = coordinator_logs_[standby_log];
  // The new standby starts once the old one took over, or it could win the lock itself.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (ReadFileToString(active_log_).find("this coordinator takes over") == std::string::npos &&
         std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  standby_ = StartCoordinator(standby_port_, true);
  return standby_.started();
}

std::string ProcessCluster::ActiveCoordinatorLog() const {
  const std::string log = ReadFileToString(active_log_);
  return log.find("coordinator serving on port") == std::string::npos ? "" : log;
}

std::string ProcessCluster::CurrentCoordinatorLogPath() const {
  return dir_ + (coordinator_starts_ <= 1
                     ? "/coordinator.err"
                     : "/coordinator." + std::to_string(coordinator_starts_ - 1) + ".err");
}

std::string ProcessCluster::WorkerId(int i) const {
  const std::string log = ReadFileToString(dir_ + "/worker" + std::to_string(i) + ".err");
  const std::string marker = " as worker-";
  const size_t at = log.find(marker);
  if (at == std::string::npos) return "";
  const size_t begin = at + 4;
  const size_t end = log.find_first_of(" \n", begin);
  return log.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

namespace {

// The port in the first "<marker>http://host:PORT/" line of `log`; 0 when there is none.
int LoggedHttpPort(const std::string& log, const std::string& marker) {
  const size_t at = log.find(marker + "http://");
  if (at == std::string::npos) return 0;
  const size_t host = at + marker.size() + 7;
  const size_t colon = log.find(':', host);
  const size_t slash = log.find('/', host);
  if (colon == std::string::npos || slash == std::string::npos || colon > slash) return 0;
  return std::atoi(log.substr(colon + 1, slash - colon - 1).c_str());
}

}  // namespace

int ProcessCluster::CoordinatorRestPort() const {
  return LoggedHttpPort(ReadFileToString(CurrentCoordinatorLogPath()), "REST API and metrics at ");
}

int ProcessCluster::WorkerMetricsPort(int i) const {
  return LoggedHttpPort(ReadFileToString(dir_ + "/worker" + std::to_string(i) + ".err"),
                        "worker metrics at ");
}

std::string ProcessCluster::coordinator_address() const {
  if (!options_.standby_coordinator) {
    return topology_.coordinator_host() + ":" + std::to_string(port_);
  }
  // Always in the order of the first start, whichever is active now: after the first coordinator
  // was killed, clients try its port first and must go on to the standby's.
  return topology_.coordinator_host() + ":" + std::to_string(first_port_) + "," +
         topology_.coordinator_host() + ":" + std::to_string(second_port_);
}

RunResult ProcessCluster::Eddy(const std::string& sql, int timeout_ms) const {
  return RunToCompletion({EddyBinary("eddy"), "--coordinator", coordinator_address(), "-e", sql},
                         dir_, timeout_ms);
}

std::string ProcessCluster::WorkerStdout(int i) const {
  std::string out = ReadFileToString(dir_ + "/worker" + std::to_string(i) + ".out");
  for (int n = 1; n < worker_starts_[i]; ++n) {
    out +=
        ReadFileToString(dir_ + "/worker" + std::to_string(i) + "." + std::to_string(n) + ".out");
  }
  return out;
}

std::string ProcessCluster::AllWorkerStdout() const {
  std::string all;
  for (int i = 0; i < options_.workers; ++i) all += WorkerStdout(i);
  return all;
}

std::vector<WorkerRow> ProcessCluster::ShowWorkers() const {
  RunResult r = Eddy("SHOW WORKERS;", 20000);
  return r.exit_code == 0 ? ParseShowWorkers(r.out) : std::vector<WorkerRow>{};
}

std::vector<std::string> ProcessCluster::JobRow(const std::string& job) const {
  RunResult r = Eddy("SHOW JOBS;", 20000);
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find(job) != std::string::npos) return TableRowCells(line);
  }
  return {};
}

std::string ProcessCluster::WaitForJobStatus(const std::string& job,
                                             const std::set<std::string>& wanted,
                                             std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string status;
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<std::string> row = JobRow(job);
    status = row.size() > 2 ? row[2] : "";
    if (wanted.count(status) > 0) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return status;
}

std::string ProcessCluster::CoordinatorLog() const {
  std::string log;
  for (const std::string& path : coordinator_logs_) log += ReadFileToString(path);
  return log;
}

}  // namespace eddy::testing
