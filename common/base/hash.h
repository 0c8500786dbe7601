// Stable 64-bit hashing for partitioning and key groups. Unlike absl::Hash, the result is the same
// in every process and build, which hash shuffles between workers require.
#pragma once

#include <cstdint>
#include <string_view>

namespace eddy {

// Murmur3's 64-bit finalizer: spreads the bits of an integer.
inline uint64_t MixHash64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

// FNV-1a over the bytes, then mixed.
inline uint64_t StableHash(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return MixHash64(h);
}

// Key groups of every job (Flink's max parallelism): keyed state is partitioned into this many
// groups, so a job runs at most this many subtasks of a keyed operator, and a restore at another
// parallelism hands whole key groups to the new subtasks. Defined here alone.
inline constexpr int kMaxParallelism = 128;

// Flink's assignment: key group = hash % max_parallelism; subtask = key_group * parallelism /
// max_p.
inline int KeyGroupOf(std::string_view encoded_key, int max_parallelism) {
  return static_cast<int>(StableHash(encoded_key) % static_cast<uint64_t>(max_parallelism));
}

inline int SubtaskOfKeyGroup(int key_group, int parallelism, int max_parallelism) {
  return key_group * parallelism / max_parallelism;
}

}  // namespace eddy
