// The interval join's per-join-key record list: decoding, encoding and time-ordered updates.
#include "worker/operators/interval_join_records.h"

#include <algorithm>

#include "common/base/status_macros.h"
#include "worker/operators/accumulator_codec.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

constexpr uint8_t kMatchedFlag = 1;

absl::Status Corrupt(const char* what) {
  return absl::DataLossError(std::string("Corrupt interval join state value: ") + what);
}

}  // namespace

void IntervalJoinRecords::Reset(bool matched_flags) {
  matched_flags_ = matched_flags;
  records_.clear();
  dirty_ = false;
}

absl::Status IntervalJoinRecords::Decode(std::string_view value) {
  Reset(matched_flags_);
  agg_codec::Reader in(value);
  const uint8_t flags = in.Byte();
  if (!in.ok()) return Corrupt("empty");
  if (flags != (matched_flags_ ? kMatchedFlag : 0)) {
    return Corrupt("written for another join layout");
  }
  const uint64_t n = in.Varint();
  // Each record takes at least two bytes: a bound on what a corrupt count could make us reserve.
  if (!in.ok() || n > value.size()) return Corrupt("bad record count");
  records_.reserve(n);
  int64_t previous = 0;
  for (uint64_t i = 0; i < n; ++i) {
    IntervalJoinRecord& r = records_.emplace_back();
    r.time = static_cast<int64_t>(static_cast<uint64_t>(previous) + in.Varint());
    r.row = in.String();
    if (matched_flags_) r.matched = in.Byte() != 0;
    if (!in.ok()) return Corrupt("truncated record");
    if (i > 0 && r.time < previous) return Corrupt("records out of time order");
    previous = r.time;
  }
  if (!in.done()) return Corrupt("trailing bytes");
  return absl::OkStatus();
}

void IntervalJoinRecords::Encode(std::string* out) const {
  out->push_back(static_cast<char>(matched_flags_ ? kMatchedFlag : 0));
  agg_codec::PutVarint(records_.size(), out);
  int64_t previous = 0;
  for (const IntervalJoinRecord& r : records_) {
    agg_codec::PutVarint(static_cast<uint64_t>(r.time) - static_cast<uint64_t>(previous), out);
    agg_codec::PutString(r.row, out);
    if (matched_flags_) out->push_back(static_cast<char>(r.matched ? 1 : 0));
    previous = r.time;
  }
}

void IntervalJoinRecords::Add(int64_t time, std::string_view row, bool matched) {
  dirty_ = true;
  IntervalJoinRecord r;
  r.time = time;
  r.row = row;
  r.matched = matched;
  // Rows mostly come in time order: append unless the last record is later.
  if (records_.empty() || records_.back().time <= time) {
    records_.push_back(r);
    return;
  }
  auto at = std::upper_bound(records_.begin(), records_.end(), time,
                             [](int64_t t, const IntervalJoinRecord& rec) { return t < rec.time; });
  records_.insert(at, r);
}

std::pair<size_t, size_t> IntervalJoinRecords::Range(int64_t from, int64_t to) const {
  if (from > to) return {0, 0};
  auto begin =
      std::lower_bound(records_.begin(), records_.end(), from,
                       [](const IntervalJoinRecord& rec, int64_t t) { return rec.time < t; });
  auto end =
      std::upper_bound(begin, records_.end(), to,
                       [](int64_t t, const IntervalJoinRecord& rec) { return t < rec.time; });
  return {static_cast<size_t>(begin - records_.begin()),
          static_cast<size_t>(end - records_.begin())};
}

void IntervalJoinRecords::RemoveFront(size_t n) {
  if (n == 0) return;
  n = std::min(n, records_.size());
  records_.erase(records_.begin(), records_.begin() + static_cast<std::ptrdiff_t>(n));
  dirty_ = true;
}

absl::StatusOr<uint64_t> CountStoredRecords(KeyedStateBackend& store, uint32_t state_id,
                                            int max_parallelism, const OwnedKeyGroups& owned,
                                            std::string_view sides) {
  uint64_t count = 0;
  std::string prefix;
  for (int g = 0; g < max_parallelism; ++g) {
    if (!owned.Contains(g)) continue;
    prefix.clear();
    AppendStateKeyPrefix(g, state_id, &prefix);
    RETURN_IF_ERROR(
        store.ScanPrefix(prefix, [&](std::string_view key, std::string_view value) -> absl::Status {
          if (key.size() <= prefix.size() || value.empty() ||
              sides.find(key[prefix.size()]) == std::string_view::npos) {
            return absl::OkStatus();
          }
          IntervalJoinRecords records((static_cast<uint8_t>(value[0]) & kMatchedFlag) != 0);
          RETURN_IF_ERROR(records.Decode(value));
          count += records.size();
          return absl::OkStatus();
        }));
  }
  return count;
}

}  // namespace eddy
