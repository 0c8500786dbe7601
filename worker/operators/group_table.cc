#include "worker/operators/group_table.h"

#include <algorithm>

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

namespace eddy {

GroupTable::GroupTable(size_t payload_bytes, size_t inline_key_bytes)
    : inline_key_bytes_(std::clamp(inline_key_bytes, kMinInlineKeyBytes, kMaxInlineKeyBytes)),
      payload_offset_(kKeyAt + inline_key_bytes_),
      record_bytes_(payload_offset_ + payload_bytes) {}

uint64_t GroupTable::Hash(std::string_view key) {
  return absl::Hash<absl::string_view>{}(absl::string_view(key.data(), key.size()));
}

std::string_view GroupTable::key(uint32_t g) const {
  const uint8_t* r = Record(g);
  if (r[kKeyLenAt] == kLongKey) return long_keys_[LongKeyIndex(r)];
  return std::string_view(reinterpret_cast<const char*>(r + kKeyAt), r[kKeyLenAt]);
}

bool GroupTable::KeyEquals(uint32_t g, std::string_view key) const {
  const uint8_t* r = Record(g);
  if (r[kKeyLenAt] == kLongKey) return long_keys_[LongKeyIndex(r)] == key;
  return r[kKeyLenAt] == key.size() && std::memcmp(r + kKeyAt, key.data(), key.size()) == 0;
}

uint32_t GroupTable::Find(std::string_view key, uint64_t hash) {
  if (slots_.empty()) return kNone;
  const uint64_t tag = hash & 0xffffffff00000000ULL;
  for (size_t i = Home(hash);; i = Next(i)) {
    const uint64_t s = slots_[i];
    if (s == 0) return kNone;
    if ((s & 0xffffffff00000000ULL) != tag) continue;
    const uint32_t g = static_cast<uint32_t>(s & 0xffffffffULL) - 1;
    if (KeyEquals(g, key)) {
      Record(g)[kFlagsAt] |= kReferenced;
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
    }
    g = records_++;
  }
  uint8_t* r = Record(g);
  std::memset(r, 0, record_bytes_);
  r[kFlagsAt] = static_cast<uint8_t>(flags | kLive);
  if (key.size() <= inline_key_bytes_) {
    r[kKeyLenAt] = static_cast<uint8_t>(key.size());
    std::memcpy(r + kKeyAt, key.data(), key.size());
  } else {
    uint32_t i;
    if (!free_long_keys_.empty()) {
      i = free_long_keys_.back();
      free_long_keys_.pop_back();
      long_key_bytes_ -= long_keys_[i].capacity();
    } else {
      i = static_cast<uint32_t>(long_keys_.size());
      long_keys_.emplace_back();
      long_key_bytes_ += sizeof(std::string);
    }
    long_keys_[i].assign(key.data(), key.size());
    long_key_bytes_ += long_keys_[i].capacity();
    r[kKeyLenAt] = kLongKey;
    std::memcpy(r + kKeyAt, &i, sizeof(i));
  }
  size_t i = Home(hash);
  while (slots_[i] != 0) i = Next(i);
  slots_[i] = Slot(hash, g);
  ++live_;
  return g;
}

void GroupTable::GrowIndex() {
  // By half: a table that fills its budget holds about as many groups as before the growth, and
  // a doubled index would take a large part of the budget from the records at once.
  const size_t capacity = std::max<size_t>(64, slots_.size() + slots_.size() / 2);
  std::vector<uint64_t> old = std::move(slots_);
  slots_.assign(capacity, 0);
  for (uint64_t s : old) {
    if (s == 0) continue;
    size_t i = Home(s);
    while (slots_[i] != 0) i = Next(i);
    slots_[i] = s;
  }
}

void GroupTable::EraseFromIndex(uint32_t g) {
  const uint64_t target = Slot(Hash(key(g)), g);
  size_t i = Home(target);
  while (slots_[i] != target) i = Next(i);
  // Backward shift: a later slot of the same probe run moves into the hole when its home is not
  // between the hole and itself (cyclically).
  size_t hole = i;
  for (size_t j = Next(hole); slots_[j] != 0; j = Next(j)) {
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
  uint8_t* r = Record(g);
  if (r[kKeyLenAt] == kLongKey) {
    // The string keeps its buffer for the next long key.
    const uint32_t i = LongKeyIndex(r);
    long_keys_[i].clear();
    free_long_keys_.push_back(i);
  }
  r[kFlagsAt] = 0;
  free_.push_back(g);
  --live_;
}

void GroupTable::Reset() {
  std::fill(slots_.begin(), slots_.end(), 0);
  records_ = 0;
  free_.clear();
  live_ = 0;
  hand_ = 0;
  // Long keys keep their buffers for the next ones.
  free_long_keys_.clear();
  for (uint32_t i = static_cast<uint32_t>(long_keys_.size()); i > 0; --i) {
    long_keys_[i - 1].clear();
    free_long_keys_.push_back(i - 1);
  }
}

void GroupTable::Clear() {
  chunks_.clear();
  records_ = 0;
  free_.clear();
  live_ = 0;
  long_keys_.clear();
  free_long_keys_.clear();
  long_key_bytes_ = 0;
  slots_.clear();
  hand_ = 0;
}

}  // namespace eddy
