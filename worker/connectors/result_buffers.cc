#include "worker/connectors/result_buffers.h"

#include <utility>

#include "common/rpc/message_limits.h"

namespace eddy {

bool ResultBuffer::Push(v1::ChangelogBatch batch, const std::atomic<bool>* cancelled) {
  std::unique_lock<std::mutex> lock(mu_);
  while (batches_.size() >= capacity_) {
    if (cancelled != nullptr && cancelled->load()) return false;
    changed_.wait_for(lock, std::chrono::milliseconds(10));
  }
  batches_.push_back(std::move(batch));
  changed_.notify_all();
  return true;
}

void ResultBuffer::End() {
  std::lock_guard<std::mutex> lock(mu_);
  ended_ = true;
  changed_.notify_all();
}

void ResultBuffer::Take(std::chrono::milliseconds max_wait, v1::FetchResultsResponse* out) {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait_for(lock, max_wait, [&] { return !batches_.empty() || ended_; });
  size_t bytes = 0;
  while (!batches_.empty() && (bytes == 0 || bytes < kFetchResultsResponseBytes)) {
    bytes += batches_.front().ByteSizeLong();
    *out->add_batches() = std::move(batches_.front());
    batches_.pop_front();
  }
  out->set_end(ended_ && batches_.empty());
  changed_.notify_all();  // room for the sink again
}

std::shared_ptr<ResultBuffer> ResultBuffers::Open(const std::string& job_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& b = buffers_[job_id];
  if (b == nullptr) b = std::make_shared<ResultBuffer>(kDefaultCapacityBatches);
  return b;
}

absl::Status ResultBuffers::Fetch(const std::string& job_id, std::chrono::milliseconds max_wait,
                                  v1::FetchResultsResponse* out) {
  std::shared_ptr<ResultBuffer> b;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = buffers_.find(job_id);
    if (it == buffers_.end()) {
      return absl::NotFoundError("no results of job " + job_id + " on this worker");
    }
    b = it->second;
  }
  b->Take(max_wait, out);
  if (out->end()) Drop(job_id);
  return absl::OkStatus();
}

void ResultBuffers::Drop(const std::string& job_id) {
  std::lock_guard<std::mutex> lock(mu_);
  buffers_.erase(job_id);
}

}  // namespace eddy
