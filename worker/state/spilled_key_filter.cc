#include "worker/state/spilled_key_filter.h"

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

namespace eddy {
namespace {

constexpr size_t kWordsPerBlock = 8;  // 512 bits, one cache line
constexpr int kProbes = 7;

// The block of `hash` among `blocks`, from its high 32 bits (multiply-shift, no division).
size_t BlockOf(uint64_t hash, size_t blocks) {
  return static_cast<size_t>(((hash >> 32) * static_cast<uint64_t>(blocks)) >> 32);
}

// The bits within the block come from a remix of the hash, so they do not repeat the block's bits.
uint64_t ProbeBits(uint64_t hash) { return hash * 0x9e3779b97f4a7c15ULL; }

}  // namespace

uint64_t SpilledKeyFilter::Hash(std::string_view key) {
  return absl::Hash<absl::string_view>{}(absl::string_view(key.data(), key.size()));
}

void SpilledKeyFilter::Set(Layer& layer, uint64_t hash) {
  uint64_t* block =
      &layer.words[BlockOf(hash, layer.words.size() / kWordsPerBlock) * kWordsPerBlock];
  uint64_t bits = ProbeBits(hash);
  for (int i = 0; i < kProbes; ++i, bits >>= 9) {
    const unsigned bit = static_cast<unsigned>(bits & 511);
    block[bit >> 6] |= uint64_t{1} << (bit & 63);
  }
}

bool SpilledKeyFilter::Test(const Layer& layer, uint64_t hash) {
  const uint64_t* block =
      &layer.words[BlockOf(hash, layer.words.size() / kWordsPerBlock) * kWordsPerBlock];
  uint64_t bits = ProbeBits(hash);
  for (int i = 0; i < kProbes; ++i, bits >>= 9) {
    const unsigned bit = static_cast<unsigned>(bits & 511);
    if ((block[bit >> 6] & (uint64_t{1} << (bit & 63))) == 0) return false;
  }
  return true;
}

void SpilledKeyFilter::Add(uint64_t hash) {
  if (layers_.empty() || layers_.back().keys >= layers_.back().capacity) {
    Layer layer;
    layer.capacity = layers_.empty() ? kFirstLayerKeys : 2 * layers_.back().capacity;
    const size_t blocks = (layer.capacity * kBitsPerKey + 511) / 512;
    layer.words.assign(blocks * kWordsPerBlock, 0);
    layers_.push_back(std::move(layer));
  }
  Set(layers_.back(), hash);
  ++layers_.back().keys;
}

bool SpilledKeyFilter::MayContain(uint64_t hash) const {
  // The newest layer first: it is the largest, and the most recent spills are the likeliest reads.
  for (auto it = layers_.rbegin(); it != layers_.rend(); ++it) {
    if (Test(*it, hash)) return true;
  }
  return false;
}

size_t SpilledKeyFilter::bytes() const {
  size_t n = 0;
  for (const Layer& l : layers_) n += l.words.size() * sizeof(uint64_t);
  return n;
}

}  // namespace eddy
