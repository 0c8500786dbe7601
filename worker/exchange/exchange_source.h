// ExchangeSource: a source at the start of a consumer task, one per input of its stage (a join has
// two). It owns that input's InputGate, registered in the worker's ExchangeRegistry from creation
// (so producers can connect before the task starts) until Close(), and hands the gate's batches to
// the task driver. Checkpoint barriers go through the task's InputAlignment (aligned or counted,
// OperatorContext::exactly_once), shared by all its exchange sources so that a checkpoint aligns
// across every input; a completed or aborted alignment reaches the driver through TakeBarrier,
// right where it happened in the stream.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/exchange/barrier_aligner.h"
#include "worker/exchange/exchange_registry.h"
#include "worker/exchange/input_alignment.h"
#include "worker/exchange/input_gate.h"
#include "worker/operators/source.h"

namespace eddy {

class ExchangeSource final : public Source {
 public:
  // Creates the gate of job attempt `attempt` (0: unchecked) and registers it under `key`.
  // `alignment`: the task's, shared by its exchange sources; null: one of its own (a task with a
  // single exchange input).
  static absl::StatusOr<std::unique_ptr<ExchangeSource>> Create(
      ExchangeRegistry* registry, const GateKey& key, int num_channels, int credits_per_channel,
      std::vector<DataType> types, int attempt = 0,
      std::shared_ptr<InputAlignment> alignment = nullptr);
  ~ExchangeSource() override { Close().IgnoreError(); }

  absl::Status Open(const OperatorContext& ctx) override;
  absl::StatusOr<SourceState> Next(ChangelogBatch* out) override;
  absl::Status Close() override;
  std::optional<Watermark> TakeWatermark() override { return gate_->TakeWatermark(); }
  std::optional<BarrierSignal> TakeBarrier() override;
  void AbortCheckpoint(int64_t checkpoint_id) override;
  // With a driver wakeup, the gate wakes the driver on arrival: the wait only bounds the tick.
  std::chrono::microseconds idle_wait() const override {
    return std::chrono::microseconds(has_wakeup_ ? 10000 : 1000);
  }

  bool ended_at_stop() const override { return ended_at_stop_; }

  InputGate* gate() { return gate_.get(); }

 private:
  ExchangeSource(std::shared_ptr<InputGate> gate,
                 std::unique_ptr<ExchangeRegistry::Registration> registration,
                 std::shared_ptr<InputAlignment> alignment, int channel_offset)
      : gate_(std::move(gate)),
        registration_(std::move(registration)),
        alignment_(std::move(alignment)),
        channel_offset_(channel_offset) {}

  std::shared_ptr<InputGate> gate_;
  std::unique_ptr<ExchangeRegistry::Registration> registration_;
  bool has_wakeup_ = false;
  std::shared_ptr<InputAlignment> alignment_;
  int channel_offset_ = 0;      // of this gate's channel 0 in alignment_
  bool ended_at_stop_ = false;  // a channel's producer ended because the job stops
};

}  // namespace eddy
