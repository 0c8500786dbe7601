#include "coordinator/cluster/result_relay.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/rpc/message_limits.h"

namespace eddy {

ResultRelay::ResultRelay(std::string job_id, bool exactly_once)
    : job_id_(std::move(job_id)), exactly_once_(exactly_once) {}

void ResultRelay::FollowAttempt(int attempt) {
  if (attempt == attempt_) return;
  attempt_ = attempt;
  start_known_ = false;
  sink_ended_ = false;
}

v1::FetchResultChunksRequest ResultRelay::NextRequest(int max_wait_ms) const {
  v1::FetchResultChunksRequest request;
  request.set_job_id(job_id_);
  request.set_attempt(attempt_);
  request.set_max_wait_ms(max_wait_ms);
  if (start_known_) {
    request.set_offset(fetched_offset());
    request.set_known_committed_offset(committed_);
  } else {
    request.set_known_committed_offset(-1);  // answered at once: it only says where to go on
  }
  return request;
}

absl::Status ResultRelay::Accept(v1::FetchResultChunksResponse response) {
  if (response.attempt() != attempt_) {
    ++stale_responses_;
    return absl::OkStatus();
  }
  if (!start_known_) {
    const int64_t start = response.start_offset();
    if (start < delivered_) {
      return absl::DataLossError(
          absl::StrCat("job ", job_id_, " attempt ", attempt_, " starts its results at offset ",
                       start, ", but the client already received them up to offset ", delivered_,
                       ": they cannot be delivered exactly once"));
    }
    // The new attempt produces every chunk from its start again, not necessarily the same way.
    if (start < fetched_offset()) chunks_.resize(static_cast<size_t>(start - delivered_));
    committed_ = response.committed_offset();
    start_known_ = true;
  } else {
    committed_ = std::max(committed_, response.committed_offset());
  }
  int64_t offset = response.first_offset();
  if (offset > fetched_offset()) {
    return absl::DataLossError(absl::StrCat(
        "job ", job_id_, " attempt ", attempt_, ": the worker sent results from offset ", offset,
        ", but the coordinator holds them only up to offset ", fetched_offset()));
  }
  for (v1::ChangelogBatch& chunk : *response.mutable_chunks()) {
    if (offset++ >= fetched_offset()) chunks_.push_back(std::move(chunk));
  }
  if (response.end()) sink_ended_ = true;
  return absl::OkStatus();
}

int64_t ResultRelay::DeliverableEnd() const {
  if (!exactly_once_) return fetched_offset();
  // Until the followed attempt says where it starts, what is held here may still be replaced.
  if (!start_known_) return delivered_;
  if (job_finished_) return fetched_offset();
  return std::clamp(committed_, delivered_, fetched_offset());
}

bool ResultRelay::HasFullResponse() const {
  const size_t deliverable = static_cast<size_t>(DeliverableEnd() - delivered_);
  size_t bytes = 0;
  for (size_t i = 0; i < deliverable && bytes < kFetchResultsResponseBytes; ++i) {
    bytes += chunks_[i].ByteSizeLong();
  }
  return bytes >= kFetchResultsResponseBytes;
}

bool ResultRelay::at_end() const {
  return job_finished_ && start_known_ && sink_ended_ && chunks_.empty();
}

void ResultRelay::Deliver(v1::FetchResultsResponse* out) {
  const int64_t end = DeliverableEnd();
  size_t bytes = 0;
  while (delivered_ < end && (bytes == 0 || bytes < kFetchResultsResponseBytes)) {
    bytes += chunks_.front().ByteSizeLong();
    *out->add_batches() = std::move(chunks_.front());
    chunks_.pop_front();
    ++delivered_;
  }
  out->set_end(at_end());
}

}  // namespace eddy
