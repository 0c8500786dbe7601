// DeduplicateOperator: batch-at-a-time state access, row-by-row Flink row-time deduplication.
#include "worker/operators/deduplicate_operator.h"

#include <cstring>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/operators/join_common.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

constexpr size_t kRowtimeBytes = 8;

}  // namespace

absl::StatusOr<std::unique_ptr<DeduplicateOperator>> DeduplicateOperator::Create(
    DeduplicateSpec spec) {
  const size_t n = spec.input_types.size();
  for (int c : spec.keys) {
    if (c < 0 || static_cast<size_t>(c) >= n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Deduplicate: key column ", c, " out of range for an input with ", n, " columns"));
    }
  }
  if (spec.time_column < 0 || static_cast<size_t>(spec.time_column) >= n) {
    return absl::InvalidArgumentError(absl::StrCat("Deduplicate: time column ", spec.time_column,
                                                   " out of range for an input with ", n,
                                                   " columns"));
  }
  const DataType& t = spec.input_types[spec.time_column];
  if (!t.IsTimestampLike() || t.precision > 3) {
    return absl::InvalidArgumentError(absl::StrCat("Deduplicate: the time column ",
                                                   spec.time_column, " is ", t.ToString(),
                                                   ", not a TIMESTAMP(3) rowtime"));
  }
  if (spec.state_ttl_ms < 0) return absl::InvalidArgumentError("Deduplicate: negative state TTL");
  ASSIGN_OR_RETURN(KeyEncoder key, KeyEncoder::Create(spec.input_types, spec.keys));
  ASSIGN_OR_RETURN(KeyEncoder row, KeyEncoder::Create(spec.input_types, AllColumns(n)));
  return std::unique_ptr<DeduplicateOperator>(
      new DeduplicateOperator(std::move(spec), std::move(key), std::move(row)));
}

DeduplicateOperator::DeduplicateOperator(DeduplicateSpec spec, KeyEncoder key, KeyEncoder row)
    : spec_(std::move(spec)), key_(std::move(key)), row_(std::move(row)) {
  out_ = ChangelogBatch(spec_.input_types);
}

absl::Status DeduplicateOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr) {
    return absl::FailedPreconditionError("Deduplicate needs a keyed state backend");
  }
  if (ctx.max_parallelism <= 0 || ctx.max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("Deduplicate: max_parallelism out of range");
  }
  max_parallelism_ = ctx.max_parallelism;
  table_ = std::make_unique<KeyedStateTable>(ctx.state, ctx.state_id, ctx.max_parallelism,
                                             ctx.state_cache_bytes, spec_.state_ttl_ms);
  return absl::OkStatus();
}

DeduplicateOperator::Slot* DeduplicateOperator::AcquireSlot() {
  if (used_slots_ == slots_.size()) slots_.push_back(std::make_unique<Slot>());
  return slots_[used_slots_++].get();
}

absl::Status DeduplicateOperator::Process(int input, const ChangelogBatch& batch) {
  if (table_ == nullptr) return absl::FailedPreconditionError("Deduplicate: Process before Open");
  if (input != 0) {
    return absl::InvalidArgumentError(absl::StrCat("Deduplicate has one input, not ", input));
  }
  const size_t n = batch.num_rows();
  if (n > 0 && batch.num_columns() != spec_.input_types.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Deduplicate: input has ", batch.num_columns(),
                                                   " columns, expected ",
                                                   spec_.input_types.size()));
  }
  CountIn(batch);
  if (n == 0) return absl::OkStatus();
  const Column& time = batch.column(spec_.time_column);
  for (size_t r = 0; r < n; ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      return absl::InvalidArgumentError(
          absl::StrCat("Deduplicate accepts insert-only input but received a ",
                       std::string(RowKindShortString(batch.kind(r))), " row"));
    }
    if (time.IsNull(r)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Deduplicate: the time attribute (input column ", spec_.time_column,
                       ") is NULL; rowtime values must not be NULL"));
    }
  }

  RETURN_IF_ERROR(ReadSlots(batch));

  // Rows in input order, as Flink's processElement.
  out_.Clear();
  for (size_t r = 0; r < n; ++r) {
    Slot& s = *slots_[row_slot_[r]];
    const int64_t rowtime = time.Get<int64_t>(r);
    if (!s.has_row) {
      out_.AppendRow(batch, r, RowKind::kInsert);
    } else {
      const bool replace = spec_.keep_last_row ? s.rowtime <= rowtime : rowtime < s.rowtime;
      if (!replace) continue;
      if (spec_.generate_update_before) RETURN_IF_ERROR(EmitKept(batch, s));
      out_.AppendRow(batch, r, RowKind::kUpdateAfter);
    }
    s.has_row = true;
    s.changed = true;
    s.rowtime = rowtime;
    s.batch_row = r;
  }

  WriteSlots(batch);
  RETURN_IF_ERROR(table_->Commit());
  memory_bytes_.store(table_->cache().bytes(), std::memory_order_relaxed);
  return EmitAndClear(&out_);
}

