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
      const std::vector<std::string>& extra_worker_flags);
  ~LocalProcessCluster();  // SIGTERM, then waits for every process

  const std::string& coordinator_address() const { return coordinator_address_; }
  // user + system CPU seconds of all processes so far (from /proc/<pid>/stat).
  double CpuSeconds() const;

 private:
  LocalProcessCluster() = default;
  absl::Status Spawn(const std::vector<std::string>& argv, const std::string& log_path);

  std::string dir_;
  std::string coordinator_address_;
  std::vector<pid_t> pids_;
};

}  // namespace eddy::bench
