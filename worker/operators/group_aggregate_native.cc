// GroupAggregateOperator::ApplyNative: the per-batch path over native accumulators in a
// NativeGroupState. It emits exactly what Apply emits (row by row, or one change per key when
// folding a mini-batch) and leaves the same state behind.
#include "common/base/status_macros.h"
#include "worker/operators/group_aggregate.h"

namespace eddy {

absl::Status GroupAggregateOperator::ApplyNative(const ChangelogBatch& batch, bool fold) {
  const size_t n = batch.num_rows();
  EncodeKeys(batch);
  row_keys_.resize(n);
  key_hashes_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    row_keys_[r] = RowKey(r);
    key_hashes_[r] = GroupTable::Hash(row_keys_[r]);
  }
  RETURN_IF_ERROR(native_state_->Lookup(row_keys_, key_hashes_, &row_group_));
  GroupTable& table = native_state_->table();
  const NativeAggregates& native = *native_;

  // Rows in input order, as Flink's GroupAggFunction.processElement.
  out_.Clear();
  used_touched_ = 0;
  touched_of_.Reset(n);
  constexpr size_t kPrefetchRows = 8;
  for (size_t r = 0; r < std::min(n, kPrefetchRows); ++r) table.PrefetchRecord(row_group_[r]);
  for (size_t r = 0; r < n; ++r) {
    if (r + kPrefetchRows < n) table.PrefetchRecord(row_group_[r + kPrefetchRows]);
    const uint32_t g = row_group_[r];
    uint8_t* payload = table.payload(g);
    Touched* t;
    const uint32_t touched = touched_of_.Find(g);
    if (touched == BatchGroupIndex::kNone) {
      touched_of_.Set(g, static_cast<uint32_t>(used_touched_));
      if (used_touched_ == touched_.size()) touched_.emplace_back();
      t = &touched_[used_touched_++];
      t->group = g;
      t->first_row = r;
      t->existed = (table.flags(g) & GroupTable::kExists) != 0;
      t->dirty = false;
      if (t->existed) {
        native.Load(payload, &loaded_);
        functions_.GetValues(loaded_, &t->result);
      }
    } else {
      t = &touched_[touched];
    }
    const RowKind kind = batch.kind(r);
    const bool accumulate = IsAccumulate(kind);
    if (!accumulate && spec_.input_insert_only) {
      return absl::InternalError(
          "GroupAggregate was planned for insert-only input but received a retraction");
    }
    const bool first_row = (table.flags(g) & GroupTable::kExists) == 0;
    if (first_row && !accumulate) continue;  // no state to retract from
    native.Update(payload, batch, r, accumulate);
    t->dirty = true;
    table.add_flags(g, GroupTable::kDirty);
    const bool alive = NativeAggregates::RowCount(payload) > 0;
    if (fold) {
      // The change is emitted once per key, below; `result` keeps the value before the batch.
      if (alive) {
        table.add_flags(g, GroupTable::kExists);
      } else {
        native.Clear(payload);
        table.clear_flags(g, GroupTable::kExists);
      }
      continue;
    }
    if (alive) {
      native.Load(payload, &loaded_);
      functions_.GetValues(loaded_, &scratch_);
      if (first_row) {
        EmitRow(batch, r, RowKind::kInsert, scratch_);
      } else if (!AggregateFunctions::Equal(scratch_, t->result)) {
        if (spec_.generate_update_before) EmitRow(batch, r, RowKind::kUpdateBefore, t->result);
        EmitRow(batch, r, RowKind::kUpdateAfter, scratch_);
      }
      std::swap(scratch_, t->result);
      table.add_flags(g, GroupTable::kExists);
    } else {
      if (!first_row) EmitRow(batch, r, RowKind::kDelete, t->result);
      native.Clear(payload);
      table.clear_flags(g, GroupTable::kExists);
    }
  }

  // Mini-batch: one change per key, in first-appearance order.
  for (size_t i = 0; i < used_touched_; ++i) {
    Touched& t = touched_[i];
    if (!fold || !t.dirty) continue;
    const bool alive = (table.flags(t.group) & GroupTable::kExists) != 0;
    if (alive) {
      native.Load(table.payload(t.group), &loaded_);
      functions_.GetValues(loaded_, &scratch_);
    }
    if (t.existed && alive) {
      if (!AggregateFunctions::Equal(scratch_, t.result)) {
        if (spec_.generate_update_before) {
          EmitRow(batch, t.first_row, RowKind::kUpdateBefore, t.result);
        }
        EmitRow(batch, t.first_row, RowKind::kUpdateAfter, scratch_);
      }
    } else if (alive) {
      EmitRow(batch, t.first_row, RowKind::kInsert, scratch_);
    } else if (t.existed) {
      EmitRow(batch, t.first_row, RowKind::kDelete, t.result);
    }
  }

  RETURN_IF_ERROR(native_state_->Commit());
  memory_bytes_.store(native_state_->bytes(), std::memory_order_relaxed);
  return Emit(out_);
}

}  // namespace eddy
