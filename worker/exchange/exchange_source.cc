#include "worker/exchange/exchange_source.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<ExchangeSource>> ExchangeSource::Create(
    ExchangeRegistry* registry, const GateKey& key, int num_channels, int credits_per_channel,
    std::vector<DataType> types) {
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
  ASSIGN_OR_RETURN(auto registration, registry->Register(key, gate));
  return std::unique_ptr<ExchangeSource>(new ExchangeSource(std::move(gate), std::move(registration)));
}

absl::Status ExchangeSource::Open(const OperatorContext& ctx) {
  has_wakeup_ = static_cast<bool>(ctx.wakeup);
  if (has_wakeup_) gate_->SetNotify(ctx.wakeup);
  return absl::OkStatus();
}

absl::StatusOr<SourceState> ExchangeSource::Next(ChangelogBatch* out) {
  ASSIGN_OR_RETURN(SourceState st, gate_->Poll(out));
  if (st == SourceState::kData) rows_out_ += out->num_rows();
  return st;
}

absl::Status ExchangeSource::Close() {
  if (gate_) gate_->Close();
  registration_.reset();
  return absl::OkStatus();
}

}  // namespace eddy
