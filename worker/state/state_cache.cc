#include "worker/state/state_cache.h"

namespace eddy {

uint32_t StateCache::Find(std::string_view key) {
  auto it = index_.find(key);
  if (it == index_.end()) return kNone;
  const uint32_t e = it->second;
  if (head_ != e) {
    Unlink(e);
    PushFront(e);
  }
  return e;
}

uint32_t StateCache::Insert(std::string_view key, bool present, std::string_view value,
                            bool in_store, bool dirty) {
  uint32_t e;
  if (!free_.empty()) {
    e = free_.back();
    free_.pop_back();
  } else {
    e = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  Entry& x = entries_[e];
  x.key.assign(key);
  if (present) {
    x.value.assign(value);
  } else {
    x.value.clear();
  }
  x.present = present;
  x.in_store = in_store;
  x.dirty = dirty;
  index_.emplace(std::string_view(x.key), e);
  bytes_ += Cost(x);
  PushFront(e);
  return e;
}

void StateCache::Set(uint32_t e, std::string_view value) {
  Entry& x = entries_[e];
  bytes_ -= Cost(x);
  x.value.assign(value);
  x.present = true;
  x.dirty = true;
  bytes_ += Cost(x);
}

void StateCache::Remove(uint32_t e) {
  Entry& x = entries_[e];
  bytes_ -= Cost(x);
  x.value.clear();
  x.present = false;
  // Nothing to delete in RocksDB for a key that never reached it.
  x.dirty = x.in_store;
  bytes_ += Cost(x);
}

void StateCache::Clear() {
  entries_.clear();
  free_.clear();
  index_.clear();
  head_ = tail_ = kNone;
  bytes_ = 0;
}

void StateCache::Unlink(uint32_t e) {
  Entry& x = entries_[e];
  if (x.prev != kNone) {
    entries_[x.prev].next = x.next;
  } else {
    head_ = x.next;
  }
  if (x.next != kNone) {
    entries_[x.next].prev = x.prev;
  } else {
    tail_ = x.prev;
  }
  x.prev = x.next = kNone;
}

void StateCache::PushFront(uint32_t e) {
  Entry& x = entries_[e];
  x.prev = kNone;
  x.next = head_;
  if (head_ != kNone) entries_[head_].prev = e;
  head_ = e;
  if (tail_ == kNone) tail_ = e;
}

void StateCache::Drop(uint32_t e) {
  Entry& x = entries_[e];
  Unlink(e);
  index_.erase(std::string_view(x.key));
  bytes_ -= Cost(x);
  x.dirty = false;
  free_.push_back(e);
}

}  // namespace eddy
