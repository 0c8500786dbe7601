#include "coordinator/checkpoint/checkpoint_coordinator.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/logging.h"

namespace eddy {

CheckpointCoordinator::CheckpointCoordinator(std::string job_id, int attempt,
                                             CheckpointConfig config,
                                             std::set<SubtaskId> acknowledging,
                                             CheckpointStore* store, Callbacks callbacks,
                                             int64_t last_id,
                                             std::shared_ptr<CheckpointStatsTracker> tracker)
    : job_id_(std::move(job_id)),
      attempt_(attempt),
      config_(std::move(config)),
      acknowledging_(std::move(acknowledging)),
      store_(store),
      callbacks_(std::move(callbacks)),
      tracker_(std::move(tracker)),
      next_id_(last_id + 1) {}

int64_t CheckpointCoordinator::WallClockMs() const {
  return callbacks_.wall_clock_ms ? callbacks_.wall_clock_ms()
                                  : std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count();
}

namespace {

// Adds the state files an acknowledgement names to `files`.
void AddFilesOf(const v1::SubtaskStateHandle& state, std::set<std::string>* files) {
  for (const auto& op : state.operators()) {
    for (const auto& f : op.files()) files->insert(f.path());
  }
}

}  // namespace

void CheckpointCoordinator::Run(Actions& actions) {
  for (auto& a : actions) a();
  actions.clear();
}

std::set<std::string> CheckpointCoordinator::InUseLocked() const {
  std::set<std::string> files;
  for (const auto& [id, p] : pending_) {
    for (const auto& [subtask, state] : p.acks) AddFilesOf(state, &files);
  }
  return files;
}

void CheckpointCoordinator::Tick(Clock::time_point now) {
  Actions actions;
  int64_t trigger_id = 0;
  int64_t trigger_ms = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_ || !config_.enabled()) return;
    std::vector<int64_t> expired;
    for (const auto& [id, p] : pending_) {
      if (now - p.triggered >= config_.timeout) expired.push_back(id);
    }
    for (int64_t id : expired) {
      AbortLocked(id, "Checkpoint expired before completing.", true, now, &actions);
    }
    if (!first_due_) {
      first_due_ = now + (callbacks_.initial_delay ? callbacks_.initial_delay()
                                                   : std::chrono::milliseconds(0));
    }
    const bool interval_due =
        last_trigger_ ? now - *last_trigger_ >= config_.interval : now >= *first_due_;
    const bool pause_over = !last_end_ || now - *last_end_ >= config_.min_pause;
    if (!stopped_ && stop_savepoint_id_ == 0 && interval_due && pause_over &&
        static_cast<int>(pending_.size()) < config_.max_concurrent &&
        (config_.min_pause.count() == 0 || pending_.empty())) {
      Pending p;
      for (const SubtaskId& s : acknowledging_) {
        if (finished_.count(s) == 0) p.expected.insert(s);
      }
      p.id = trigger_id = next_id_++;
      p.triggered = now;
      p.trigger_time_ms = trigger_ms = WallClockMs();
      if (tracker_) {
        tracker_->ReportTriggered(p.id, attempt_, false, p.trigger_time_ms,
                                  static_cast<int>(p.expected.size()));
      }
      pending_[p.id] = std::move(p);
      last_trigger_ = now;
      ++stats_.in_progress;
    }
  }
  Run(actions);
  if (trigger_id == 0) return;
  EDDY_LOG_INFO("job {}: triggering checkpoint {} (attempt {})", job_id_, trigger_id, attempt_);
  absl::Status s =
      callbacks_.trigger ? callbacks_.trigger(trigger_id, trigger_ms) : absl::OkStatus();
  if (!s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    AbortLocked(trigger_id, absl::StrCat("Trigger failed: ", s.message()), true, now, &actions);
  }
  Run(actions);
}

absl::Status CheckpointCoordinator::Acknowledge(int64_t id, const v1::SubtaskStateHandle& state,
                                                Clock::time_point now, int64_t alignment_ns) {
  const SubtaskId subtask{state.task_index(), state.subtask_index()};
  if (acknowledging_.count(subtask) == 0) {
    return absl::InvalidArgumentError(absl::StrCat("checkpoint ", id, " of job ", job_id_,
                                                   ": task ", subtask.first, " subtask ",
                                                   subtask.second, " is not part of the job"));
  }
  for (const auto& op : state.operators()) {
    for (const auto& f : op.files()) {
      if (!CheckpointStore::IsPathInJobDir(f.path())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "checkpoint ", id, " of job ", job_id_, ": task ", subtask.first, " subtask ",
            subtask.second, " names file '", f.path(), "' outside the job's checkpoint directory"));
      }
    }
  }
  Actions actions;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = pending_.find(id);
    if (it == pending_.end()) {
      if (id >= next_id_) {
        return absl::InvalidArgumentError(
            absl::StrCat("checkpoint ", id, " of job ", job_id_, " was never triggered"));
      }
      return absl::OkStatus();  // aborted or subsumed meanwhile
    }
    it->second.acks[subtask] = state;
    it->second.expected.insert(subtask);  // a subtask that acknowledges anyway is welcome
    if (tracker_) {
      tracker_->ReportAcknowledged(id, WallClockMs(), static_cast<int>(it->second.expected.size()),
                                   static_cast<int>(it->second.acks.size()), alignment_ns);
    }
    MaybeCompleteLocked(it, now, &actions);
  }
  Run(actions);
  return absl::OkStatus();
}

