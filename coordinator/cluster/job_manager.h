// Runs jobs on the cluster: places each job's subtasks on worker slots (slot sharing: subtask i of
// every task of a job goes to the job's i-th slot), deploys them, follows their reported states to
// the job's final status, and cancels jobs. With checkpointing on, it drives each attempt's
// CheckpointCoordinator; when a subtask fails, a worker is lost or a subtask disappears without a
// final report, the job's restart strategy decides whether the attempt is cancelled and the job
// deployed again (attempt + 1) from its latest completed checkpoint, or fails. Messages of an
// older attempt are ignored. A SELECT's rows go to the client through FetchResults, from the
// worker of its collect sink, by way of a ResultRelay (exactly once across restarts with
// checkpointing). All methods are thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/checkpoint/checkpoint_config.h"
#include "coordinator/checkpoint/checkpoint_coordinator.h"
#include "coordinator/checkpoint/checkpoint_store.h"
#include "coordinator/cluster/job_store.h"
#include "coordinator/cluster/restart_strategy.h"
#include "coordinator/cluster/result_relay.h"
#include "coordinator/cluster/worker_registry.h"
#include "eddy/v1/client.pb.h"
#include "eddy/v1/coordinator.pb.h"
#include "eddy/v1/plan.pb.h"
#include "eddy/v1/results.pb.h"
#include "eddy/v1/worker.pb.h"

namespace eddy {

// How long, and how many, finished (FINISHED, FAILED, CANCELED) jobs are kept: Flink's
// `jobstore.expiration-time` and `jobstore.max-capacity`.
struct JobRetention {
  std::chrono::milliseconds expiration{std::chrono::hours(1)};
  int max_capacity = std::numeric_limits<int>::max();
};

class JobManager {
 public:
  // `store` (may be null: nothing survives a restart) must outlive the manager.
  explicit JobManager(WorkerRegistry* registry, JobStore* store = nullptr,
                      JobRetention retention = {});
  ~JobManager();

  // Builds a job's subtasks once its slots are known: (job id, worker id per slot, worker address
  // per slot) -> deployments; subtask i of every task must run on slot i. Called again for each
  // restart, with the slots of the new attempt.
  using DeploymentBuilder = std::function<absl::StatusOr<std::vector<v1::TaskDeployment>>(
      const std::string& job_id, const std::vector<std::string>& slot_workers,
      const std::vector<std::string>& slot_addresses)>;

  struct JobSpec {
    std::string name;
    int slots_needed = 1;
    DeploymentBuilder build;
    CheckpointConfig checkpointing;            // off unless its interval is set
    std::unique_ptr<RestartStrategy> restart;  // null: never restart
    // A SELECT: its collect sink (subtask 0, on the first slot) holds rows for FetchResults. With
    // checkpointing they reach the client exactly once, as each checkpoint completes.
    bool collects_results = false;
    // Runs once when the job ends (`finished`: it FINISHED rather than failed or was cancelled):
    // batch-mode filesystem sinks commit or discard their staged output there. An error when it
    // finished makes the job FAILED with that error. Null: nothing to do.
    std::function<absl::Status(const std::string& job_id, bool finished)> on_end;
    // What the job store records of the job, from which the rest of this spec is made again after
    // a coordinator restart (Recover's factory).
    v1::StoredJobSpec stored;
  };
  // Makes a job's spec again from what the store recorded of it.
  using SpecFactory = std::function<absl::StatusOr<JobSpec>(const v1::StoredJobSpec&)>;

  // Allocates the slots, builds the subtasks and deploys them; on any failure nothing of the job
  // keeps running and its slots are released. With checkpointing on, the job's checkpoint
  // directory must be writable (an error names it).
  // With a job store, the job is recorded before it is deployed; an error to record it is the
  // submission's error.
  absl::StatusOr<std::string> Submit(JobSpec spec);
  // After a coordinator restart, before it serves: loads the stored jobs. Finished ones are listed
  // again; every other one (CREATED, RUNNING, RESTARTING) is deployed again, once workers are
  // back (after kRecoveryGrace), as its next attempt, from its latest completed checkpoint (from
  // the beginning without checkpointing); a worker still running one of its earlier attempts is
  // told to cancel it. A SELECT that was running fails: its client lost its rows with the
  // coordinator. A job whose spec cannot be made again fails naming why.
  absl::Status Recover(const SpecFactory& make_spec);
  void OnTaskState(const v1::TaskStateReport& report);
  // Row counts of running subtasks, from a worker's heartbeat. Returns what the worker must cancel
  // among them: every subtask of a job unknown here (this coordinator restarted since it was
  // deployed), failed or cancelled, and the subtasks of attempts that are over.
  std::vector<v1::CancelJobRequest> OnHeartbeat(const v1::HeartbeatRequest& heartbeat);
  // Fails the running attempts with subtasks on the worker; `why` says how it was found lost.
  void OnWorkerLost(const std::string& worker_id, const std::string& address,
                    const std::string& why);
  absl::Status OnAcknowledgeCheckpoint(const v1::AcknowledgeCheckpointRequest& request);
  void OnDeclineCheckpoint(const v1::DeclineCheckpointRequest& request);
  absl::Status Cancel(const std::string& job_id);
  // STOP JOB ... WITH SAVEPOINT: triggers a savepoint after whose barrier the sources stop (with
  // `drain`, after event time advanced to its end), copies it into a new directory under
  // `savepoints_dir` (empty: the job's state.savepoints.dir) and tells the subtasks it completed:
  // each commits it and then ends (its sources end at the stop, and so does every operator in turn,
  // without an end of input, as Flink's stop without drain), so that what the savepoint's
  // completion makes a sink emit (a filesystem sink's partitions, to its committer) still takes
  // effect. The job ends FINISHED once every subtask did (or, should one not end in time, its
  // subtasks are cancelled, which still commits the savepoint). Returns the savepoint's directory.
  // Needs a running job with checkpointing. When the savepoint fails (a subtask declines, a worker
  // is lost, it times out, it cannot be written) the attempt fails as any failure does (its restart
  // strategy restarts it from its latest checkpoint) and the error says why.
  absl::StatusOr<std::string> StopWithSavepoint(const std::string& job_id,
                                                const std::string& savepoints_dir, bool drain);

