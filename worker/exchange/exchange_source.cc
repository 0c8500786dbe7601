#include "worker/exchange/exchange_source.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<ExchangeSource>> ExchangeSource::Create(
    ExchangeRegistry* registry, const GateKey& key, int num_channels, int credits_per_channel,
    std::vector<DataType> types, int attempt, std::shared_ptr<InputAlignment> alignment) {
  if (registry == nullptr) {
    return absl::FailedPreconditionError("exchange source but the worker has no exchange registry");
  }
  if (num_channels < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("exchange source needs at least one channel, has ", num_channels));
  }
  auto gate = std::make_shared<InputGate>(
      key.ToString(), num_channels,
      credits_per_channel > 0 ? credits_per_channel : kDefaultCreditsPerChannel, std::move(types));
  gate->set_attempt(attempt);  // before any producer can find the gate
  ASSIGN_OR_RETURN(auto registration, registry->Register(key, gate));
  if (alignment == nullptr) alignment = std::make_shared<InputAlignment>();
  if (alignment->started()) {
    return absl::FailedPreconditionError(
        absl::StrCat(key.ToString(), ": the task's barrier alignment started before its gate"));
  }
  const int offset = alignment->AddGate(gate);
  return std::unique_ptr<ExchangeSource>(
      new ExchangeSource(std::move(gate), std::move(registration), std::move(alignment), offset));
}

absl::Status ExchangeSource::Open(const OperatorContext& ctx) {
  has_wakeup_ = static_cast<bool>(ctx.wakeup);
  if (has_wakeup_) gate_->SetNotify(ctx.wakeup);
  alignment_->Start(ctx.exactly_once);  // the task's first exchange source starts it
  return absl::OkStatus();
}

absl::StatusOr<SourceState> ExchangeSource::Next(ChangelogBatch* out) {
  if (!alignment_->started()) {
    return absl::FailedPreconditionError("exchange source: Next before Open");
  }
  ChannelEvent event;
  int channel = -1;
  while (true) {
    ASSIGN_OR_RETURN(SourceState st, gate_->PollEvent(&event, &channel));
    if (st != SourceState::kData) return st;
    switch (event.kind) {
      case ChannelEvent::Kind::kBatch:
        *out = std::move(event.batch);
        rows_out_ += out->num_rows();
        return SourceState::kData;
      case ChannelEvent::Kind::kWatermark:
        break;
      case ChannelEvent::Kind::kEndOfInput:
        if (event.stopped) ended_at_stop_ = true;
        alignment_->OnEndOfInput(channel_offset_ + channel);
        break;
      case ChannelEvent::Kind::kBarrier:
        alignment_->OnBarrier(channel_offset_ + channel, event.checkpoint_id);
        break;
    }
    // The driver takes a changed watermark or a barrier signal before any later event.
    if (gate_->watermark_pending() || alignment_->has_signal()) {
      *out = ChangelogBatch();
      return SourceState::kData;
    }
  }
}

std::optional<BarrierSignal> ExchangeSource::TakeBarrier() { return alignment_->TakeSignal(); }

void ExchangeSource::AbortCheckpoint(int64_t checkpoint_id) { alignment_->Abort(checkpoint_id); }

absl::Status ExchangeSource::Close() {
  if (gate_) gate_->Close();
  registration_.reset();
  return absl::OkStatus();
}

}  // namespace eddy
