#include "worker/state/state_spill_store.h"

#include <algorithm>
#include <numeric>

#include "common/base/hash.h"
#include "common/base/status_macros.h"
#include "worker/state/state_key.h"

namespace eddy {

StateSpillStore::StateSpillStore(KeyedStateBackend* backend, uint32_t state_id, int max_parallelism,
                                 bool filter_misses)
    : backend_(backend),
      state_id_(state_id),
      max_parallelism_(max_parallelism),
      filter_on_(filter_misses && backend->IsEmpty()) {}

void StateSpillStore::AppendKey(std::string_view group_key, std::string* arena) const {
  const int key_group = group_key.empty() ? 0 : KeyGroupOf(group_key, max_parallelism_);
  AppendStateKey(key_group, state_id_, group_key, arena);
}

void StateSpillStore::ClearReads() {
  read_arena_.clear();
  read_offsets_.assign(1, 0);
}

bool StateSpillStore::AddRead(std::string_view group_key) {
  const size_t start = read_arena_.size();
  AppendKey(group_key, &read_arena_);
  if (filter_on_ &&
      !spilled_.MayContain(SpilledKeyFilter::Hash(std::string_view(read_arena_).substr(start)))) {
    read_arena_.resize(start);
    ++stats_.keys_filtered;
    return false;
  }
  read_offsets_.push_back(static_cast<uint32_t>(read_arena_.size()));
  return true;
}

absl::Status StateSpillStore::ReadAll() {
  const size_t n = read_offsets_.size() - 1;
  if (n == 0) return absl::OkStatus();
  read_keys_.clear();
  for (size_t i = 0; i < n; ++i) {
    read_keys_.emplace_back(read_arena_.data() + read_offsets_[i],
                            read_offsets_[i + 1] - read_offsets_[i]);
  }
  ++stats_.multiget_calls;
  stats_.keys_read += n;
  return backend_->MultiGet(read_keys_, &result_);
}

void StateSpillStore::StagePut(std::string_view group_key, std::string_view value,
                               bool written_before) {
  const size_t start = write_arena_.size();
  AppendKey(group_key, &write_arena_);
  const size_t key_len = write_arena_.size() - start;
  write_arena_.append(value.data(), value.size());
  staged_.push_back(Staged{static_cast<uint32_t>(start), static_cast<uint32_t>(key_len),
                           static_cast<int64_t>(value.size()), written_before});
}

void StateSpillStore::StageDelete(std::string_view group_key) {
  const size_t start = write_arena_.size();
  AppendKey(group_key, &write_arena_);
  staged_.push_back(Staged{static_cast<uint32_t>(start),
                           static_cast<uint32_t>(write_arena_.size() - start), -1, true});
}

absl::Status StateSpillStore::WriteStaged() {
  if (staged_.empty()) return absl::OkStatus();
  const std::string_view arena = write_arena_;
  auto key_of = [&](const Staged& s) { return arena.substr(s.key_offset, s.key_len); };
  // In key order: each insert into RocksDB's memtable skip list then starts from where the
  // previous one ended.
  order_.resize(staged_.size());
  std::iota(order_.begin(), order_.end(), 0u);
  std::sort(order_.begin(), order_.end(),
            [&](uint32_t a, uint32_t b) { return key_of(staged_[a]) < key_of(staged_[b]); });
  for (uint32_t i : order_) {
    const Staged& s = staged_[i];
    const std::string_view key = key_of(s);
    if (s.value_len < 0) {
      writes_.Delete(key);
      continue;
    }
    writes_.Put(key, arena.substr(s.key_offset + s.key_len, static_cast<size_t>(s.value_len)));
    if (filter_on_ && !s.written_before) spilled_.Add(SpilledKeyFilter::Hash(key));
  }
  staged_.clear();
  write_arena_.clear();
  ++stats_.commits;
  stats_.keys_written += writes_.count();
  return backend_->Write(&writes_);
}

absl::Status StateSpillStore::DropAll() {
  staged_.clear();
  write_arena_.clear();
  writes_.Clear();
  spilled_.Clear();
  return backend_->DeleteState(state_id_, max_parallelism_);
}

}  // namespace eddy
