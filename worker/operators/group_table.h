// The in-memory table of a keyed aggregate's groups: an open-addressing hash index over encoded
// group keys, pointing into fixed-size records that hold each group's flags, its key (inline when
// short) and its accumulators in native form (a payload whose layout the aggregate defines). It is
// the authority for the groups it holds; the aggregate spills records to RocksDB when the table
// outgrows its budget (CLOCK: a record used since the hand last passed gets a second chance) and
// reads spilled groups back on a miss. Records never move, so a group's index stays valid until it
// is evicted, and eviction happens only when the owner asks (between batches). Owned by one
// operator instance (one thread); not thread-safe.
//
// Memory per group: a record of 2 + inline key bytes + payload bytes, with no padding (payloads
// are read and written with memcpy), plus its index slot (8 bytes at a load of 1/2 to 3/4: the
// index grows by half, not by doubling, so a table at its budget does not jump by a power of two).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace eddy {

class GroupTable {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  // Room for the key in each record when the owner does not say (two BIGINT keys fit); longer
  // keys live in a string of their own, the record holding its index.
  static constexpr size_t kDefaultInlineKeyBytes = 18;
  static constexpr size_t kMinInlineKeyBytes = 4;
  static constexpr size_t kMaxInlineKeyBytes = 64;

  // Record flags.
  static constexpr uint8_t kLive = 1;         // in use (else free, waiting for reuse)
  static constexpr uint8_t kExists = 2;       // the group is alive (its payload is meaningful)
  static constexpr uint8_t kInStore = 4;      // RocksDB may hold a value for the key
  static constexpr uint8_t kDirty = 8;        // differs from what RocksDB holds
  static constexpr uint8_t kReferenced = 16;  // used since the clock hand last passed

  // `payload_bytes` per record; keys up to `inline_key_bytes` (clamped to kMinInlineKeyBytes ..
  // kMaxInlineKeyBytes) inline.
  explicit GroupTable(size_t payload_bytes, size_t inline_key_bytes = kDefaultInlineKeyBytes);

