#include "worker/state/keyed_state_table.h"

#include "worker/state/state_key.h"

namespace eddy {

KeyedStateTable::KeyedStateTable(KeyedStateBackend* backend, uint32_t operator_id,
                                 int max_parallelism)
    : backend_(backend), operator_id_(operator_id), max_parallelism_(max_parallelism) {}

void KeyedStateTable::ClearReads() {
  read_arena_.clear();
  read_offsets_.assign(1, 0);
  read_keys_.clear();
}

size_t KeyedStateTable::AddRead(int key_group, std::string_view group_key) {
  AppendStateKey(key_group, operator_id_, group_key, &read_arena_);
  read_offsets_.push_back(static_cast<uint32_t>(read_arena_.size()));
  return read_offsets_.size() - 2;
}

absl::Status KeyedStateTable::ReadAll() {
  const size_t n = read_offsets_.size() - 1;
  read_keys_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    read_keys_[i] = std::string_view(read_arena_.data() + read_offsets_[i],
                                     read_offsets_[i + 1] - read_offsets_[i]);
  }
  ++stats_.multiget_calls;
  stats_.keys_read += n;
  return backend_->MultiGet(read_keys_, &result_);
}

void KeyedStateTable::Put(int key_group, std::string_view group_key, std::string_view value) {
  write_key_.clear();
  AppendStateKey(key_group, operator_id_, group_key, &write_key_);
  writes_.Put(write_key_, value);
}

void KeyedStateTable::Delete(int key_group, std::string_view group_key) {
  write_key_.clear();
  AppendStateKey(key_group, operator_id_, group_key, &write_key_);
  writes_.Delete(write_key_);
}

absl::Status KeyedStateTable::Commit() {
  if (writes_.count() == 0) return absl::OkStatus();
  ++stats_.commits;
  stats_.keys_written += writes_.count();
  return backend_->Write(&writes_);
}

absl::Status KeyedStateTable::DropAll() {
  writes_.Clear();
  return backend_->DeleteOperatorState(operator_id_, max_parallelism_);
}

}  // namespace eddy
