#include "worker/operators/group_table.h"

#include <algorithm>

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

namespace eddy {

GroupTable::GroupTable(size_t payload_bytes)
    : payload_bytes_((payload_bytes + 7) / 8 * 8), record_bytes_(kHeaderBytes + payload_bytes_) {}

uint64_t GroupTable::Hash(std::string_view key) {
  return absl::Hash<absl::string_view>{}(absl::string_view(key.data(), key.size()));
}

std::string_view GroupTable::key(uint32_t g) const {
  const RecordHeader* h = Header(g);
  if (h->key_len == kLongKey) return long_keys_[g];
  return std::string_view(h->key, h->key_len);
}

bool GroupTable::KeyEquals(uint32_t g, std::string_view key) const {
  const RecordHeader* h = Header(g);
  if (h->key_len == kLongKey) return long_keys_[g] == key;
  return h->key_len == key.size() && std::memcmp(h->key, key.data(), key.size()) == 0;
}

uint32_t GroupTable::Find(std::string_view key, uint64_t hash) {
  if (slots_.empty()) return kNone;
  const uint64_t tag = hash & 0xffffffff00000000ULL;
  for (size_t i = Home(hash);; i = (i + 1) & mask_) {
    const uint64_t s = slots_[i];
    if (s == 0) return kNone;
    if ((s & 0xffffffff00000000ULL) != tag) continue;
    const uint32_t g = static_cast<uint32_t>(s & 0xffffffffULL) - 1;
    if (KeyEquals(g, key)) {
      Header(g)->flags |= kReferenced;
      return g;
    }
  }
}

uint32_t GroupTable::Insert(std::string_view key, uint64_t hash, uint8_t flags) {
  if ((live_ + 1) * 4 > slots_.size() * 3) GrowIndex();
  uint32_t g;
  if (!free_.empty()) {
    g = free_.back();
    free_.pop_back();
  } else {
    if (records_ == chunks_.size() * kChunk) {
      chunks_.push_back(std::make_unique<uint8_t[]>(size_t{kChunk} * record_bytes_));
      long_keys_.resize(chunks_.size() * kChunk);
    }
    g = records_++;
  }
  uint8_t* r = Record(g);
  std::memset(r, 0, record_bytes_);
  RecordHeader* h = reinterpret_cast<RecordHeader*>(r);
  h->flags = static_cast<uint8_t>(flags | kLive);
  if (key.size() <= kInlineKeyBytes) {
    h->key_len = static_cast<uint8_t>(key.size());
    std::memcpy(h->key, key.data(), key.size());
  } else {
    h->key_len = kLongKey;
    long_key_bytes_ -= long_keys_[g].capacity();
    long_keys_[g].assign(key.data(), key.size());
    long_key_bytes_ += long_keys_[g].capacity();
  }
  size_t i = Home(hash);
  while (slots_[i] != 0) i = (i + 1) & mask_;
  slots_[i] = Slot(hash, g);
  ++live_;
  return g;
}

void GroupTable::GrowIndex() {
  const size_t capacity = std::max<size_t>(64, slots_.size() * 2);
  std::vector<uint64_t> old = std::move(slots_);
  slots_.assign(capacity, 0);
  mask_ = capacity - 1;
  for (uint64_t s : old) {
    if (s == 0) continue;
    size_t i = Home(s);
    while (slots_[i] != 0) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

void GroupTable::EraseFromIndex(uint32_t g) {
  const uint64_t target = Slot(Hash(key(g)), g);
  size_t i = Home(target);
  while (slots_[i] != target) i = (i + 1) & mask_;
  // Backward shift: a later slot of the same probe run moves into the hole when its home is not
  // between the hole and itself (cyclically).
  size_t hole = i;
  for (size_t j = (hole + 1) & mask_; slots_[j] != 0; j = (j + 1) & mask_) {
    const size_t home = Home(slots_[j]);
    const bool home_in_range = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (home_in_range) continue;
    slots_[hole] = slots_[j];
    hole = j;
  }
  slots_[hole] = 0;
}

void GroupTable::Free(uint32_t g) {
  EraseFromIndex(g);
  RecordHeader* h = Header(g);
  if (h->key_len == kLongKey) {
    // The string keeps its buffer for the next long key of this record.
    long_keys_[g].clear();
  }
  h->flags = 0;
  free_.push_back(g);
  --live_;
}

void GroupTable::Reset() {
  std::fill(slots_.begin(), slots_.end(), 0);
  records_ = 0;
  free_.clear();
  live_ = 0;
  hand_ = 0;
}

void GroupTable::Clear() {
  chunks_.clear();
  long_keys_.clear();
  records_ = 0;
  free_.clear();
  live_ = 0;
  long_key_bytes_ = 0;
  slots_.clear();
  mask_ = 0;
  hand_ = 0;
}

}  // namespace eddy