  static uint64_t Hash(std::string_view key);
  // Fetches the index slots where `hash`'s key would be into the CPU cache.
  void PrefetchSlot(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[Home(hash)]);
  }
  void PrefetchRecord(uint32_t g) const { __builtin_prefetch(Record(g)); }

  // The group of `key` (marked referenced), or kNone.
  uint32_t Find(std::string_view key, uint64_t hash);
  // Adds `key`, which must not be in the table, with the given flags (kLive is added) and a
  // zeroed payload. Grows the index when needed; never moves records.
  uint32_t Insert(std::string_view key, uint64_t hash, uint8_t flags);

  uint8_t* payload(uint32_t g) { return Record(g) + payload_offset_; }
  const uint8_t* payload(uint32_t g) const { return Record(g) + payload_offset_; }
  uint8_t flags(uint32_t g) const { return Record(g)[kFlagsAt]; }
  void set_flags(uint32_t g, uint8_t f) { Record(g)[kFlagsAt] = f; }
  void add_flags(uint32_t g, uint8_t f) { Record(g)[kFlagsAt] |= f; }
  void clear_flags(uint32_t g, uint8_t f) { Record(g)[kFlagsAt] &= static_cast<uint8_t>(~f); }
  std::string_view key(uint32_t g) const;

  // Groups in the table, and the bytes they take: records, index and long keys (plus the
  // reserved bytes).
  size_t size() const { return live_; }
  size_t bytes() const {
    return live_ * record_bytes_ + slots_.size() * sizeof(uint64_t) + long_key_bytes_ + reserved_;
  }
  size_t record_bytes() const { return record_bytes_; }
  size_t inline_key_bytes() const { return inline_key_bytes_; }
  // Memory the owner keeps next to the table (e.g. a filter), counted in bytes().
  void SetReservedBytes(size_t n) { reserved_ = n; }
  uint64_t evictions() const { return evictions_; }

  // While bytes() > target and groups are left, evicts records not referenced since the clock hand
  // last passed them, calling on_evict(g) before each one is freed (the record is still readable in
  // the call).
  template <typename F>
  void EvictUntil(size_t target, F&& on_evict);
  // Calls f(g) for every live record.
  template <typename F>
  void ForEach(F&& f);
  // Forgets every group and frees the memory.
  void Clear();
  // Forgets every group but keeps the memory for the next ones (a per-mini-batch table): groups
  // inserted after a Reset get the indices 0, 1, 2, ... in insertion order.
  void Reset();

 private:
  // Record layout: flags (1 byte), key length (1 byte; kLongKey: the key is long_keys_[index], the
  // index in the key's first 4 bytes), the key, the payload.
  static constexpr size_t kFlagsAt = 0;
  static constexpr size_t kKeyLenAt = 1;
  static constexpr size_t kKeyAt = 2;
  static constexpr uint8_t kLongKey = 255;
  // Records in chunks of kChunk: addresses stay stable as the table grows.
  static constexpr uint32_t kChunk = 4096;
  // Index slots: the hash's upper 32 bits (which also choose the home slot, so that a slot alone
  // tells where its probe started) and group + 1 (0: empty). Linear probing, at most 3/4 full;
  // erasing shifts the following slots back instead of leaving tombstones. Any number of slots:
  // the home slot is the upper 32 bits scaled to the slot count (multiply and shift).
  static uint64_t Slot(uint64_t hash, uint32_t g) {
    return (hash & 0xffffffff00000000ULL) | (uint64_t{g} + 1);
  }
  size_t Home(uint64_t hash_or_slot) const {
    return static_cast<size_t>(((hash_or_slot >> 32) * static_cast<uint64_t>(slots_.size())) >> 32);
  }
  size_t Next(size_t i) const { return i + 1 == slots_.size() ? 0 : i + 1; }

  uint8_t* Record(uint32_t g) const {
    return chunks_[g / kChunk].get() + (g % kChunk) * record_bytes_;
  }
  uint32_t LongKeyIndex(const uint8_t* r) const {
    uint32_t i;
    std::memcpy(&i, r + kKeyAt, sizeof(i));
    return i;
  }
  bool KeyEquals(uint32_t g, std::string_view key) const;
  void GrowIndex();
  void EraseFromIndex(uint32_t g);
  void Free(uint32_t g);

  size_t inline_key_bytes_;
  size_t payload_offset_;
  size_t record_bytes_;
  std::vector<std::unique_ptr<uint8_t[]>> chunks_;
  uint32_t records_ = 0;  // records in use or free
  std::vector<uint32_t> free_;
  size_t live_ = 0;
  // Keys longer than the inline room, with the indices free for reuse; long_key_bytes_ counts
  // their strings (object and buffer).
  std::vector<std::string> long_keys_;
  std::vector<uint32_t> free_long_keys_;
  size_t long_key_bytes_ = 0;
  size_t reserved_ = 0;
  std::vector<uint64_t> slots_;
  size_t hand_ = 0;
  uint64_t evictions_ = 0;
};

template <typename F>
void GroupTable::EvictUntil(size_t target, F&& on_evict) {
  // Ends: a full pass clears every reference bit, so the next one evicts.
  while (bytes() > target && live_ > 0) {
    if (hand_ >= records_) hand_ = 0;
    const uint32_t g = static_cast<uint32_t>(hand_++);
    uint8_t& f = Record(g)[kFlagsAt];
    if ((f & kLive) == 0) continue;
    if ((f & kReferenced) != 0) {
      f &= static_cast<uint8_t>(~kReferenced);
      continue;
    }
    on_evict(g);
    Free(g);
    ++evictions_;
  }
}

template <typename F>
void GroupTable::ForEach(F&& f) {
  for (uint32_t g = 0; g < records_; ++g) {
    if ((Record(g)[kFlagsAt] & kLive) != 0) f(g);
  }
}

}  // namespace eddy
