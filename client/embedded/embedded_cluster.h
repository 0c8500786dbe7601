// An in-process cluster: one coordinator and N workers in this process, talking real gRPC on
// loopback ports chosen by the OS — the same code paths as separate processes. Data lives in a
// temporary directory removed on shutdown unless a data dir is given.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/base/allowed_paths.h"
#include "coordinator/service/coordinator_server.h"
#include "worker/service/worker_server.h"

namespace eddy {

struct EmbeddedClusterOptions {
  int workers = 1;
  int slots = 4;
  std::string data_dir;  // empty: a fresh temporary directory
  // Each worker's managed memory (WorkerOptions); unset: the process's default divided among them.
  std::optional<size_t> managed_memory_bytes;
  // Per stateful operator subtask; unset: its share of its worker's managed memory.
  std::optional<size_t> state_cache_bytes;
  // The coordinator's and every worker's --filesystem-allowed-dirs (canonical).
  std::vector<std::string> filesystem_allowed_dirs = {DefaultFilesystemAllowedDir()};
};

class EmbeddedCluster {
 public:
  static absl::StatusOr<std::unique_ptr<EmbeddedCluster>> Start(const EmbeddedClusterOptions& o);
  ~EmbeddedCluster();

  std::string coordinator_address() const;
  void Shutdown();

 private:
  EmbeddedCluster() = default;
  std::unique_ptr<CoordinatorServer> coordinator_;
  std::vector<std::unique_ptr<WorkerServer>> workers_;
  std::string data_dir_;
  bool owns_data_dir_ = false;
};

}  // namespace eddy
