#include "worker/exchange/exchange_sink.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/exchange/local_output_channel.h"

namespace eddy {

absl::StatusOr<ExchangeSinkSpec> ExchangeSinkSpecFromProto(const v1::ExchangeSink& proto,
                                                           const std::vector<DataType>& input_types,
                                                           const std::string& producer) {
  ExchangeSinkSpec spec;
  spec.partitioning = proto.partitioning();
  spec.input_types = input_types;
  for (int k : proto.hash_keys()) {
    if (k < 0 || k >= static_cast<int>(input_types.size())) {
      return absl::InvalidArgumentError(absl::StrCat("hash key column ", k, " out of range"));
    }
    spec.hash_keys.push_back(k);
  }
  spec.max_parallelism = proto.max_parallelism();
  if (proto.targets().empty()) return absl::InvalidArgumentError("exchange has no targets");
  for (int i = 0; i < proto.targets_size(); ++i) {
    const v1::ExchangeTarget& t = proto.targets(i);
    if (proto.partitioning() == v1::ExchangeSink::HASH && t.subtask_index() != i) {
      return absl::InvalidArgumentError(
          absl::StrCat("hash exchange: target ", i, " is subtask ", t.subtask_index(),
                       " (targets must be the consumer subtasks in order)"));
    }
    if (!t.local() && t.address().empty()) {
      return absl::InvalidArgumentError(absl::StrCat("exchange target ", i, " has no address"));
    }
    ExchangeTargetSpec target;
    target.local = t.local();
    target.channel.address = t.address();
    target.channel.worker_id = t.worker_id();
    target.channel.consumer =
        GateKey{t.job_id(), t.task_index(), t.subtask_index(), t.input_index()};
    target.channel.channel_index = t.channel_index();
    target.channel.num_channels = t.num_channels();
    target.channel.producer = producer;
    spec.targets.push_back(std::move(target));
  }
  if (proto.flush_rows() > 0) spec.flush_rows = proto.flush_rows();
  if (proto.flush_bytes() > 0) spec.flush_bytes = static_cast<size_t>(proto.flush_bytes());
  if (proto.has_buffer_timeout_ms()) {
    spec.buffer_timeout = std::chrono::milliseconds(std::max(0, proto.buffer_timeout_ms()));
  }
  return spec;
}

absl::Status ExchangeSinkOperator::Open(const OperatorContext& ctx) {
  const int max_parallelism =
      spec_.max_parallelism > 0 ? spec_.max_parallelism : ctx.max_parallelism;
  ASSIGN_OR_RETURN(Partitioner p,
                   Partitioner::Create(spec_.partitioning, spec_.input_types, spec_.hash_keys,
                                       static_cast<int>(spec_.targets.size()), max_parallelism,
                                       ctx.subtask_index));
  partitioner_.emplace(std::move(p));
  std::lock_guard<std::mutex> lock(channels_mu_);
  for (const ExchangeTargetSpec& t : spec_.targets) {
    if (t.local) {
      if (registry_ == nullptr) {
        return absl::FailedPreconditionError(
            "local exchange target but the worker has no registry");
      }
      channels_.push_back(
          std::make_unique<LocalOutputChannel>(registry_, t.channel, ctx.cancelled));
    } else {
      channels_.push_back(
          std::make_unique<RemoteOutputChannel>(t.channel, ctx.cancelled, spec_.remote));
    }
    buffers_.emplace_back(spec_.input_types);
    buffers_.back().Reserve(spec_.flush_rows);
  }
  oldest_.resize(spec_.targets.size());
  pending_watermarks_.resize(spec_.targets.size());
  return absl::OkStatus();
}

absl::Status ExchangeSinkOperator::Flush(size_t t) {
  if (!buffers_[t].empty()) {
    ChangelogBatch batch = std::move(buffers_[t]);
    buffers_[t] = ChangelogBatch(spec_.input_types);
    buffers_[t].Reserve(spec_.flush_rows);
    rows_sent_ += batch.num_rows();
    ++batches_sent_;
    queued_rows_.store(queued_rows_.load(std::memory_order_relaxed) - batch.num_rows(),
                       std::memory_order_relaxed);
    RETURN_IF_ERROR(channels_[t]->Send(std::move(batch)));
  }
  if (pending_watermarks_[t]) {
    Watermark w = *pending_watermarks_[t];
    pending_watermarks_[t].reset();
    RETURN_IF_ERROR(channels_[t]->SendWatermark(w));
  }
  return absl::OkStatus();
}

absl::Status ExchangeSinkOperator::ProcessWatermark(const Watermark& watermark) {
  if (!partitioner_) return absl::FailedPreconditionError("ExchangeSink: watermark before Open");
  for (size_t t = 0; t < buffers_.size(); ++t) {
    pending_watermarks_[t] = watermark;
    if (buffers_[t].empty()) RETURN_IF_ERROR(Flush(t));
  }
  return absl::OkStatus();
}

absl::Status ExchangeSinkOperator::ForwardBarrier(int64_t checkpoint_id) {
  if (!partitioner_) return absl::FailedPreconditionError("ExchangeSink: barrier before Open");
  if (finished_) return absl::OkStatus();
  for (size_t t = 0; t < buffers_.size(); ++t) {
    RETURN_IF_ERROR(Flush(t));
    RETURN_IF_ERROR(channels_[t]->SendBarrier(checkpoint_id));
  }
  return absl::OkStatus();
}

absl::Status ExchangeSinkOperator::Process(int input, const ChangelogBatch& batch) {
  if (!partitioner_) return absl::FailedPreconditionError("ExchangeSink: Process before Open");
  CountIn(batch);
  const size_t n = batch.num_rows();
  // Slices of at most flush_rows rows keep every shipped batch near the thresholds, even for a
  // huge input batch.
  for (size_t begin = 0; begin < n; begin += spec_.flush_rows) {
    const size_t end = std::min(n, begin + spec_.flush_rows);
    const auto now = std::chrono::steady_clock::now();
    for (size_t t = 0; t < buffers_.size(); ++t) {
      if (buffers_[t].empty()) oldest_[t] = now;
    }
    partitioner_->Split(batch, begin, end, &buffers_);
    PublishQueuedRows();
    for (size_t t = 0; t < buffers_.size(); ++t) {
      const ChangelogBatch& b = buffers_[t];
      if (b.num_rows() >= spec_.flush_rows || b.ByteSize() >= spec_.flush_bytes) {
        RETURN_IF_ERROR(Flush(t));
      }
    }
  }
  if (spec_.buffer_timeout.count() == 0) {
    for (size_t t = 0; t < buffers_.size(); ++t) RETURN_IF_ERROR(Flush(t));
  }
  return absl::OkStatus();
}

absl::Status ExchangeSinkOperator::OnTick(std::chrono::steady_clock::time_point now) {
  if (finished_ || !partitioner_) return absl::OkStatus();
  for (size_t t = 0; t < buffers_.size(); ++t) {
    if (!buffers_[t].empty() && now - oldest_[t] >= spec_.buffer_timeout) {
      RETURN_IF_ERROR(Flush(t));
    }
  }
  return absl::OkStatus();
}

absl::Status ExchangeSinkOperator::Finish() { return End(/*stopped=*/false); }

absl::Status ExchangeSinkOperator::EndAtStop() { return End(/*stopped=*/true); }

absl::Status ExchangeSinkOperator::End(bool stopped) {
  if (!partitioner_) return absl::FailedPreconditionError("ExchangeSink: Finish before Open");
  finished_ = true;
  for (size_t t = 0; t < buffers_.size(); ++t) RETURN_IF_ERROR(Flush(t));
  for (auto& channel : channels_) RETURN_IF_ERROR(channel->SendEndOfInput(stopped));
  return absl::OkStatus();
}

void ExchangeSinkOperator::PublishQueuedRows() {
  uint64_t rows = 0;
  for (const ChangelogBatch& b : buffers_) rows += b.num_rows();
  queued_rows_.store(rows, std::memory_order_relaxed);
}

ExchangeSinkOperator::OutputStats ExchangeSinkOperator::output_stats() const {
  OutputStats s;
  s.queued_rows = queued_rows_.load(std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(channels_mu_);
  s.channels = static_cast<int>(channels_.size());
  for (const auto& channel : channels_) {
    const int credits = channel->FreeCredits();
    s.free_credits += credits;
    if (credits == 0) ++s.channels_without_credit;
  }
  return s;
}

absl::Status ExchangeSinkOperator::Close() {
  for (auto& channel : channels_) channel->Close();
  return absl::OkStatus();
}

void ExchangeSinkOperator::Abort(const absl::Status& cause) {
  for (auto& channel : channels_) channel->Abort(cause);
}

}  // namespace eddy
