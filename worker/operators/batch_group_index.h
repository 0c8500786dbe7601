// Which groups of a GroupTable one batch has touched, and the index each got on its first touch
// (the aggregate's per-batch list of changed groups, in first-appearance order): a small
// open-addressing map from group to index, cleared per batch, so that a group's record needs no
// field for it. Allocates only while it grows to the largest batch seen. Owned by one operator
// instance (one thread); not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace eddy {

class BatchGroupIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // Forgets every group and makes room for `max_groups` (a batch's rows) without growing.
  void Reset(size_t max_groups) {
    size_t capacity = 64;
    while (capacity < 2 * max_groups) capacity *= 2;
    if (entries_.size() != capacity) {
      entries_.assign(capacity, Entry{});
      shift_ = 64;
      for (size_t c = capacity; c > 1; c /= 2) --shift_;
    } else {
      for (uint32_t s : used_) entries_[s] = Entry{};
    }
    used_.clear();
  }

  // The index of `group`, or kNone; then Set may store one for it.
  uint32_t Find(uint32_t group) {
    size_t s = SlotOf(group);
    while (entries_[s].group_plus_one != 0) {
      if (entries_[s].group_plus_one == group + 1) return entries_[s].index;
      s = (s + 1) & (entries_.size() - 1);
    }
    free_slot_ = s;
    return kNone;
  }
  // After a Find of `group` that returned kNone, with no Set in between.
  void Set(uint32_t group, uint32_t index) {
    entries_[free_slot_] = Entry{group + 1, index};
    used_.push_back(static_cast<uint32_t>(free_slot_));
  }

 private:
  struct Entry {
    uint32_t group_plus_one = 0;  // 0: empty
    uint32_t index = 0;
  };
  size_t SlotOf(uint32_t group) const {
    return static_cast<size_t>((uint64_t{group} * 0x9e3779b97f4a7c15ULL) >> shift_);
  }

  std::vector<Entry> entries_;
  std::vector<uint32_t> used_;
  int shift_ = 64;
  size_t free_slot_ = 0;
};

}  // namespace eddy
