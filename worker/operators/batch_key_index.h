// The distinct keys of one input batch (or mini-batch) and their slot numbers: an open-addressing
// hash table that forgets the previous batch in O(1) (a generation stamp per bucket), so it
// allocates only while it grows to the largest batch seen, never per batch or per row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace eddy {

class BatchKeyIndex {
 public:
  struct Lookup {
    bool found = false;
    uint32_t value = 0;  // when found
    size_t bucket = 0;   // where the key is, or where to insert it
    uint64_t hash = 0;
  };

  // Forgets all keys and makes room for `max_keys` new ones without growing (more still fit: the
  // table doubles when half full).
  void Reset(size_t max_keys);
  Lookup Find(std::string_view key) const { return Find(key, Hash(key)); }
  // The same with the key's Hash, computed ahead (a batch hashes its keys first, then prefetches
  // each key's bucket a few rows before its Find: the table of a 4096-row batch is larger than
  // the CPU's fastest caches, and waiting for its buckets was a tenth of an aggregate's time).
  Lookup Find(std::string_view key, uint64_t hash) const;
  static uint64_t Hash(std::string_view key);
  void Prefetch(uint64_t hash) const { __builtin_prefetch(&buckets_[hash & mask_]); }
  // After a Find that did not find `key`, with no insert in between: stores `value` for it.
  // `stable_key` (equal to the key looked up) must stay valid until the next Reset.
  void Insert(const Lookup& at, std::string_view stable_key, uint32_t value);
  size_t size() const { return size_; }

 private:
  void Grow();

  struct Bucket {
    uint32_t generation = 0;  // the bucket is in use when equal to generation_
    uint32_t value = 0;
    uint64_t hash = 0;
    std::string_view key;
  };
  std::vector<Bucket> buckets_;
  size_t mask_ = 0;
  uint32_t generation_ = 0;
  size_t size_ = 0;  // keys of the current generation
};

}  // namespace eddy