void CheckpointCoordinator::MaybeCompleteLocked(std::map<int64_t, Pending>::iterator it,
                                                Clock::time_point now, Actions* actions) {
  for (const SubtaskId& s : it->second.expected) {
    if (it->second.acks.count(s) == 0) return;
  }
  Pending done = std::move(it->second);
  pending_.erase(it);
  CompleteLocked(std::move(done), now, actions);
}

void CheckpointCoordinator::OnSubtaskFinished(SubtaskId subtask, Clock::time_point now) {
  Actions actions;
  {
    std::lock_guard<std::mutex> lock(mu_);
    finished_.insert(subtask);
    std::vector<int64_t> ids;
    for (auto& [id, p] : pending_) {
      if (p.acks.count(subtask) == 0 && p.expected.erase(subtask) > 0) {
        ids.push_back(id);
        if (tracker_) {
          tracker_->ReportSubtasks(id, static_cast<int>(p.expected.size()),
                                   static_cast<int>(p.acks.size()));
        }
      }
    }
    for (int64_t id : ids) {
      auto it = pending_.find(id);
      if (it != pending_.end()) MaybeCompleteLocked(it, now, &actions);
    }
  }
  Run(actions);
}

void CheckpointCoordinator::CompleteLocked(Pending p, Clock::time_point now, Actions* actions) {
  --stats_.in_progress;
  v1::CheckpointMetadata metadata;
  metadata.set_job_id(job_id_);
  metadata.set_checkpoint_id(p.id);
  metadata.set_attempt(attempt_);
  metadata.set_trigger_time_ms(p.trigger_time_ms);
  metadata.set_completion_time_ms(
      p.trigger_time_ms +
      std::chrono::duration_cast<std::chrono::milliseconds>(now - p.triggered).count());
  uint64_t bytes = 0, new_bytes = 0;
  std::set<std::string> files;
  for (auto& [subtask, state] : p.acks) {
    for (const auto& op : state.operators()) {
      for (const auto& f : op.files()) {
        bytes += f.size();
        if (latest_files_.count(f.path()) == 0) new_bytes += f.size();
        files.insert(f.path());
      }
    }
    *metadata.add_subtasks() = std::move(state);
  }
  std::vector<std::string> missing = store_->MissingFiles(metadata);
  absl::Status written =
      missing.empty() ? store_->WriteMetadata(metadata)
                      : absl::DataLossError(absl::StrCat("its state references missing files: ",
                                                         absl::StrJoin(missing, ", ")));
  if (!written.ok()) {
    ++stats_.in_progress;  // FailLocked counts it out again
    for (const auto& s : metadata.subtasks()) p.acks[{s.task_index(), s.subtask_index()}] = s;
    // A full checkpoint storage aborts the checkpoint; the job goes on and tries again later.
    FailLocked(std::move(p), absl::StrCat("Could not complete the checkpoint: ", written.message()),
               !absl::IsResourceExhausted(written), now, actions);
    return;
  }
  consecutive_failures_ = 0;
  last_end_ = now;
  ++stats_.completed;
  stats_.latest_completed_id = p.id;
  stats_.latest_duration = std::chrono::duration_cast<std::chrono::milliseconds>(now - p.triggered);
  stats_.latest_size_bytes = bytes;
  stats_.latest_new_bytes = new_bytes;
  if (tracker_) {
    tracker_->ReportCompleted(p.id, metadata.completion_time_ms(), bytes, new_bytes);
  }
  latest_files_ = std::move(files);
  // Older checkpoints still pending are subsumed by this one.
  std::vector<int64_t> older;
  for (const auto& [id, pending] : pending_) {
    if (id < p.id) older.push_back(id);
  }
  for (int64_t id : older) {
    AbortLocked(id, absl::StrCat("Subsumed by checkpoint ", p.id, "."), false, now, actions);
  }
  absl::Status retained = store_->Retain(config_.num_retained, InUseLocked());
  if (!retained.ok()) {
    EDDY_LOG_WARN("job {}: cleaning up old checkpoints: {}", job_id_,
                  std::string(retained.message()));
  }
  EDDY_LOG_INFO("job {}: checkpoint {} completed in {} ms ({} bytes, {} of them new)", job_id_,
                p.id, stats_.latest_duration.count(), bytes, new_bytes);
  const int64_t id = p.id;
  actions->push_back([this, id] {
    if (callbacks_.notify_complete) callbacks_.notify_complete(id);
  });
}

