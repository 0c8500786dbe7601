// OverAggregateOperator: batch-at-a-time state access, Flink's event-time OVER semantics replayed
// per partition when the watermark fires its timers.
#include "worker/operators/over_aggregate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

// Output rows per emitted batch, at most.
constexpr size_t kOutputBatchRows = 4096;
// Partitions one timer round reads with one MultiGet, at most.
constexpr size_t kMaxRoundValues = 4096;
// Decoded stored rows kept at once while a partition fires, roughly.
constexpr size_t kMaxDecodedRows = 4096;
// Approximate memory of one timer besides its key bytes.
constexpr size_t kTimerOverhead = 64;

// Snapshot entries.
constexpr char kWatermarkEntry[] = "watermark";
// The timers, as EncodeJoinTimer (join_common.h) lists them (side 0).
constexpr char kTimersEntry[] = "timers";
constexpr char kRetentionTimersEntry[] = "retention_timers";

// Java's long arithmetic: wraps instead of overflowing.
int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t WrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
// Java's (long) cast of a double: truncates toward zero, saturates, NaN is 0.
int64_t JavaLong(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775808.0) return std::numeric_limits<int64_t>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

}  // namespace

absl::StatusOr<std::unique_ptr<OverAggregateOperator>> OverAggregateOperator::Create(
    OverAggregateSpec spec) {
  const size_t n = spec.input_types.size();
  for (int c : spec.partition_keys) {
    if (c < 0 || static_cast<size_t>(c) >= n) {
      return absl::InvalidArgumentError(absl::StrCat("OverAggregate: partition key column ", c,
                                                     " out of range for an input with ", n,
                                                     " columns"));
    }
  }
  if (spec.time_column < 0 || static_cast<size_t>(spec.time_column) >= n) {
    return absl::InvalidArgumentError(absl::StrCat("OverAggregate: time column ", spec.time_column,
                                                   " out of range for an input with ", n,
                                                   " columns"));
  }
  const DataType& t = spec.input_types[spec.time_column];
  if (!t.IsTimestampLike() || t.precision > 3) {
    return absl::InvalidArgumentError(absl::StrCat("OverAggregate: the time column ",
                                                   spec.time_column, " is ", t.ToString(),
                                                   ", not a TIMESTAMP(3) rowtime"));
  }
  if (spec.state_ttl_ms < 0) return absl::InvalidArgumentError("OverAggregate: negative state TTL");
  if (spec.preceding < kUnboundedPreceding) {
    return absl::InvalidArgumentError(
        absl::StrCat("OverAggregate: preceding ", spec.preceding,
                     " is negative; it is >= 0, or -1 for UNBOUNDED PRECEDING"));
  }
  ASSIGN_OR_RETURN(KeyEncoder partition, KeyEncoder::Create(spec.input_types, spec.partition_keys));
  ASSIGN_OR_RETURN(KeyEncoder row, KeyEncoder::Create(spec.input_types, AllColumns(n)));
  // Bounded frames retract rows that leave them; unbounded ones never retract, so that MIN/MAX
  // keep only the extreme.
  auto functions = AggregateFunctions::Create(spec.calls, spec.input_types,
                                              spec.preceding != kUnboundedPreceding);
  if (!functions.ok()) {
    return absl::Status(functions.status().code(),
                        absl::StrCat("OverAggregate: ", functions.status().message()));
  }
  return std::unique_ptr<OverAggregateOperator>(new OverAggregateOperator(
      std::move(spec), std::move(partition), std::move(row), std::move(functions).value()));
}

OverAggregateOperator::OverAggregateOperator(OverAggregateSpec spec, KeyEncoder partition,
                                             KeyEncoder row, AggregateFunctions functions)
    : spec_(std::move(spec)),
      partition_(std::move(partition)),
      row_(std::move(row)),
      functions_(std::move(functions)) {
  output_types_ = spec_.input_types;
  for (const AggregateCall& c : spec_.calls) output_types_.push_back(c.result_type);
  decoded_ = ChangelogBatch(spec_.input_types);
  out_ = ChangelogBatch(output_types_);
}

