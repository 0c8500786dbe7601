// ExchangeSource: the source at the start of a consumer task. It owns the task's InputGate,
// registered in the worker's ExchangeRegistry from creation (so producers can connect before the task
// starts) until Close(), and hands the gate's batches to the task driver.
#pragma once

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/exchange/exchange_registry.h"
#include "worker/exchange/input_gate.h"
#include "worker/operators/source.h"

namespace eddy {

class ExchangeSource final : public Source {
 public:
  // Creates the gate and registers it under `key`.
  static absl::StatusOr<std::unique_ptr<ExchangeSource>> Create(ExchangeRegistry* registry,
                                                                const GateKey& key,
                                                                int num_channels,
                                                                int credits_per_channel,
                                                                std::vector<DataType> types);
  ~ExchangeSource() override { Close().IgnoreError(); }

  absl::Status Open(const OperatorContext& ctx) override;
  absl::StatusOr<SourceState> Next(ChangelogBatch* out) override;
  absl::Status Close() override;
  std::optional<Watermark> TakeWatermark() override { return gate_->TakeWatermark(); }
  // With a driver wakeup, the gate wakes the driver on arrival: the wait only bounds the tick.
  std::chrono::microseconds idle_wait() const override {
    return std::chrono::microseconds(has_wakeup_ ? 10000 : 1000);
  }

  InputGate* gate() { return gate_.get(); }

 private:
  ExchangeSource(std::shared_ptr<InputGate> gate,
                 std::unique_ptr<ExchangeRegistry::Registration> registration)
      : gate_(std::move(gate)), registration_(std::move(registration)) {}

  std::shared_ptr<InputGate> gate_;
  std::unique_ptr<ExchangeRegistry::Registration> registration_;
  bool has_wakeup_ = false;
};

}  // namespace eddy
