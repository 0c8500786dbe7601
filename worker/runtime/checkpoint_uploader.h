// CheckpointUploader: the asynchronous part of a worker's checkpoints, on one background thread
// (tasks keep processing meanwhile). For each subtask snapshot it copies the state stores' local
// snapshot files into the job's checkpoint directory and then acknowledges the checkpoint to the
// coordinator; any failure declines it instead (the job goes on):
//   <job_dir>/shared/<store>/<file>.sst      immutable SST files, uploaded once per store
//   <job_dir>/chk-<n>/<store>/<file>         MANIFEST, CURRENT, OPTIONS: of checkpoint n alone
// where <store> is the store's name with a suffix unique to the store's instance, so that two
// instances (attempts, subtasks) never write the same shared path. A store's SST already uploaded
// for the last completed checkpoint it knows of is referenced again instead of copied; completion
// and aborts come from NotifyCheckpoint. Every file is written to a temporary name, fsynced and
// renamed, and its directory fsynced. Thread-safe.
#pragma once

#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "eddy/v1/coordinator.pb.h"

namespace eddy {

// One state store's part of a subtask snapshot.
// Why an upload failed, and whether it was for lack of room in the checkpoint storage (ENOSPC,
// EDQUOT): such a decline aborts the checkpoint without counting as a failed one.
struct UploadError {
  std::string message;
  bool storage_full = false;
  void Set(std::string m, int error_number) {
    message = std::move(m);
    storage_full = storage_full || error_number == ENOSPC || error_number == EDQUOT;
  }
};

struct StoreSnapshot {
  size_t operator_index = 0;  // into SubtaskSnapshot::state.operators
  std::string store_name;     // unique per store instance
  std::string local_dir;      // rocksdb::Checkpoint output; removed after the upload
};

// What a task's synchronous snapshot part hands over.
struct SubtaskSnapshot {
  std::string job_id;
  int attempt = 0;
  int64_t checkpoint_id = 0;
  std::string job_dir;           // TaskCheckpointing.job_dir
  v1::SubtaskStateHandle state;  // operator_state filled; files are added by the upload
  std::vector<StoreSnapshot> stores;
  std::string local_root;      // removed when done (may be empty)
  std::string decline_reason;  // set: decline instead of uploading
  int64_t alignment_ns = 0;    // how long the subtask aligned the checkpoint's barriers
};

class CheckpointUploader {
 public:
  using AckFn = std::function<void(const v1::AcknowledgeCheckpointRequest&)>;
  using DeclineFn = std::function<void(const v1::DeclineCheckpointRequest&)>;

  CheckpointUploader(AckFn ack, DeclineFn decline);
  // Finishes the queued work first.
  ~CheckpointUploader();

  void Submit(SubtaskSnapshot snapshot);
  // The job's checkpoint completed (its stores' files of it become the base of the next ones) or
  // was aborted (its uploads are never referenced again).
  void NotifyCheckpoint(const std::string& job_id, int64_t checkpoint_id, bool completed);
  // A store restored from files already in its job directory: its SSTs there count as uploaded.
  void SeedStore(const std::string& job_id, const std::string& store_name,
                 const std::vector<v1::StateFile>& files);
  // Forgets the job's stores.
  void DropJob(const std::string& job_id);
  // Waits until everything submitted so far is done (tests).
  void WaitIdle();

 private:
  struct StoreUploads {
    std::string job_id;
    std::map<int64_t, std::map<std::string, v1::StateFile>> pending;  // by checkpoint id, then name
    std::map<std::string, v1::StateFile> confirmed;  // SSTs of the last completed checkpoint
  };

  void Run();
  void Process(SubtaskSnapshot& snapshot);
  // Uploads one store's files into `handle`; false with *error on failure.
  bool UploadStore(const SubtaskSnapshot& snapshot, const StoreSnapshot& store,
                   v1::OperatorStateHandle* handle, UploadError* error);

  AckFn ack_;
  DeclineFn decline_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<SubtaskSnapshot> queue_;
  bool busy_ = false;
  bool stop_ = false;
  std::map<std::string, StoreUploads> stores_;  // by store name
  std::thread thread_;
};

}  // namespace eddy
