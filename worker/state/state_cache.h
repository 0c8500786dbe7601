// A bounded, write-back cache of one operator instance's state values in front of its state
// store (as streaming engines keep an operator cache over their LSM state store). Hot keys are read
// and updated in memory; a changed value reaches RocksDB when its entry is evicted (CLOCK: an entry
// used since the hand last passed gets a second chance) or on Flush. Owned by one KeyedStateTable
// (one thread); not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"

namespace eddy {

class StateCache {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  // Accounted per entry on top of its key and value bytes (entry, hash slot).
  static constexpr size_t kEntryOverheadBytes = 112;

  struct Entry {
    std::string key;        // full state key
    std::string value;      // valid when present
    bool present = false;   // the key has a value (false: known absent, or deleted)
    bool in_store = false;  // RocksDB may hold a value for the key (a delete must be written back)
    bool dirty = false;     // differs from RocksDB
    bool live = false;      // false: a dropped entry waiting for reuse
    bool referenced = false;  // used since the clock hand last passed
  };

  // What Shrink and Flush hand to the write-back callback for a dirty entry.
  struct WriteBack {
    std::string_view key;
    bool present;            // false: delete the key
    std::string_view value;  // when present
    bool in_store;           // RocksDB may hold a value for the key
  };

  // A cache of at least this many bytes evicts in batches: once over its budget, Shrink goes
  // down to max_bytes - max_bytes / kEvictionBatchDivisor, so that the write-back reaches RocksDB
  // as one large sorted write every so many input batches rather than a few thousand scattered
  // keys per batch (a memtable insert then finds its place next to the previous one).
  static constexpr size_t kBatchedEvictionMinBytes = size_t{16} << 20;
  static constexpr size_t kEvictionBatchDivisor = 16;

  // `max_bytes` bounds keys + values + kEntryOverheadBytes per entry (plus the reserved bytes)
  // after each Shrink; 0 keeps nothing between batches (every change is written back at the next
  // Shrink).
  explicit StateCache(size_t max_bytes) : max_bytes_(max_bytes) {}

  // The entry for `key` (marked as used), or kNone.
  uint32_t Find(std::string_view key);
  // Find for many keys: every probe is issued (prefetched) before the first key is compared and
  // every found entry prefetched before it is marked, so the cache misses of a batch's keys
  // overlap instead of following one another. out[i] is keys[i]'s entry or kNone.
  void FindMany(const std::vector<std::string_view>& keys, std::vector<uint32_t>* out);
  // Adds `key`, which must not be cached. References to entries stay valid across Insert (entries
  // never move).
  uint32_t Insert(std::string_view key, bool present, std::string_view value, bool in_store,
                  bool dirty);
  const Entry& entry(uint32_t e) const { return At(e); }
  void Prefetch(uint32_t e) const { __builtin_prefetch(&At(e), 1); }

  // Changes a cached key's value in memory; it is written back later.
  void Set(uint32_t e, std::string_view value);
  void Remove(uint32_t e);

  // When over max_bytes, evicts entries not used since the clock hand last passed them until
  // within max_bytes (a large cache: a sixteenth below it, see kBatchedEvictionMinBytes), calling
  // write_back(WriteBack) for each dirty one before it is dropped.
  template <typename F>
  void Shrink(F&& write_back);
  // Calls write_back for every dirty entry and marks it clean; keeps all entries cached.
  template <typename F>
  void Flush(F&& write_back);
  // Forgets everything, dirty entries included (the reserved bytes stay).
  void Clear();
  // Memory its owner keeps next to the entries (e.g. a filter), counted in bytes() and the budget.
  void SetReservedBytes(size_t n) {
    bytes_ = bytes_ - reserved_ + n;
    reserved_ = n;
  }

  size_t size() const { return index_.size(); }
  size_t bytes() const { return bytes_; }
  size_t max_bytes() const { return max_bytes_; }
  uint64_t evictions() const { return evictions_; }

 private:
  static size_t Cost(const Entry& e) { return e.key.size() + e.value.size() + kEntryOverheadBytes; }
  static absl::string_view View(std::string_view s) { return {s.data(), s.size()}; }
  void Drop(uint32_t e);

  size_t max_bytes_;
  size_t bytes_ = 0;
  size_t reserved_ = 0;
  uint64_t evictions_ = 0;
  // Entries in chunks of kChunk: addresses stay stable as the cache grows (views into values
  // outlive an Insert), and the chunk table stays small enough to sit in the CPU cache (a
  // std::deque holds seven entries a chunk, one more pointer chase per lookup).
  static constexpr uint32_t kChunk = 4096;
  Entry& At(uint32_t e) { return chunks_[e / kChunk][e % kChunk]; }
  const Entry& At(uint32_t e) const { return chunks_[e / kChunk][e % kChunk]; }
  std::vector<std::unique_ptr<Entry[]>> chunks_;
  uint32_t entries_ = 0;        // entries in use or free
  std::vector<uint32_t> free_;  // dropped entries, reused (with their string buffers)
  // Keys are copied into the index (state keys of up to 15 bytes stay inline in the slot) so that a
  // probe compares without touching the entry, which lives elsewhere. Heterogeneous lookup by
  // absl::string_view (std::string_view would fall back to std::hash with this abseil build).
  absl::flat_hash_map<std::string, uint32_t> index_;
  size_t hand_ = 0;  // the clock hand: next entry Shrink looks at
};

template <typename F>
void StateCache::Shrink(F&& write_back) {
  if (bytes_ <= max_bytes_) return;
  const size_t target = max_bytes_ >= kBatchedEvictionMinBytes
                            ? max_bytes_ - max_bytes_ / kEvictionBatchDivisor
                            : max_bytes_;
  while (bytes_ > target && !index_.empty()) {
    if (hand_ >= entries_) hand_ = 0;
    const uint32_t e = static_cast<uint32_t>(hand_++);
    Entry& x = At(e);
    if (!x.live) continue;
    if (x.referenced) {
      x.referenced = false;
      continue;
    }
    if (x.dirty) write_back(WriteBack{x.key, x.present, x.value, x.in_store});
    Drop(e);
    ++evictions_;
  }
}

template <typename F>
void StateCache::Flush(F&& write_back) {
  for (uint32_t e = 0; e < entries_; ++e) {
    Entry& x = At(e);
    if (!x.live || !x.dirty) continue;
    write_back(WriteBack{x.key, x.present, x.value, x.in_store});
    x.dirty = false;
    x.in_store = x.present;
  }
}

}  // namespace eddy
