#include "worker/operators/in_memory_groups.h"

#include <algorithm>
#include <string_view>

namespace eddy {

InMemoryGroups::InMemoryGroups(const KeyEncoder* encoder, AggregateFunctions* functions)
    : encoder_(encoder),
      functions_(functions),
      native_(NativeAggregates::Create(*functions)),
      table_(native_.has_value() ? native_->payload_bytes() : 0),
      keys_(encoder->key_types()) {
  functions_->Reset(&loaded_);
}

void InMemoryGroups::Update(const ChangelogBatch& batch, size_t begin, size_t end) {
  const size_t n = end - begin;
  // 1. Every row's key, encoded and hashed.
  key_arena_.clear();
  key_offsets_.resize(n + 1);
  key_offsets_[0] = 0;
  for (size_t i = 0; i < n; ++i) {
    encoder_->Encode(batch, begin + i, &key_arena_);
    key_offsets_[i + 1] = static_cast<uint32_t>(key_arena_.size());
  }
  auto key = [this](size_t i) {
    return std::string_view(key_arena_)
        .substr(key_offsets_[i], key_offsets_[i + 1] - key_offsets_[i]);
  };
  hashes_.resize(n);
  for (size_t i = 0; i < n; ++i) hashes_[i] = GroupTable::Hash(key(i));

  // 2. Each row's group, new ones added in row order; the index slots of a few rows ahead are
  // fetched while a row probes.
  constexpr size_t kPrefetchRows = 8;
  row_group_.resize(n);
  for (size_t i = 0; i < std::min(n, kPrefetchRows); ++i) table_.PrefetchSlot(hashes_[i]);
  const std::vector<int>& key_columns = encoder_->key_columns();
  for (size_t i = 0; i < n; ++i) {
    if (i + kPrefetchRows < n) table_.PrefetchSlot(hashes_[i + kPrefetchRows]);
    uint32_t g = table_.Find(key(i), hashes_[i]);
    if (g == GroupTable::kNone) {
      g = table_.Insert(key(i), hashes_[i], 0);
      if (!native_.has_value()) {
        // Accumulators of groups forgotten by Reset are reused.
        if (g == groups_.size()) groups_.push_back(std::make_unique<GroupAccumulators>());
        functions_->Reset(groups_[g].get());
      }
      for (size_t k = 0; k < key_columns.size(); ++k) {
        keys_.mutable_column(k).AppendFrom(batch.column(key_columns[k]), begin + i);
      }
      keys_.mutable_kinds().push_back(RowKind::kInsert);
    }
    row_group_[i] = g;
  }

  // 3. The rows folded into their groups, the records of a few rows ahead fetched meanwhile.
  if (native_.has_value()) {
    for (size_t i = 0; i < std::min(n, kPrefetchRows); ++i) table_.PrefetchRecord(row_group_[i]);
    for (size_t i = 0; i < n; ++i) {
      if (i + kPrefetchRows < n) table_.PrefetchRecord(row_group_[i + kPrefetchRows]);
      native_->Update(table_.payload(row_group_[i]), batch, begin + i,
                      IsAccumulate(batch.kind(begin + i)));
    }
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    functions_->Update(groups_[row_group_[i]].get(), batch, begin + i,
                       IsAccumulate(batch.kind(begin + i)));
  }
}

const GroupAccumulators& InMemoryGroups::Load(uint32_t g) {
  if (!native_.has_value()) return *groups_[g];
  native_->Load(table_.payload(g), &loaded_);
  return loaded_;
}

void InMemoryGroups::Reset() {
  table_.Reset();
  keys_.Clear();
}

void InMemoryGroups::Clear() {
  table_.Clear();
  groups_.clear();
  keys_.Clear();
}

}  // namespace eddy
