#include "worker/state/state_cache.h"

namespace eddy {

uint32_t StateCache::Find(std::string_view key) {
  auto it = index_.find(View(key));
  if (it == index_.end()) return kNone;
  At(it->second).referenced = true;
  return it->second;
}

void StateCache::FindMany(const std::vector<std::string_view>& keys, std::vector<uint32_t>* out) {
  out->resize(keys.size());
  for (std::string_view key : keys) index_.prefetch(View(key));
  for (size_t i = 0; i < keys.size(); ++i) {
    auto it = index_.find(View(keys[i]));
    (*out)[i] = it == index_.end() ? kNone : it->second;
    if (it != index_.end()) __builtin_prefetch(&At(it->second), 1);
  }
  for (uint32_t e : *out) {
    if (e != kNone) At(e).referenced = true;
  }
}

uint32_t StateCache::Insert(std::string_view key, bool present, std::string_view value,
                            bool in_store, bool dirty) {
  uint32_t e;
  if (!free_.empty()) {
    e = free_.back();
    free_.pop_back();
  } else {
    e = entries_++;
    if (e % kChunk == 0) chunks_.push_back(std::make_unique<Entry[]>(kChunk));
  }
  Entry& x = At(e);
  x.key.assign(key);
  if (present) {
    x.value.assign(value);
  } else {
    x.value.clear();
  }
  x.present = present;
  x.in_store = in_store;
  x.dirty = dirty;
  x.live = true;
  // A new entry waits one full turn of the hand before it can go.
  x.referenced = true;
  index_.emplace(x.key, e);
  bytes_ += Cost(x);
  return e;
}

void StateCache::Set(uint32_t e, std::string_view value) {
  Entry& x = At(e);
  bytes_ -= Cost(x);
  x.value.assign(value);
  x.present = true;
  x.dirty = true;
  bytes_ += Cost(x);
}

void StateCache::Remove(uint32_t e) {
  Entry& x = At(e);
  bytes_ -= Cost(x);
  x.value.clear();
  x.present = false;
  // Nothing to delete in RocksDB for a key that never reached it.
  x.dirty = x.in_store;
  bytes_ += Cost(x);
}

void StateCache::Clear() {
  chunks_.clear();
  entries_ = 0;
  free_.clear();
  index_.clear();
  hand_ = 0;
  bytes_ = reserved_;
}

void StateCache::Drop(uint32_t e) {
  Entry& x = At(e);
  index_.erase(View(x.key));
  bytes_ -= Cost(x);
  x.live = false;
  x.dirty = false;
  free_.push_back(e);
}

}  // namespace eddy
