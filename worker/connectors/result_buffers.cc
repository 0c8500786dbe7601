#include "worker/connectors/result_buffers.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace eddy {

void ResultBuffers::Publish(std::shared_ptr<ResultBuffer> buffer) {
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<ResultBuffer>& slot = buffers_[buffer->job_id()];
  if (slot == nullptr || slot->attempt() < buffer->attempt()) slot = std::move(buffer);
}

absl::Status ResultBuffers::Fetch(const v1::FetchResultChunksRequest& request,
                                  v1::FetchResultChunksResponse* out) {
  std::shared_ptr<ResultBuffer> buffer;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = buffers_.find(request.job_id());
    if (it == buffers_.end() || it->second->attempt() < request.attempt()) {
      return absl::NotFoundError(absl::StrCat("no results of job ", request.job_id(), " attempt ",
                                              request.attempt(), " on this worker"));
    }
    if (it->second->attempt() > request.attempt()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "job ", request.job_id(), " attempt ", request.attempt(),
          " is over on this worker: it holds the results of attempt ", it->second->attempt()));
    }
    buffer = it->second;
  }
  if (absl::Status s = buffer->Fetch(request, out); !s.ok()) return s;
  if (out->end()) Withdraw(buffer);
  return absl::OkStatus();
}

void ResultBuffers::Withdraw(const std::shared_ptr<ResultBuffer>& buffer) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = buffers_.find(buffer->job_id());
  if (it != buffers_.end() && it->second == buffer) buffers_.erase(it);
}

void ResultBuffers::Drop(const std::string& job_id, int up_to_attempt) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = buffers_.find(job_id);
  if (it == buffers_.end()) return;
  if (up_to_attempt == 0 || it->second->attempt() <= up_to_attempt) buffers_.erase(it);
}

}  // namespace eddy
