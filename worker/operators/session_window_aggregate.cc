#include "worker/operators/session_window_aggregate.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/operators/accumulator_codec.h"
#include "worker/operators/owned_key_groups.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

constexpr size_t kOutputBatchRows = 1024;
constexpr size_t kMaxTimersPerRound = 64 * 1024;  // bounds the keys one firing round reads
constexpr size_t kTimerOverheadBytes = sizeof(std::tuple<int64_t, int, std::string>) + 32;

// [t, t + gap), the end saturating at the largest timestamp.
int64_t EndOf(int64_t t, int64_t gap) {
  return t > std::numeric_limits<int64_t>::max() - gap ? std::numeric_limits<int64_t>::max()
                                                       : t + gap;
}

}  // namespace

absl::StatusOr<std::unique_ptr<SessionWindowAggregateOperator>>
SessionWindowAggregateOperator::Create(SessionWindowAggregateSpec spec) {
  if (spec.gap_ms <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("SessionWindowAggregate: the gap must be positive, got ", spec.gap_ms));
  }
  if (spec.time_column < 0 || spec.time_column >= static_cast<int>(spec.input_types.size()) ||
      !spec.input_types[spec.time_column].IsTimestampLike()) {
    return absl::InvalidArgumentError(
        "SessionWindowAggregate: the time column must be a TIMESTAMP input");
  }
  ASSIGN_OR_RETURN(KeyEncoder encoder, KeyEncoder::Create(spec.input_types, spec.group_keys));
  ASSIGN_OR_RETURN(AggregateFunctions functions,
                   AggregateFunctions::Create(spec.aggregates, spec.input_types,
                                              /*retractions_possible=*/false));
  return std::unique_ptr<SessionWindowAggregateOperator>(new SessionWindowAggregateOperator(
      std::move(spec), std::move(encoder), std::move(functions)));
}

SessionWindowAggregateOperator::SessionWindowAggregateOperator(SessionWindowAggregateSpec spec,
                                                               KeyEncoder encoder,
                                                               AggregateFunctions functions)
    : spec_(std::move(spec)), encoder_(std::move(encoder)), functions_(std::move(functions)) {
  output_types_ = encoder_.key_types();
  for (const AggregateCall& c : spec_.aggregates) output_types_.push_back(c.result_type);
  output_types_.push_back(DataType::Timestamp(3).WithNullable(false));
  output_types_.push_back(DataType::Timestamp(3).WithNullable(false));
  if (spec_.window_time) {
    const bool ltz = spec_.input_types[spec_.time_column].id == TypeId::kTimestampLtz;
    output_types_.push_back(ltz ? DataType::TimestampLtz(3).WithNullable(false)
                                : DataType::Timestamp(3).WithNullable(false));
  }
  out_ = ChangelogBatch(output_types_);
}

absl::Status SessionWindowAggregateOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr) {
    return absl::FailedPreconditionError("SessionWindowAggregate needs a keyed state backend");
  }
  if (ctx.max_parallelism <= 0 || ctx.max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("SessionWindowAggregate: max_parallelism out of range");
  }
  max_parallelism_ = ctx.max_parallelism;
  owned_ = OwnedKeyGroups(ctx);
  table_ = std::make_unique<KeyedStateTable>(ctx.state, ctx.state_id, ctx.max_parallelism,
                                             ctx.state_cache_bytes);
  return absl::OkStatus();
}

uint32_t SessionWindowAggregateOperator::SlotOf(const std::string& key, int key_group) {
  BatchKeyIndex::Lookup found = slot_of_key_.Find(key);
  if (found.found) return found.value;
  const uint32_t index = static_cast<uint32_t>(used_slots_);
  if (used_slots_ == slots_.size()) slots_.push_back(std::make_unique<Slot>());
  Slot* s = slots_[used_slots_++].get();
  s->key.assign(key);
  s->key_group = key_group;
  slot_of_key_.Insert(found, s->key, index);
  return index;
}

absl::Status SessionWindowAggregateOperator::ReadSlots() {
  table_->ClearReads();
  for (size_t i = 0; i < used_slots_; ++i) table_->AddRead(slots_[i]->key_group, slots_[i]->key);
  RETURN_IF_ERROR(table_->ReadAll());
  for (size_t i = 0; i < used_slots_; ++i) {
    SessionList& sessions = slots_[i]->sessions;
    if (table_->found(i)) {
      RETURN_IF_ERROR(sessions.Deserialize(functions_, table_->value(i)));
    } else {
      sessions.Clear();
    }
  }
  return absl::OkStatus();
}

absl::Status SessionWindowAggregateOperator::WriteSlots() {
  for (size_t i = 0; i < used_slots_; ++i) {
    const SessionList& sessions = slots_[i]->sessions;
    if (sessions.empty()) {
      table_->Erase(i);
      continue;
    }
    value_buf_.clear();
    sessions.Serialize(functions_, &value_buf_);
    table_->Update(i, value_buf_);
  }
  return table_->Commit();
}

