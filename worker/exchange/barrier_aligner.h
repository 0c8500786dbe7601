// BarrierAligner: decides, from the checkpoint barriers and ends of input a gate's channels deliver
// (in the order the consumer takes them), when checkpoint n is complete at this consumer and when a
// pending one is aborted, as Flink's barrier handlers do:
// - EXACTLY_ONCE (aligned): a channel whose barrier n arrived is blocked (its consumer stops taking
//   its events, so its credits stop and hold its producer) until every channel delivered n; then n
//   completes and every channel is released.
// - AT_LEAST_ONCE: barriers are only counted; no channel is blocked.
// In both modes a channel that ended counts as aligned, a newer barrier m > n aborts the pending n
// and starts m, an older or repeated barrier (of a checkpoint completed or aborted here) is
// ignored, and Abort(n) (the checkpoint was aborted elsewhere) releases a pending alignment of n.
// Not thread-safe: the consumer task's thread drives it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "worker/operators/barrier_signal.h"

namespace eddy {

class BarrierAligner {
 public:
  // `set_blocked(channel, blocked)` is called when a channel must stop or may resume being read.
  BarrierAligner(int num_channels, bool exactly_once,
                 std::function<void(int channel, bool blocked)> set_blocked);

  // Signals are appended to *out in the order they happen.
  void OnBarrier(int channel, int64_t checkpoint_id, std::deque<BarrierSignal>* out);
  void OnEndOfInput(int channel, std::deque<BarrierSignal>* out);
  // Checkpoint `checkpoint_id` was aborted (or the task stops): forget a pending alignment of it or
  // an older one, without a signal.
  void Abort(int64_t checkpoint_id);

  int64_t pending() const { return pending_; }  // 0: none
  // The newest checkpoint whose barrier arrived or that was aborted here: a barrier of a newer one
  // starts its alignment.
  int64_t latest() const { return latest_; }
  bool blocked(int channel) const { return blocked_[channel]; }

 private:
  void MaybeComplete(std::deque<BarrierSignal>* out);
  void ReleaseAll();

  const bool exactly_once_;
  std::function<void(int, bool)> set_blocked_;
  std::vector<bool> arrived_;  // delivered the pending barrier
  std::vector<bool> blocked_;
  std::vector<bool> ended_;
  int64_t pending_ = 0;
  int64_t latest_ = 0;  // newest checkpoint id seen: older barriers are stale
};

}  // namespace eddy
