// Layout of keyed-state keys (docs/architecture.md, "Keyed state"):
//   key group (2 bytes, big-endian) | state id (4 bytes, big-endian) | encoded group key
// Key group first makes each key group one contiguous range of the store (snapshots, rescaling).
// The state id is the plan's (PlanNode.state_id), fixed by the coordinator; a store belongs to one
// operator subtask, but its keys still say whose they are, so that stores can later be split or
// merged by key group without ambiguity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace eddy {

inline constexpr size_t kStateKeyPrefixSize = 6;
// Flink's upper bound on max parallelism; key groups must fit in the 2-byte prefix.
inline constexpr int kMaxKeyGroups = 32768;

inline void AppendStateKeyPrefix(int key_group, uint32_t state_id, std::string* out) {
  char p[kStateKeyPrefixSize] = {
      static_cast<char>((key_group >> 8) & 0xff), static_cast<char>(key_group & 0xff),
      static_cast<char>(state_id >> 24),          static_cast<char>((state_id >> 16) & 0xff),
      static_cast<char>((state_id >> 8) & 0xff),  static_cast<char>(state_id & 0xff)};
  out->append(p, kStateKeyPrefixSize);
}

inline void AppendStateKey(int key_group, uint32_t state_id, std::string_view group_key,
                           std::string* out) {
  AppendStateKeyPrefix(key_group, state_id, out);
  out->append(group_key.data(), group_key.size());
}

// Accessors for a full state key (at least kStateKeyPrefixSize bytes).
inline int KeyGroupOfStateKey(std::string_view key) {
  return (static_cast<uint8_t>(key[0]) << 8) | static_cast<uint8_t>(key[1]);
}
inline uint32_t StateIdOfStateKey(std::string_view key) {
  return (uint32_t{static_cast<uint8_t>(key[2])} << 24) |
         (uint32_t{static_cast<uint8_t>(key[3])} << 16) |
         (uint32_t{static_cast<uint8_t>(key[4])} << 8) | uint32_t{static_cast<uint8_t>(key[5])};
}
inline std::string_view GroupKeyOfStateKey(std::string_view key) {
  return key.substr(kStateKeyPrefixSize);
}

}  // namespace eddy
