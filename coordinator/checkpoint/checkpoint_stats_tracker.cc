#include "coordinator/checkpoint/checkpoint_stats_tracker.h"

#include <algorithm>

namespace eddy {

const char* CheckpointStats::StatusName(Status s) {
  switch (s) {
    case Status::kInProgress:
      return "IN_PROGRESS";
    case Status::kCompleted:
      return "COMPLETED";
    case Status::kFailed:
      return "FAILED";
  }
  return "UNKNOWN";
}

CheckpointStatsTracker::CheckpointStatsTracker(int history_size)
    : history_size_(std::max(0, history_size)) {}

CheckpointStats* CheckpointStatsTracker::FindLocked(int64_t id) {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    if (it->id == id) return &*it;
  }
  return nullptr;
}

void CheckpointStatsTracker::ReportTriggered(int64_t id, int attempt, bool savepoint,
                                             int64_t trigger_time_ms, int num_subtasks) {
  std::lock_guard<std::mutex> lock(mu_);
  CheckpointStats& s = entries_.emplace_back();
  s.id = id;
  s.attempt = attempt;
  s.savepoint = savepoint;
  s.trigger_time_ms = trigger_time_ms;
  s.num_subtasks = num_subtasks;
  // Beyond the history_size_ most recent, finished checkpoints go; older ones still in progress
  // stay (unshown) until they end.
  if (entries_.size() <= static_cast<size_t>(history_size_)) return;
  const size_t older = entries_.size() - static_cast<size_t>(history_size_);
  std::deque<CheckpointStats> kept;
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (i >= older || entries_[i].status == CheckpointStats::Status::kInProgress) {
      kept.push_back(std::move(entries_[i]));
    }
  }
  entries_ = std::move(kept);
}

void CheckpointStatsTracker::ReportAcknowledged(int64_t id, int64_t time_ms, int num_subtasks,
                                                int acknowledged, int64_t alignment_ns) {
  std::lock_guard<std::mutex> lock(mu_);
  CheckpointStats* s = FindLocked(id);
  if (s == nullptr) return;
  s->latest_ack_time_ms = std::max(s->latest_ack_time_ms, time_ms);
  s->num_subtasks = num_subtasks;
  s->num_acknowledged = acknowledged;
  s->max_alignment_ns = std::max(s->max_alignment_ns, alignment_ns);
}

void CheckpointStatsTracker::ReportSubtasks(int64_t id, int num_subtasks, int acknowledged) {
  std::lock_guard<std::mutex> lock(mu_);
  CheckpointStats* s = FindLocked(id);
  if (s == nullptr) return;
  s->num_subtasks = num_subtasks;
  s->num_acknowledged = acknowledged;
}

void CheckpointStatsTracker::ReportCompleted(int64_t id, int64_t completion_time_ms,
                                             uint64_t state_size_bytes,
                                             uint64_t checkpointed_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  CheckpointStats* s = FindLocked(id);
  if (s == nullptr || s->status != CheckpointStats::Status::kInProgress) return;
  s->status = CheckpointStats::Status::kCompleted;
  s->end_time_ms = completion_time_ms;
  s->state_size_bytes = state_size_bytes;
  s->checkpointed_bytes = checkpointed_bytes;
  if (!latest_completed_ || latest_completed_->id < id) latest_completed_ = *s;
}

void CheckpointStatsTracker::ReportFailed(int64_t id, int64_t failure_time_ms,
                                          const std::string& reason) {
  std::lock_guard<std::mutex> lock(mu_);
  CheckpointStats* s = FindLocked(id);
  if (s == nullptr || s->status != CheckpointStats::Status::kInProgress) return;
  s->status = CheckpointStats::Status::kFailed;
  s->end_time_ms = failure_time_ms;
  s->failure = reason;
}

std::vector<CheckpointStats> CheckpointStatsTracker::History() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<CheckpointStats> out;
  for (auto it = entries_.rbegin();
       it != entries_.rend() && out.size() < static_cast<size_t>(history_size_); ++it) {
    out.push_back(*it);
  }
  return out;
}

std::optional<CheckpointStats> CheckpointStatsTracker::LatestCompleted() const {
  std::lock_guard<std::mutex> lock(mu_);
  return latest_completed_;
}

int CheckpointStatsTracker::InProgress() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(std::count_if(entries_.begin(), entries_.end(), [](const auto& s) {
    return s.status == CheckpointStats::Status::kInProgress;
  }));
}

}  // namespace eddy
