// The partition committer's record of which writer subtasks reported which checkpoint (Flink's
// TaskTracker): a checkpoint's reports are complete once every writer subtask reported it or
// ended (sent its end-of-input report: a writer whose input ended reports no more checkpoints, so
// it must not hold back the others). Part of the committer's checkpointed state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace eddy {

class CommitReportTracker {
 public:
  // `subtask` of `subtasks` reported `checkpoint_id` (kEndOfInputReport: it ended). Returns the
  // newest checkpoint whose reports are complete now, forgetting it and every older one, or
  // kEndOfInputReport once every subtask ended. A new number of subtasks (a restore at another
  // parallelism) starts the tracking afresh.
  absl::StatusOr<std::optional<int64_t>> Add(int64_t checkpoint_id, int subtask, int subtasks);

  std::string Encode() const;
  static absl::StatusOr<CommitReportTracker> Decode(std::string_view text);

 private:
  bool Complete(const std::set<int>& reported) const;

  int subtasks_ = 0;
  std::map<int64_t, std::set<int>> reported_;  // by checkpoint
  std::set<int> ended_;
};

}  // namespace eddy
