#include "worker/state/keyed_state_table.h"

#include <algorithm>

#include "common/base/status_macros.h"
#include "worker/state/state_key.h"

namespace eddy {

KeyedStateTable::KeyedStateTable(KeyedStateBackend* backend, uint32_t state_id, int max_parallelism,
                                 size_t cache_bytes, int64_t ttl_ms)
    : backend_(backend),
      state_id_(state_id),
      max_parallelism_(max_parallelism),
      cache_(cache_bytes),
      ttl_ms_(ttl_ms > 0 ? ttl_ms : 0),
      filter_on_(cache_bytes >= kSpilledKeyFilterMinCacheBytes && backend->IsEmpty()) {
  if (ttl_ms_ > 0) {
    backend_->RegisterStateTtl(state_id_, ttl_ms_);
    now_ms_ = backend_->NowMs();
  }
}

KeyedStateTable::~KeyedStateTable() {
  if (ttl_ms_ > 0) backend_->UnregisterStateTtl(state_id_);
}

std::string_view KeyedStateTable::Stamped(std::string_view value) {
  if (ttl_ms_ <= 0) return value;
  stamped_.clear();
  AppendTtlTimestamp(now_ms_, &stamped_);
  stamped_.append(value.data(), value.size());
  return stamped_;
}

void KeyedStateTable::ClearReads() {
  read_arena_.clear();
  read_offsets_.assign(1, 0);
  read_entries_.clear();
}

size_t KeyedStateTable::AddRead(int key_group, std::string_view group_key) {
  AppendStateKey(key_group, state_id_, group_key, &read_arena_);
  read_offsets_.push_back(static_cast<uint32_t>(read_arena_.size()));
  return read_offsets_.size() - 2;
}

absl::Status KeyedStateTable::ReadAll() {
  if (ttl_ms_ > 0) now_ms_ = backend_->NowMs();
  const size_t n = read_offsets_.size() - 1;
  miss_keys_.clear();
  miss_reads_.clear();
  read_keys_.clear();
  for (size_t i = 0; i < n; ++i) {
    read_keys_.emplace_back(read_arena_.data() + read_offsets_[i],
                            read_offsets_[i + 1] - read_offsets_[i]);
  }
  cache_.FindMany(read_keys_, &read_entries_);
  const uint64_t hits_before = stats_.cache_hits;
  for (size_t i = 0; i < n; ++i) {
    if (read_entries_[i] != StateCache::kNone) {
      ++stats_.cache_hits;
    } else if (filter_on_ && !spilled_.MayContain(SpilledKeyFilter::Hash(read_keys_[i]))) {
      // Never written to RocksDB by this table, which started on an empty store: absent. (A key
      // read twice in one batch is cached by its first read.)
      ++stats_.keys_filtered;
      uint32_t e = cache_.Find(read_keys_[i]);
      if (e == StateCache::kNone) {
        e = cache_.Insert(read_keys_[i], false, {}, /*in_store=*/false, /*dirty=*/false);
      }
      read_entries_[i] = e;
    } else {
      miss_keys_.push_back(read_keys_[i]);
      miss_reads_.push_back(static_cast<uint32_t>(i));
    }
  }
  const uint64_t hits = stats_.cache_hits - hits_before;
  backend_->CountCacheLookups(hits, n - hits);
  if (miss_keys_.empty()) return absl::OkStatus();
  ++stats_.multiget_calls;
  stats_.keys_read += miss_keys_.size();
  RETURN_IF_ERROR(backend_->MultiGet(miss_keys_, &result_));
  for (size_t m = 0; m < miss_keys_.size(); ++m) {
    // A key read twice in one batch missed twice; the first miss cached it.
    uint32_t e = cache_.Find(miss_keys_[m]);
    if (e == StateCache::kNone) {
      const bool found = result_.found(m);
      e = cache_.Insert(miss_keys_[m], found, result_.value(m), found, /*dirty=*/false);
    }
    read_entries_[miss_reads_[m]] = e;
  }
  return absl::OkStatus();
}

uint32_t KeyedStateTable::EntryFor(std::string_view state_key) {
  uint32_t e = cache_.Find(state_key);
  if (e != StateCache::kNone) return e;
  // A write without a read: whether RocksDB holds the key is unknown, so a later delete is
  // written back.
  return cache_.Insert(state_key, false, {}, /*in_store=*/true, /*dirty=*/false);
}

void KeyedStateTable::Put(int key_group, std::string_view group_key, std::string_view value) {
  write_key_.clear();
  AppendStateKey(key_group, state_id_, group_key, &write_key_);
  if (ttl_ms_ > 0) now_ms_ = backend_->NowMs();
  const uint32_t e = EntryFor(write_key_);
  cache_.Set(e, Stamped(value));
}

void KeyedStateTable::Delete(int key_group, std::string_view group_key) {
  write_key_.clear();
  AppendStateKey(key_group, state_id_, group_key, &write_key_);
  cache_.Remove(EntryFor(write_key_));
}

void KeyedStateTable::Stage(const StateCache::WriteBack& w) {
  if (w.present && ttl_ms_ > 0 && TtlExpired(w.value, ttl_ms_, now_ms_)) {
    // Expired while cached: RocksDB need not see it (only a delete of what it may hold).
    if (w.in_store) writes_.Delete(w.key);
    return;
  }
  if (w.present) {
    writes_.Put(w.key, w.value);
    if (filter_on_) spilled_.Add(SpilledKeyFilter::Hash(w.key));
  } else {
    writes_.Delete(w.key);
  }
}

absl::Status KeyedStateTable::WriteStaged() {
  // In key order: each insert into RocksDB's memtable skip list can then start from where the
  // previous one ended instead of from the top (the skip list's search was among the largest costs
  // of a 10M-key aggregate; what sorting saved was within this machine's run-to-run noise).
  std::sort(
      write_backs_.begin(), write_backs_.end(),
      [](const StateCache::WriteBack& a, const StateCache::WriteBack& b) { return a.key < b.key; });
  for (const StateCache::WriteBack& w : write_backs_) Stage(w);
  write_backs_.clear();
  if (filter_on_) cache_.SetReservedBytes(spilled_.bytes());
  if (writes_.count() == 0) return absl::OkStatus();
  ++stats_.commits;
  stats_.keys_written += writes_.count();
  return backend_->Write(&writes_);
}

absl::Status KeyedStateTable::Commit() {
  if (ttl_ms_ > 0) now_ms_ = backend_->NowMs();
  // The views stay valid until the next Insert into the cache: dropped entries keep their bytes.
  cache_.Shrink([this](const StateCache::WriteBack& w) { write_backs_.push_back(w); });
  return WriteStaged();
}

absl::Status KeyedStateTable::Flush() {
  if (ttl_ms_ > 0) now_ms_ = backend_->NowMs();
  cache_.Flush([this](const StateCache::WriteBack& w) { write_backs_.push_back(w); });
  return WriteStaged();
}

absl::Status KeyedStateTable::DropAll() {
  cache_.Clear();
  writes_.Clear();
  spilled_.Clear();
  cache_.SetReservedBytes(0);
  return backend_->DeleteState(state_id_, max_parallelism_);
}

}  // namespace eddy
