#include "worker/exchange/input_alignment.h"

#include <chrono>
#include <utility>

namespace eddy {

int InputAlignment::AddGate(std::shared_ptr<InputGate> gate) {
  const int offset = channels_;
  channels_ += gate->num_channels();
  gates_.push_back({std::move(gate), offset});
  return offset;
}

void InputAlignment::Start(bool exactly_once) {
  if (aligner_) return;
  aligner_.emplace(channels_, exactly_once, [this](int channel, bool blocked) {
    // Gates are few (one per stage input): a linear search finds the channel's gate.
    for (auto it = gates_.rbegin(); it != gates_.rend(); ++it) {
      if (channel >= it->offset) {
        it->gate->SetBlocked(channel - it->offset, blocked);
        return;
      }
    }
  });
}

namespace {

int64_t SteadyNowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void InputAlignment::OnBarrier(int channel, int64_t checkpoint_id) {
  if (!aligner_) return;
  const int64_t now = SteadyNowNanos();
  // The first barrier of a newer checkpoint starts its alignment (and ends an older one's).
  if (checkpoint_id > aligner_->latest()) alignment_start_ns_.store(now, std::memory_order_relaxed);
  const size_t before = signals_.size();
  aligner_->OnBarrier(channel, checkpoint_id, &signals_);
  TimeSignals(before, now);
}

void InputAlignment::OnEndOfInput(int channel) {
  if (!aligner_) return;
  const size_t before = signals_.size();
  aligner_->OnEndOfInput(channel, &signals_);
  if (signals_.size() > before) TimeSignals(before, SteadyNowNanos());
}

void InputAlignment::Abort(int64_t checkpoint_id) {
  if (!aligner_) return;
  aligner_->Abort(checkpoint_id);
  if (aligner_->pending() == 0) alignment_start_ns_.store(0, std::memory_order_relaxed);
}

void InputAlignment::TimeSignals(size_t from, int64_t now_ns) {
  for (size_t i = from; i < signals_.size(); ++i) {
    if (signals_[i].kind != BarrierSignal::Kind::kCheckpoint) continue;
    const int64_t start = alignment_start_ns_.exchange(0, std::memory_order_relaxed);
    last_alignment_ns_.store(start != 0 && now_ns > start ? now_ns - start : 0,
                             std::memory_order_relaxed);
    last_aligned_id_.store(signals_[i].checkpoint_id, std::memory_order_relaxed);
  }
}

int64_t InputAlignment::AlignmentNanos(int64_t now_ns) const {
  const int64_t start = alignment_start_ns_.load(std::memory_order_relaxed);
  if (start != 0 && now_ns > start) return now_ns - start;
  return last_alignment_ns_.load(std::memory_order_relaxed);
}

std::optional<BarrierSignal> InputAlignment::TakeSignal() {
  if (signals_.empty()) return std::nullopt;
  BarrierSignal s = signals_.front();
  signals_.pop_front();
  return s;
}

}  // namespace eddy