absl::Status OverAggregateOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr) {
    return absl::FailedPreconditionError("OverAggregate needs a keyed state backend");
  }
  if (ctx.max_parallelism <= 0 || ctx.max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("OverAggregate: max_parallelism out of range");
  }
  max_parallelism_ = ctx.max_parallelism;
  owned_ = OwnedKeyGroups(ctx);
  backend_ = ctx.state;
  table_ = std::make_unique<KeyedStateTable>(ctx.state, ctx.state_id, ctx.max_parallelism,
                                             ctx.state_cache_bytes);
  return absl::OkStatus();
}

OverAggregateOperator::Slot* OverAggregateOperator::AcquireSlot() {
  if (used_slots_ == slots_.size()) slots_.push_back(std::make_unique<Slot>());
  Slot* s = slots_[used_slots_++].get();
  s->found = false;
  s->dirty = false;
  s->old_timer.reset();
  s->old_retention.reset();
  return s;
}

uint32_t OverAggregateOperator::SlotFor(std::string_view key) {
  BatchKeyIndex::Lookup found = slot_of_key_.Find(key);
  if (found.found) return found.value;
  const uint32_t index = static_cast<uint32_t>(used_slots_);
  Slot* s = AcquireSlot();
  s->key = key;
  s->key_group = key.empty() ? 0 : KeyGroupOf(key, max_parallelism_);
  slot_of_key_.Insert(found, s->key, index);
  return index;
}

absl::Status OverAggregateOperator::Process(int input, const ChangelogBatch& batch) {
  if (table_ == nullptr) return absl::FailedPreconditionError("OverAggregate: Process before Open");
  if (input != 0) {
    return absl::InvalidArgumentError(absl::StrCat("OverAggregate has one input, not ", input));
  }
  const size_t n = batch.num_rows();
  if (n > 0 && batch.num_columns() != spec_.input_types.size()) {
    return absl::InvalidArgumentError(absl::StrCat("OverAggregate: input has ", batch.num_columns(),
                                                   " columns, expected ",
                                                   spec_.input_types.size()));
  }
  CountIn(batch);
  if (n == 0) return absl::OkStatus();
  const Column& time = batch.column(spec_.time_column);

  // 1. Checks, and each row's partition key and row bytes, in one buffer that then stops moving.
  // Unbounded frames know late rows now (time <= watermark); bounded ones once their partition's
  // last-fired time is read.
  uint64_t late = 0;
  encodings_.clear();
  rows_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      return absl::InvalidArgumentError(
          absl::StrCat("OverAggregate accepts insert-only input but received a ",
                       std::string(RowKindShortString(batch.kind(r))), " row"));
    }
    if (time.IsNull(r)) {
      return absl::InvalidArgumentError(
          absl::StrCat("OverAggregate: the time attribute (input column ", spec_.time_column,
                       ") is NULL; rowtime values must not be NULL"));
    }
    RowInfo& info = rows_[r];
    info = RowInfo{};
    info.time = time.Get<int64_t>(r);
    info.late = !bounded() && info.time <= watermark_;
    if (info.late) ++late;
    // A late row still refreshes its partition's retention timer.
    if (info.late && !retention()) continue;
    info.key_begin = static_cast<uint32_t>(encodings_.size());
    partition_.Encode(batch, r, &encodings_);
    info.key_end = info.row_begin = static_cast<uint32_t>(encodings_.size());
    if (!info.late) row_.Encode(batch, r, &encodings_);
    info.row_end = static_cast<uint32_t>(encodings_.size());
  }

  // 2. The distinct partitions, read once.
  used_slots_ = 0;
  slot_of_key_.Reset(n);
  for (size_t r = 0; r < n; ++r) {
    RowInfo& info = rows_[r];
    if (info.late && !retention()) continue;
    info.slot = SlotFor(
        std::string_view(encodings_.data() + info.key_begin, info.key_end - info.key_begin));
  }
  if (used_slots_ > 0) {
    RETURN_IF_ERROR(ReadSlots());

    // 3. Rows in input order join their partition's waiting rows.
    const int64_t now = retention() ? backend_->NowMs() : 0;
    for (size_t r = 0; r < n; ++r) {
      const RowInfo& info = rows_[r];
      if (info.late && !retention()) continue;
      Slot& s = *slots_[info.slot];
      OverPartitionState& state = s.state;
      if (retention()) RegisterRetention(s, now);
      if (info.late) continue;
      if (bounded() && info.time <= state.last_fired) {
        ++late;
        continue;
      }
      state.AddRow(info.time, std::string_view(encodings_.data() + info.row_begin,
                                               info.row_end - info.row_begin));
      s.dirty = true;
      if (bounded() && !rows_frame()) {
        // The cleanup timer, as Flink registers it.
        const int64_t min_cleanup = WrapAdd(WrapAdd(info.time, spec_.preceding), 1);
        if (!state.cleanup_time.has_value() || *state.cleanup_time < min_cleanup) {
          const int64_t cleanup =
              WrapAdd(WrapAdd(info.time, JavaLong(static_cast<double>(spec_.preceding) * 1.5)), 1);
          // Timers of one partition and time are one timer.
          if (state.cleanup_timers.empty() || state.cleanup_timers.back() < cleanup) {
            state.cleanup_timers.push_back(cleanup);
          } else {
            auto at =
                std::lower_bound(state.cleanup_timers.begin(), state.cleanup_timers.end(), cleanup);
            if (*at != cleanup) state.cleanup_timers.insert(at, cleanup);
          }
          state.cleanup_time = cleanup;
        }
      }
    }

    // 4. One write per changed partition.
    WriteSlots();
    RETURN_IF_ERROR(table_->Commit());
  }
  if (late > 0) late_rows_dropped_.fetch_add(late, std::memory_order_relaxed);
  ReportMemory();
  return absl::OkStatus();
}

