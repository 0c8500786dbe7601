#include "coordinator/service/stream_relay.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"

namespace eddy {

absl::Status StreamRelay::AttachWriter() {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) return absl::FailedPreconditionError(absl::StrCat("stream ", id_, " is closed"));
  if (writer_attached_) {
    return absl::FailedPreconditionError(absl::StrCat("stream ", id_, " already has a writer"));
  }
  writer_attached_ = true;
  return absl::OkStatus();
}

absl::Status StreamRelay::Append(v1::ChangelogBatch batch) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) {
    return absl::FailedPreconditionError(absl::StrCat("stream ", id_, " is closed"));
  }
  if (kept_.size() >= static_cast<size_t>(capacity_)) {
    return absl::ResourceExhaustedError(
        absl::StrCat("stream ", id_, ": a batch beyond the credits granted"));
  }
  kept_.push_back(std::move(batch));
  return absl::OkStatus();
}

absl::Status StreamRelay::Close() {
  std::lock_guard<std::mutex> lock(mu_);
  closed_ = true;
  return absl::OkStatus();
}

void StreamRelay::WriterLost(const std::string& why) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!closed_ && writer_lost_.empty()) writer_lost_ = why;
}

int64_t StreamRelay::WaitDropped(int64_t seen, int timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  dropped_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                       [&] { return first_seq_ - 1 > seen; });
  return first_seq_ - 1;
}

absl::StatusOr<v1::PullStreamResponse> StreamRelay::Pull(const v1::PullStreamRequest& request) {
  std::lock_guard<std::mutex> lock(mu_);
  if (reader_job_.empty()) reader_job_ = request.job_id();
  if (reader_job_ != request.job_id()) {
    return absl::FailedPreconditionError(
        absl::StrCat("stream ", id_, " is read by job ", reader_job_,
                     "; a stream from TableEnvironment::FromStream feeds one job"));
  }
  const int64_t last_seq = first_seq_ + static_cast<int64_t>(kept_.size()) - 1;
  const int64_t confirmed = std::min(request.confirmed_seq(), request.after_seq());
  int64_t dropped = 0;
  while (!kept_.empty() && first_seq_ <= confirmed) {
    kept_.pop_front();
    ++first_seq_;
    ++dropped;
  }
  if (dropped > 0) dropped_cv_.notify_all();
  if (request.after_seq() + 1 < first_seq_) {
    return absl::DataLossError(absl::StrCat("stream ", id_, ": batch ", request.after_seq() + 1,
                                            " was already dropped (confirmed up to ",
                                            first_seq_ - 1, ")"));
  }
  if (request.after_seq() > last_seq) {
    return absl::OutOfRangeError(absl::StrCat("stream ", id_, ": batch ", request.after_seq(),
                                              " was never written (the last is ", last_seq, ")"));
  }
  v1::PullStreamResponse out;
  const int max = std::max(1, request.max_batches());
  for (int64_t seq = request.after_seq() + 1; seq <= last_seq && out.batches_size() < max; ++seq) {
    *out.add_batches() = kept_[static_cast<size_t>(seq - first_seq_)];
  }
  const bool all = request.after_seq() + out.batches_size() == last_seq;
  if (all && !writer_lost_.empty()) {
    return absl::AbortedError(absl::StrCat("the program writing stream ", id_,
                                           " went away without closing it: ", writer_lost_));
  }
  out.set_end(all && closed_);
  return out;
}

std::string StreamRelay::reader_job() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reader_job_;
}

bool StreamRelay::writer_done() const {
  std::lock_guard<std::mutex> lock(mu_);
  return closed_ || !writer_lost_.empty();
}

size_t StreamRelay::kept() const {
  std::lock_guard<std::mutex> lock(mu_);
  return kept_.size();
}

}  // namespace eddy
