// A cluster of separate processes on this machine for eddy-bench: one eddy-coordinator and N
// eddy-worker processes started from the binaries next to eddy-bench, on loopback ports, each with
// its own data directory. Reports the CPU seconds the processes used, so that rows/s per busy core
// covers the whole cluster.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace eddy::bench {

class LocalProcessCluster {
 public:
  // Starts the processes and waits until every worker has registered with the coordinator.
  static absl::StatusOr<std::unique_ptr<LocalProcessCluster>> Start(
      const std::string& bin_dir, int workers, int slots_per_worker,
      const std::vector<std::string>& extra_worker_flags,
      const std::vector<std::string>& extra_coordinator_flags = {});
  ~LocalProcessCluster();  // SIGTERM, then waits for every process

  const std::string& coordinator_address() const { return coordinator_address_; }
  // user + system CPU seconds of all processes so far (from /proc/<pid>/stat).
  double CpuSeconds() const;
  // The largest peak resident set size (VmHWM) of the worker processes since the last
  // ResetPeakRss (or their start), and the reset (Linux's /proc/<pid>/clear_refs).
  size_t WorkerPeakRssBytes() const;
  void ResetPeakRss();
  // Worker i's address (127.0.0.1:<port>, as SHOW WORKERS lists it) and the file its stdout and
  // stderr go to (what a print sink on it prints).
  std::string worker_address(int i) const { return worker_addresses_[i]; }
  std::string worker_log(int i) const;
  // SIGKILL, as a lost machine: the process gets no chance to say goodbye.
  void KillWorker(int i);

 private:
  LocalProcessCluster() = default;
  absl::Status Spawn(const std::vector<std::string>& argv, const std::string& log_path);

  std::string dir_;
  std::string coordinator_address_;
  std::vector<pid_t> pids_;  // the coordinator, then the workers; -1 once killed
  std::vector<std::string> worker_addresses_;
};

}  // namespace eddy::bench
