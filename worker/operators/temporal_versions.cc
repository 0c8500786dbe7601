// The temporal join's per-key version list: decoding, encoding, lookup by time and pruning.
#include "worker/operators/temporal_versions.h"

#include <algorithm>

#include "worker/operators/accumulator_codec.h"

namespace eddy {
namespace {

constexpr uint8_t kRowVersion = 0;
constexpr uint8_t kDeletionVersion = 1;

absl::Status Corrupt(const char* what) {
  return absl::DataLossError(std::string("Corrupt temporal join state value: ") + what);
}

}  // namespace

void TemporalVersions::Reset() {
  versions_.clear();
  dirty_ = false;
}

absl::Status TemporalVersions::Decode(std::string_view value) {
  Reset();
  agg_codec::Reader in(value);
  const uint64_t n = in.Varint();
  // Each version takes at least two bytes: a bound on what a corrupt count could make us reserve.
  if (!in.ok() || n > value.size()) return Corrupt("bad version count");
  versions_.reserve(n);
  int64_t previous = 0;
  for (uint64_t i = 0; i < n; ++i) {
    TemporalVersion& v = versions_.emplace_back();
    v.time = static_cast<int64_t>(static_cast<uint64_t>(previous) + in.Varint());
    const uint8_t kind = in.Byte();
    if (kind != kRowVersion && kind != kDeletionVersion) return Corrupt("bad version kind");
    v.deleted = kind == kDeletionVersion;
    if (!v.deleted) v.row = in.String();
    if (!in.ok()) return Corrupt("truncated version");
    if (i > 0 && v.time <= previous) return Corrupt("versions out of time order");
    previous = v.time;
  }
  if (!in.done()) return Corrupt("trailing bytes");
  return absl::OkStatus();
}

void TemporalVersions::Encode(std::string* out) const {
  agg_codec::PutVarint(versions_.size(), out);
  int64_t previous = 0;
  for (const TemporalVersion& v : versions_) {
    agg_codec::PutVarint(static_cast<uint64_t>(v.time) - static_cast<uint64_t>(previous), out);
    out->push_back(static_cast<char>(v.deleted ? kDeletionVersion : kRowVersion));
    if (!v.deleted) agg_codec::PutString(v.row, out);
    previous = v.time;
  }
}

void TemporalVersions::Set(int64_t time, bool deleted, std::string_view row) {
  dirty_ = true;
  TemporalVersion v;
  v.time = time;
  v.deleted = deleted;
  if (!deleted) v.row = row;
  // Versions mostly come in time order: append unless the last one is not earlier.
  if (versions_.empty() || versions_.back().time < time) {
    versions_.push_back(v);
    return;
  }
  auto at = std::lower_bound(versions_.begin(), versions_.end(), time,
                             [](const TemporalVersion& x, int64_t t) { return x.time < t; });
  if (at != versions_.end() && at->time == time) {
    *at = v;
  } else {
    versions_.insert(at, v);
  }
}

int64_t TemporalVersions::Find(int64_t time) const {
  auto after = std::upper_bound(versions_.begin(), versions_.end(), time,
                                [](int64_t t, const TemporalVersion& x) { return t < x.time; });
  return static_cast<int64_t>(after - versions_.begin()) - 1;
}

size_t TemporalVersions::Prune(int64_t watermark) {
  const int64_t newest = Find(watermark);
  if (newest < 0) return 0;
  size_t dropped = static_cast<size_t>(newest);
  if (dropped > 0) {
    versions_.erase(versions_.begin(), versions_.begin() + static_cast<std::ptrdiff_t>(dropped));
  }
  if (versions_[0].deleted) {
    versions_.erase(versions_.begin());
    ++dropped;
  }
  if (dropped > 0) dirty_ = true;
  return dropped;
}

std::optional<int64_t> TemporalVersions::PruneTime() const {
  if (versions_.empty()) return std::nullopt;
  if (versions_[0].deleted) return versions_[0].time;
  if (versions_.size() >= 2) return versions_[1].time;
  return std::nullopt;
}

}  // namespace eddy
