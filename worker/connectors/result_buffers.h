// The worker's SELECT results: the ResultBuffer of each job's collect sink, by job, for
// WorkerService.FetchResults. Only the newest attempt's buffer of a job is kept: a sink publishes
// its buffer once it is ready to hand out (restored, when its attempt starts from a checkpoint),
// replacing an older attempt's. A buffer goes once its end has been handed over, when its attempt
// is cancelled here, or when its sink closes without having finished. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "eddy/v1/results.pb.h"
#include "worker/connectors/result_buffer.h"

namespace eddy {

class ResultBuffers {
 public:
  static constexpr size_t kDefaultCapacityChunks = 16;

  // Makes `buffer` the one its job's fetches reach, unless a newer attempt's is there already.
  void Publish(std::shared_ptr<ResultBuffer> buffer);
  // ResultBuffer::Fetch on the buffer of the request's job and attempt. NOT_FOUND when there is
  // none here yet (its sink has not published it); FAILED_PRECONDITION when a newer attempt's
  // buffer replaced it.
  absl::Status Fetch(const v1::FetchResultChunksRequest& request,
                     v1::FetchResultChunksResponse* out);
  // Drops the job's buffer when its attempt is at most `up_to_attempt` (0: whatever its attempt).
  void Drop(const std::string& job_id, int up_to_attempt = 0);
  // Drops `buffer` if it is still the one of its job.
  void Withdraw(const std::shared_ptr<ResultBuffer>& buffer);

 private:
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<ResultBuffer>> buffers_;
};

}  // namespace eddy
