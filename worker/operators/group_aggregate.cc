#include "worker/operators/group_aggregate.h"

#include <algorithm>
#include <utility>

#include "common/base/hash.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<GroupAggregateOperator>> GroupAggregateOperator::Create(
    GroupAggregateSpec spec) {
  ASSIGN_OR_RETURN(KeyEncoder encoder, KeyEncoder::Create(spec.input_types, spec.group_keys));
  absl::StatusOr<AggregateFunctions> created =
      spec.merge_partials
          ? AggregateFunctions::CreateMerging(spec.aggregates, spec.input_types,
                                              !spec.input_insert_only,
                                              spec.partial_row_count_column)
          : AggregateFunctions::Create(spec.aggregates, spec.input_types, !spec.input_insert_only);
  ASSIGN_OR_RETURN(AggregateFunctions functions, std::move(created));
  return std::unique_ptr<GroupAggregateOperator>(
      new GroupAggregateOperator(std::move(spec), std::move(encoder), std::move(functions)));
}

GroupAggregateOperator::GroupAggregateOperator(GroupAggregateSpec spec, KeyEncoder encoder,
                                               AggregateFunctions functions)
    : spec_(std::move(spec)), encoder_(std::move(encoder)), functions_(std::move(functions)) {
  output_types_ = encoder_.key_types();
  for (const AggregateCall& c : spec_.aggregates) output_types_.push_back(c.result_type);
  out_ = ChangelogBatch(output_types_);
  pending_ = ChangelogBatch(spec_.input_types);
  if (spec_.allow_native_state && spec_.state_ttl_ms <= 0 && !spec_.merge_partials) {
    native_ = NativeAggregates::Create(functions_);
    if (native_.has_value()) functions_.Reset(&loaded_);
  }
}

absl::Status GroupAggregateOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr) {
    return absl::FailedPreconditionError("GroupAggregate needs a keyed state backend");
  }
  if (ctx.max_parallelism <= 0 || ctx.max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("GroupAggregate: max_parallelism out of range");
  }
  max_parallelism_ = ctx.max_parallelism;
  state_id_ = ctx.state_id;
  if (native_.has_value()) {
    // Fixed-width keys (e.g. one BIGINT: 9 bytes) take exactly their room in each record.
    const size_t fixed = encoder_.MaxFixedBytes();
    native_state_ = std::make_unique<NativeGroupState>(
        &functions_, &*native_, ctx.state, ctx.state_id, ctx.max_parallelism, ctx.state_cache_bytes,
        fixed > 0 ? fixed : GroupTable::kDefaultInlineKeyBytes);
    return absl::OkStatus();
  }
  table_ = std::make_unique<KeyedStateTable>(ctx.state, ctx.state_id, ctx.max_parallelism,
                                             ctx.state_cache_bytes, spec_.state_ttl_ms);
  return absl::OkStatus();
}

GroupAggregateOperator::Slot* GroupAggregateOperator::AcquireSlot() {
  if (used_slots_ == slots_.size()) slots_.push_back(std::make_unique<Slot>());
  return slots_[used_slots_++].get();
}

void GroupAggregateOperator::EmitRow(const ChangelogBatch& in, size_t row, RowKind kind,
                                     const std::vector<AggValue>& values) {
  // The group key values are those of the input row that produced this change.
  const std::vector<int>& keys = encoder_.key_columns();
  for (size_t k = 0; k < keys.size(); ++k)
    out_.mutable_column(k).AppendFrom(in.column(keys[k]), row);
  for (size_t i = 0; i < values.size(); ++i) {
    functions_.AppendValue(i, values[i], &out_.mutable_column(keys.size() + i));
  }
  out_.mutable_kinds().push_back(kind);
}

absl::Status GroupAggregateOperator::Process(int input, const ChangelogBatch& batch) {
  if (table_ == nullptr && native_state_ == nullptr)
    return absl::FailedPreconditionError("GroupAggregate: Process before Open");
  CountIn(batch);
  if (batch.num_rows() == 0) return absl::OkStatus();
  // A global aggregate folds each arriving batch of partials at once: the local aggregates already
  // waited for their mini-batches (Flink's global flushes on the marker that follows them).
  if (spec_.merge_partials) return Apply(batch, /*fold=*/true);
  if (spec_.mini_batch_size <= 0) return Apply(batch, /*fold=*/false);
  // A mini-batch holds `size` rows at most, as Flink counts them, whatever the input batches.
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (pending_.num_rows() == 0) pending_since_ = std::chrono::steady_clock::now();
    pending_.AppendRow(batch, r, batch.kind(r));
    if (pending_.num_rows() >= static_cast<size_t>(spec_.mini_batch_size)) {
      RETURN_IF_ERROR(FlushMiniBatch());
    }
  }
  return absl::OkStatus();
}

