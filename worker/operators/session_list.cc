#include "worker/operators/session_list.h"

#include <algorithm>

#include "worker/operators/accumulator_codec.h"

namespace eddy {

void SessionList::Intersecting(int64_t start, int64_t end, size_t* first, size_t* last) const {
  // Sessions are disjoint and in start order, so those intersecting a window are consecutive: the
  // first whose end reaches start, up to the last whose start is within end.
  auto lo = std::lower_bound(sessions_.begin(), sessions_.end(), start,
                             [](const Session& s, int64_t t) { return s.end < t; });
  auto hi = std::upper_bound(lo, sessions_.end(), end,
                             [](int64_t t, const Session& s) { return t < s.start; });
  *first = static_cast<size_t>(lo - sessions_.begin());
  *last = static_cast<size_t>(hi - sessions_.begin());
}

Session SessionList::Cover(int64_t start, int64_t end) const {
  size_t first = 0, last = 0;
  Intersecting(start, end, &first, &last);
  Session cover;
  cover.start = start;
  cover.end = end;
  if (first < last) {
    cover.start = std::min(start, sessions_[first].start);
    cover.end = std::max(end, sessions_[last - 1].end);
  }
  return cover;
}

Session* SessionList::Merge(const AggregateFunctions& functions, int64_t start, int64_t end,
                            std::vector<int64_t>* retired_ends) {
  size_t first = 0, last = 0;
  Intersecting(start, end, &first, &last);
  if (first == last) {
    auto it = sessions_.insert(sessions_.begin() + static_cast<std::ptrdiff_t>(first), Session{});
    it->start = start;
    it->end = end;
    functions.Reset(&it->acc);
    return &*it;
  }
  Session& target = sessions_[first];
  const int64_t merged_end = std::max(end, sessions_[last - 1].end);
  for (size_t i = first; i < last; ++i) {
    if (sessions_[i].end != merged_end) retired_ends->push_back(sessions_[i].end);
    if (i > first) functions.MergeAccumulators(&target.acc, sessions_[i].acc);
  }
  target.start = std::min(start, target.start);
  target.end = merged_end;
  sessions_.erase(sessions_.begin() + static_cast<std::ptrdiff_t>(first + 1),
                  sessions_.begin() + static_cast<std::ptrdiff_t>(last));
  return &sessions_[first];
}

Session* SessionList::FindEndingAt(int64_t end) {
  auto it = std::lower_bound(sessions_.begin(), sessions_.end(), end,
                             [](const Session& s, int64_t e) { return s.end < e; });
  return it != sessions_.end() && it->end == end ? &*it : nullptr;
}

void SessionList::EraseEndingAt(int64_t end) {
  Session* s = FindEndingAt(end);
  if (s != nullptr) sessions_.erase(sessions_.begin() + (s - sessions_.data()));
}

void SessionList::Serialize(const AggregateFunctions& functions, std::string* out) const {
  agg_codec::PutVarint(sessions_.size(), out);
  std::string acc;
  for (const Session& s : sessions_) {
    agg_codec::PutSigned(s.start, out);
    agg_codec::PutSigned(s.end, out);
    acc.clear();
    functions.Serialize(s.acc, &acc);
    agg_codec::PutString(acc, out);
  }
}

absl::Status SessionList::Deserialize(const AggregateFunctions& functions, std::string_view in) {
  sessions_.clear();
  agg_codec::Reader r(in);
  const uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    Session& s = sessions_.emplace_back();
    s.start = r.Signed();
    s.end = r.Signed();
    std::string_view acc = r.String();
    if (!r.ok()) break;
    absl::Status status = functions.Deserialize(acc, &s.acc);
    if (!status.ok()) return status;
  }
  if (!r.ok() || !r.done()) {
    return absl::DataLossError("Corrupt session window state value (" + std::to_string(in.size()) +
                               " bytes)");
  }
  return absl::OkStatus();
}

}  // namespace eddy