absl::Status OverAggregateOperator::ReadSlots() {
  table_->ClearReads();
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->read = table_->AddRead(s->key_group, s->key);
  }
  RETURN_IF_ERROR(table_->ReadAll());
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->found = table_->found(s->read);
    if (s->found) {
      RETURN_IF_ERROR(s->state.Decode(table_->value(s->read)));
    } else {
      s->state.Reset();
    }
    s->old_timer = DueTime(s->state);
    s->old_retention = s->state.retention_time;
  }
  return absl::OkStatus();
}

std::optional<int64_t> OverAggregateOperator::DueTime(const OverPartitionState& state) const {
  const std::vector<OverRow>& rows = state.rows();
  if (!bounded()) {
    if (rows.empty()) return std::nullopt;
    return std::max<int64_t>(rows.front().time, 0);
  }
  std::optional<int64_t> due;
  const size_t pending = state.FirstAfter(state.last_fired);
  if (pending < rows.size()) due = rows[pending].time;
  if (!state.cleanup_timers.empty() && (!due || state.cleanup_timers.front() < *due)) {
    due = state.cleanup_timers.front();
  }
  return due;
}

void OverAggregateOperator::MoveTimer(std::set<Timer>& timers, const Slot& s,
                                      std::optional<int64_t> old_time,
                                      std::optional<int64_t> new_time) {
  if (old_time == new_time) return;
  Timer t;
  t.key_group = s.key_group;
  t.key.assign(s.key);
  if (old_time.has_value()) {
    t.time = *old_time;
    if (timers.erase(t) > 0) timer_bytes_ -= std::min(timer_bytes_, t.key.size() + kTimerOverhead);
  }
  if (new_time.has_value()) {
    t.time = *new_time;
    timer_bytes_ += t.key.size() + kTimerOverhead;
    timers.insert(std::move(t));
  }
}