  // Whether a job in status `s` has ended (FINISHED, FAILED or CANCELED).
  static bool IsFinal(v1::JobStatus s);

  // Current info; with wait_ms > 0 waits up to that long for a final status.
  absl::StatusOr<v1::JobInfo> Get(const std::string& job_id, int64_t wait_ms = 0);
  std::vector<v1::JobInfo> List();
  // What the job store records of the job's spec (its plan and configuration), for the REST API.
  absl::StatusOr<v1::StoredJobSpec> StoredSpec(const std::string& job_id);
  // The job's checkpoint statistics since this coordinator took it (recent history, the latest
  // completed checkpoint), for the REST API and the metrics; null for an unknown job.
  std::shared_ptr<const CheckpointStatsTracker> CheckpointStatistics(const std::string& job_id);
  // How many recent checkpoints each job's statistics keep (web.checkpoints.history, default 10).
  // For jobs submitted or recovered after the call.
  void set_checkpoint_history_size(int n) { checkpoint_history_size_ = n; }

  // The next rows of a SELECT job, from the worker running its collect sink in the current
  // attempt (subtask 0, so the attempt's first slot). Waits up to `wait_ms` for rows; while the
  // job restarts there are none. With checkpointing only rows that a completed checkpoint covers,
  // then, once the job finished, the rest. An error when the job failed or was cancelled, or is no
  // query; `end` once the job finished and every row was handed over. Fetches of one job take
  // turns.
  absl::Status FetchResults(const std::string& job_id, int wait_ms, v1::FetchResultsResponse* out);

  // How long a submission waits for slots that running jobs hold (WorkerRegistry::AllocateSlots).
  static constexpr std::chrono::milliseconds kSlotWait{5000};
  // How long FetchResults waits, after a query's last rows, for its subtasks' final reports.
  static constexpr std::chrono::milliseconds kFinalReportWait{10000};
  // Heartbeats in a row that may omit a subtask the coordinator thinks runs before it is taken as
  // gone without a final report.
  static constexpr int kMissedHeartbeatsForLostTask = 3;
  // How long a restart waits for enough free slots before it counts as another failure.
  static constexpr std::chrono::milliseconds kRestartSlotWait{300000};
  // How long a recovered job waits for workers to register with a restarted coordinator before
  // its next attempt is deployed (they do so within about a heartbeat interval).
  static constexpr std::chrono::milliseconds kRecoveryGrace{2000};

