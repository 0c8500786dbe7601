#include "worker/connectors/client_stream_source.h"

#include <algorithm>
#include <chrono>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/batch/batch_codec.h"
#include "common/rpc/status_convert.h"

namespace eddy {
namespace {

constexpr int kPullBatches = 8;
constexpr int kPullTimeoutMs = 30000;

}  // namespace

ClientStreamSource::ClientStreamSource(std::string stream_id, std::string table, Schema schema,
                                       std::vector<int> columns,
                                       std::shared_ptr<grpc::Channel> coordinator)
    : stream_id_(std::move(stream_id)),
      table_(std::move(table)),
      schema_(std::move(schema)),
      columns_(std::move(columns)),
      stub_(v1::StreamRelayService::NewStub(coordinator)) {}

absl::Status ClientStreamSource::Open(const OperatorContext& ctx) {
  job_id_ = ctx.job_id;
  checkpointing_ = ctx.checkpointing;
  return absl::OkStatus();
}

absl::Status ClientStreamSource::Pull() {
  v1::PullStreamRequest req;
  req.set_stream_id(stream_id_);
  req.set_job_id(job_id_);
  req.set_after_seq(emitted_ + static_cast<int64_t>(pulled_.size()));
  // Without checkpoints no restore reads a batch again: what was emitted is done with.
  req.set_confirmed_seq(checkpointing_ ? confirmed_ : emitted_);
  req.set_max_batches(kPullBatches);
  v1::PullStreamResponse resp;
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(kPullTimeoutMs));
  grpc::Status s = stub_->PullStream(&ctx, req, &resp);
  if (!s.ok()) {
    return absl::Status(FromGrpcStatus(s).code(), absl::StrCat("client-stream source of table '",
                                                               table_, "': ", s.error_message()));
  }
  for (auto& b : *resp.mutable_batches()) pulled_.push_back(std::move(b));
  end_ = resp.end();
  return absl::OkStatus();
}

absl::StatusOr<SourceState> ClientStreamSource::Next(ChangelogBatch* out) {
  if (pulled_.empty()) {
    if (end_) return SourceState::kEnd;
    RETURN_IF_ERROR(Pull());
    if (pulled_.empty()) return end_ ? SourceState::kEnd : SourceState::kIdle;
  }
  ASSIGN_OR_RETURN(ChangelogBatch batch, DecodeBatch(pulled_.front()));
  pulled_.pop_front();
  bool same = batch.num_columns() == schema_.size();
  for (size_t c = 0; same && c < batch.num_columns(); ++c) {
    same = batch.column(c).type().SameAs(schema_.fields[c].type);
  }
  if (!same) {
    return absl::InvalidArgumentError(absl::StrCat("client-stream source of table '", table_,
                                                   "': batch ", emitted_ + 1,
                                                   " does not have the table's columns"));
  }
  ++emitted_;
  rows_out_ += batch.num_rows();
  // The columns the plan reads, in its order (a column read twice is copied).
  std::vector<Column> read;
  read.reserve(columns_.size());
  std::vector<int> read_at(batch.num_columns(), -1);
  for (int c : columns_) {
    if (read_at[c] >= 0) {
      read.push_back(read[read_at[c]]);
      continue;
    }
    read_at[c] = static_cast<int>(read.size());
    read.push_back(std::move(batch.mutable_column(c)));
  }
  batch.mutable_columns() = std::move(read);
  *out = std::move(batch);
  return SourceState::kData;
}

absl::Status ClientStreamSource::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  out->PutInt64("batches", emitted_);
  snapshots_[checkpoint_id] = emitted_;
  return absl::OkStatus();
}

absl::Status ClientStreamSource::RestoreState(const OperatorSnapshot& snapshot) {
  ASSIGN_OR_RETURN(std::optional<int64_t> batches, snapshot.GetInt64("batches"));
  if (!batches) return absl::OkStatus();
  if (*batches < 0) {
    return absl::DataLossError(
        absl::StrCat("client-stream source of table '", table_, "': restored position ", *batches));
  }
  emitted_ = confirmed_ = *batches;
  pulled_.clear();
  end_ = false;
  return absl::OkStatus();
}

absl::Status ClientStreamSource::NotifyCheckpointComplete(int64_t checkpoint_id) {
  auto it = snapshots_.find(checkpoint_id);
  if (it == snapshots_.end()) return absl::OkStatus();
  confirmed_ = std::max(confirmed_, it->second);
  snapshots_.erase(snapshots_.begin(), std::next(it));
  return absl::OkStatus();
}

}  // namespace eddy
