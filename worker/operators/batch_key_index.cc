#include "worker/operators/batch_key_index.h"

#include <algorithm>
#include <bit>

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

namespace eddy {

void BatchKeyIndex::Reset(size_t max_keys) {
  size_ = 0;
  // At most half full: probes stay short.
  const size_t want = std::bit_ceil(std::max<size_t>(16, 2 * max_keys));
  if (want > buckets_.size()) {
    buckets_.assign(want, Bucket{});
    mask_ = want - 1;
    generation_ = 1;
    return;
  }
  if (++generation_ == 0) {  // wrapped: stale stamps could look current
    for (Bucket& b : buckets_) b.generation = 0;
    generation_ = 1;
  }
}

uint64_t BatchKeyIndex::Hash(std::string_view key) {
  return absl::Hash<absl::string_view>{}(absl::string_view(key.data(), key.size()));
}

BatchKeyIndex::Lookup BatchKeyIndex::Find(std::string_view key, uint64_t hash) const {
  Lookup l;
  l.hash = hash;
  for (size_t i = l.hash & mask_;; i = (i + 1) & mask_) {
    const Bucket& b = buckets_[i];
    if (b.generation != generation_) {
      l.bucket = i;
      return l;
    }
    if (b.hash == l.hash && b.key == key) {
      l.found = true;
      l.value = b.value;
      l.bucket = i;
      return l;
    }
  }
}

void BatchKeyIndex::Insert(const Lookup& at, std::string_view stable_key, uint32_t value) {
  Bucket& b = buckets_[at.bucket];
  b.generation = generation_;
  b.value = value;
  b.hash = at.hash;
  b.key = stable_key;
  if (2 * ++size_ > buckets_.size()) Grow();
}

void BatchKeyIndex::Grow() {
  std::vector<Bucket> old = std::move(buckets_);
  const uint32_t current = generation_;
  buckets_.assign(old.size() * 2, Bucket{});
  mask_ = buckets_.size() - 1;
  generation_ = 1;
  for (const Bucket& b : old) {
    if (b.generation != current) continue;
    size_t i = b.hash & mask_;
    while (buckets_[i].generation == generation_) i = (i + 1) & mask_;
    buckets_[i] = b;
    buckets_[i].generation = generation_;
  }
}

}  // namespace eddy
