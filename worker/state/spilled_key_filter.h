// A Bloom filter of the state keys one KeyedStateTable has written to its RocksDB store, so that a
// cache miss on a key the store cannot hold (a new group) is answered "absent" without a RocksDB
// lookup (which probes the memtables and the filter of every level). It only ever grows: deletes
// and compactions leave keys in it, which costs a needless lookup, never a wrong answer. It grows
// by adding layers of twice the capacity (a scalable Bloom filter), so no key count is needed up
// front; each layer is a blocked filter (all probes of a key in one 64-byte block: one cache miss).
// Owned by one table (one thread); not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace eddy {

class SpilledKeyFilter {
 public:
  // About 1% false positives per layer at kBitsPerKey.
  static constexpr size_t kBitsPerKey = 10;
  static constexpr size_t kFirstLayerKeys = size_t{1} << 16;

  static uint64_t Hash(std::string_view key);

  void Add(uint64_t hash);
  bool MayContain(uint64_t hash) const;
  void Clear() { layers_.clear(); }

  size_t bytes() const;
  size_t layers() const { return layers_.size(); }

 private:
  struct Layer {
    std::vector<uint64_t> words;  // blocks of 8 words (512 bits)
    size_t capacity = 0;          // keys before the next layer starts
    size_t keys = 0;
  };
  static void Set(Layer& layer, uint64_t hash);
  static bool Test(const Layer& layer, uint64_t hash);

  std::vector<Layer> layers_;
};

}  // namespace eddy
