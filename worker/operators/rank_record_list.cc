// The Top-N partition's record list: decoding, encoding and in-place updates.
#include "worker/operators/rank_record_list.h"

#include <algorithm>

#include "worker/operators/accumulator_codec.h"

namespace eddy {
namespace {

constexpr uint8_t kFormat = 1;

absl::Status Corrupt(const char* what) {
  return absl::DataLossError(std::string("Corrupt Top-N state value: ") + what);
}

}  // namespace

void RankRecordList::Clear() {
  records_.clear();
  rows_ = 0;
  dirty_ = false;
}

absl::Status RankRecordList::Decode(std::string_view value) {
  Clear();
  agg_codec::Reader in(value);
  const uint8_t format = in.Byte();
  if (!in.ok()) return Corrupt("empty");
  if (format != kFormat) return Corrupt("unknown format");
  const uint64_t n = in.Varint();
  // Each record takes at least three bytes: a bound on what a corrupt count could make us reserve.
  if (!in.ok() || n > value.size()) return Corrupt("bad record count");
  records_.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    RankRecord& r = records_.emplace_back();
    r.sort_key = in.String();
    r.row = in.String();
    r.count = static_cast<int64_t>(in.Varint());
    if (!in.ok()) return Corrupt("truncated record");
    if (r.count <= 0) return Corrupt("record without a count");
    if (i > 0 && records_[i - 1].sort_key > r.sort_key) return Corrupt("records out of order");
    rows_ += r.count;
  }
  if (!in.done()) return Corrupt("trailing bytes");
  return absl::OkStatus();
}

void RankRecordList::Encode(std::string* out) const {
  out->push_back(static_cast<char>(kFormat));
  agg_codec::PutVarint(records_.size(), out);
  for (const RankRecord& r : records_) {
    agg_codec::PutString(r.sort_key, out);
    agg_codec::PutString(r.row, out);
    agg_codec::PutVarint(static_cast<uint64_t>(r.count), out);
  }
}

size_t RankRecordList::UpperBound(std::string_view sort_key) const {
  auto it =
      std::upper_bound(records_.begin(), records_.end(), sort_key,
                       [](std::string_view key, const RankRecord& r) { return key < r.sort_key; });
  return static_cast<size_t>(it - records_.begin());
}

size_t RankRecordList::LowerBound(std::string_view sort_key) const {
  auto it =
      std::lower_bound(records_.begin(), records_.end(), sort_key,
                       [](const RankRecord& r, std::string_view key) { return r.sort_key < key; });
  return static_cast<size_t>(it - records_.begin());
}

int64_t RankRecordList::RankOf(size_t index, int64_t limit) const {
  if (index == records_.size()) return std::min(rows_, limit) + 1;  // after the last row
  int64_t before = 0;
  for (size_t i = 0; i < index; ++i) {
    before += records_[i].count;
    if (before >= limit) return limit + 1;
  }
  return before + 1;
}

size_t RankRecordList::Find(std::string_view sort_key, std::string_view row) const {
  auto it =
      std::lower_bound(records_.begin(), records_.end(), sort_key,
                       [](const RankRecord& r, std::string_view key) { return r.sort_key < key; });
  for (; it != records_.end() && it->sort_key == sort_key; ++it) {
    if (it->row == row) return static_cast<size_t>(it - records_.begin());
  }
  return kNotFound;
}

void RankRecordList::Insert(size_t index, std::string_view sort_key, std::string_view row) {
  dirty_ = true;
  ++rows_;
  if (index > 0 && records_[index - 1].row == row) {
    ++records_[index - 1].count;
    return;
  }
  if (index < records_.size() && records_[index].row == row) {
    ++records_[index].count;
    return;
  }
  records_.insert(records_.begin() + static_cast<std::ptrdiff_t>(index),
                  RankRecord{sort_key, row, 1});
}

void RankRecordList::RemoveOne(size_t index) {
  dirty_ = true;
  --rows_;
  if (--records_[index].count > 0) return;
  records_.erase(records_.begin() + static_cast<std::ptrdiff_t>(index));
  // The records around the removed one may now be the same row: one run again.
  if (index > 0 && index < records_.size() && records_[index - 1].row == records_[index].row) {
    records_[index - 1].count += records_[index].count;
    records_.erase(records_.begin() + static_cast<std::ptrdiff_t>(index));
  }
}

void RankRecordList::Truncate(int64_t n) {
  if (rows_ <= n) return;
  dirty_ = true;
  int64_t kept = 0;
  size_t i = 0;
  for (; i < records_.size() && kept < n; ++i) {
    const int64_t take = std::min(records_[i].count, n - kept);
    records_[i].count = take;
    kept += take;
  }
  records_.resize(i);
  rows_ = kept;
}

void RankRecordList::Advance(RankCursor* c, int64_t n) const {
  while (n > 0 && c->record < records_.size()) {
    const int64_t left = records_[c->record].count - c->copy;
    if (n < left) {
      c->copy += n;
      return;
    }
    n -= left;
    ++c->record;
    c->copy = 0;
  }
}

}  // namespace eddy
