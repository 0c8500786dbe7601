// The worker's buffers of SELECT results: a query's collect sink appends encoded batches to its
// job's buffer, and WorkerService.FetchResults hands them to the coordinator (for the client). Each
// buffer is bounded: a full buffer makes the sink wait, which backpressures the query. A buffer
// lives until its end has been handed over, or the job is cancelled here. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "eddy/v1/results.pb.h"

namespace eddy {

class ResultBuffer {
 public:
  explicit ResultBuffer(size_t capacity_batches) : capacity_(capacity_batches) {}

  // Appends, waiting while the buffer is full; returns false when `cancelled` was set meanwhile.
  bool Push(v1::ChangelogBatch batch, const std::atomic<bool>* cancelled);
  void End();
  // Moves the buffered batches into `out` (waiting up to max_wait for one); sets out->end once
  // the sink ended and nothing is left.
  void Take(std::chrono::milliseconds max_wait, v1::FetchResultsResponse* out);

 private:
  const size_t capacity_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<v1::ChangelogBatch> batches_;
  bool ended_ = false;
};

class ResultBuffers {
 public:
  static constexpr size_t kDefaultCapacityBatches = 16;

  // The buffer of `job_id`'s collect sink, created on first use.
  std::shared_ptr<ResultBuffer> Open(const std::string& job_id);
  // NOT_FOUND when this worker has no results of the job (its sink has not opened yet).
  absl::Status Fetch(const std::string& job_id, std::chrono::milliseconds max_wait,
                     v1::FetchResultsResponse* out);
  void Drop(const std::string& job_id);

 private:
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<ResultBuffer>> buffers_;
};

}  // namespace eddy