void OverAggregateOperator::RegisterRetention(Slot& s, int64_t now) const {
  const int64_t ttl = spec_.state_ttl_ms;
  std::optional<int64_t>& current = s.state.retention_time;
  if (current.has_value() && WrapAdd(now, ttl) <= *current) return;
  // Java's long arithmetic (max retention = T * 3 / 2).
  current = WrapAdd(now, static_cast<int64_t>(static_cast<uint64_t>(ttl) * 3) / 2);
  s.dirty = true;
}

void OverAggregateOperator::WriteSlots() {
  // Encode first, then write: the states hold views into the values being replaced.
  write_arena_.clear();
  write_ends_.clear();
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    if (s.dirty && !s.state.empty()) s.state.Encode(&write_arena_);
    write_ends_.push_back(write_arena_.size());
  }
  size_t begin = 0;
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    const size_t end = write_ends_[i];
    if (s.dirty) {
      if (!s.state.empty()) {
        table_->Update(s.read, std::string_view(write_arena_).substr(begin, end - begin));
      } else if (s.found) {
        table_->Erase(s.read);
      }
      MoveTimer(timers_, s, s.old_timer, DueTime(s.state));
      MoveTimer(retention_timers_, s, s.old_retention, s.state.retention_time);
    }
    begin = end;
  }
}

absl::Status OverAggregateOperator::ProcessWatermark(const Watermark& watermark) {
  if (table_ == nullptr) {
    return absl::FailedPreconditionError("OverAggregate: watermark before Open");
  }
  if (!watermark.idle && watermark.millis > watermark_) {
    watermark_ = watermark.millis;
    RETURN_IF_ERROR(FireUpTo(watermark_));
    ReportMemory();
  }
  return EmitWatermark(watermark);
}

absl::Status OverAggregateOperator::Finish() {
  if (table_ == nullptr) return absl::OkStatus();
  watermark_ = kMaxWatermark;
  RETURN_IF_ERROR(FireUpTo(kMaxWatermark));
  ReportMemory();
  return absl::OkStatus();
}

absl::Status OverAggregateOperator::FireUpTo(int64_t watermark) {
  while (!timers_.empty() && timers_.begin()->time <= watermark) {
    // A round: the earliest due partitions, read at once.
    due_.clear();
    while (!timers_.empty() && timers_.begin()->time <= watermark &&
           due_.size() < kMaxRoundValues) {
      Timer t = std::move(timers_.extract(timers_.begin()).value());
      timer_bytes_ -= std::min(timer_bytes_, t.key.size() + kTimerOverhead);
      due_.push_back(std::move(t));
    }
    used_slots_ = 0;
    for (const Timer& t : due_) {
      Slot* s = AcquireSlot();
      s->key = t.key;
      s->key_group = t.key_group;
    }
    RETURN_IF_ERROR(ReadSlots());
    const int64_t now = retention() ? backend_->NowMs() : 0;
    for (size_t i = 0; i < used_slots_; ++i) {
      Slot& s = *slots_[i];
      if (!s.found) {
        return absl::InternalError(absl::StrCat("OverAggregate: a timer at ", due_[i].time,
                                                " has no state for its partition"));
      }
      // The timer was popped: the partition has none until WriteSlots sets the next one.
      s.old_timer.reset();
      RETURN_IF_ERROR(FirePartition(s, watermark));
      if (retention()) RegisterRetention(s, now);
    }
    WriteSlots();
    RETURN_IF_ERROR(table_->Commit());
  }
  return EmitAndClear(&out_);
}

absl::Status OverAggregateOperator::OnTick(std::chrono::steady_clock::time_point) {
  if (table_ == nullptr || !retention() || retention_timers_.empty()) return absl::OkStatus();
  RETURN_IF_ERROR(ExpireIdlePartitions(backend_->NowMs()));
  ReportMemory();
  return absl::OkStatus();
}

