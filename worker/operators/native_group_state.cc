#include "worker/operators/native_group_state.h"

#include "common/base/status_macros.h"

namespace eddy {

NativeGroupState::NativeGroupState(const AggregateFunctions* functions,
                                   const NativeAggregates* native, KeyedStateBackend* backend,
                                   uint32_t state_id, int max_parallelism, size_t budget_bytes,
                                   size_t inline_key_bytes)
    : functions_(functions),
      native_(native),
      table_(native->payload_bytes(), inline_key_bytes),
      store_(backend, state_id, max_parallelism, budget_bytes >= kSpilledKeyFilterMinBytes),
      budget_bytes_(budget_bytes) {
  functions_->Reset(&scratch_);
}

absl::Status NativeGroupState::Lookup(const std::vector<std::string_view>& keys,
                                      const std::vector<uint64_t>& hashes,
                                      std::vector<uint32_t>* groups) {
  const size_t n = keys.size();
  groups->resize(n);
  missed_.clear();
  store_.ClearReads();
  const uint64_t hits_before = hits_;
  constexpr size_t kPrefetchRows = 8;
  for (size_t r = 0; r < std::min(n, kPrefetchRows); ++r) table_.PrefetchSlot(hashes[r]);
  for (size_t r = 0; r < n; ++r) {
    if (r + kPrefetchRows < n) table_.PrefetchSlot(hashes[r + kPrefetchRows]);
    uint32_t g = table_.Find(keys[r], hashes[r]);
    if (g == GroupTable::kNone) {
      g = table_.Insert(keys[r], hashes[r], GroupTable::kReferenced);
      if (store_.AddRead(keys[r])) missed_.push_back(g);
    } else {
      ++hits_;
    }
    (*groups)[r] = g;
  }
  const uint64_t hits = hits_ - hits_before;
  if (store_.backend() != nullptr) store_.backend()->CountCacheLookups(hits, n - hits);
  if (missed_.empty()) return absl::OkStatus();
  RETURN_IF_ERROR(store_.ReadAll());
  for (size_t m = 0; m < missed_.size(); ++m) {
    if (!store_.found(m)) continue;
    const uint32_t g = missed_[m];
    RETURN_IF_ERROR(functions_->Deserialize(store_.value(m), &scratch_));
    native_->Store(scratch_, table_.payload(g));
    table_.add_flags(g, GroupTable::kExists | GroupTable::kInStore);
  }
  return absl::OkStatus();
}

void NativeGroupState::StageWriteBack(uint32_t g) {
  const uint8_t f = table_.flags(g);
  if ((f & GroupTable::kExists) != 0) {
    native_->Load(table_.payload(g), &scratch_);
    value_buf_.clear();
    functions_->Serialize(scratch_, &value_buf_);
    store_.StagePut(table_.key(g), value_buf_, (f & GroupTable::kInStore) != 0);
  } else if ((f & GroupTable::kInStore) != 0) {
    store_.StageDelete(table_.key(g));
  }
}

absl::Status NativeGroupState::Commit() {
  table_.SetReservedBytes(store_.filter_bytes());
  if (table_.bytes() > budget_bytes_) {
    const size_t target = budget_bytes_ >= kBatchedEvictionMinBytes
                              ? budget_bytes_ - budget_bytes_ / 16
                              : budget_bytes_;
    table_.EvictUntil(target, [this](uint32_t g) {
      if ((table_.flags(g) & GroupTable::kDirty) != 0) StageWriteBack(g);
    });
  }
  return store_.WriteStaged();
}

absl::Status NativeGroupState::Flush() {
  table_.ForEach([this](uint32_t g) {
    const uint8_t f = table_.flags(g);
    if ((f & GroupTable::kDirty) == 0) return;
    StageWriteBack(g);
    table_.clear_flags(g, GroupTable::kDirty | GroupTable::kInStore);
    if ((f & GroupTable::kExists) != 0) table_.add_flags(g, GroupTable::kInStore);
  });
  return store_.WriteStaged();
}

absl::Status NativeGroupState::DropAll() {
  table_.Clear();
  return store_.DropAll();
}

}  // namespace eddy