 private:
  using Clock = std::chrono::steady_clock;
  struct TaskSlot {
    int task_index;
    int subtask_index;
    std::string worker_id;
    v1::TaskState state = v1::TASK_STATE_UNKNOWN;
    google::protobuf::RepeatedPtrField<v1::OperatorMetrics> operators;  // latest reported
    int missed_heartbeats = 0;
    bool reads_source = false;  // has a connector source: acknowledges checkpoints even finished
  };
  // A query's rows on their way to the client.
  struct QueryResults {
    QueryResults(std::string job_id, bool exactly_once) : relay(std::move(job_id), exactly_once) {}
    std::mutex fetching;  // held through a whole FetchResults
    ResultRelay relay;
  };
  struct Job {
    v1::JobInfo info;
    JobSpec spec;
    int attempt = 0;  // the current attempt; 0 before the first deployment
    // Every attempt up to this one failed or could not be deployed: its subtasks must stop. The
    // current attempt is over too while the job waits to restart, but not once the next one is
    // being deployed (`attempt` is then already the new one).
    int attempts_over = 0;
    std::vector<TaskSlot> tasks;     // of the current attempt
    std::vector<std::string> slots;  // worker id per allocated slot
    bool slots_released = true;
    std::unique_ptr<CheckpointStore> store;                    // with checkpointing
    std::shared_ptr<CheckpointCoordinator> checkpoints;        // of the current attempt
    std::shared_ptr<CheckpointStatsTracker> checkpoint_stats;  // of every attempt
    int64_t checkpoints_completed_before = 0;                  // by earlier attempts
    int64_t checkpoints_failed_before = 0;
    std::optional<Clock::time_point> restart_at;  // while RESTARTING
    std::optional<Clock::time_point> waiting_for_slots_since;
    std::shared_ptr<QueryResults> results;  // a SELECT's
    // Recovered after a coordinator restart: its earlier attempts may still run on any worker, so
    // the next deployment first tells every worker to cancel them.
    bool recovered = false;
    // What a savepoint of the current attempt records of its operators.
    std::vector<v1::OperatorStateDescriptor> operators;
    int max_parallelism = 0;
    // A STOP JOB ... WITH SAVEPOINT under way, until it ended (done).
    struct StopRequest {
      int attempt = 0;
      std::string dir;
      bool drain = false;
      std::string written;  // the savepoint's directory, once written (the subtasks are ending)
      bool write_failed = false;  // the savepoint could not be written: the attempt fails
      bool done = false;
      absl::StatusOr<std::string> result;  // the savepoint's directory
    };
    std::optional<StopRequest> stop;
  };
  // A checkpoint of the attempt completed: the stop savepoint is copied out and announced, and the
  // job ends once its subtasks did; any other is announced to the workers. Called without mu_.
  void OnCheckpointCompleted(const std::string& job_id, int attempt, int64_t checkpoint_id,
                             const std::shared_ptr<CheckpointCoordinator>& checkpoints);
  // The stop savepoint of the attempt failed: the stop ends with `why` and the attempt fails.
  // Called without mu_.
  void OnStopSavepointFailed(const std::string& job_id, int attempt, const std::string& why);
  // The stop savepoint was written and the subtasks ended (or are given up on): the job ends
  // FINISHED with it and the stop returns its directory. Caller holds mu_.
  void EndStoppedJobLocked(Job& job);
  // Writes the job's status record (a no-op without a store); caller holds mu_, so that records
  // are written in the order of the changes.
  absl::Status PersistLocked(const Job& job);
  // Drops finished jobs beyond the retention (memory and store); caller holds mu_.
  void PruneLocked(int64_t now_ms);
  static bool IsFinal(v1::TaskState s);
  // The job's info with its per-node row counts summed over subtasks; caller holds mu_.
  static v1::JobInfo InfoLocked(const Job& job);
  // Sets a final status (first one wins), releases slots; caller holds mu_. Returns workers to
  // cancel the current attempt on.
  std::vector<std::string> FinishLocked(Job& job, v1::JobStatus status, const std::string& error);
  void ReleaseSlotsLocked(Job& job);
  // Workers running subtasks of the current attempt that have not ended.
  static std::vector<std::string> LiveWorkersLocked(const Job& job);
  void CancelOnWorkers(const std::string& job_id, int up_to_attempt,
                       const std::vector<std::string>& workers);
  // Waits until the job's status or attempt is no longer the given one, or `until`; true when it
  // changed.
  bool WaitForJobChange(const std::string& job_id, v1::JobStatus status, int attempt,
                        Clock::time_point until);

  // Deploys the next attempt of a job (the first one from Submit), restoring the latest
  // completed checkpoint when there is one. Called without mu_.
  absl::Status DeployAttempt(const std::string& job_id, std::chrono::milliseconds slot_wait);
  // The current attempt failed: restart the job (after the strategy's delay) or fail it. Ignored
  // for an attempt that is not the current one. Called without mu_.
  void FailAttempt(const std::string& job_id, int attempt, const std::string& reason);
  // Every ~50 ms: due restarts and checkpoint triggers/timeouts.
  void TickLoop();
  void Tick(Clock::time_point now);
  // Sends a checkpoint RPC to every worker of the attempt.
  absl::Status TriggerOnWorkers(const std::string& job_id, int attempt, int64_t checkpoint_id,
                                int64_t trigger_time_ms, bool stop_sources = false,
                                bool drain = false);
  void NotifyWorkers(const std::string& job_id, int attempt, int64_t checkpoint_id, bool completed,
                     const std::string& reason);
  std::shared_ptr<CheckpointCoordinator> MakeCheckpointCoordinator(const std::string& job_id,
                                                                   const Job& job, int64_t last_id);

  WorkerRegistry* registry_;
  JobStore* store_;
  const JobRetention retention_;
  int checkpoint_history_size_ = CheckpointStatsTracker::kDefaultHistorySize;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Job> jobs_;
  std::vector<std::string> order_;  // job ids in submission order
  bool stopping_ = false;
  Clock::time_point next_prune_{};
  std::thread ticker_;
};

}  // namespace eddy