absl::Status OverAggregateOperator::ExpireIdlePartitions(int64_t now) {
  while (!retention_timers_.empty() && retention_timers_.begin()->time <= now) {
    // A round: the earliest due partitions, read at once.
    due_.clear();
    while (!retention_timers_.empty() && retention_timers_.begin()->time <= now &&
           due_.size() < kMaxRoundValues) {
      Timer t = std::move(retention_timers_.extract(retention_timers_.begin()).value());
      timer_bytes_ -= std::min(timer_bytes_, t.key.size() + kTimerOverhead);
      due_.push_back(std::move(t));
    }
    used_slots_ = 0;
    for (const Timer& t : due_) {
      Slot* s = AcquireSlot();
      s->key = t.key;
      s->key_group = t.key_group;
    }
    RETURN_IF_ERROR(ReadSlots());
    for (size_t i = 0; i < used_slots_; ++i) {
      Slot& s = *slots_[i];
      if (!s.found) {
        return absl::InternalError(absl::StrCat("OverAggregate: a retention timer at ",
                                                due_[i].time, " has no state for its partition"));
      }
      // The timer was popped: the partition has none until WriteSlots sets the next one.
      s.old_retention.reset();
      s.dirty = true;
      const size_t waiting =
          s.state.rows().size() - (bounded() ? s.state.FirstAfter(s.state.last_fired) : 0);
      if (waiting > 0) {
        // Rows wait for a watermark (the input stalled): the state stays, the timer moves on.
        RegisterRetention(s, now);
      } else {
        s.state.Reset();
      }
    }
    WriteSlots();
    RETURN_IF_ERROR(table_->Commit());
  }
  return absl::OkStatus();
}

absl::Status OverAggregateOperator::FirePartition(Slot& s, int64_t watermark) {
  if (s.state.acc().empty()) {
    functions_.Reset(&s.acc);
  } else {
    RETURN_IF_ERROR(functions_.Deserialize(s.state.acc(), &s.acc));
  }
  decoded_.Clear();
  RETURN_IF_ERROR(bounded() ? FireBounded(s, watermark) : FireUnbounded(s, watermark));
  s.dirty = true;
  return absl::OkStatus();
}

absl::Status OverAggregateOperator::FireUnbounded(Slot& s, int64_t watermark) {
  const std::vector<OverRow>& rows = s.state.rows();
  size_t next = 0;
  while (next < rows.size() && rows[next].time <= watermark) {
    const int64_t t = rows[next].time;
    size_t end = next;
    while (end < rows.size() && rows[end].time == t) ++end;
    if (decoded_.num_rows() >= kMaxDecodedRows) decoded_.Clear();
    const size_t first = decoded_.num_rows();
    for (size_t i = next; i < end; ++i) {
      ASSIGN_OR_RETURN(size_t row, DecodeRow(rows[i].row));
      functions_.Update(&s.acc, decoded_, row, /*accumulate=*/true);
      if (rows_frame()) {
        functions_.GetValues(s.acc, &values_);
        RETURN_IF_ERROR(EmitRow(row));
      }
    }
    if (!rows_frame()) {
      // Peers: every row of time t with the values after all of them.
      functions_.GetValues(s.acc, &values_);
      for (size_t row = first; row < decoded_.num_rows(); ++row) RETURN_IF_ERROR(EmitRow(row));
    }
    next = end;
  }
  s.state.RemoveFront(next);
  s.acc_bytes.clear();
  functions_.Serialize(s.acc, &s.acc_bytes);
  s.state.set_acc(s.acc_bytes);
  return absl::OkStatus();
}

