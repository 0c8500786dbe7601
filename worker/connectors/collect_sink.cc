#include "worker/connectors/collect_sink.h"

#include "common/batch/batch_codec.h"

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
