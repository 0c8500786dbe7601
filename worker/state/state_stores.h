// The keyed state stores of one worker: one KeyedStateBackend (RocksDB instance) per stateful
// operator subtask, at <root>/<job id>/state-<state id>-subtask-<subtask index> (the worker's root
// is <data-dir>/state), all sharing one SharedStateResources. A store lives from the first Acquire
// until its job ends on this worker (DropJob removes the job's directory); operators only borrow
// it, so state survives Operator::Close(). Thread-safe: tasks acquire their stores concurrently.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_resources.h"

namespace eddy {

class StateStores {
 public:
  // Makes `root` an empty directory: whatever is there is the state of jobs of an earlier worker
  // process, which never resume from local state (a restore starts from a snapshot).
  static absl::StatusOr<std::unique_ptr<StateStores>> Open(std::string root,
                                                           StateBackendOptions options = {});
  // Closes every store; leaves the directories (Open of the next process removes them).
  ~StateStores();
  StateStores(const StateStores&) = delete;
  StateStores& operator=(const StateStores&) = delete;

  // The store of (job, state id, subtask), opened (created empty) on first use. The pointer stays
  // valid until DropJob(job_id) or DropAll.
  absl::StatusOr<KeyedStateBackend*> Acquire(const std::string& job_id, uint32_t state_id,
                                             int subtask);
  // Opens the store of (job, state id, subtask) from a snapshot (KeyedStateBackend::Snapshot),
  // replacing its directory. Fails if that store is already open.
  absl::StatusOr<KeyedStateBackend*> AcquireFromSnapshot(const std::string& job_id,
                                                         uint32_t state_id, int subtask,
                                                         const std::string& snapshot_dir);

  // Closes the job's stores and removes its directory. Call once no task of the job runs here.
  absl::Status DropJob(const std::string& job_id);
  // DropJob for every job (worker shutdown).
  absl::Status DropAll();

  const std::string& root() const { return root_; }
  std::string JobDir(const std::string& job_id) const;
  std::string StoreDir(const std::string& job_id, uint32_t state_id, int subtask) const;
  // Open stores, over all jobs.
  size_t size() const;
  const std::shared_ptr<SharedStateResources>& resources() const { return resources_; }

 private:
  using StoreKey = std::tuple<std::string, uint32_t, int>;  // job, state id, subtask

  StateStores(std::string root, std::shared_ptr<SharedStateResources> resources)
      : root_(std::move(root)), resources_(std::move(resources)) {}
  absl::Status CheckKey(const std::string& job_id, uint32_t state_id, int subtask) const;
  // Closes the stores of `job_id` (mu_ held) and removes its directory.
  absl::Status DropJobLocked(const std::string& job_id);

  const std::string root_;
  const std::shared_ptr<SharedStateResources> resources_;
  mutable std::mutex mu_;
  std::map<StoreKey, std::unique_ptr<KeyedStateBackend>> stores_;
};

}  // namespace eddy
