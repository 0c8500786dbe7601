// The checkpoint statistics of one job (Flink's CheckpointStatsTracker): what each recent
// checkpoint did (triggered, acknowledged by how many subtasks, completed or failed and why, its
// size, its longest barrier alignment) and the latest completed one. It outlives the job's
// attempts: every attempt's CheckpointCoordinator reports into the job's one tracker. The history
// is bounded (web.checkpoints.history): the oldest finished checkpoint leaves it when a new one is
// triggered. Thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace eddy {

struct CheckpointStats {
  enum class Status { kInProgress, kCompleted, kFailed };

  int64_t id = 0;
  Status status = Status::kInProgress;
  bool savepoint = false;  // the savepoint a job stops with
  int attempt = 0;
  int64_t trigger_time_ms = 0;     // epoch ms
  int64_t latest_ack_time_ms = 0;  // 0: none yet
  int64_t end_time_ms = 0;         // completion or failure; 0 while in progress
  int num_subtasks = 0;            // that acknowledge it
  int num_acknowledged = 0;
  int64_t max_alignment_ns = 0;     // the longest barrier alignment of its subtasks
  uint64_t state_size_bytes = 0;    // completed: every file it references
  uint64_t checkpointed_bytes = 0;  // completed: what it added over the checkpoint before it
  std::string failure;              // failed: why

  static const char* StatusName(Status s);
};

class CheckpointStatsTracker {
 public:
  static constexpr int kDefaultHistorySize = 10;  // Flink's web.checkpoints.history

  // Keeps the `history_size` (>= 0) most recent checkpoints.
  explicit CheckpointStatsTracker(int history_size = kDefaultHistorySize);

  void ReportTriggered(int64_t id, int attempt, bool savepoint, int64_t trigger_time_ms,
                       int num_subtasks);
  // An acknowledgement arrived at `time_ms`; `acknowledged` of `num_subtasks` now did.
  void ReportAcknowledged(int64_t id, int64_t time_ms, int num_subtasks, int acknowledged,
                          int64_t alignment_ns);
  // Fewer subtasks take part (some finished without a source to report from).
  void ReportSubtasks(int64_t id, int num_subtasks, int acknowledged);
  void ReportCompleted(int64_t id, int64_t completion_time_ms, uint64_t state_size_bytes,
                       uint64_t checkpointed_bytes);
  void ReportFailed(int64_t id, int64_t failure_time_ms, const std::string& reason);

  // The recent checkpoints, newest first.
  std::vector<CheckpointStats> History() const;
  std::optional<CheckpointStats> LatestCompleted() const;
  // Checkpoints triggered and not yet completed or failed.
  int InProgress() const;
  int history_size() const { return history_size_; }

 private:
  CheckpointStats* FindLocked(int64_t id);

  const int history_size_;
  mutable std::mutex mu_;
  // Oldest first: the history_size_ most recent checkpoints (the history), and older ones only
  // while they are still in progress (their end must reach latest_completed_).
  std::deque<CheckpointStats> entries_;
  std::optional<CheckpointStats> latest_completed_;
};

}  // namespace eddy