absl::Status GroupAggregateOperator::OnTick(std::chrono::steady_clock::time_point now) {
  if (pending_.num_rows() == 0) return absl::OkStatus();
  if (now - pending_since_ < std::chrono::milliseconds(spec_.mini_batch_latency_ms)) {
    return absl::OkStatus();
  }
  return FlushMiniBatch();
}

absl::Status GroupAggregateOperator::Finish() {
  if ((table_ == nullptr && native_state_ == nullptr) || pending_.num_rows() == 0)
    return absl::OkStatus();
  return FlushMiniBatch();
}

absl::Status GroupAggregateOperator::FlushMiniBatch() {
  absl::Status s = Apply(pending_, /*fold=*/true);
  pending_.Clear();
  return s;
}

void GroupAggregateOperator::EncodeKeys(const ChangelogBatch& batch) {
  const size_t n = batch.num_rows();
  key_arena_.clear();
  key_offsets_.resize(n + 1);
  key_offsets_[0] = 0;
  for (size_t r = 0; r < n; ++r) {
    encoder_.Encode(batch, r, &key_arena_);
    key_offsets_[r + 1] = static_cast<uint32_t>(key_arena_.size());
  }
}

absl::Status GroupAggregateOperator::Apply(const ChangelogBatch& batch, bool fold) {
  if (native_state_ != nullptr) return ApplyNative(batch, fold);
  const size_t n = batch.num_rows();

  // 1. Distinct keys of the batch, in first-appearance order.
  used_slots_ = 0;
  slot_of_key_.Reset(n);
  row_slot_.resize(n);
  // Every row's key encoded and hashed first, so that the probes below can prefetch.
  EncodeKeys(batch);
  key_hashes_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    key_hashes_[r] = BatchKeyIndex::Hash(RowKey(r));
  }
  constexpr size_t kPrefetchRows = 8;
  for (size_t r = 0; r < std::min(n, kPrefetchRows); ++r) slot_of_key_.Prefetch(key_hashes_[r]);
  for (size_t r = 0; r < n; ++r) {
    if (r + kPrefetchRows < n) slot_of_key_.Prefetch(key_hashes_[r + kPrefetchRows]);
    const std::string_view key = RowKey(r);
    BatchKeyIndex::Lookup found = slot_of_key_.Find(key, key_hashes_[r]);
    if (found.found) {
      row_slot_[r] = found.value;
      continue;
    }
    uint32_t index = static_cast<uint32_t>(used_slots_);
    Slot* s = AcquireSlot();
    s->key.assign(key);
    s->key_group = s->key.empty() ? 0 : KeyGroupOf(s->key, max_parallelism_);
    s->dirty = false;
    s->first_row = r;
    slot_of_key_.Insert(found, s->key, index);
    row_slot_[r] = index;
  }

  // 2. One MultiGet for all of them.
  table_->ClearReads();
  for (size_t i = 0; i < used_slots_; ++i) table_->AddRead(slots_[i]->key_group, slots_[i]->key);
  RETURN_IF_ERROR(table_->ReadAll());
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->in_state = table_->found(i);
    s->exists = s->in_state;
    if (s->in_state) {
      RETURN_IF_ERROR(functions_.Deserialize(table_->value(i), &s->acc));
      functions_.GetValues(s->acc, &s->result);
    } else {
      functions_.Reset(&s->acc);
    }
  }

  // 3. Rows in input order, as Flink's GroupAggFunction.processElement.
  out_.Clear();
  for (size_t r = 0; r < n; ++r) {
    Slot* s = slots_[row_slot_[r]].get();
    const RowKind kind = batch.kind(r);
    const bool accumulate = IsAccumulate(kind);
    if (!accumulate && spec_.input_insert_only) {
      return absl::InternalError(
          "GroupAggregate was planned for insert-only input but received a retraction");
    }
    const bool first_row = !s->exists;
    if (spec_.merge_partials) {
      if (!accumulate) {
        return absl::InternalError("GlobalGroupAggregate received a retraction of a partial");
      }
      // A partial that only retracts from a group without state has nothing to retract from.
      if (first_row && functions_.PartialRowCount(batch, r) <= 0) continue;
      functions_.Merge(&s->acc, batch, r);
    } else {
      if (first_row && !accumulate) continue;  // no state to retract from
      functions_.Update(&s->acc, batch, r, accumulate);
    }
    s->dirty = true;
    if (fold) {
      // The change is emitted once per key, below; `result` keeps the value before the batch.
      // (Merged deltas of inconsistent input could undershoot: a group at or below 0 rows is gone.)
      if (s->acc.row_count <= 0) functions_.Reset(&s->acc);
      s->exists = s->acc.row_count > 0;
      continue;
    }
    if (s->acc.row_count > 0) {
      functions_.GetValues(s->acc, &scratch_);
      if (first_row) {
        EmitRow(batch, r, RowKind::kInsert, scratch_);
      } else if (!AggregateFunctions::Equal(scratch_, s->result)) {
        if (spec_.generate_update_before) EmitRow(batch, r, RowKind::kUpdateBefore, s->result);
        EmitRow(batch, r, RowKind::kUpdateAfter, scratch_);
      }
      std::swap(scratch_, s->result);
      s->exists = true;
    } else {
      if (!first_row) EmitRow(batch, r, RowKind::kDelete, s->result);
      functions_.Reset(&s->acc);
      s->exists = false;
    }
  }

  // 3b. Mini-batch: one change per key, in first-appearance order.
  if (fold) {
    for (size_t i = 0; i < used_slots_; ++i) {
      Slot* s = slots_[i].get();
      if (!s->dirty) continue;
      if (s->exists) functions_.GetValues(s->acc, &scratch_);
      if (s->in_state && s->exists) {
        if (!AggregateFunctions::Equal(scratch_, s->result)) {
          if (spec_.generate_update_before) {
            EmitRow(batch, s->first_row, RowKind::kUpdateBefore, s->result);
          }
          EmitRow(batch, s->first_row, RowKind::kUpdateAfter, scratch_);
        }
      } else if (s->exists) {
        EmitRow(batch, s->first_row, RowKind::kInsert, scratch_);
      } else if (s->in_state) {
        EmitRow(batch, s->first_row, RowKind::kDelete, s->result);
      }
    }
  }

  // 4. Each changed key written once, in one write batch.
  for (size_t i = 0; i < used_slots_; ++i) {
    if (i + kPrefetchRows < used_slots_) table_->Prefetch(i + kPrefetchRows);
    Slot* s = slots_[i].get();
    if (!s->dirty) continue;
    if (s->exists) {
      value_buf_.clear();
      functions_.Serialize(s->acc, &value_buf_);
      table_->Update(i, value_buf_);
    } else if (s->in_state) {
      table_->Erase(i);
    }
  }
  // A failed user-defined aggregate fails the task before its batch changes any state.
  RETURN_IF_ERROR(functions_.status());
  RETURN_IF_ERROR(table_->Commit());
  memory_bytes_.store(table_->cache().bytes(), std::memory_order_relaxed);
  return Emit(out_);
}

absl::Status GroupAggregateOperator::FlushState() {
  if (native_state_ != nullptr) return native_state_->Flush();
  if (table_ == nullptr) return absl::FailedPreconditionError("GroupAggregate: not open");
  return table_->Flush();
}

absl::Status GroupAggregateOperator::PrepareSnapshotPreBarrier(int64_t checkpoint_id) {
  // The buffered rows belong to the epoch before the barrier: their changes go out ahead of it.
  if ((table_ == nullptr && native_state_ == nullptr) || pending_.num_rows() == 0)
    return absl::OkStatus();
  return FlushMiniBatch();
}

absl::Status GroupAggregateOperator::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  // Everything else is in the store once the cache is written back.
  return FlushState();
}

absl::Status GroupAggregateOperator::Close() {
  // The cache is memory only; the store (and what reached it) stays until the job ends. A second
  // call (Close after a failure) is a no-op.
  table_.reset();
  native_state_.reset();
  pending_.Clear();
  return absl::OkStatus();
}

}  // namespace eddy