absl::Status OverAggregateOperator::FireBounded(Slot& s, int64_t watermark) {
  OverPartitionState& state = s.state;
  const std::vector<OverRow>& rows = state.rows();
  const std::vector<int64_t>& cleanups = state.cleanup_timers;
  const int64_t preceding = spec_.preceding;
  // Fired rows still in the frame of later rows are [kept, pending); rows below `kept` left it.
  size_t kept = 0;
  size_t pending = state.FirstAfter(state.last_fired);
  size_t fired_cleanups = 0;
  while (true) {
    // The partition's next timer: a time with waiting rows, or a cleanup timer (one timer when
    // both are at the same time).
    const bool row_due = pending < rows.size() && rows[pending].time <= watermark;
    const bool cleanup_due =
        fired_cleanups < cleanups.size() && cleanups[fired_cleanups] <= watermark;
    if (!row_due && !cleanup_due) break;
    int64_t t = row_due ? rows[pending].time : cleanups[fired_cleanups];
    if (cleanup_due) t = std::min(t, cleanups[fired_cleanups]);
    if (cleanup_due && cleanups[fired_cleanups] == t) ++fired_cleanups;
    if (state.cleanup_time.has_value() && *state.cleanup_time <= t) {
      // Nothing in state can be in a later row's frame: all of it goes, last-fired time included.
      state.Reset();
      s.acc_bytes.clear();
      return absl::OkStatus();
    }
    if (row_due && rows[pending].time == t) {
      size_t end = pending;
      while (end < rows.size() && rows[end].time == t) ++end;
      if (decoded_.num_rows() >= kMaxDecodedRows) decoded_.Clear();
      if (rows_frame()) {
        for (size_t i = pending; i < end; ++i) {
          // The frame is full (the row and `preceding` rows before it): the oldest row leaves.
          if (static_cast<int64_t>(i - kept) > preceding) {
            ASSIGN_OR_RETURN(size_t old, DecodeRow(rows[kept].row));
            functions_.Update(&s.acc, decoded_, old, /*accumulate=*/false);
            ++kept;
          }
          ASSIGN_OR_RETURN(size_t row, DecodeRow(rows[i].row));
          functions_.Update(&s.acc, decoded_, row, /*accumulate=*/true);
          functions_.GetValues(s.acc, &values_);
          RETURN_IF_ERROR(EmitRow(row));
        }
      } else {
        // Fired rows older than t - preceding leave the frame.
        while (kept < pending && WrapSub(t, rows[kept].time) > preceding) {
          ASSIGN_OR_RETURN(size_t old, DecodeRow(rows[kept].row));
          functions_.Update(&s.acc, decoded_, old, /*accumulate=*/false);
          ++kept;
        }
        const size_t first = decoded_.num_rows();
        for (size_t i = pending; i < end; ++i) {
          ASSIGN_OR_RETURN(size_t row, DecodeRow(rows[i].row));
          functions_.Update(&s.acc, decoded_, row, /*accumulate=*/true);
        }
        functions_.GetValues(s.acc, &values_);
        for (size_t row = first; row < decoded_.num_rows(); ++row) RETURN_IF_ERROR(EmitRow(row));
      }
      pending = end;
    }
    state.last_fired = t;
  }
  state.RemoveFront(kept);
  state.cleanup_timers.erase(state.cleanup_timers.begin(),
                             state.cleanup_timers.begin() + static_cast<ptrdiff_t>(fired_cleanups));
  s.acc_bytes.clear();
  functions_.Serialize(s.acc, &s.acc_bytes);
  state.set_acc(s.acc_bytes);
  return absl::OkStatus();
}

absl::StatusOr<size_t> OverAggregateOperator::DecodeRow(std::string_view row) {
  RETURN_IF_ERROR(row_.AppendToColumns(row, std::span<Column>(decoded_.mutable_columns())));
  decoded_.mutable_kinds().push_back(RowKind::kInsert);
  return decoded_.num_rows() - 1;
}

