#include "worker/exchange/input_alignment.h"

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

void InputAlignment::OnBarrier(int channel, int64_t checkpoint_id) {
  if (aligner_) aligner_->OnBarrier(channel, checkpoint_id, &signals_);
}

void InputAlignment::OnEndOfInput(int channel) {
  if (aligner_) aligner_->OnEndOfInput(channel, &signals_);
}

void InputAlignment::Abort(int64_t checkpoint_id) {
  if (aligner_) aligner_->Abort(checkpoint_id);
}

std::optional<BarrierSignal> InputAlignment::TakeSignal() {
  if (signals_.empty()) return std::nullopt;
  BarrierSignal s = signals_.front();
  signals_.pop_front();
  return s;
}

}  // namespace eddy
