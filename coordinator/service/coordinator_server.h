// An eddy-coordinator: serves ClientService (statements, jobs), ClusterService (worker
// registration, heartbeats, task states) and StreamRelayService (client streams) on one gRPC port,
// and checks worker heartbeats. Its data directory holds the permanent catalog and the job store;
// at start it recovers the stored jobs before it serves.
#pragma once

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "common/base/allowed_paths.h"
#include "coordinator/catalog/catalog.h"
#include "coordinator/cluster/job_manager.h"
#include "coordinator/cluster/worker_registry.h"
#include "coordinator/service/leader_lock.h"
#include "coordinator/service/session.h"
#include "coordinator/service/statement_executor.h"
#include "coordinator/service/stream_relay_service.h"
#include "eddy/v1/client.grpc.pb.h"
#include "eddy/v1/coordinator.grpc.pb.h"

namespace eddy {

struct CoordinatorOptions {
  std::string bind_host = "0.0.0.0";
  int port = 8081;  // 0: any free port
  std::string data_dir = "/tmp/eddy-coordinator";
  int heartbeat_timeout_ms = 10000;
  // Canonical directories a filesystem table's path must lie in (--filesystem-allowed-dirs),
  // checked when a job is planned.
  std::vector<std::string> filesystem_allowed_dirs = {DefaultFilesystemAllowedDir()};
  // Default of `state.checkpoints.dir` (--checkpoints-dir); empty: <data_dir>/checkpoints. Shared
  // with every worker in a real cluster (NFS), since workers write the state files.
  std::string checkpoints_dir;
  // Finished jobs kept in the job store (and SHOW JOBS): --jobstore-expiration-time,
  // --jobstore-max-capacity (Flink's jobstore.expiration-time and jobstore.max-capacity).
  JobRetention job_retention;
  // Recent checkpoints each job's statistics keep for the REST API (--web-checkpoints-history,
  // Flink's web.checkpoints.history).
  int checkpoint_history_size = CheckpointStatsTracker::kDefaultHistorySize;
  // Another coordinator may hold the data directory: wait for it to end and take over (a standby,
  // --standby) instead of failing.
  bool standby = false;
};

class CoordinatorServer {
 public:
  static absl::StatusOr<std::unique_ptr<CoordinatorServer>> Start(
      const CoordinatorOptions& options);
  ~CoordinatorServer();

  void Shutdown();  // idempotent
  int port() const { return port_; }
  WorkerRegistry& registry() { return *registry_; }
  JobManager& jobs() { return *jobs_; }

 private:
  class ClientServiceImpl;
  class ClusterServiceImpl;

  CoordinatorServer() = default;
  Session& SessionFor(const std::string& id);
  void HeartbeatLoop();

  // Held while this coordinator is the data directory's active one; released last.
  std::optional<LeaderLock> leader_lock_;
  CoordinatorOptions options_;
  int port_ = 0;
  Catalog catalog_;
  std::unique_ptr<WorkerRegistry> registry_;
  std::unique_ptr<JobStore> job_store_;  // outlives jobs_
  std::unique_ptr<JobManager> jobs_;
  std::unique_ptr<StatementExecutor> executor_;
  std::unique_ptr<ClientServiceImpl> client_service_;
  std::unique_ptr<ClusterServiceImpl> cluster_service_;
  std::unique_ptr<StreamRelayService> stream_relay_service_;
  std::unique_ptr<grpc::Server> server_;

  std::mutex sessions_mu_;
  std::map<std::string, std::unique_ptr<Session>> sessions_;

  std::mutex mu_;
  std::condition_variable cv_;
  bool shutdown_ = false;
  std::thread heartbeat_thread_;
};

}  // namespace eddy
