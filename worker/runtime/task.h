// A deployed task: one DAG of sources and operators built from a TaskDeployment, run by a driver
// loop on its own thread. The driver polls sources, pushes their batches through the operators,
// propagates end-of-input (an operator finishes once all its inputs ended), and reports the task's
// state. Checkpoints (docs/architecture.md, "Checkpoints on workers"): a trigger (source tasks) or
// an aligned barrier (tasks behind an exchange) makes the driver snapshot every operator between
// two batches, forward the barrier, and hand the files to the worker's CheckpointUploader; a
// deployment with state to restore rebuilds each store and operator from it before the first batch.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "common/base/hash.h"
#include "eddy/v1/coordinator.pb.h"
#include "eddy/v1/metrics.pb.h"
#include "eddy/v1/plan.pb.h"
#include "worker/operators/operator.h"
#include "worker/operators/source.h"
#include "worker/runtime/task_metrics.h"
#include "worker/runtime/throughput_meter.h"

namespace grpc {
class Channel;
}  // namespace grpc

namespace eddy {

class CheckpointUploader;
class ExchangeRegistry;
class InputAlignment;
class ResultBuffers;
class StateStores;

class Task;

struct TaskEnvironment {
  // The worker's state stores: each node with a state id gets its subtask's store at Open. Null: a
  // task with a stateful node fails to open.
  StateStores* state_stores = nullptr;
  size_t state_cache_bytes = 0;          // per keyed operator subtask (OperatorContext)
  ExchangeRegistry* exchange = nullptr;  // the worker's exchange gates; null: no exchange nodes
  ResultBuffers* results = nullptr;  // the worker's SELECT result buffers; null: no collect sink
  // The filesystem connector's allowed directories (canonical); null: no filesystem nodes.
  const std::vector<std::string>* filesystem_allowed_dirs = nullptr;
  // The worker's channel to the coordinator (client-stream sources); null: none.
  std::shared_ptr<grpc::Channel> coordinator;
  std::string worker;  // "worker-<id> at host:port", for messages other workers show
  // The worker's asynchronous checkpoint part (uploads, acknowledgements, declines); null: the
  // task declines nothing and acknowledges nothing (checkpoints are dropped).
  CheckpointUploader* checkpoints = nullptr;
  // Called from the task thread on RUNNING and on the final state (FINISHED, FAILED, CANCELED);
  // `task` gives the row counts (final with a final state).
  std::function<void(const Task& task, v1::TaskState state, const std::string& error)> on_state;
};

class Task {
 public:
  static absl::StatusOr<std::unique_ptr<Task>> Create(const v1::TaskDeployment& deployment,
                                                      TaskEnvironment env);
  ~Task();

  void Start();
  void Cancel();  // asynchronous: the driver stops at its next step
  void Join();

  const std::string& job_id() const { return job_id_; }
  int attempt() const { return attempt_; }
  // The job key of this task's state stores: one per attempt, so that a restarted attempt never
  // finds the stores of the one before it on this worker.
  const std::string& state_key() const { return state_key_; }
  // Whether the coordinator triggers checkpoints here: the task has sources other than an
  // exchange (datagen, filesystem, VALUES).
  bool triggerable() const { return triggerable_; }
  // Thread-safe; the driver acts on them between two batches. A trigger snapshots the task and
  // sends barrier `checkpoint_id` downstream (a task without connector sources acts on it only
  // while it awaits its final checkpoint: otherwise the barrier reaches it in-band); a
  // notification is forwarded to the operators (completed) or ends an alignment of that
  // checkpoint (aborted).
  //
  // Returns false, queuing nothing, once the task has recorded its sources' final positions (it
  // finished): the caller acknowledges with FinalSourceState() instead. A trigger queued before
  // that moment but never acted on (it came after the driver's last look) is acknowledged with
  // the final positions by the task itself, so no trigger is ever left unanswered.
  //
  // `stop_sources` (STOP JOB ... WITH SAVEPOINT): after this checkpoint's barrier the task's
  // sources produce nothing more, so nothing after the savepoint reaches a sink before the job is
  // stopped; `drain` first sends the end-of-time watermark, so every event-time window fires.
  bool TriggerCheckpoint(int64_t checkpoint_id, bool stop_sources = false, bool drain = false);
  void NotifyCheckpoint(int64_t checkpoint_id, bool completed);
  // Once done() after finishing: the sources' final positions, what a checkpoint triggered after
  // the end acknowledges.
  v1::SubtaskStateHandle FinalSourceState() const;
  int task_index() const { return task_index_; }
  int subtask_index() const { return subtask_index_; }
  bool done() const { return done_.load(); }
  // Done, and every source ended (neither failed nor cancelled).
  bool finished() const { return finished_.load(); }
  // Rows into and out of each node so far; safe to call from any thread while the task exists.
  void Metrics(v1::TaskMetrics* out) const;
  void OperatorMetrics(google::protobuf::RepeatedPtrField<v1::OperatorMetrics>* out) const;
  // Everything the worker's /metrics shows of this task; safe from any thread (store sizes are
  // RocksDB's cheap estimates).
  void RuntimeMetrics(TaskRuntimeMetrics* out);
  // Samples the rows in and out of every node for their rates (the worker calls it about once a
  // second; RuntimeMetrics does too). Any thread.
  void SampleThroughput();

 private:
  struct Node;
  class FanOut;

