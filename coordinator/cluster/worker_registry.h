// The coordinator's view of the cluster: registered workers with their slots, heartbeats, and the
// gRPC stubs used to deploy to them. A worker that misses heartbeats for the timeout is marked
// lost, and the listener (the job manager) fails the jobs that ran on it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/metrics.pb.h"
#include "eddy/v1/worker.grpc.pb.h"

namespace eddy {

struct WorkerInfo {
  std::string id;
  std::string address;
  int slots = 0;
  int used_slots = 0;
  int running_subtasks = 0;  // as of the last heartbeat
  int registration = 0;      // 1 for the first worker registered, 2 for the next, ...
  std::chrono::steady_clock::time_point last_heartbeat;
  std::shared_ptr<v1::WorkerService::Stub> stub;
};

class WorkerRegistry {
 public:
  // `why`: how it was found lost ("no heartbeat for 3000 ms", "deploying to it failed: ...").
  using LostListener = std::function<void(const std::string& worker_id, const std::string& address,
                                          const std::string& why)>;

  explicit WorkerRegistry(std::chrono::milliseconds heartbeat_timeout)
      : heartbeat_timeout_(heartbeat_timeout) {}

  // Registers the worker process `instance_id` (random per process) and returns its id,
  // `worker-<instance_id>`: unique across coordinator restarts, and the same when a process
  // registers again. A different process at the address of a registered one replaces it, and the
  // old one counts as lost. An instance id that is not 8 to 32 hex digits is an error.
  absl::StatusOr<std::string> Register(const std::string& address, int slots,
                                       const std::string& instance_id);
  // false: unknown worker. `running_subtasks` is what the worker reported as still running.
  bool Heartbeat(const std::string& worker_id, int running_subtasks = 0);
  void SetLostListener(LostListener l) { lost_listener_ = std::move(l); }
  // Marks workers lost whose last heartbeat is older than the timeout; called periodically.
  void CheckHeartbeats();
  // The worker cannot be reached (a call found nothing listening): it is lost now, with `why`.
  // A worker that is in fact alive registers again at its next heartbeat.
  void MarkLost(const std::string& worker_id, const std::string& why);

  // Takes `n` slots, spreading over workers with the most free slots. When the cluster has `n`
  // slots but fewer are free, waits up to `wait` for running jobs to release theirs (a job that
  // just ended frees its slots a moment after its client saw its last row). Error when the
  // cluster has fewer than `n` slots, or they are still taken after the wait.
  absl::StatusOr<std::vector<std::string>> AllocateSlots(
      int n, std::chrono::milliseconds wait = std::chrono::milliseconds(0));
  void ReleaseSlot(const std::string& worker_id);
  std::shared_ptr<v1::WorkerService::Stub> StubOf(const std::string& worker_id);
  std::string AddressOf(const std::string& worker_id);

  int TotalSlots();
  int FreeSlots();
  std::vector<WorkerInfo> Workers();
  // What clients see of each worker (ListWorkers, SHOW WORKERS), in registration order.
  std::vector<v1::WorkerStatus> Statuses();

 private:
  std::chrono::milliseconds heartbeat_timeout_;
  LostListener lost_listener_;
  std::mutex mu_;
  std::condition_variable slots_released_;
  std::map<std::string, WorkerInfo> workers_;
  int next_registration_ = 1;
};

}  // namespace eddy
