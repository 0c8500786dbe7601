// Runs jobs on the cluster: places each job's subtasks on worker slots (slot sharing: subtask i of
// every task of a job goes to the job's i-th slot), deploys them, follows their reported states to the
// job's final status, cancels jobs, and fails the jobs of a lost worker. All methods are thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/cluster/worker_registry.h"
#include "eddy/v1/client.pb.h"
#include "eddy/v1/coordinator.pb.h"
#include "eddy/v1/plan.pb.h"
#include "eddy/v1/results.pb.h"

namespace eddy {

class JobManager {
 public:
  explicit JobManager(WorkerRegistry* registry);

  // Builds a job's subtasks once its slots are known: (job id, worker id per slot, worker address
  // per slot) -> deployments; subtask i of every task must run on slot i.
  using DeploymentBuilder = std::function<absl::StatusOr<std::vector<v1::TaskDeployment>>(
      const std::string& job_id, const std::vector<std::string>& slot_workers,
      const std::vector<std::string>& slot_addresses)>;

  // Allocates `slots_needed` slots, builds the subtasks and deploys them; on any failure nothing of
  // the job keeps running and its slots are released.
  absl::StatusOr<std::string> Submit(const std::string& name, int slots_needed,
                                     const DeploymentBuilder& build);
  void OnTaskState(const v1::TaskStateReport& report);
  // Row counts of running subtasks, from a worker's heartbeat. Returns the jobs among them whose
  // subtasks the worker must cancel: unknown here (this coordinator restarted since they were
  // deployed), failed or cancelled.
  std::vector<std::string> OnHeartbeat(const v1::HeartbeatRequest& heartbeat);
  void OnWorkerLost(const std::string& worker_id, const std::string& address);
  absl::Status Cancel(const std::string& job_id);

  // Current info; with wait_ms > 0 waits up to that long for a final status.
  absl::StatusOr<v1::JobInfo> Get(const std::string& job_id, int64_t wait_ms = 0);
  std::vector<v1::JobInfo> List();

  // The next rows of a SELECT job, from the worker running its collect sink (subtask 0, so the
  // job's first slot). Waits up to `wait_ms` for rows. An error when the job failed or was
  // cancelled; `end` once the job finished and every row was handed over.
  absl::Status FetchResults(const std::string& job_id, int wait_ms,
                            v1::FetchResultsResponse* out);

 private:
  struct TaskSlot {
    int task_index;
    int subtask_index;
    std::string worker_id;
    v1::TaskState state = v1::TASK_STATE_UNKNOWN;
    google::protobuf::RepeatedPtrField<v1::OperatorMetrics> operators;  // latest reported
  };
  struct Job {
    v1::JobInfo info;
    std::vector<TaskSlot> tasks;
    std::vector<std::string> slots;  // worker id per allocated slot
    bool slots_released = false;
  };
  // How long a submission waits for slots that running jobs hold (WorkerRegistry::AllocateSlots).
  static constexpr std::chrono::milliseconds kSlotWait{5000};
  // How long FetchResults waits, after a query's last rows, for its subtasks' final reports.
  static constexpr std::chrono::milliseconds kFinalReportWait{10000};

  static bool IsFinal(v1::JobStatus s);
  static bool IsFinal(v1::TaskState s);
  // The job's info with its per-node row counts summed over subtasks; caller holds mu_.
  static v1::JobInfo InfoLocked(const Job& job);
  // Sets a final status (first one wins), releases slots; caller holds mu_. Returns workers to cancel.
  std::vector<std::string> FinishLocked(Job& job, v1::JobStatus status, const std::string& error);
  void CancelOnWorkers(const std::string& job_id, const std::vector<std::string>& workers);

  WorkerRegistry* registry_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Job> jobs_;
  std::vector<std::string> order_;  // job ids in submission order
};

}  // namespace eddy
