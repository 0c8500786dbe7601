#include "worker/connectors/result_buffer.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/rpc/message_limits.h"

namespace eddy {

ResultBuffer::ResultBuffer(std::string job_id, int attempt, size_t capacity_chunks)
    : job_id_(std::move(job_id)),
      attempt_(attempt),
      capacity_(std::max<size_t>(1, capacity_chunks)) {}

absl::Status ResultBuffer::Restore(v1::CollectSinkState state) {
  std::lock_guard<std::mutex> lock(mu_);
  if (next_offset_ != 0 || ended_) {
    return absl::FailedPreconditionError(
        absl::StrCat("job ", job_id_, " attempt ", attempt_,
                     ": the collect sink's results are restored after it produced some"));
  }
  const int64_t held = state.unacknowledged_size();
  if (state.first_offset() < 0 || state.first_offset() + held != state.next_offset()) {
    return absl::DataLossError(absl::StrCat(
        "job ", job_id_, " attempt ", attempt_, ": the collect sink's checkpointed results hold ",
        held, " chunks from offset ", state.first_offset(),
        ", which do not end at its next offset ", state.next_offset()));
  }
  chunks_.assign(std::make_move_iterator(state.mutable_unacknowledged()->begin()),
                 std::make_move_iterator(state.mutable_unacknowledged()->end()));
  first_offset_ = state.first_offset();
  start_offset_ = next_offset_ = committed_offset_ = state.next_offset();
  changed_.notify_all();
  return absl::OkStatus();
}

bool ResultBuffer::Push(v1::ChangelogBatch chunk, const std::atomic<bool>* cancelled) {
  std::unique_lock<std::mutex> lock(mu_);
  while (chunks_.size() >= capacity_) {
    if (cancelled != nullptr && cancelled->load()) return false;
    changed_.wait_for(lock, std::chrono::milliseconds(10));
  }
  chunks_.push_back(std::move(chunk));
  ++next_offset_;
  changed_.notify_all();
  return true;
}

void ResultBuffer::End() {
  std::lock_guard<std::mutex> lock(mu_);
  ended_ = true;
  changed_.notify_all();
}

void ResultBuffer::Commit(int64_t offset) {
  std::lock_guard<std::mutex> lock(mu_);
  if (offset <= committed_offset_) return;
  committed_offset_ = std::min(offset, next_offset_);
  changed_.notify_all();
}

void ResultBuffer::Snapshot(v1::CollectSinkState* state) const {
  std::lock_guard<std::mutex> lock(mu_);
  state->set_next_offset(next_offset_);
  state->set_first_offset(first_offset_);
  state->mutable_unacknowledged()->Reserve(static_cast<int>(chunks_.size()));
  for (const v1::ChangelogBatch& chunk : chunks_) *state->add_unacknowledged() = chunk;
}

int64_t ResultBuffer::next_offset() const {
  std::lock_guard<std::mutex> lock(mu_);
  return next_offset_;
}

absl::Status ResultBuffer::CheckOffsetLocked(int64_t offset) const {
  if (offset > next_offset_) {
    return absl::OutOfRangeError(absl::StrCat("job ", job_id_, " attempt ", attempt_,
                                              ": result offset ", offset, " is beyond the ",
                                              next_offset_, " chunks its collect sink produced"));
  }
  if (offset < first_offset_) {
    return absl::OutOfRangeError(absl::StrCat(
        "job ", job_id_, " attempt ", attempt_, ": result offset ", offset,
        " was acknowledged already (the chunks held start at offset ", first_offset_, ")"));
  }
  return absl::OkStatus();
}

absl::Status ResultBuffer::Fetch(const v1::FetchResultChunksRequest& request,
                                 v1::FetchResultChunksResponse* out) {
  std::unique_lock<std::mutex> lock(mu_);
  int64_t from = first_offset_;
  if (request.has_offset()) {
    from = request.offset();
    if (absl::Status s = CheckOffsetLocked(from); !s.ok()) return s;
    while (first_offset_ < from) {  // acknowledged
      chunks_.pop_front();
      ++first_offset_;
    }
    changed_.notify_all();  // room for the sink
  }
  const int64_t known_committed = request.known_committed_offset();
  changed_.wait_for(lock, std::chrono::milliseconds(std::max(0, request.max_wait_ms())), [&] {
    return next_offset_ > from || ended_ || committed_offset_ > known_committed;
  });
  // Another fetch may have acknowledged more meanwhile.
  if (absl::Status s = CheckOffsetLocked(from); !s.ok()) return s;
  out->set_attempt(attempt_);
  out->set_start_offset(start_offset_);
  out->set_first_offset(from);
  out->set_committed_offset(committed_offset_);
  size_t bytes = 0;
  int64_t offset = from;
  while (offset < next_offset_ && (bytes == 0 || bytes < kFetchResultsResponseBytes)) {
    const v1::ChangelogBatch& chunk = chunks_[static_cast<size_t>(offset - first_offset_)];
    bytes += chunk.ByteSizeLong();
    *out->add_chunks() = chunk;
    ++offset;
  }
  out->set_end(ended_ && offset == next_offset_);
  return absl::OkStatus();
}

}  // namespace eddy
