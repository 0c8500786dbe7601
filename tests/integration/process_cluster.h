// A real cluster for integration tests: one eddy-coordinator and N eddy-worker processes (each
// worker in its own network namespace when the machine allows, see NetworkTopology), with helpers
// to submit SQL through the `eddy` client binary and to read what the workers printed.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "tests/integration/network_topology.h"
#include "tests/util/subprocess.h"

namespace eddy::testing {

// One row of SHOW WORKERS.
struct WorkerRow {
  std::string worker_id;
  std::string address;
  int slots = 0;
  int free_slots = 0;
  int running_subtasks = 0;
};
// The trimmed cells of one `| a | b |` line of a table the eddy client prints.
std::vector<std::string> TableRowCells(const std::string& line);
// The rows of a SHOW WORKERS table as the eddy client prints it.
std::vector<WorkerRow> ParseShowWorkers(const std::string& table);

struct ClusterOptions {
  int workers = 3;
  int slots_per_worker = 2;
  int heartbeat_timeout_ms = 10000;
  bool isolate_workers = true;  // network namespaces when possible; false: loopback
  // Worker i's stdout goes here instead of <dir>/worker<i>.out when set (e.g. a FIFO).
  std::vector<std::string> worker_stdout_paths;
  // Extra flags for eddy-coordinator and for every eddy-worker.
  std::vector<std::string> coordinator_args;
  std::vector<std::string> worker_args;
  // A second coordinator on the same data directory with --standby, on a port of its own; workers
  // and clients are given both addresses.
  bool standby_coordinator = false;
};

class ProcessCluster {
 public:
  // Starts everything and waits until every worker registered; check ok() / error().
  ProcessCluster(const std::string& dir, ClusterOptions options);
  ~ProcessCluster();

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  const NetworkTopology& topology() const { return topology_; }
  std::string coordinator_address() const;
  // The HTTP ports the current coordinator (REST API, /metrics) and worker i's first process
  // (/metrics) logged; 0 until they did. Both are started with port 0 (a free port).
  int CoordinatorRestPort() const;
  int WorkerMetricsPort(int i) const;

  // Runs `eddy --coordinator <address> -e <sql>` to completion.
  RunResult Eddy(const std::string& sql, int timeout_ms = 240000) const;
  // What worker i printed, over all its restarts.
  std::string WorkerStdout(int i) const;
  std::string AllWorkerStdout() const;
  // Every coordinator process's log, in the order they started.
  std::string CoordinatorLog() const;
  // Kills the coordinator (SIGKILL) and starts a new one on the same port and data directory;
  // its log goes to coordinator.<n>.err.
  bool RestartCoordinator();
  // With a standby: kills (SIGKILL) the coordinator that is active, which the standby then
  // replaces, and once it took over starts a new standby in its place (same port, `--standby`).
  // Returns false when the new process cannot start.
  bool KillActiveCoordinator();
  // With a standby: the log of the coordinator process that is active now ("" when none logged
  // that it serves yet since the last KillActiveCoordinator).
  // The log (stderr) of the coordinator process started last.
  std::string CurrentCoordinatorLogPath() const;
  std::string ActiveCoordinatorLog() const;
  // The coordinator's data directory (the same for every coordinator process).
  std::string coordinator_data_dir() const { return dir_ + "/coordinator"; }
  // Kills worker i (SIGKILL) if it still runs and starts it again with the same flags and data
  // directory; it registers as a new worker (its logs go to worker<i>.<n>.out/.err).
  bool RestartWorker(int i);
  // Worker i's id, as its first process logged its registration ("" before it registered).
  std::string WorkerId(int i) const;
  // SHOW WORKERS through the client; empty when it fails.
  std::vector<WorkerRow> ShowWorkers() const;
  // The cells of `job`'s row of SHOW JOBS (job id, name, status, start time, restarts, last
  // checkpoint, failure); empty when it is not listed.
  std::vector<std::string> JobRow(const std::string& job) const;
  // Polls SHOW JOBS until the job's status is one of `wanted` or `timeout` passed; returns the
  // last status seen.
  std::string WaitForJobStatus(const std::string& job, const std::set<std::string>& wanted,
                               std::chrono::milliseconds timeout) const;

  int workers() const { return static_cast<int>(workers_.size()); }
  pid_t worker_pid(int i) const { return workers_[i].pid(); }
  Subprocess& worker(int i) { return workers_[i]; }
  Subprocess& coordinator() { return coordinator_; }

 private:
  // On `port` (the active's or the standby's), with --standby when `standby`; logs to
  // coordinator[.<n>].err in the order processes start.
  Subprocess StartCoordinator(int port, bool standby);
  Subprocess StartWorker(int i);

  std::string dir_;
  ClusterOptions options_;
  NetworkTopology topology_;
  int port_ = 0;
  Subprocess coordinator_;
  // With a standby: the other coordinator process and its port. KillActiveCoordinator swaps them.
  int standby_port_ = 0;
  Subprocess standby_;
  int first_port_ = 0;  // the active's and the standby's ports at the first start
  int second_port_ = 0;
  std::vector<std::string> coordinator_logs_;  // of every coordinator process, in start order
  std::string active_log_;                     // the log of coordinator_'s process
  std::vector<Subprocess> workers_;
  int coordinator_starts_ = 0;
  std::vector<int> worker_starts_;
  std::string error_;
};

std::string EddyBinary(const std::string& name);  // build/bin/<name>
// <temp dir>/eddy-<name>-<pid>, emptied: a directory of this test process's own.
std::string FreshTestDir(const std::string& name);
// The running test's name, to give each test of a fixture its own directory.
std::string CurrentTestName();
int FreeTcpPort(const std::string& host);
int CountOccurrences(const std::string& text, const std::string& needle);
// The 32-hex-digit job id after "Job ID: " in the client's output, or "".
std::string JobIdIn(const std::string& text);

}  // namespace eddy::testing