absl::Status SessionWindowAggregateOperator::Process(int input, const ChangelogBatch& batch) {
  if (table_ == nullptr) {
    return absl::FailedPreconditionError("SessionWindowAggregate: Process before Open");
  }
  CountIn(batch);
  if (batch.num_rows() == 0) return absl::OkStatus();
  const Column& time = batch.column(spec_.time_column);

  // 1. The batch's distinct keys, and each row's key.
  used_slots_ = 0;
  slot_of_key_.Reset(batch.num_rows());
  row_slots_.clear();
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (!IsAccumulate(batch.kind(r))) {
      return absl::InvalidArgumentError(
          "SessionWindowAggregate received a retraction; its input must be append-only");
    }
    if (time.IsNull(r)) {
      return absl::InvalidArgumentError(
          absl::StrCat("SessionWindowAggregate: the time attribute (input column ",
                       spec_.time_column, ") is NULL; rowtime values must not be NULL"));
    }
    key_buf_.clear();
    encoder_.Encode(batch, r, &key_buf_);
    const int key_group = key_buf_.empty() ? 0 : KeyGroupOf(key_buf_, max_parallelism_);
    row_slots_.emplace_back(static_cast<uint32_t>(r), SlotOf(key_buf_, key_group));
  }
  // 2. One read, 3. the rows in input order, 4. one write.
  RETURN_IF_ERROR(ReadSlots());
  const int64_t* ts = time.data<int64_t>();
  for (const auto& [row, slot] : row_slots_) {
    FoldRow(slots_[slot].get(), batch, row, spec_.clock.RowTime(ts[row]));
  }
  RETURN_IF_ERROR(WriteSlots());
  ReportMemory();
  return absl::OkStatus();
}

