// An eddy-worker: serves WorkerService and ExchangeService over gRPC (one port), runs deployed
// tasks on their own threads, each stateful operator subtask with its own RocksDB store under
// <data-dir>/state (dropped when its job ends here), registers with the coordinator and heartbeats,
// and reports each task's state changes. Embedded clusters run several of these in one process.
// Checkpoints: TriggerCheckpoint reaches the job's source subtasks here, NotifyCheckpoint every
// subtask of the job and the uploader; acknowledgements and declines go to the coordinator from
// the uploader's thread.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
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
#include "eddy/v1/coordinator.grpc.pb.h"
#include "eddy/v1/worker.grpc.pb.h"
#include "worker/connectors/result_buffers.h"
#include "worker/exchange/exchange_registry.h"
#include "worker/exchange/exchange_service.h"
#include "worker/runtime/checkpoint_uploader.h"
#include "worker/runtime/task.h"
#include "worker/state/memory_budget.h"
#include "worker/state/state_stores.h"

namespace eddy {

struct WorkerOptions {
  std::string coordinator_address;  // host:port of the coordinator's gRPC server
  std::string bind_host = "0.0.0.0";
  std::string advertise_host;  // empty: this machine's hostname
  int port = 0;                // 0: any free port
  int slots = 4;
  std::string data_dir = "/tmp/eddy-worker";
  // Managed memory (--managed-memory-mb): RocksDB's block cache and write buffers and the state
  // caches of the operators draw from it (MemoryBudget). Unset: MemoryBudget::DefaultManagedBytes.
  std::optional<size_t> managed_memory_bytes;
  // Each keyed operator subtask keeps up to this much state in memory in front of RocksDB
  // (--state-cache-mb). Unset: its share of the managed memory.
  std::optional<size_t> state_cache_bytes;
  // Canonical directories the filesystem connector may read and write (--filesystem-allowed-dirs).
  std::vector<std::string> filesystem_allowed_dirs = {DefaultFilesystemAllowedDir()};
  // How long an incoming exchange stream waits for its consumer task to be deployed here.
  int exchange_gate_wait_ms = 30000;
};

class WorkerServer final : public v1::WorkerService::Service {
 public:
  static absl::StatusOr<std::unique_ptr<WorkerServer>> Start(const WorkerOptions& options);
  ~WorkerServer() override;

  // Cancels every task, stops the server and the heartbeat thread. Idempotent.
  void Shutdown();
  // Blocks until Shutdown().
  void Wait();

  const std::string& address() const { return address_; }
  const std::string& worker_id() const { return worker_id_; }
  size_t RunningTasks();
  // The worker's metrics in the Prometheus text format (worker_metrics.cc, docs/metrics.md).
  std::string MetricsText();

  grpc::Status DeployTasks(grpc::ServerContext* ctx, const v1::DeployTasksRequest* req,
                           v1::DeployTasksResponse* resp) override;
  grpc::Status CancelJob(grpc::ServerContext* ctx, const v1::CancelJobRequest* req,
                         v1::CancelJobResponse* resp) override;
  // Starts checkpoint n at the job's source subtasks here (of the request's attempt, which must be
  // the newest here: FAILED_PRECONDITION otherwise; NOT_FOUND when the job has no subtasks here).
  // A source subtask that already finished acknowledges at once with its final positions.
  grpc::Status TriggerCheckpoint(grpc::ServerContext* ctx, const v1::TriggerCheckpointRequest* req,
                                 v1::TriggerCheckpointResponse* resp) override;
  grpc::Status NotifyCheckpoint(grpc::ServerContext* ctx, const v1::NotifyCheckpointRequest* req,
                                v1::NotifyCheckpointResponse* resp) override;
  // Hands out the chunks of a job attempt's collect sink here (ResultBuffers::Fetch).
  grpc::Status FetchResults(grpc::ServerContext* ctx, const v1::FetchResultChunksRequest* req,
                            v1::FetchResultChunksResponse* resp) override;

 private:
  explicit WorkerServer(WorkerOptions options) : options_(std::move(options)) {}
  void ControlLoop();  // registration, heartbeats, reaping finished tasks
  bool Register();
  void Report(const v1::TaskStateReport& report);
  // Joins ended tasks; drops the state of each job that no longer has a task here.
  void ReapFinished();
  // Cancels this worker's subtasks of the job: all of them, with its exchange channels and
  // results, when `up_to_attempt` is 0; else those of that attempt and older ones.
  void CancelJobHere(const std::string& job_id, int up_to_attempt);
  void RunningMetrics(v1::HeartbeatRequest* req);  // the not-yet-ended tasks, for a heartbeat

  WorkerOptions options_;
  std::string address_;
  std::unique_ptr<StateStores> state_stores_;
  std::optional<MemoryBudget> memory_;
  ResultBuffers results_;
  // Declared before server_ and tasks_: streams and tasks use them until those are gone.
  std::unique_ptr<ExchangeRegistry> exchange_;
  std::unique_ptr<ExchangeServiceImpl> exchange_service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::ClusterService::Stub> coordinator_;
  std::shared_ptr<grpc::Channel> coordinator_channel_;  // coordinator_'s, for client-stream sources
  // Declared before tasks_: tasks hand it their snapshots until they are gone.
  std::unique_ptr<CheckpointUploader> checkpoints_;

  std::mutex mu_;
  std::condition_variable cv_;
  bool shutdown_ = false;
  std::string worker_id_;
  std::string instance_id_;       // random per process; the coordinator derives worker_id_ from it
  int failed_registrations_ = 0;  // in a row; control thread only
  std::chrono::steady_clock::time_point last_registration_warning_{};  // control thread only
  std::vector<std::unique_ptr<Task>> tasks_;
  // Source subtasks that finished and were reaped, by job: (attempt, final positions), acknowledged
  // for checkpoints triggered after their end. Dropped when the job is cancelled here.
  std::map<std::string, std::vector<std::pair<int, v1::SubtaskStateHandle>>> ended_sources_;
  std::thread control_thread_;
};

}  // namespace eddy
