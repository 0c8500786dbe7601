// What a keyed operator keeps of its own state (timers, pending-window indexes) when it starts from
// the snapshots of other subtasks, as after a rescale: every timer and pending window names its
// key group, and a subtask keeps exactly those of the key groups it owns now (Flink's key-group
// partitioned timer queues), restarting from the smallest watermark any of them recorded.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

#include "common/base/hash.h"
#include "worker/operators/operator.h"

namespace eddy {

class OwnedKeyGroups {
 public:
  OwnedKeyGroups() = default;
  explicit OwnedKeyGroups(const OperatorContext& ctx)
      : subtask_(ctx.subtask_index),
        parallelism_(std::max(1, ctx.parallelism)),
        max_parallelism_(ctx.max_parallelism) {}

  // Every key group (a restore at the parallelism the snapshots were taken at).
  static OwnedKeyGroups All() {
    OwnedKeyGroups all;
    all.all_ = true;
    return all;
  }

  // Key group g belongs to subtask g * parallelism / max_parallelism (SubtaskOfKeyGroup).
  bool Contains(int key_group) const {
    return all_ || SubtaskOfKeyGroup(key_group, parallelism_, max_parallelism_) == subtask_;
  }

 private:
  bool all_ = false;
  int subtask_ = 0;
  int parallelism_ = 1;
  int max_parallelism_ = kMaxParallelism;
};

// The watermark an operator restored from `watermarks` (one per snapshot) restarts from: the
// smallest, so that no row of a key moved here from a subtask that was behind counts as late.
inline int64_t RestartWatermark(std::span<const int64_t> watermarks) {
  return watermarks.empty() ? kMinWatermark
                            : *std::min_element(watermarks.begin(), watermarks.end());
}

}  // namespace eddy
