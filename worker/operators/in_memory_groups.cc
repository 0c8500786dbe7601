#include "worker/operators/in_memory_groups.h"

namespace eddy {

InMemoryGroups::InMemoryGroups(const KeyEncoder* encoder, AggregateFunctions* functions)
    : encoder_(encoder),
      functions_(functions),
      native_(NativeAggregates::Create(*functions)),
      table_(native_.has_value() ? native_->payload_bytes() : 0),
      keys_(encoder->key_types()) {
  functions_->Reset(&loaded_);
}

void InMemoryGroups::Update(const ChangelogBatch& batch, size_t r, bool accumulate) {
  key_buf_.clear();
  encoder_->Encode(batch, r, &key_buf_);
  const uint64_t hash = GroupTable::Hash(key_buf_);
  uint32_t g = table_.Find(key_buf_, hash);
  if (g == GroupTable::kNone) {
    g = table_.Insert(key_buf_, hash, 0);
    if (!native_.has_value()) {
      // Accumulators of groups forgotten by Reset are reused.
      if (g == groups_.size()) groups_.push_back(std::make_unique<GroupAccumulators>());
      functions_->Reset(groups_[g].get());
    }
    const std::vector<int>& key_columns = encoder_->key_columns();
    for (size_t k = 0; k < key_columns.size(); ++k) {
      keys_.mutable_column(k).AppendFrom(batch.column(key_columns[k]), r);
    }
    keys_.mutable_kinds().push_back(RowKind::kInsert);
  }
  if (native_.has_value()) {
    native_->Update(table_.payload(g), batch, r, accumulate);
  } else {
    functions_->Update(groups_[g].get(), batch, r, accumulate);
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