void SessionWindowAggregateOperator::FoldRow(Slot* slot, const ChangelogBatch& batch, size_t row,
                                             int64_t t) {
  const int64_t end = EndOf(t, spec_.gap_ms);
  // Late when the session the row would end up in has already fired (or is due).
  if (slot->sessions.Cover(t, end).end - 1 <= watermark_) {
    late_rows_dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  retired_ends_.clear();
  Session* session = slot->sessions.Merge(functions_, t, end, &retired_ends_);
  functions_.Update(&session->acc, batch, row, /*accumulate=*/true);
  // The merged sessions' timers move to the merged session's end.
  for (int64_t retired : retired_ends_) {
    if (timers_.erase(Timer(retired, slot->key_group, slot->key)) > 0) {
      timer_key_bytes_ -= slot->key.size();
    }
  }
  if (timers_.emplace(session->end, slot->key_group, slot->key).second) {
    timer_key_bytes_ += slot->key.size();
  }
}

absl::Status SessionWindowAggregateOperator::ProcessWatermark(const Watermark& watermark) {
  const int64_t progress = spec_.clock.Progress(watermark.millis);
  if (!watermark.idle && progress > watermark_) {
    watermark_ = progress;
    RETURN_IF_ERROR(FireUpTo(watermark_));
    ReportMemory();
  }
  return EmitWatermark(watermark);
}

absl::Status SessionWindowAggregateOperator::Finish() {
  if (table_ == nullptr) return absl::OkStatus();
  watermark_ = kMaxWatermark;
  RETURN_IF_ERROR(FireUpTo(kMaxWatermark));
  ReportMemory();
  return absl::OkStatus();
}

absl::Status SessionWindowAggregateOperator::FireUpTo(int64_t watermark) {
  auto due = [watermark](const Timer& t) { return std::get<0>(t) - 1 <= watermark; };
  std::vector<std::pair<int64_t, uint32_t>> fired;  // (end, slot) in timer order
  // In rounds of bounded size: each round reads its keys once, emits in timer order, and writes
  // each key once.
  while (!timers_.empty() && due(*timers_.begin())) {
    used_slots_ = 0;
    slot_of_key_.Reset(std::min(timers_.size(), kMaxTimersPerRound));
    fired.clear();
    auto it = timers_.begin();
    for (; it != timers_.end() && due(*it) && fired.size() < kMaxTimersPerRound; ++it) {
      const auto& [end, key_group, key] = *it;
      fired.emplace_back(end, SlotOf(key, key_group));
      timer_key_bytes_ -= key.size();
    }
    timers_.erase(timers_.begin(), it);
    RETURN_IF_ERROR(ReadSlots());
    for (const auto& [end, slot_index] : fired) {
      Slot* slot = slots_[slot_index].get();
      const Session* session = slot->sessions.FindEndingAt(end);
      if (session == nullptr) {
        return absl::InternalError(
            absl::StrCat("SessionWindowAggregate: no session state for a timer at ", end));
      }
      AppendOutputRow(slot->key, *session);
      slot->sessions.EraseEndingAt(end);
      RETURN_IF_ERROR(EmitWhenFull(&out_, kOutputBatchRows));
    }
    RETURN_IF_ERROR(WriteSlots());
  }
  return EmitAndClear(&out_);
}

void SessionWindowAggregateOperator::AppendOutputRow(const std::string& key,
                                                     const Session& session) {
  const size_t num_keys = encoder_.key_types().size();
  std::span<Column> key_columns(out_.mutable_columns().data(), num_keys);
  // The key was encoded by this operator's encoder, so it decodes.
  encoder_.AppendToColumns(key, key_columns).IgnoreError();
  functions_.GetValues(session.acc, &values_);
  for (size_t i = 0; i < values_.size(); ++i) {
    functions_.AppendValue(i, values_[i], &out_.mutable_column(num_keys + i));
  }
  out_.mutable_column(num_keys + values_.size()).Append<int64_t>(session.start);
  out_.mutable_column(num_keys + values_.size() + 1).Append<int64_t>(session.end);
  if (spec_.window_time) {
    out_.mutable_column(num_keys + values_.size() + 2)
        .Append<int64_t>(spec_.clock.WindowTime(session.end));
  }
  out_.mutable_kinds().push_back(RowKind::kInsert);
}

void SessionWindowAggregateOperator::ReportMemory() {
  const size_t cache = table_ != nullptr ? table_->cache().bytes() : 0;
  reported_memory_bytes_.store(cache + timers_.size() * kTimerOverheadBytes + timer_key_bytes_,
                               std::memory_order_relaxed);
}

namespace {

constexpr char kWatermarkEntry[] = "watermark";
// Per pending session: zigzag end, varint key group, length-prefixed encoded group key.
constexpr char kTimersEntry[] = "session_timers";

}  // namespace

absl::Status SessionWindowAggregateOperator::SnapshotState(int64_t checkpoint_id,
                                                           OperatorSnapshot* out) {
  if (table_ == nullptr) return absl::FailedPreconditionError("SessionWindowAggregate: not open");
  RETURN_IF_ERROR(table_->Flush());
  out->PutInt64(kWatermarkEntry, watermark_);
  std::string timers;
  for (const auto& [end, key_group, key] : timers_) {
    agg_codec::PutSigned(end, &timers);
    agg_codec::PutVarint(static_cast<uint64_t>(key_group), &timers);
    agg_codec::PutString(key, &timers);
  }
  out->Put(kTimersEntry, std::move(timers));
  return absl::OkStatus();
}

absl::Status SessionWindowAggregateOperator::RestoreState(const OperatorSnapshot& snapshot) {
  return RestoreFrom(std::span<const OperatorSnapshot>(&snapshot, 1), OwnedKeyGroups::All());
}

absl::Status SessionWindowAggregateOperator::RestoreRescaledState(
    std::span<const OperatorSnapshot> snapshots) {
  return RestoreFrom(snapshots, owned_);
}

absl::Status SessionWindowAggregateOperator::RestoreFrom(
    std::span<const OperatorSnapshot> snapshots, const OwnedKeyGroups& owned) {
  if (table_ == nullptr) return absl::FailedPreconditionError("SessionWindowAggregate: not open");
  const absl::Status malformed = absl::InvalidArgumentError(
      "SessionWindowAggregate: the snapshot is malformed or was taken at another max "
      "parallelism");
  std::vector<int64_t> watermarks;
  std::set<Timer> restored;
  size_t key_bytes = 0;
  for (const OperatorSnapshot& snapshot : snapshots) {
    auto watermark = snapshot.GetInt64(kWatermarkEntry);
    std::optional<std::string_view> timers = snapshot.Get(kTimersEntry);
    if (!watermark.ok() || !watermark->has_value() || !timers) return malformed;
    watermarks.push_back(**watermark);
    agg_codec::Reader r(*timers);
    while (r.ok() && !r.done()) {
      const int64_t end = r.Signed();
      const uint64_t key_group = r.Varint();
      const std::string_view key = r.String();
      if (!r.ok() || key_group >= static_cast<uint64_t>(max_parallelism_)) return malformed;
      // Only the pending sessions of the key groups this subtask owns (all unless rescaled).
      if (!owned.Contains(static_cast<int>(key_group))) continue;
      restored.emplace(end, static_cast<int>(key_group), std::string(key));
      key_bytes += key.size();
    }
    if (!r.ok()) return malformed;
  }
  watermark_ = RestartWatermark(watermarks);
  timers_ = std::move(restored);
  timer_key_bytes_ = key_bytes;
  ReportMemory();
  return absl::OkStatus();
}

absl::Status SessionWindowAggregateOperator::Close() {
  // Timers and cached state are freed; what is in the store stays until the job ends.
  table_.reset();
  timers_.clear();
  timer_key_bytes_ = 0;
  reported_memory_bytes_.store(0, std::memory_order_relaxed);
  return absl::OkStatus();
}

}  // namespace eddy
