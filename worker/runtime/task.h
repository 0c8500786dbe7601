// A deployed task: one DAG of sources and operators built from a TaskDeployment, run by a driver loop on
// its own thread. The driver polls sources, pushes their batches through the operators, propagates
// end-of-input (an operator finishes once all its inputs ended), and reports the task's state.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/coordinator.pb.h"
#include "eddy/v1/metrics.pb.h"
#include "eddy/v1/plan.pb.h"
#include "worker/operators/operator.h"
#include "worker/operators/source.h"

namespace eddy {

class ExchangeRegistry;
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
  std::string worker;  // "worker-<id> at host:port", for messages other workers show
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
  int task_index() const { return task_index_; }
  int subtask_index() const { return subtask_index_; }
  bool done() const { return done_.load(); }
  // Rows into and out of each node so far; safe to call from any thread while the task exists.
  void Metrics(v1::TaskMetrics* out) const;
  void OperatorMetrics(google::protobuf::RepeatedPtrField<v1::OperatorMetrics>* out) const;

 private:
  struct Node;
  class FanOut;

  Task() = default;
  void Run();
  absl::Status Drive();
  absl::Status OpenAll();
  void CloseAll();
  absl::Status EndInputOf(size_t node, int input);  // input `input` of `node` ended
  absl::Status TickAll(std::chrono::steady_clock::time_point now);
  void Wake();  // ends an idle wait early (a source got input)

  std::string job_id_;
  int attempt_ = 0;
  int task_index_ = 0;
  int subtask_index_ = 0;
  int parallelism_ = 1;
  int max_parallelism_ = 128;
  TaskEnvironment env_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::thread thread_;
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> done_{false};
  std::mutex mu_;
  std::condition_variable cv_;  // wakes an idle driver on cancel or Wake()
  bool wakeup_ = false;         // guarded by mu_
};

}  // namespace eddy