void CheckpointCoordinator::Decline(int64_t id, SubtaskId subtask, const std::string& reason,
                                    bool storage_full, Clock::time_point now) {
  Actions actions;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (pending_.count(id) == 0) return;
    AbortLocked(
        id,
        absl::StrCat("Declined by task ", subtask.first, " subtask ", subtask.second, ": ", reason,
                     storage_full ? " (the checkpoint storage is full: not counted as a "
                                    "failed checkpoint)"
                                  : ""),
        !storage_full, now, &actions);
  }
  Run(actions);
}

void CheckpointCoordinator::AbortLocked(int64_t id, const std::string& reason, bool counts,
                                        Clock::time_point now, Actions* actions) {
  auto it = pending_.find(id);
  if (it == pending_.end()) return;
  Pending p = std::move(it->second);
  pending_.erase(it);
  FailLocked(std::move(p), reason, counts, now, actions);
}

void CheckpointCoordinator::FailLocked(Pending p, const std::string& reason, bool counts,
                                       Clock::time_point now, Actions* actions) {
  const int64_t id = p.id;
  std::set<std::string> written;
  for (const auto& [subtask, state] : p.acks) AddFilesOf(state, &written);
  --stats_.in_progress;
  absl::Status discarded = store_->Discard(id, written, InUseLocked());
  if (!discarded.ok()) {
    EDDY_LOG_WARN("job {}: cleaning up checkpoint {}: {}", job_id_, id,
                  std::string(discarded.message()));
  }
  EDDY_LOG_WARN("job {}: checkpoint {} failed: {}", job_id_, id, reason);
  if (tracker_) {
    tracker_->ReportFailed(
        id,
        p.trigger_time_ms +
            std::chrono::duration_cast<std::chrono::milliseconds>(now - p.triggered).count(),
        reason);
  }
  actions->push_back([this, id, reason] {
    if (callbacks_.notify_aborted) callbacks_.notify_aborted(id, reason);
  });
  if (!counts) return;
  ++stats_.failed;
  stats_.latest_failure = absl::StrCat("checkpoint ", id, ": ", reason);
  last_end_ = now;
  if (++consecutive_failures_ > config_.tolerable_failures && !stopped_) {
    stopped_ = true;
    const std::string message = absl::StrCat(
        "Exceeded checkpoint tolerable failure threshold (", config_.tolerable_failures,
        "). The latest checkpoint (", id, ") failed: ", reason);
    actions->push_back([this, message] {
      if (callbacks_.fail_job) callbacks_.fail_job(message);
    });
  }
}

void CheckpointCoordinator::Stop(const std::string& reason) {
  Actions actions;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    std::vector<int64_t> ids;
    for (const auto& [id, p] : pending_) ids.push_back(id);
    for (int64_t id : ids) AbortLocked(id, reason, false, Clock::now(), &actions);
  }
  Run(actions);
}

absl::StatusOr<int64_t> CheckpointCoordinator::TriggerStopSavepoint(bool drain,
                                                                    Clock::time_point now) {
  Actions actions;
  int64_t id = 0;
  int64_t trigger_ms = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped_) {
      return absl::FailedPreconditionError(absl::StrCat(
          "job ", job_id_, " takes no more checkpoints (its attempt ", attempt_, " is over)"));
    }
    if (stop_savepoint_id_ != 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "job ", job_id_, " is already stopping with savepoint ", stop_savepoint_id_));
    }
    Pending p;
    for (const SubtaskId& s : acknowledging_) {
      if (finished_.count(s) == 0) p.expected.insert(s);
    }
    p.id = id = stop_savepoint_id_ = next_id_++;
    p.triggered = now;
    p.trigger_time_ms = trigger_ms = WallClockMs();
    if (tracker_) {
      tracker_->ReportTriggered(p.id, attempt_, true, p.trigger_time_ms,
                                static_cast<int>(p.expected.size()));
    }
    pending_[p.id] = std::move(p);
    last_trigger_ = now;
    ++stats_.in_progress;
  }
  EDDY_LOG_INFO("job {}: triggering savepoint {} to stop the job{} (attempt {})", job_id_, id,
                drain ? ", draining it" : "", attempt_);
  absl::Status s = callbacks_.trigger_stop ? callbacks_.trigger_stop(id, trigger_ms, drain)
                                           : absl::UnimplementedError("no stop trigger");
  if (!s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    AbortLocked(id, absl::StrCat("Trigger failed: ", s.message()), true, now, &actions);
  }
  Run(actions);
  if (!s.ok()) return s;
  return id;
}

int64_t CheckpointCoordinator::stop_savepoint_id() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stop_savepoint_id_;
}

CheckpointCoordinator::Stats CheckpointCoordinator::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

}  // namespace eddy
