// One collect sink's results on its worker: the encoded chunks it produced, numbered by offset
// (from 0, or from the offset of the checkpoint the sink was restored from), each kept until the
// coordinator acknowledges it by fetching from a later offset, so that a lost response loses
// nothing. Bounded: Push waits while `capacity` chunks are unacknowledged, which backpressures the
// query when the client reads slowly. The sink also records its committed offset (the chunks a
// completed checkpoint covers) for the fetcher, and snapshots what is unacknowledged.
// Thread-safe: the sink's task pushes, RPC threads fetch.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "eddy/v1/results.pb.h"

namespace eddy {

class ResultBuffer {
 public:
  ResultBuffer(std::string job_id, int attempt, size_t capacity_chunks);

  const std::string& job_id() const { return job_id_; }
  int attempt() const { return attempt_; }

  // --- the sink ---

  // Before the first Push: goes on from a checkpoint's state. Its unacknowledged chunks are handed
  // out again, and numbering continues at its next offset, which is committed (the checkpoint
  // completed).
  absl::Status Restore(v1::CollectSinkState state);
  // Appends the next chunk, waiting while the buffer is full; false when `cancelled` was set
  // meanwhile.
  bool Push(v1::ChangelogBatch chunk, const std::atomic<bool>* cancelled);
  // The sink's input ended: the last chunk was pushed.
  void End();
  // The chunks below `offset` are covered by a completed checkpoint.
  void Commit(int64_t offset);
  // The next offset and the chunks not yet acknowledged, for a checkpoint.
  void Snapshot(v1::CollectSinkState* state) const;
  int64_t next_offset() const;

  // --- the fetcher ---

  // Drops the chunks below request.offset (acknowledged), then hands out the chunks from there,
  // or from the first one held when the request has no offset, up to kFetchResultsResponseBytes
  // (at least one). Waits up to request.max_wait_ms while there is none, the sink has not ended
  // and the committed offset is not past request.known_committed_offset. OUT_OF_RANGE, naming the
  // job and the offset, for an offset past the chunks produced or below those still held.
  absl::Status Fetch(const v1::FetchResultChunksRequest& request,
                     v1::FetchResultChunksResponse* out);

 private:
  // OUT_OF_RANGE unless `offset` is within [first_offset_, next_offset_]; caller holds mu_.
  absl::Status CheckOffsetLocked(int64_t offset) const;

  const std::string job_id_;
  const int attempt_;
  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::deque<v1::ChangelogBatch> chunks_;  // offsets [first_offset_, next_offset_)
  int64_t start_offset_ = 0;
  int64_t first_offset_ = 0;
  int64_t next_offset_ = 0;
  int64_t committed_offset_ = 0;
  bool ended_ = false;
};

}  // namespace eddy
