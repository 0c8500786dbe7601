// The coordinator's part of a SELECT's results (JobManager::FetchResults): the chunks fetched from
// the worker of the query's collect sink, under the offsets the sink gave them, on their way to
// the client.
//
// Without checkpointing every chunk goes to the client as it comes. With checkpointing (exactly
// once, as Flink's CheckpointedCollectResultBuffer) a chunk goes only once a completed checkpoint
// covers it (it is below the sink's committed offset) or the job finished; when an attempt restored
// from a checkpoint starts, the chunks at or above the checkpoint's offset are dropped, since the
// new attempt produces them again, and fetching goes on from there. A fetched response of another
// attempt than the followed one is ignored.
//
// Not thread-safe: JobManager runs the fetches of a job one at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

#include "absl/status/status.h"
#include "eddy/v1/results.pb.h"

namespace eddy {

class ResultRelay {
 public:
  ResultRelay(std::string job_id, bool exactly_once);

  // The job runs `attempt` now; called before each fetch. A new attempt is fetched from where it
  // starts, which its first response says.
  void FollowAttempt(int attempt);
  // The job finished: every chunk of the followed attempt is final once it is fetched.
  void JobFinished() { job_finished_ = true; }

  // What to ask the followed attempt's sink for next.
  v1::FetchResultChunksRequest NextRequest(int max_wait_ms) const;
  // Takes a response to NextRequest. DATA_LOSS when it leaves a hole after the chunks held here,
  // or when an attempt restarted from an offset below what the client already received.
  absl::Status Accept(v1::FetchResultChunksResponse response);

  // Chunks that may go to the client now.
  bool HasDeliverable() const { return delivered_ < DeliverableEnd(); }
  // Whether the deliverable chunks fill a whole client response (kFetchResultsResponseBytes).
  bool HasFullResponse() const;
  // Moves deliverable chunks into `out` (up to kFetchResultsResponseBytes, at least one), and
  // sets `end` once the job finished and its last chunk has been handed over.
  void Deliver(v1::FetchResultsResponse* out);

  // The followed attempt's sink ended and its last chunk is here.
  bool sink_ended() const { return sink_ended_; }
  bool at_end() const;
  bool exactly_once() const { return exactly_once_; }
  int attempt() const { return attempt_; }
  // Offsets: the client has every chunk below delivered(); this holds [delivered, fetched).
  int64_t delivered_offset() const { return delivered_; }
  int64_t fetched_offset() const { return delivered_ + static_cast<int64_t>(chunks_.size()); }
  int64_t committed_offset() const { return committed_; }
  // Responses of an attempt other than the followed one, dropped.
  int64_t stale_responses() const { return stale_responses_; }

 private:
  int64_t DeliverableEnd() const;

  const std::string job_id_;
  const bool exactly_once_;
  int attempt_ = 0;
  bool start_known_ = false;  // a response of the followed attempt arrived
  bool sink_ended_ = false;
  bool job_finished_ = false;
  int64_t delivered_ = 0;
  int64_t committed_ = 0;
  std::deque<v1::ChangelogBatch> chunks_;  // offsets [delivered_, fetched_offset())
  int64_t stale_responses_ = 0;
};

}  // namespace eddy
