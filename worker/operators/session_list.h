// The open sessions of one key of a SessionWindowAggregate, with their accumulators, and how a new
// row's window joins them, as Flink's merging session windows: sessions are time windows
// [start, end), disjoint and kept in start order; a row at t brings the window [t, t + gap), which
// merges with every session it intersects, touching included ([a, b) and [b, c) become [a, c)),
// so a row can bridge two sessions into one. Encoded as one state value per key.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "worker/operators/accumulator.h"

namespace eddy {

struct Session {
  int64_t start = 0;
  int64_t end = 0;  // exclusive; the session fires when the watermark reaches end - 1
  GroupAccumulators acc;
};

class SessionList {
 public:
  bool empty() const { return sessions_.empty(); }
  size_t size() const { return sessions_.size(); }
  const std::vector<Session>& sessions() const { return sessions_; }
  void Clear() { sessions_.clear(); }

  // The window [start, end) grown to cover every session it intersects: the window the row would
  // end up in.
  Session Cover(int64_t start, int64_t end) const;
  // Merges [start, end) and every session it intersects into one session (their accumulators
  // merged, or fresh ones when it intersects none) and returns it, valid until the next change.
  // Appends to `retired_ends` the ends of the sessions that no longer exist with that end (their
  // timers must go; the returned session's end needs one).
  Session* Merge(const AggregateFunctions& functions, int64_t start, int64_t end,
                 std::vector<int64_t>* retired_ends);
  // The session ending at `end`, or null.
  Session* FindEndingAt(int64_t end);
  // Removes the session ending at `end` (if any).
  void EraseEndingAt(int64_t end);

  // Varint count, then per session: zigzag start, zigzag end, length-prefixed accumulators.
  void Serialize(const AggregateFunctions& functions, std::string* out) const;
  absl::Status Deserialize(const AggregateFunctions& functions, std::string_view in);

 private:
  // The sessions intersecting [start, end): the index range [*first, *last).
  void Intersecting(int64_t start, int64_t end, size_t* first, size_t* last) const;

  std::vector<Session> sessions_;
};

}  // namespace eddy
