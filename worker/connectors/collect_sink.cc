#include "worker/connectors/collect_sink.h"

#include <algorithm>

#include "common/base/status_macros.h"
#include "common/batch/batch_codec.h"
#include "common/rpc/message_limits.h"

namespace eddy {

absl::Status CollectSink::Open(const OperatorContext& ctx) {
  if (buffers_ == nullptr) {
    return absl::FailedPreconditionError("the collect sink needs the worker's result buffers");
  }
  if (ctx.parallelism != 1) {
    return absl::InvalidArgumentError("the collect sink runs at parallelism 1");
  }
  buffer_ = buffers_->Open(ctx.job_id);
  cancelled_ = ctx.cancelled;
  return absl::OkStatus();
}

absl::Status CollectSink::Process(int, const ChangelogBatch& batch) {
  CountIn(batch);
  if (batch.empty()) return absl::OkStatus();
  const size_t bytes = batch.ByteSize();
  if (bytes <= kResultChunkBytes) return PushEncoded(batch);
  // Wide rows: chunks of about kResultChunkBytes each, so that no message nears the RPC limit.
  const size_t rows_per_chunk = std::max<size_t>(1, batch.num_rows() * kResultChunkBytes / bytes);
  ChangelogBatch chunk(batch.Types());
  for (size_t begin = 0; begin < batch.num_rows(); begin += rows_per_chunk) {
    chunk.Clear();
    const size_t end = std::min(batch.num_rows(), begin + rows_per_chunk);
    for (size_t r = begin; r < end; ++r) chunk.AppendRow(batch, r, batch.kind(r));
    RETURN_IF_ERROR(PushEncoded(chunk));
  }
  return absl::OkStatus();
}

absl::Status CollectSink::PushEncoded(const ChangelogBatch& batch) {
  v1::ChangelogBatch encoded;
  EncodeBatch(batch, &encoded);
  if (!buffer_->Push(std::move(encoded), cancelled_)) {
    return absl::CancelledError("cancelled while the result buffer was full");
  }
  return absl::OkStatus();
}

absl::Status CollectSink::Finish() {
  buffer_->End();
  return absl::OkStatus();
}

}  // namespace eddy
