// The streaming join's per-join-key record list: decoding, encoding and in-place updates.
#include "worker/operators/join_record_list.h"

#include "worker/operators/accumulator_codec.h"

namespace eddy {
namespace {

constexpr uint8_t kAssociationsFlag = 1;
constexpr uint8_t kUniqueKeyFlag = 2;
// Lists up to this long are searched linearly; longer ones get a hash index.
constexpr size_t kLinearSearchMax = 16;

absl::Status Corrupt(const char* what) {
  return absl::DataLossError(std::string("Corrupt join state value: ") + what);
}

}  // namespace

void JoinRecordList::Reset(bool unique_key, bool associations) {
  unique_key_ = unique_key;
  associations_ = associations;
  records_.clear();
  live_ = 0;
  dirty_ = false;
  if (indexed_) index_.clear();
  indexed_ = false;
}

absl::Status JoinRecordList::Decode(std::string_view value) {
  Reset(unique_key_, associations_);
  agg_codec::Reader in(value);
  const uint8_t flags = in.Byte();
  const uint8_t expected =
      (associations_ ? kAssociationsFlag : 0) | (unique_key_ ? kUniqueKeyFlag : 0);
  if (!in.ok()) return Corrupt("empty");
  if (flags != expected) return Corrupt("written for another join layout");
  const uint64_t n = in.Varint();
  // Each record takes at least two bytes: a bound on what a corrupt count could make us reserve.
  if (!in.ok() || n > value.size()) return Corrupt("bad record count");
  records_.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    JoinRecord& r = records_.emplace_back();
    if (unique_key_) r.id = in.String();
    r.row = in.String();
    if (!unique_key_) r.id = r.row;
    r.count = static_cast<int64_t>(in.Varint());
    if (associations_) r.associations = static_cast<int64_t>(in.Varint());
    if (!in.ok()) return Corrupt("truncated record");
    if (r.count <= 0) return Corrupt("record without a count");
  }
  if (!in.done()) return Corrupt("trailing bytes");
  live_ = records_.size();
  return absl::OkStatus();
}

void JoinRecordList::Encode(std::string* out) const {
  out->push_back(static_cast<char>((associations_ ? kAssociationsFlag : 0) |
                                   (unique_key_ ? kUniqueKeyFlag : 0)));
  agg_codec::PutVarint(live_, out);
  for (const JoinRecord& r : records_) {
    if (r.count <= 0) continue;
    if (unique_key_) agg_codec::PutString(r.id, out);
    agg_codec::PutString(r.row, out);
    agg_codec::PutVarint(static_cast<uint64_t>(r.count), out);
    if (associations_) agg_codec::PutVarint(static_cast<uint64_t>(r.associations), out);
  }
}

int64_t JoinRecordList::Find(std::string_view id) {
  if (!indexed_ && records_.size() <= kLinearSearchMax) {
    for (size_t i = 0; i < records_.size(); ++i) {
      if (records_[i].id == id) return static_cast<int64_t>(i);
    }
    return -1;
  }
  if (!indexed_) {
    index_.clear();
    index_.reserve(records_.size() * 2);
    for (size_t i = 0; i < records_.size(); ++i) {
      index_.emplace(records_[i].id, static_cast<uint32_t>(i));
    }
    indexed_ = true;
  }
  auto it = index_.find(id);
  return it == index_.end() ? -1 : static_cast<int64_t>(it->second);
}

void JoinRecordList::Add(std::string_view id, std::string_view row, int64_t associations) {
  dirty_ = true;
  const int64_t i = Find(id);
  if (i < 0) {
    JoinRecord& r = records_.emplace_back();
    r.id = id;
    r.row = row;
    r.count = 1;
    r.associations = associations;
    if (indexed_) index_.emplace(id, static_cast<uint32_t>(records_.size() - 1));
    ++live_;
    return;
  }
  JoinRecord& r = records_[i];
  if (r.count == 0) ++live_;
  if (unique_key_) {
    // The unique key's new row; the old one is gone (a well-formed changelog retracted it first).
    // The id view moves to the new input's bytes, equal to the old ones.
    r.id = id;
    r.row = row;
    r.count = 1;
  } else {
    ++r.count;
  }
  r.associations = associations;
}

bool JoinRecordList::Retract(std::string_view id) {
  const int64_t i = Find(id);
  if (i < 0 || records_[i].count == 0) return false;
  JoinRecord& r = records_[i];
  r.count = unique_key_ ? 0 : r.count - 1;
  if (r.count == 0) --live_;
  dirty_ = true;
  return true;
}

}  // namespace eddy