absl::Status OverAggregateOperator::EmitRow(size_t row) {
  const size_t inputs = spec_.input_types.size();
  for (size_t c = 0; c < inputs; ++c) {
    out_.mutable_column(c).AppendFrom(decoded_.column(c), row);
  }
  for (size_t i = 0; i < values_.size(); ++i) {
    functions_.AppendValue(i, values_[i], &out_.mutable_column(inputs + i));
  }
  out_.mutable_kinds().push_back(RowKind::kInsert);
  return EmitWhenFull(&out_, kOutputBatchRows);
}

void OverAggregateOperator::ReportMemory() {
  memory_bytes_.store(table_->cache().bytes() + timer_bytes_, std::memory_order_relaxed);
}

absl::Status OverAggregateOperator::FlushState() {
  if (table_ == nullptr) return absl::FailedPreconditionError("OverAggregate: not open");
  return table_->Flush();
}

absl::Status OverAggregateOperator::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  RETURN_IF_ERROR(FlushState());
  out->PutInt64(kWatermarkEntry, watermark_);
  std::string timers;
  for (const Timer& t : timers_) EncodeJoinTimer(t, &timers);
  out->Put(kTimersEntry, std::move(timers));
  std::string retention_timers;
  for (const Timer& t : retention_timers_) EncodeJoinTimer(t, &retention_timers);
  out->Put(kRetentionTimersEntry, std::move(retention_timers));
  return absl::OkStatus();
}

absl::Status OverAggregateOperator::RestoreState(const OperatorSnapshot& snapshot) {
  return RestoreFrom(std::span<const OperatorSnapshot>(&snapshot, 1), OwnedKeyGroups::All());
}

absl::Status OverAggregateOperator::RestoreRescaledState(
    std::span<const OperatorSnapshot> snapshots) {
  return RestoreFrom(snapshots, owned_);
}

absl::Status OverAggregateOperator::RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                                                const OwnedKeyGroups& owned) {
  if (table_ == nullptr) return absl::FailedPreconditionError("OverAggregate: not open");
  const absl::Status malformed = absl::InvalidArgumentError(
      "OverAggregate: the snapshot is malformed or was taken at another max parallelism");
  size_t bytes = 0;
  bool sides_ok = true;
  // Only the timers of the key groups this subtask owns (all of them unless rescaled).
  auto decode = [&](std::string_view encoded, std::set<Timer>* out) {
    return DecodeJoinTimers(encoded, max_parallelism_,
                            [&](JoinTimer t) {
                              sides_ok = sides_ok && t.side == 0;
                              if (!owned.Contains(t.key_group)) return;
                              bytes += t.key.size() + kTimerOverhead;
                              out->insert(Timer{std::move(t)});
                            }) &&
           sides_ok;
  };
  std::vector<int64_t> watermarks;
  std::set<Timer> restored, restored_retention;
  for (const OperatorSnapshot& snapshot : snapshots) {
    ASSIGN_OR_RETURN(std::optional<int64_t> watermark, snapshot.GetInt64(kWatermarkEntry));
    std::optional<std::string_view> timers = snapshot.Get(kTimersEntry);
    std::optional<std::string_view> retention_timers = snapshot.Get(kRetentionTimersEntry);
    if (!watermark || !timers || !retention_timers) return malformed;
    if (!decode(*timers, &restored) || !decode(*retention_timers, &restored_retention)) {
      return malformed;
    }
    watermarks.push_back(*watermark);
  }
  watermark_ = RestartWatermark(watermarks);
  timers_ = std::move(restored);
  retention_timers_ = std::move(restored_retention);
  timer_bytes_ = bytes;
  ReportMemory();
  return absl::OkStatus();
}

absl::Status OverAggregateOperator::Close() {
  // The cache and the timers are memory only; the store (and what reached it) stays until the job
  // ends. A second call (Close after a failure) is a no-op.
  table_.reset();
  timers_.clear();
  retention_timers_.clear();
  timer_bytes_ = 0;
  out_.Clear();
  decoded_.Clear();
  return absl::OkStatus();
}

}  // namespace eddy
