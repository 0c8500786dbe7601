#include "worker/exchange/barrier_aligner.h"

#include <utility>

namespace eddy {

BarrierAligner::BarrierAligner(int num_channels, bool exactly_once,
                               std::function<void(int, bool)> set_blocked)
    : exactly_once_(exactly_once),
      set_blocked_(std::move(set_blocked)),
      arrived_(static_cast<size_t>(num_channels), false),
      blocked_(static_cast<size_t>(num_channels), false),
      ended_(static_cast<size_t>(num_channels), false) {}

void BarrierAligner::ReleaseAll() {
  for (size_t c = 0; c < arrived_.size(); ++c) {
    arrived_[c] = false;
    if (blocked_[c]) {
      blocked_[c] = false;
      if (set_blocked_) set_blocked_(static_cast<int>(c), false);
    }
  }
  pending_ = 0;
}

void BarrierAligner::MaybeComplete(std::deque<BarrierSignal>* out) {
  for (size_t c = 0; c < arrived_.size(); ++c) {
    if (!arrived_[c] && !ended_[c]) return;
  }
  const int64_t id = pending_;
  ReleaseAll();
  out->push_back({BarrierSignal::Kind::kCheckpoint, id});
}

void BarrierAligner::OnBarrier(int channel, int64_t checkpoint_id, std::deque<BarrierSignal>* out) {
  if (checkpoint_id != pending_ || pending_ == 0) {
    if (checkpoint_id <= latest_) return;  // completed or aborted here already
    if (pending_ != 0) {
      // Flink's behaviour: a newer barrier means the pending checkpoint cannot complete here.
      const int64_t aborted = pending_;
      ReleaseAll();
      out->push_back({BarrierSignal::Kind::kAbort, aborted});
    }
    pending_ = latest_ = checkpoint_id;
  }
  arrived_[channel] = true;
  if (exactly_once_ && !blocked_[channel]) {
    blocked_[channel] = true;
    if (set_blocked_) set_blocked_(channel, true);
  }
  MaybeComplete(out);
}

void BarrierAligner::OnEndOfInput(int channel, std::deque<BarrierSignal>* out) {
  ended_[channel] = true;
  if (pending_ != 0) MaybeComplete(out);
}

void BarrierAligner::Abort(int64_t checkpoint_id) {
  if (checkpoint_id > latest_) latest_ = checkpoint_id;
  if (pending_ != 0 && pending_ <= checkpoint_id) ReleaseAll();
}

}  // namespace eddy
