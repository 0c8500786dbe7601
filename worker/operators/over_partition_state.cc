// The OVER aggregate's per-partition state value: decoding, encoding and time-ordered updates.
#include "worker/operators/over_partition_state.h"

#include <algorithm>

#include "worker/operators/accumulator_codec.h"

namespace eddy {
namespace {

absl::Status Corrupt(const char* what) {
  return absl::DataLossError(std::string("Corrupt OVER aggregate state value: ") + what);
}

}  // namespace

void OverPartitionState::Reset() {
  last_fired = 0;
  cleanup_time.reset();
  cleanup_timers.clear();
  retention_time.reset();
  acc_ = {};
  rows_.clear();
}

absl::Status OverPartitionState::Decode(std::string_view value) {
  Reset();
  agg_codec::Reader in(value);
  last_fired = in.Signed();
  const uint8_t has_cleanup = in.Byte();
  if (!in.ok() || has_cleanup > 1) return Corrupt("bad header");
  if (has_cleanup == 1) cleanup_time = in.Signed();
  const uint64_t timers = in.Varint();
  // Every timer and row takes at least one byte: a bound on what a corrupt count could reserve.
  if (!in.ok() || timers > value.size()) return Corrupt("bad timer count");
  for (uint64_t i = 0; i < timers && in.ok(); ++i) cleanup_timers.push_back(in.Signed());
  const uint8_t has_retention = in.Byte();
  if (!in.ok() || has_retention > 1) return Corrupt("bad retention flag");
  if (has_retention == 1) retention_time = in.Signed();
  acc_ = in.String();
  const uint64_t n = in.Varint();
  if (!in.ok() || n > value.size()) return Corrupt("bad row count");
  rows_.reserve(n);
  int64_t previous = 0;
  for (uint64_t i = 0; i < n; ++i) {
    OverRow& r = rows_.emplace_back();
    r.time = static_cast<int64_t>(static_cast<uint64_t>(previous) + in.Varint());
    r.row = in.String();
    if (!in.ok()) return Corrupt("truncated row");
    if (i > 0 && r.time < previous) return Corrupt("rows out of time order");
    previous = r.time;
  }
  if (!in.done()) return Corrupt("trailing bytes");
  return absl::OkStatus();
}

void OverPartitionState::Encode(std::string* out) const {
  agg_codec::PutSigned(last_fired, out);
  out->push_back(static_cast<char>(cleanup_time.has_value() ? 1 : 0));
  if (cleanup_time.has_value()) agg_codec::PutSigned(*cleanup_time, out);
  agg_codec::PutVarint(cleanup_timers.size(), out);
  for (int64_t t : cleanup_timers) agg_codec::PutSigned(t, out);
  out->push_back(static_cast<char>(retention_time.has_value() ? 1 : 0));
  if (retention_time.has_value()) agg_codec::PutSigned(*retention_time, out);
  agg_codec::PutString(acc_, out);
  agg_codec::PutVarint(rows_.size(), out);
  int64_t previous = 0;
  for (const OverRow& r : rows_) {
    agg_codec::PutVarint(static_cast<uint64_t>(r.time) - static_cast<uint64_t>(previous), out);
    agg_codec::PutString(r.row, out);
    previous = r.time;
  }
}

bool OverPartitionState::empty() const {
  return rows_.empty() && acc_.empty() && last_fired == 0 && !cleanup_time.has_value() &&
         cleanup_timers.empty() && !retention_time.has_value();
}

void OverPartitionState::AddRow(int64_t time, std::string_view row) {
  // Rows mostly come in time order: append unless the last row is later.
  if (rows_.empty() || rows_.back().time <= time) {
    rows_.push_back(OverRow{time, row});
    return;
  }
  rows_.insert(rows_.begin() + static_cast<std::ptrdiff_t>(FirstAfter(time)), OverRow{time, row});
}

size_t OverPartitionState::FirstAfter(int64_t time) const {
  auto it = std::upper_bound(rows_.begin(), rows_.end(), time,
                             [](int64_t t, const OverRow& r) { return t < r.time; });
  return static_cast<size_t>(it - rows_.begin());
}

void OverPartitionState::RemoveFront(size_t n) {
  n = std::min(n, rows_.size());
  rows_.erase(rows_.begin(), rows_.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace eddy
