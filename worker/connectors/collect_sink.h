// The collect sink of a SELECT: every input batch, encoded as on the wire, goes into the job's
// ResultBuffer on this worker, from which the client pulls it through the coordinator. Runs at
// parallelism 1. A full buffer makes Process wait (honouring cancellation): a client that reads
// slowly slows the query down instead of growing memory. A batch of wide rows is split into chunks
// of about kResultChunkBytes (common/rpc/message_limits.h).
#pragma once

#include <atomic>
#include <memory>

#include "worker/connectors/result_buffers.h"
#include "worker/operators/operator.h"

namespace eddy {

class CollectSink : public Operator {
 public:
  explicit CollectSink(ResultBuffers* buffers) : buffers_(buffers) {}

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status Finish() override;

 private:
  absl::Status PushEncoded(const ChangelogBatch& batch);

  ResultBuffers* buffers_;
  std::shared_ptr<ResultBuffer> buffer_;
  const std::atomic<bool>* cancelled_ = nullptr;
};

}  // namespace eddy
