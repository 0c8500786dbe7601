// Drives the checkpoints of one job attempt (Flink's CheckpointCoordinator): triggers checkpoint n
// at the source subtasks every interval (at most max-concurrent at once, min-pause apart), collects
// every stateful subtask's acknowledgement, and completes n by writing its metadata
// (CheckpointStore) and telling the subtasks. A checkpoint that a subtask declines, that times out
// or whose files are missing is aborted; more failures in a row than tolerated fail the job.
// Thread-safe; the callbacks run without the lock held.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "coordinator/checkpoint/checkpoint_config.h"
#include "coordinator/checkpoint/checkpoint_stats_tracker.h"
#include "coordinator/checkpoint/checkpoint_store.h"
#include "eddy/v1/checkpoint.pb.h"

namespace eddy {

class CheckpointCoordinator {
 public:
  using Clock = std::chrono::steady_clock;
  using SubtaskId = std::pair<int, int>;  // (task index, subtask index)

  struct Callbacks {
    // Starts checkpoint `id` at the source subtasks; an error aborts it.
    std::function<absl::Status(int64_t id, int64_t trigger_time_ms)> trigger;
    // Starts the savepoint of STOP JOB ... WITH SAVEPOINT: checkpoint `id`, after whose barrier the
    // sources stop (after the end-of-time watermark with `drain`).
    std::function<absl::Status(int64_t id, int64_t trigger_time_ms, bool drain)> trigger_stop;
    std::function<void(int64_t id)> notify_complete;
    std::function<void(int64_t id, const std::string& reason)> notify_aborted;
    // Too many checkpoints failed in a row: the job must fail (or restart) with this message.
    std::function<void(const std::string& message)> fail_job;
    std::function<int64_t()> wall_clock_ms;  // for metadata timestamps; default: system clock
    // How long after the first Tick the first checkpoint is due (Flink: a random time between
    // min-pause and the interval, so that jobs started together do not checkpoint together);
    // default: at once.
    std::function<std::chrono::milliseconds()> initial_delay;
  };

  struct Stats {
    int64_t completed = 0;
    int64_t failed = 0;
    int64_t in_progress = 0;
    std::optional<int64_t> latest_completed_id;
    std::chrono::milliseconds latest_duration{0};
    uint64_t latest_size_bytes = 0;  // every file the latest completed checkpoint references
    // Of those, the files the checkpoint completed before it in this attempt did not reference:
    // what an incremental checkpoint added (all of them for an attempt's first).
    uint64_t latest_new_bytes = 0;
    std::string latest_failure;
  };

  // `acknowledging` are the subtasks that acknowledge each checkpoint (every subtask of the job).
  // Checkpoint ids continue after `last_id` (the restored checkpoint's, across attempts). Each
  // checkpoint's progress is reported to `tracker` (the job's statistics) when there is one.
  CheckpointCoordinator(std::string job_id, int attempt, CheckpointConfig config,
                        std::set<SubtaskId> acknowledging, CheckpointStore* store,
                        Callbacks callbacks, int64_t last_id = 0,
                        std::shared_ptr<CheckpointStatsTracker> tracker = nullptr);

  // Triggers a checkpoint when one is due and aborts those past their timeout. Called often.
  void Tick(Clock::time_point now);
  // A subtask's snapshot for checkpoint `id`. An error for an acknowledgement that does not fit
  // (unknown checkpoint or subtask, a file outside the job's directory); an acknowledgement of a
  // checkpoint that was already aborted is ignored (OK). `alignment_ns`: how long the subtask
  // aligned the checkpoint's barriers (statistics only).
  absl::Status Acknowledge(int64_t id, const v1::SubtaskStateHandle& state, Clock::time_point now,
                           int64_t alignment_ns = 0);
  // A subtask could not snapshot checkpoint `id`: it is aborted, and counted as a failed checkpoint
  // unless the checkpoint storage was full (`storage_full`), which only aborts it (as does a full
  // storage when the metadata is written).
  void Decline(int64_t id, SubtaskId subtask, const std::string& reason, bool storage_full = false,
               Clock::time_point now = Clock::now());
  // `subtask` finished (every input ended) without a source to report from, so it never sees
  // another barrier: pending checkpoints stop waiting for it (and may complete), later ones do not
  // expect it.
  void OnSubtaskFinished(SubtaskId subtask, Clock::time_point now = Clock::now());
  // Aborts everything pending (the attempt ends); no more checkpoints are triggered.
  void Stop(const std::string& reason);
  // Triggers a checkpoint at once as the savepoint the job stops with (whatever the interval,
  // pause and concurrency settings); no periodic checkpoint is triggered after it. Returns its
  // id; an error when checkpoints stopped or a stop is already under way. It completes or fails
  // as any checkpoint (notify_complete / notify_aborted with its id).
  absl::StatusOr<int64_t> TriggerStopSavepoint(bool drain, Clock::time_point now = Clock::now());
  // The id of the stop savepoint (set before its trigger is sent); 0: none.
  int64_t stop_savepoint_id() const;

  Stats stats() const;

 private:
  struct Pending {
    int64_t id = 0;
    Clock::time_point triggered;
    int64_t trigger_time_ms = 0;
    std::set<SubtaskId> expected;
    std::map<SubtaskId, v1::SubtaskStateHandle> acks;
  };

  using Actions = std::vector<std::function<void()>>;
  // Completes `it` when every expected subtask acknowledged. Caller holds mu_.
  void MaybeCompleteLocked(std::map<int64_t, Pending>::iterator it, Clock::time_point now,
                           Actions* actions);

  // Aborts a pending checkpoint; counts it as failed when `counts`. Caller holds mu_.
  void AbortLocked(int64_t id, const std::string& reason, bool counts, Clock::time_point now,
                   Actions* actions);
  // The same for one already taken out of pending_.
  void FailLocked(Pending p, const std::string& reason, bool counts, Clock::time_point now,
                  Actions* actions);
  void CompleteLocked(Pending pending, Clock::time_point now, Actions* actions);
  // Files the acknowledgements of pending checkpoints name (kept by retention). Caller holds mu_.
  std::set<std::string> InUseLocked() const;
  static void Run(Actions& actions);
  int64_t WallClockMs() const;

  const std::string job_id_;
  const int attempt_;
  const CheckpointConfig config_;
  const std::set<SubtaskId> acknowledging_;
  CheckpointStore* const store_;
  const Callbacks callbacks_;
  const std::shared_ptr<CheckpointStatsTracker> tracker_;  // may be null

  mutable std::mutex mu_;
  bool stopped_ = false;
  int64_t next_id_;
  std::map<int64_t, Pending> pending_;
  std::optional<Clock::time_point> first_due_;  // set at the first Tick
  std::optional<Clock::time_point> last_trigger_;
  std::optional<Clock::time_point> last_end_;  // of the last checkpoint that completed or failed
  int consecutive_failures_ = 0;
  int64_t stop_savepoint_id_ = 0;  // the savepoint the job stops with; 0: none
  std::set<SubtaskId> finished_;
  std::set<std::string> latest_files_;  // of the latest completed checkpoint
  Stats stats_;
};

}  // namespace eddy
