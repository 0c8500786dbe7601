// The collect sink of a SELECT: every input batch, encoded as on the wire, becomes a numbered
// chunk in its ResultBuffer on this worker, from which the coordinator fetches it for the client.
// Runs at parallelism 1. A full buffer makes Process wait (honouring cancellation): a client that
// reads slowly slows the query down instead of growing memory. A batch of wide rows is split into
// chunks of about kResultChunkBytes (common/rpc/message_limits.h).
//
// Checkpoints (as Flink's CollectSinkFunction): SnapshotState(n) records the next offset and the
// chunks the coordinator has not acknowledged yet; NotifyCheckpointComplete(n) commits the offset
// recorded for n, so the coordinator hands the client the chunks below it. RestoreState puts the
// unacknowledged chunks back and numbering continues from the checkpoint's offset. The buffer is
// published to the worker's ResultBuffers at the sink's first call after Open (and RestoreState),
// so a fetch never sees a restored sink before it is restored. A sink closed before its input
// ended (failed or cancelled) withdraws it: a restart produces those rows again from a checkpoint.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>

#include "worker/connectors/result_buffers.h"
#include "worker/operators/operator.h"

namespace eddy {

class CollectSink : public Operator {
 public:
  explicit CollectSink(ResultBuffers* buffers) : buffers_(buffers) {}

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override;
  absl::Status Finish() override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  absl::Status NotifyCheckpointComplete(int64_t checkpoint_id) override;
  absl::Status Close() override;

  // The OperatorSnapshot entry holding the serialized CollectSinkState.
  static constexpr char kStateEntry[] = "collect";

 private:
  absl::Status PushEncoded(const ChangelogBatch& batch);
  void Publish();

  ResultBuffers* buffers_;
  std::shared_ptr<ResultBuffer> buffer_;
  bool published_ = false;
  bool finished_ = false;
  const std::atomic<bool>* cancelled_ = nullptr;
  // The next offset each checkpoint recorded, until it completes (or a later one does).
  std::map<int64_t, int64_t> pending_offsets_;
};

}  // namespace eddy
