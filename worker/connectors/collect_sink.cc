#include "worker/connectors/collect_sink.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
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
  // Fetched per attempt: a restarted job's results are its newest attempt's.
  buffer_ = std::make_shared<ResultBuffer>(ctx.job_id, ctx.attempt,
                                           ResultBuffers::kDefaultCapacityChunks);
  cancelled_ = ctx.cancelled;
  return absl::OkStatus();
}

void CollectSink::Publish() {
  if (published_) return;
  buffers_->Publish(buffer_);
  published_ = true;
}

absl::Status CollectSink::Process(int, const ChangelogBatch& batch) {
  Publish();
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

absl::Status CollectSink::OnTick(std::chrono::steady_clock::time_point) {
  Publish();
  return absl::OkStatus();
}

absl::Status CollectSink::Finish() {
  Publish();
  buffer_->End();
  finished_ = true;
  return absl::OkStatus();
}

absl::Status CollectSink::Close() {
  if (published_ && !finished_) buffers_->Withdraw(buffer_);
  return absl::OkStatus();
}

absl::Status CollectSink::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  Publish();
  v1::CollectSinkState state;
  buffer_->Snapshot(&state);
  pending_offsets_[checkpoint_id] = state.next_offset();
  out->Put(kStateEntry, state.SerializeAsString());
  return absl::OkStatus();
}

absl::Status CollectSink::RestoreState(const OperatorSnapshot& snapshot) {
  std::optional<std::string_view> bytes = snapshot.Get(kStateEntry);
  if (!bytes) return absl::OkStatus();
  v1::CollectSinkState state;
  if (!state.ParseFromArray(bytes->data(), static_cast<int>(bytes->size()))) {
    return absl::DataLossError("the collect sink's checkpointed results cannot be parsed");
  }
  return buffer_->Restore(std::move(state));
}

absl::Status CollectSink::NotifyCheckpointComplete(int64_t checkpoint_id) {
  Publish();
  auto done = pending_offsets_.upper_bound(checkpoint_id);
  if (done == pending_offsets_.begin()) return absl::OkStatus();  // not snapshotted here
  buffer_->Commit(std::prev(done)->second);
  pending_offsets_.erase(pending_offsets_.begin(), done);
  return absl::OkStatus();
}

}  // namespace eddy
