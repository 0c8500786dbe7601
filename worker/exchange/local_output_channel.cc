#include "worker/exchange/local_output_channel.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::Status LocalOutputChannel::Attach() {
  if (gate_) return absl::OkStatus();
  if (closed_) return absl::FailedPreconditionError("exchange channel is closed");
  ASSIGN_OR_RETURN(std::shared_ptr<InputGate> gate, registry_->Await(target_.consumer, [this] {
    return cancelled_ != nullptr && cancelled_->load();
  }));
  RETURN_IF_ERROR(
      gate->Attach(target_.channel_index, target_.num_channels, target_.attempt, nullptr));
  std::lock_guard<std::mutex> lock(gate_mu_);
  gate_ = std::move(gate);
  return absl::OkStatus();
}

absl::Status LocalOutputChannel::Send(ChangelogBatch batch) {
  if (ended_) return absl::FailedPreconditionError("exchange channel: Send after end-of-input");
  RETURN_IF_ERROR(Attach());
  return gate_->PushWait(target_.channel_index, std::move(batch), cancelled_);
}

absl::Status LocalOutputChannel::SendWatermark(const Watermark& watermark) {
  if (ended_) return absl::OkStatus();
  RETURN_IF_ERROR(Attach());
  return gate_->PushWatermark(target_.channel_index, watermark);
}

absl::Status LocalOutputChannel::SendBarrier(int64_t checkpoint_id) {
  if (ended_) return absl::FailedPreconditionError("exchange channel: barrier after end-of-input");
  RETURN_IF_ERROR(Attach());
  return gate_->PushBarrier(target_.channel_index, checkpoint_id);
}

absl::Status LocalOutputChannel::SendEndOfInput(bool stopped) {
  if (ended_) return absl::OkStatus();
  RETURN_IF_ERROR(Attach());
  RETURN_IF_ERROR(gate_->EndOfInput(target_.channel_index, stopped));
  ended_ = true;
  return absl::OkStatus();
}

void LocalOutputChannel::Close() {
  Release(absl::StrCat("exchange ", target_.ToString(), ": producer ", target_.producer,
                       " stopped before end-of-input"));
}

void LocalOutputChannel::Abort(const absl::Status& cause) {
  Release(absl::StrCat("exchange ", target_.ToString(), ": producer ", target_.producer,
                       " failed: ", cause.message()));
}

void LocalOutputChannel::Release(const std::string& why_unended) {
  if (closed_) return;
  closed_ = true;
  if (!gate_) return;
  if (!ended_) gate_->Fail(target_.channel_index, absl::AbortedError(why_unended));
  gate_->Detach(target_.channel_index);
  std::lock_guard<std::mutex> lock(gate_mu_);
  gate_.reset();
}

int LocalOutputChannel::FreeCredits() {
  std::lock_guard<std::mutex> lock(gate_mu_);
  if (!gate_) return 0;
  return std::max(0, gate_->credits_per_channel() - gate_->queued_batches(target_.channel_index));
}

}  // namespace eddy
