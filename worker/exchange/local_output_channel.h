// LocalOutputChannel: an exchange channel to a consumer on the same worker. It pushes batches
// straight into the consumer's InputGate (found through the worker's ExchangeRegistry): no gRPC, no
// serialization, and the same bound as a remote channel's credits (the gate's per-channel buffer).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "worker/exchange/exchange_registry.h"
#include "worker/exchange/output_channel.h"

namespace eddy {

class LocalOutputChannel final : public OutputChannel {
 public:
  // `registry` must outlive the channel; `cancelled` may be null.
  LocalOutputChannel(ExchangeRegistry* registry, ChannelTarget target,
                     const std::atomic<bool>* cancelled)
      : registry_(registry), target_(std::move(target)), cancelled_(cancelled) {}
  ~LocalOutputChannel() override { Close(); }

  absl::Status Send(ChangelogBatch batch) override;
  absl::Status SendEndOfInput(bool stopped = false) override;
  absl::Status SendWatermark(const Watermark& watermark) override;
  absl::Status SendBarrier(int64_t checkpoint_id) override;
  void Close() override;
  void Abort(const absl::Status& cause) override;
  // The room left in the consumer's buffer of this channel (the same bound as remote credits).
  int FreeCredits() override;

 private:
  // Finds and claims the gate on first use: the consumer may register after we are deployed.
  absl::Status Attach();
  // Close() and Abort(): detaches, failing the consumer with `why_unended` before end-of-input.
  void Release(const std::string& why_unended);

  ExchangeRegistry* registry_;
  ChannelTarget target_;
  const std::atomic<bool>* cancelled_;
  // Set and reset by the producer's thread under gate_mu_, so that FreeCredits (any thread) reads
  // it under gate_mu_; the producer's own reads need no lock.
  std::shared_ptr<InputGate> gate_;
  std::mutex gate_mu_;
  bool ended_ = false;
  bool closed_ = false;
};

}  // namespace eddy