absl::Status DeduplicateOperator::ReadSlots(const ChangelogBatch& batch) {
  const size_t n = batch.num_rows();

  // 1. Every row's key bytes, in one buffer that then stops moving.
  keys_.clear();
  key_ends_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    key_.Encode(batch, r, &keys_);
    key_ends_[r] = static_cast<uint32_t>(keys_.size());
  }

  // 2. The distinct keys, in first-appearance order.
  used_slots_ = 0;
  slot_of_key_.Reset(n);
  row_slot_.resize(n);
  uint32_t begin = 0;
  for (size_t r = 0; r < n; ++r) {
    const std::string_view key(keys_.data() + begin, key_ends_[r] - begin);
    begin = key_ends_[r];
    BatchKeyIndex::Lookup found = slot_of_key_.Find(key);
    if (found.found) {
      row_slot_[r] = found.value;
      continue;
    }
    const uint32_t index = static_cast<uint32_t>(used_slots_);
    Slot* s = AcquireSlot();
    s->key = key;
    s->key_group = key.empty() ? 0 : KeyGroupOf(key, max_parallelism_);
    slot_of_key_.Insert(found, s->key, index);
    row_slot_[r] = index;
  }

  // 3. One read of each key's kept row.
  table_->ClearReads();
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->read = table_->AddRead(s->key_group, s->key);
  }
  RETURN_IF_ERROR(table_->ReadAll());
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->found = table_->found(s->read);
    s->has_row = s->found;
    s->changed = false;
    if (!s->found) continue;
    const std::string_view value = table_->value(s->read);
    if (value.size() < kRowtimeBytes) {
      return absl::DataLossError("Corrupt deduplicate state value: truncated");
    }
    std::memcpy(&s->rowtime, value.data(), kRowtimeBytes);
    s->stored = value.substr(kRowtimeBytes);
  }
  return absl::OkStatus();
}

absl::Status DeduplicateOperator::EmitKept(const ChangelogBatch& batch, const Slot& s) {
  if (s.changed) {
    out_.AppendRow(batch, s.batch_row, RowKind::kUpdateBefore);
    return absl::OkStatus();
  }
  std::vector<Column>& columns = out_.mutable_columns();
  RETURN_IF_ERROR(row_.AppendToColumns(s.stored, std::span<Column>(columns)));
  out_.mutable_kinds().push_back(RowKind::kUpdateBefore);
  return absl::OkStatus();
}

void DeduplicateOperator::WriteSlots(const ChangelogBatch& batch) {
  // Encode first, then write: the slots' stored rows are views into the values being replaced.
  write_arena_.clear();
  write_ends_.clear();
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    if (s.changed) {
      char rowtime[kRowtimeBytes];
      std::memcpy(rowtime, &s.rowtime, kRowtimeBytes);
      write_arena_.append(rowtime, kRowtimeBytes);
      row_.Encode(batch, s.batch_row, &write_arena_);
    }
    write_ends_.push_back(write_arena_.size());
  }
  size_t begin = 0;
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    const size_t end = write_ends_[i];
    if (s.changed) {
      table_->Update(s.read, std::string_view(write_arena_).substr(begin, end - begin));
    }
    begin = end;
  }
}

absl::Status DeduplicateOperator::FlushState() {
  if (table_ == nullptr) return absl::FailedPreconditionError("Deduplicate: not open");
  return table_->Flush();
}

absl::Status DeduplicateOperator::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  // Everything is in the store once the cache is written back.
  return FlushState();
}

absl::Status DeduplicateOperator::Close() {
  // The cache is memory only; the store (and what reached it) stays until the job ends. A second
  // call (Close after a failure) is a no-op.
  table_.reset();
  out_.Clear();
  return absl::OkStatus();
}

}  // namespace eddy