  Task() = default;
  void Run();
  absl::Status Drive();
  // After the inputs ended: while an operator has output a checkpoint must still commit, takes
  // part in checkpoints (triggered directly) until one completes; then the task finishes.
  absl::Status AwaitFinalCheckpoint();
  bool HasUncommittedOutput() const;
  absl::Status OpenAll();
  void CloseAll();
  // Input `input` of `node` ended; `at_stop`: because the job stops after a savepoint.
  absl::Status EndInputOf(size_t node, int input, bool at_stop = false);
  // Ends the outputs of the finished nodes whose end was deferred and that have no output left to
  // commit, and of those ended at the stop once the stop savepoint's completion was handled.
  absl::Status EndDeferredInputs();
  // Every input of `node` ended at the stop and the savepoint's completion was handled: the
  // operator ends without Finish (Operator::EndAtStop) and its consumers' inputs end at the stop.
  absl::Status EndAtStop(size_t node);
  // The completion of the last checkpoint this task took (the stop savepoint) was handled.
  bool LastCheckpointCompleted() const { return last_completed_ >= last_checkpoint_; }
  absl::Status TickAll(std::chrono::steady_clock::time_point now);
  // Runs the triggers and notifications queued since the last call (driver thread); once
  // cancelled only the completions (`completions_only`), which still commit their output.
  absl::Status HandleCheckpointRequests(bool completions_only = false);
  // Snapshots every live node for checkpoint n, forwards barrier n, hands over the upload. A
  // snapshot that fails declines n; an error here (emitting, forwarding) fails the task.
  absl::Status PerformCheckpoint(int64_t checkpoint_id);
  void Decline(int64_t checkpoint_id, std::string reason);
  // Opens node `node`'s state store, from the checkpoint's files when it has some.
  absl::StatusOr<KeyedStateBackend*> OpenStore(Node& node);
  // Copies a handle's state files into `local` (created), checking each against its checksum.
  absl::Status CopyRestoreFiles(const v1::OperatorStateHandle& handle, const std::string& local);
  // The state was taken at another parallelism: a fresh store receives, from each of the handles
  // (old subtasks' stores), the keys of this subtask's key groups.
  absl::StatusOr<KeyedStateBackend*> OpenRescaledStore(
      Node& node, const std::vector<const v1::OperatorStateHandle*>& handles);
  // The id under which a node's state is acknowledged: its state id, or (stateless nodes such as
  // sources) its plan node id + 1, the same scheme as state ids.
  static uint32_t HandleId(const Node& node);
  bool Live(const Node& node) const;  // not yet finished
  // Sets out's busy, idle and back-pressured time (any thread).
  void TimeMetrics(TaskRuntimeMetrics* out) const;
  void Wake();  // ends an idle wait early (a source got input)
  // Every node's rows in and rows out, in node order (any thread).
  std::vector<uint64_t> ThroughputCounters() const;

  std::string job_id_;
  int task_index_ = 0;
  int subtask_index_ = 0;
  int parallelism_ = 1;
  int max_parallelism_ = kMaxParallelism;
  int attempt_ = 0;
  std::string state_key_;
  v1::TaskCheckpointing checkpointing_;
  // By HandleId, into checkpointing_: several for one keyed node restored at a new parallelism.
  std::multimap<uint32_t, const v1::OperatorStateHandle*> restore_;
  bool triggerable_ = false;
  int64_t last_checkpoint_ = 0;  // driver thread
  int64_t last_completed_ = 0;   // driver thread: the newest completion handled
  int deferred_ends_ = 0;        // driver thread: nodes with end_deferred
  // Driver thread: the newest trigger a task without connector sources received (it acts on it
  // only once it awaits its final checkpoint), and whether it does.
  int64_t latest_direct_trigger_ = 0;
  bool awaiting_final_checkpoint_ = false;
  // Driver thread: the checkpoint after whose barrier the sources stop (0: none), whether to
  // drain first, and whether they stopped. Once its completion is handled, the connector sources
  // end at the stop, and so, in turn, does every operator downstream (Flink's end of data without
  // drain): the task finishes, and the job once every task did.
  int64_t stop_at_ = 0;
  bool drain_ = false;
  bool sources_stopped_ = false;
  TaskEnvironment env_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::shared_ptr<InputAlignment> alignment_;  // of the task's exchange inputs
  ThroughputMeter throughput_;
  std::thread thread_;
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> done_{false};
  std::atomic<bool> finished_{false};
  // How the driver thread spends its time (RuntimeMetrics): steady-clock nanoseconds since the
  // driver started (0: not yet) and ended (0: still running), idle waits so far and the start of
  // the current one (0: not waiting), and waits for exchange credit (counted by the channels).
  std::atomic<int64_t> run_start_ns_{0};
  std::atomic<int64_t> run_end_ns_{0};
  std::atomic<uint64_t> idle_ns_{0};
  std::atomic<int64_t> idle_since_ns_{0};
  std::atomic<uint64_t> back_pressured_ns_{0};
  mutable std::mutex mu_;
  std::condition_variable cv_;                          // wakes an idle driver on cancel or Wake()
  bool wakeup_ = false;                                 // guarded by mu_
  std::deque<int64_t> triggers_;                        // guarded by mu_
  int64_t requested_stop_at_ = 0;                       // guarded by mu_
  bool requested_drain_ = false;                        // guarded by mu_
  std::deque<std::pair<int64_t, bool>> notifications_;  // guarded by mu_: id, completed
  v1::SubtaskStateHandle final_state_;                  // guarded by mu_
  bool final_state_recorded_ = false;                   // guarded by mu_
};

}  // namespace eddy
