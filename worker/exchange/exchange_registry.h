// ExchangeRegistry: one per worker, maps a consumer subtask's input (job, task, subtask, input) to
// its InputGate so that incoming exchange streams and local senders find it. A consumer task
// registers its gate when it is created (before DeployTasks returns) and unregisters it when it
// closes.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "worker/exchange/input_gate.h"

namespace eddy {

struct GateKey {
  std::string job_id;
  int task_index = 0;
  int subtask_index = 0;
  int input_index = 0;  // one gate per input of the consumer's stage (a join has two)

  bool operator<(const GateKey& o) const {
    return std::tie(job_id, task_index, subtask_index, input_index) <
           std::tie(o.job_id, o.task_index, o.subtask_index, o.input_index);
  }
  std::string ToString() const;  // "job j task 2 subtask 1", then " input 1" for input 1 and up
};

inline constexpr std::chrono::milliseconds kDefaultGateWaitTimeout{30000};

class ExchangeRegistry {
 public:
  // Unregisters its gate when destroyed.
  class Registration {
   public:
    ~Registration();
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

   private:
    friend class ExchangeRegistry;
    Registration(ExchangeRegistry* registry, GateKey key, const InputGate* gate)
        : registry_(registry), key_(std::move(key)), gate_(gate) {}
    ExchangeRegistry* registry_;
    GateKey key_;
    const InputGate* gate_;
  };

  // `wait_timeout`: how long Await waits for a gate that is not registered yet (the consumer may be
  // deployed after its producers, on another worker).
  explicit ExchangeRegistry(std::chrono::milliseconds wait_timeout = kDefaultGateWaitTimeout)
      : wait_timeout_(wait_timeout) {}

  // AlreadyExists if the key has a gate.
  absl::StatusOr<std::unique_ptr<Registration>> Register(const GateKey& key,
                                                         std::shared_ptr<InputGate> gate);

  // The gate of `key`, waiting up to wait_timeout() for it to be registered: NOT_FOUND after that,
  // CANCELLED if the job is cancelled, the worker shuts down or `cancelled` (polled every few ms,
  // may be empty) returns true.
  absl::StatusOr<std::shared_ptr<InputGate>> Await(const GateKey& key,
                                                   const std::function<bool()>& cancelled = {});

  // Releases Await callers waiting for the job's gates; later Awaits for it fail at once.
  void CancelJob(const std::string& job_id);
  // Releases every waiter; later Awaits fail at once.
  void Shutdown();

  std::chrono::milliseconds wait_timeout() const { return wait_timeout_; }
  size_t size() const;
  // Every registered gate, for metrics.
  std::vector<std::pair<GateKey, std::shared_ptr<InputGate>>> Gates() const;

 private:
  void Unregister(const GateKey& key, const InputGate* gate);

  const std::chrono::milliseconds wait_timeout_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<GateKey, std::shared_ptr<InputGate>> gates_;
  std::set<std::string> cancelled_jobs_;
  std::deque<std::string> cancelled_order_;  // bounds cancelled_jobs_
  bool shutdown_ = false;
};

}  // namespace eddy
