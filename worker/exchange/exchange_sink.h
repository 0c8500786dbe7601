// ExchangeSink: the operator at the end of a producer task that ships its input to the consumer
// subtasks of the next task. It partitions each batch over its targets into per-target buffers and
// sends a target's buffer when it reaches a row or byte threshold or its oldest row gets older than
// the buffer timeout (checked in OnTick); Finish() flushes everything and ends every channel, and
// so does EndAtStop(), telling the consumers the job stops.
// Watermarks go to every target behind the rows buffered for it, so batching is kept. A checkpoint
// barrier flushes every target and then goes on every channel, local and remote.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/plan.pb.h"
#include "worker/exchange/exchange_registry.h"
#include "worker/exchange/output_channel.h"
#include "worker/exchange/partitioner.h"
#include "worker/exchange/remote_output_channel.h"
#include "worker/operators/operator.h"

namespace eddy {

inline constexpr size_t kDefaultExchangeFlushRows = 4096;
inline constexpr size_t kDefaultExchangeFlushBytes = 256 * 1024;
inline constexpr std::chrono::milliseconds kDefaultExchangeBufferTimeout{100};

struct ExchangeTargetSpec {
  ChannelTarget channel;
  bool local = false;  // same worker: in-memory channel through the registry
};

struct ExchangeSinkSpec {
  Partitioning partitioning = v1::ExchangeSink::FORWARD;
  std::vector<int> hash_keys;
  int max_parallelism = 0;  // 0: the task's
  std::vector<DataType> input_types;
  std::vector<ExchangeTargetSpec> targets;  // HASH: targets[i] is consumer subtask i
  size_t flush_rows = kDefaultExchangeFlushRows;
  size_t flush_bytes = kDefaultExchangeFlushBytes;
  std::chrono::milliseconds buffer_timeout = kDefaultExchangeBufferTimeout;  // 0: every batch
  RemoteChannelOptions remote;
};

// Reads an ExchangeSink plan node. `producer` names the producing subtask in the channel headers.
absl::StatusOr<ExchangeSinkSpec> ExchangeSinkSpecFromProto(const v1::ExchangeSink& proto,
                                                           const std::vector<DataType>& input_types,
                                                           const std::string& producer);

class ExchangeSinkOperator final : public Operator {
 public:
  // `registry` serves local targets; it may be null when none is local.
  ExchangeSinkOperator(ExchangeSinkSpec spec, ExchangeRegistry* registry)
      : spec_(std::move(spec)), registry_(registry) {}

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override;
  absl::Status Finish() override;
  absl::Status EndAtStop() override;
  // Broadcast to every target, after the rows buffered for it (sent with its next flush).
  absl::Status ProcessWatermark(const Watermark& watermark) override;
  absl::Status ForwardBarrier(int64_t checkpoint_id) override;
  absl::Status Close() override;
  void Abort(const absl::Status& cause) override;

  uint64_t rows_sent() const { return rows_sent_; }
  uint64_t batches_sent() const { return batches_sent_; }

  // The output side of the exchange, for metrics (any thread): its channels, their free credit
  // summed, how many have none left (the producer waits on them), and the rows partitioned but
  // not yet sent (waiting in the per-target buffers for a threshold or the buffer timeout).
  struct OutputStats {
    int channels = 0;
    int64_t free_credits = 0;
    int channels_without_credit = 0;
    uint64_t queued_rows = 0;
  };
  OutputStats output_stats() const;

 private:
  absl::Status Flush(size_t target);
  // Flushes every buffer and ends every channel (`stopped`: the job stops).
  absl::Status End(bool stopped);
  void PublishQueuedRows();  // queued_rows_ from buffers_ (task thread)

  ExchangeSinkSpec spec_;
  ExchangeRegistry* registry_;
  std::optional<Partitioner> partitioner_;
  // Filled by Open on the task's thread under channels_mu_, read by output_stats on others.
  std::vector<std::unique_ptr<OutputChannel>> channels_;
  mutable std::mutex channels_mu_;
  std::atomic<uint64_t> queued_rows_{0};  // rows in buffers_, updated once per batch or flush
  std::vector<ChangelogBatch> buffers_;   // one per target
  std::vector<std::chrono::steady_clock::time_point> oldest_;  // first row of each buffer
  std::vector<std::optional<Watermark>> pending_watermarks_;   // to send after each buffer
  bool finished_ = false;
  uint64_t rows_sent_ = 0;
  uint64_t batches_sent_ = 0;
};

}  // namespace eddy
