// IntervalJoinOperator: batch-at-a-time state access, Flink's row-time interval join semantics, and
// expiry driven by an ordered set of per-(side, join key) timers.
#include "worker/operators/interval_join.h"

#include <algorithm>
#include <optional>
#include <span>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/operators/interval_join_records.h"
#include "worker/operators/join_common.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

// Candidate pairs the condition is evaluated over at once, at most (unless one row alone has more).
constexpr size_t kMaxPairsPerChunk = 16384;
// (side, join key) values one expiry round reads with one MultiGet, at most.
constexpr size_t kMaxExpiryValues = 4096;
// Names the operator in messages.
constexpr char kOp[] = "IntervalJoin";

// Snapshot entries.
constexpr char kWatermarkEntry[] = "watermark";
constexpr char kOutputWatermarkEntry[] = "output_watermark";
constexpr char kStoredRowsEntry[] = "stored_rows";
// The timers, as EncodeJoinTimer (join_common.h) lists them.
constexpr char kTimersEntry[] = "timers";

// Event times are epoch millis and bounds a few days at most, but the arithmetic on them must not
// overflow for any input: it saturates at the int64 range.
int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? kMaxWatermark : kMinWatermark;
  return r;
}
int64_t SatSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? kMaxWatermark : kMinWatermark;
  return r;
}

const char* InputName(int input) { return input == 0 ? "left" : "right"; }

}  // namespace

absl::StatusOr<std::unique_ptr<IntervalJoinOperator>> IntervalJoinOperator::Create(
    IntervalJoinSpec spec) {
  if (spec.type == StreamingJoinType::kSemi || spec.type == StreamingJoinType::kAnti) {
    return absl::InvalidArgumentError(
        absl::StrCat("IntervalJoin: a ", StreamingJoinTypeName(spec.type),
                     " join is not supported; INNER, LEFT OUTER, RIGHT OUTER or FULL OUTER are"));
  }
  if (spec.left_keys.size() != spec.right_keys.size()) {
    return absl::InvalidArgumentError(absl::StrCat("IntervalJoin: ", spec.left_keys.size(),
                                                   " left keys but ", spec.right_keys.size(),
                                                   " right keys"));
  }
  RETURN_IF_ERROR(CheckJoinColumns(kOp, "left key", spec.left_keys, spec.left_types.size()));
  RETURN_IF_ERROR(CheckJoinColumns(kOp, "right key", spec.right_keys, spec.right_types.size()));
  RETURN_IF_ERROR(
      CheckJoinKeyTypes(kOp, spec.left_types, spec.left_keys, spec.right_types, spec.right_keys));
  for (int input = 0; input < 2; ++input) {
    const std::vector<DataType>& types = input == 0 ? spec.left_types : spec.right_types;
    const int column = input == 0 ? spec.left_time : spec.right_time;
    if (column < 0 || static_cast<size_t>(column) >= types.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("IntervalJoin: the ", InputName(input), " time column ", column,
                       " is out of range for an input with ", types.size(), " columns"));
    }
    const DataType& t = types[column];
    if (!t.IsTimestampLike() || t.precision > 3) {
      return absl::InvalidArgumentError(absl::StrCat("IntervalJoin: the ", InputName(input),
                                                     " time column ", column, " is ", t.ToString(),
                                                     ", not a TIMESTAMP(3) rowtime"));
    }
  }
  if (spec.lower_bound_ms > spec.upper_bound_ms) {
    return absl::InvalidArgumentError(
        absl::StrCat("IntervalJoin: the lower bound ", spec.lower_bound_ms,
                     " ms is above the upper bound ", spec.upper_bound_ms, " ms"));
  }
  if (spec.condition != nullptr) {
    RETURN_IF_ERROR(CheckJoinCondition(kOp, *spec.condition, spec.left_types, spec.right_types));
  }

  Side sides[2];
  for (int i = 0; i < 2; ++i) {
    Side& s = sides[i];
    const bool left = i == 0;
    s.types = left ? spec.left_types : spec.right_types;
    ASSIGN_OR_RETURN(s.key, KeyEncoder::Create(s.types, left ? spec.left_keys : spec.right_keys));
    ASSIGN_OR_RETURN(s.row, KeyEncoder::Create(s.types, AllColumns(s.types.size())));
    s.time_column = left ? spec.left_time : spec.right_time;
    s.outer = left ? (spec.type == StreamingJoinType::kLeftOuter ||
                      spec.type == StreamingJoinType::kFullOuter)
                   : (spec.type == StreamingJoinType::kRightOuter ||
                      spec.type == StreamingJoinType::kFullOuter);
    s.tag = left ? 'L' : 'R';
    s.column_offset = left ? 0 : spec.left_types.size();
  }
  return std::unique_ptr<IntervalJoinOperator>(
      new IntervalJoinOperator(std::move(spec), std::move(sides[0]), std::move(sides[1])));
}

IntervalJoinOperator::IntervalJoinOperator(IntervalJoinSpec spec, Side left, Side right)
    : spec_(std::move(spec)) {
  sides_[0] = std::move(left);
  sides_[1] = std::move(right);
  AppendTypes(spec_.left_types, sides_[1].outer, &output_types_);
  AppendTypes(spec_.right_types, sides_[0].outer, &output_types_);
  output_delay_ms_ = std::max<int64_t>({SatSub(0, spec_.lower_bound_ms), spec_.upper_bound_ms, 0});
  out_ = ChangelogBatch(output_types_);
  decoded_[0] = EmptyColumns(spec_.left_types);
  decoded_[1] = EmptyColumns(spec_.right_types);
  if (spec_.condition != nullptr) {
    std::vector<DataType> both = spec_.left_types;
    both.insert(both.end(), spec_.right_types.begin(), spec_.right_types.end());
    pairs_ = ChangelogBatch(both);
  }
}

absl::Status IntervalJoinOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr) {
    return absl::FailedPreconditionError("IntervalJoin needs a keyed state backend");
  }
  if (ctx.max_parallelism <= 0 || ctx.max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("IntervalJoin: max_parallelism out of range");
  }
  max_parallelism_ = ctx.max_parallelism;
  owned_ = OwnedKeyGroups(ctx);
  store_ = ctx.state;
  state_id_ = ctx.state_id;
  table_ = std::make_unique<KeyedStateTable>(ctx.state, ctx.state_id, ctx.max_parallelism,
                                             ctx.state_cache_bytes);
  return absl::OkStatus();
}

int64_t IntervalJoinOperator::ExpiryOf(int side, int64_t time) const {
  // A left row at l matches right rows with r <= l - lower; a right row at r left rows with
  // l <= r + upper. Future rows of the other side are later than the watermark.
  return side == 0 ? SatSub(time, spec_.lower_bound_ms) : SatAdd(time, spec_.upper_bound_ms);
}

IntervalJoinOperator::Slot* IntervalJoinOperator::AcquireSlot() {
  if (used_slots_ == slots_.size()) slots_.push_back(std::make_unique<Slot>());
  return slots_[used_slots_++].get();
}

absl::Status IntervalJoinOperator::Process(int input, const ChangelogBatch& batch) {
  if (table_ == nullptr) return absl::FailedPreconditionError("IntervalJoin: Process before Open");
  RETURN_IF_ERROR(
      CheckJoinInput("IntervalJoin", input, batch, sides_[0].types.size(), sides_[1].types.size()));
  CountIn(batch);
  const size_t n = batch.num_rows();
  if (n == 0) return absl::OkStatus();

  RETURN_IF_ERROR(PrepareRows(input, batch));

  // Rows in input order. The other side's records do not change while this input's batch is
  // applied (only their matched flags do), so every row's candidates are known up front and the
  // condition is evaluated over chunks of (row, candidate) pairs.
  size_t begin = 0;
  while (begin < n) {
    size_t end = n;
    if (spec_.condition != nullptr) {
      ASSIGN_OR_RETURN(end, EvaluateChunk(input, batch, begin));
    }
    for (size_t r = begin; r < end; ++r) {
      const uint8_t* matches =
          spec_.condition != nullptr ? match_.data() + pair_begin_[r - begin] : nullptr;
      ProcessRow(input, batch, r, matches);
      RETURN_IF_ERROR(EmitWhenFull(&out_, kMaxJoinOutputRows));
    }
    begin = end;
  }

  RETURN_IF_ERROR(WriteSlots(input));
  RETURN_IF_ERROR(table_->Commit());
  return EmitAndClear(&out_);
}

absl::Status IntervalJoinOperator::PrepareRows(int input, const ChangelogBatch& batch) {
  const Side& side = sides_[input];
  const Side& other = sides_[1 - input];
  const size_t n = batch.num_rows();
  const Column& time = batch.column(side.time_column);
  const int64_t* ts = time.data<int64_t>();
  // Rows of the other side in state expire after W - upper (right) or W + lower (left); a row
  // whose bounds end before that matches nothing, now or later.
  const int64_t slack = input == 0 ? std::max<int64_t>(spec_.upper_bound_ms, 0)
                                   : std::max<int64_t>(SatSub(0, spec_.lower_bound_ms), 0);
  const int64_t late_bound = SatSub(watermark_, slack);
  const std::vector<int>& key_columns = side.key.key_columns();

  // 1. Each row's action, join key and (when stored) row bytes, in one buffer that then stops
  // moving.
  encodings_.clear();
  rows_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      return absl::InvalidArgumentError(
          absl::StrCat("IntervalJoin received a ", std::string(RowKindShortString(batch.kind(r))),
                       " row on its ", InputName(input),
                       " input; its inputs must be append-only (+I rows only)"));
    }
    if (time.IsNull(r)) {
      return absl::InvalidArgumentError(
          absl::StrCat("IntervalJoin: the ", InputName(input), " time attribute (input column ",
                       side.time_column, ") is NULL; rowtime values must not be NULL"));
    }
    RowInfo& info = rows_[r];
    info.time = ts[r];
    const int64_t expiry = ExpiryOf(input, info.time);
    bool matchable = true;
    for (int c : key_columns) matchable = matchable && !batch.column(c).IsNull(r);
    if (expiry <= late_bound) {
      info.action = Action::kLate;
    } else if (!matchable) {
      info.action = Action::kUnmatchable;
    } else {
      info.action = expiry <= watermark_ ? Action::kJoin : Action::kJoinAndStore;
      info.key_begin = static_cast<uint32_t>(encodings_.size());
      side.key.Encode(batch, r, &encodings_);
      info.key_end = info.row_begin = static_cast<uint32_t>(encodings_.size());
      if (info.action == Action::kJoinAndStore) side.row.Encode(batch, r, &encodings_);
      info.row_end = static_cast<uint32_t>(encodings_.size());
    }
  }

  // 2. The distinct join keys of the rows that join, in first-appearance order.
  used_slots_ = 0;
  slot_of_key_.Reset(n);
  for (size_t r = 0; r < n; ++r) {
    RowInfo& info = rows_[r];
    if (info.action != Action::kJoin && info.action != Action::kJoinAndStore) continue;
    std::string_view key(encodings_.data() + info.key_begin, info.key_end - info.key_begin);
    BatchKeyIndex::Lookup found = slot_of_key_.Find(key);
    Slot* s;
    if (found.found) {
      info.slot = found.value;
      s = slots_[found.value].get();
    } else {
      info.slot = static_cast<uint32_t>(used_slots_);
      s = AcquireSlot();
      s->key = key;
      s->key_group = key.empty() ? 0 : KeyGroupOf(key, max_parallelism_);
      s->store = false;
      slot_of_key_.Insert(found, s->key, info.slot);
    }
    s->store = s->store || info.action == Action::kJoinAndStore;
  }

  // 3. One read of each (side, join key) value: the other side's, and the input side's where a row
  // is stored.
  table_->ClearReads();
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    state_key_.assign(1, other.tag);
    state_key_.append(s->key);
    s->other_read = table_->AddRead(s->key_group, state_key_);
    if (s->store) {
      state_key_[0] = side.tag;
      s->own_read = table_->AddRead(s->key_group, state_key_);
    }
  }
  RETURN_IF_ERROR(table_->ReadAll());
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->other.Reset(other.outer);
    s->other_found = table_->found(s->other_read);
    if (s->other_found) RETURN_IF_ERROR(s->other.Decode(table_->value(s->other_read)));
    s->own.Reset(side.outer);
    s->own_found = s->store && table_->found(s->own_read);
    if (s->own_found) RETURN_IF_ERROR(s->own.Decode(table_->value(s->own_read)));
    s->own_timer = !s->own.empty();
    if (s->own_timer) s->own_old_first_time = s->own.at(0).time;
    s->decode_begin = s->other.size();
    s->decode_end = 0;
  }

  // 4. Each joining row's candidates: the other side's records in its bounds (a left row at l
  // matches r in [l - upper, l - lower], a right row at r matches l in [r + lower, r + upper]).
  for (size_t r = 0; r < n; ++r) {
    RowInfo& info = rows_[r];
    info.candidates_begin = info.candidates_end = 0;
    if (info.action != Action::kJoin && info.action != Action::kJoinAndStore) continue;
    Slot& s = *slots_[info.slot];
    const int64_t from = input == 0 ? SatSub(info.time, spec_.upper_bound_ms)
                                    : SatAdd(info.time, spec_.lower_bound_ms);
    const int64_t to = input == 0 ? SatSub(info.time, spec_.lower_bound_ms)
                                  : SatAdd(info.time, spec_.upper_bound_ms);
    std::tie(info.candidates_begin, info.candidates_end) = s.other.Range(from, to);
    if (info.candidates_begin < info.candidates_end) {
      s.decode_begin = std::min(s.decode_begin, info.candidates_begin);
      s.decode_end = std::max(s.decode_end, info.candidates_end);
    }
  }

  // 5. The rows of the candidates, decoded once per batch.
  std::vector<Column>& columns = decoded_[1 - input];
  for (Column& c : columns) c.Clear();
  uint32_t next = 0;
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot& s = *slots_[i];
    for (size_t j = s.decode_begin; j < s.decode_end; ++j) {
      IntervalJoinRecord& rec = s.other.at(j);
      RETURN_IF_ERROR(other.row.AppendToColumns(rec.row, std::span<Column>(columns)));
      rec.decoded_row = next++;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<size_t> IntervalJoinOperator::EvaluateChunk(int input, const ChangelogBatch& batch,
                                                           size_t begin) {
  const int other = 1 - input;
  const Side& in = sides_[input];
  const Side& ot = sides_[other];
  const std::vector<Column>& other_rows = decoded_[other];
  pairs_.Clear();
  pair_begin_.clear();
  size_t pairs = 0;
  size_t end = begin;
  for (; end < batch.num_rows(); ++end) {
    const RowInfo& info = rows_[end];
    const size_t candidates = info.candidates_end - info.candidates_begin;
    if (end > begin && pairs + candidates > kMaxPairsPerChunk) break;
    pair_begin_.push_back(pairs);
    pairs += candidates;
    if (candidates == 0) continue;
    const Slot& s = *slots_[info.slot];
    // Column by column: the input row repeated, then each candidate's row.
    for (size_t c = 0; c < in.types.size(); ++c) {
      Column& dst = pairs_.mutable_column(in.column_offset + c);
      for (size_t p = 0; p < candidates; ++p) dst.AppendFrom(batch.column(c), end);
    }
    for (size_t c = 0; c < ot.types.size(); ++c) {
      Column& dst = pairs_.mutable_column(ot.column_offset + c);
      for (size_t j = info.candidates_begin; j < info.candidates_end; ++j) {
        dst.AppendFrom(other_rows[c], s.other.at(j).decoded_row);
      }
    }
    pairs_.mutable_kinds().insert(pairs_.mutable_kinds().end(), candidates, RowKind::kInsert);
  }
  RETURN_IF_ERROR(EvaluateJoinCondition(*spec_.condition, pairs_, &match_));
  return end;
}

void IntervalJoinOperator::ProcessRow(int input, const ChangelogBatch& batch, size_t row,
                                      const uint8_t* matches) {
  const RowInfo& info = rows_[row];
  const Side& side = sides_[input];
  if (info.action == Action::kLate || info.action == Action::kUnmatchable) {
    if (side.outer) {
      EmitInputPadded(input, batch, row);
    } else if (info.action == Action::kLate) {
      late_rows_dropped_.fetch_add(1, std::memory_order_relaxed);
    }
    return;
  }
  Slot& s = *slots_[info.slot];
  const bool other_outer = sides_[1 - input].outer;
  bool matched = false;
  for (size_t j = info.candidates_begin; j < info.candidates_end; ++j) {
    if (matches != nullptr && matches[j - info.candidates_begin] == 0) continue;
    IntervalJoinRecord& rec = s.other.at(j);
    matched = true;
    EmitJoined(input, batch, row, rec);
    if (other_outer && !rec.matched) {
      rec.matched = true;
      s.other.MarkDirty();
    }
  }
  if (info.action == Action::kJoinAndStore) {
    s.own.Add(info.time,
              std::string_view(encodings_.data() + info.row_begin, info.row_end - info.row_begin),
              matched);
    ++stored_rows_;
  } else if (!matched && side.outer) {
    EmitInputPadded(input, batch, row);
  }
}

absl::Status IntervalJoinOperator::WriteSlots(int input) {
  // Encode first, then write: the decoded lists are views into the values being replaced. Lists
  // written are never empty: rows were added (own) or flags set (other).
  write_arena_.clear();
  write_ends_.clear();
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    for (const IntervalJoinRecords* list : {&s.own, &s.other}) {
      if (list->dirty()) list->Encode(&write_arena_);
      write_ends_.push_back(write_arena_.size());
    }
  }
  size_t begin = 0;
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot& s = *slots_[i];
    for (int which = 0; which < 2; ++which) {
      const IntervalJoinRecords& list = which == 0 ? s.own : s.other;
      const size_t end = write_ends_[2 * i + which];
      if (list.dirty()) {
        table_->Update(which == 0 ? s.own_read : s.other_read,
                       std::string_view(write_arena_).substr(begin, end - begin));
      }
      begin = end;
    }
    if (!s.own.dirty()) continue;
    // The value's timer is at its earliest expiry; added rows can only make that earlier.
    Timer timer;
    timer.time = ExpiryOf(input, s.own.at(0).time);
    timer.side = static_cast<uint8_t>(input);
    timer.key_group = s.key_group;
    timer.key.assign(s.key);
    if (s.own_timer) {
      const int64_t old_time = ExpiryOf(input, s.own_old_first_time);
      if (old_time == timer.time) continue;
      Timer old = timer;
      old.time = old_time;
      timers_.erase(old);
    }
    timers_.insert(std::move(timer));
  }
  return absl::OkStatus();
}

absl::Status IntervalJoinOperator::ProcessWatermark(const Watermark& watermark) {
  if (table_ == nullptr) {
    return absl::FailedPreconditionError("IntervalJoin: watermark before Open");
  }
  if (!watermark.idle && watermark.millis > watermark_) {
    watermark_ = watermark.millis;
    RETURN_IF_ERROR(ExpireUpTo(watermark_));
  }
  out_watermark_ = std::max(out_watermark_, SatSub(watermark_, output_delay_ms_));
  return EmitWatermark(Watermark{out_watermark_, watermark.idle});
}

absl::Status IntervalJoinOperator::Finish() {
  if (table_ == nullptr) return absl::OkStatus();
  watermark_ = kMaxWatermark;
  return ExpireUpTo(kMaxWatermark);
}

absl::Status IntervalJoinOperator::ExpireUpTo(int64_t watermark) {
  while (!timers_.empty() && timers_.begin()->time <= watermark) {
    // A round: the earliest due values, read at once.
    due_.clear();
    while (!timers_.empty() && timers_.begin()->time <= watermark &&
           due_.size() < kMaxExpiryValues) {
      due_.push_back(std::move(timers_.extract(timers_.begin()).value()));
    }
    table_->ClearReads();
    for (const Timer& t : due_) {
      state_key_.assign(1, sides_[t.side].tag);
      state_key_.append(t.key);
      table_->AddRead(t.key_group, state_key_);
    }
    RETURN_IF_ERROR(table_->ReadAll());
    if (expiring_.size() < due_.size()) expiring_.resize(due_.size());
    write_arena_.clear();
    write_ends_.clear();
    for (size_t i = 0; i < due_.size(); ++i) {
      Timer& t = due_[i];
      const Side& side = sides_[t.side];
      IntervalJoinRecords& list = expiring_[i];
      list.Reset(side.outer);
      if (!table_->found(i)) {
        return absl::InternalError(absl::StrCat("IntervalJoin: a timer at ", t.time,
                                                " has no state for its ", InputName(t.side),
                                                " join key"));
      }
      RETURN_IF_ERROR(list.Decode(table_->value(i)));
      // Expiry grows with time: the expired records are a prefix.
      size_t expired = 0;
      while (expired < list.size() && ExpiryOf(t.side, list.at(expired).time) <= watermark) {
        ++expired;
      }
      if (side.outer) {
        for (size_t j = 0; j < expired; ++j) {
          if (!list.at(j).matched) RETURN_IF_ERROR(EmitRecordPadded(t.side, list.at(j).row));
        }
      }
      list.RemoveFront(expired);
      stored_rows_ -= std::min<uint64_t>(stored_rows_, expired);
      if (!list.empty()) {
        if (list.dirty()) list.Encode(&write_arena_);
        t.time = ExpiryOf(t.side, list.at(0).time);
        timers_.insert(t);
      }
      write_ends_.push_back(write_arena_.size());
    }
    size_t begin = 0;
    for (size_t i = 0; i < due_.size(); ++i) {
      const IntervalJoinRecords& list = expiring_[i];
      const size_t end = write_ends_[i];
      if (list.empty()) {
        table_->Erase(i);
      } else if (list.dirty()) {
        table_->Update(i, std::string_view(write_arena_).substr(begin, end - begin));
      }
      begin = end;
    }
    RETURN_IF_ERROR(table_->Commit());
  }
  return EmitAndClear(&out_);
}

void IntervalJoinOperator::EmitJoined(int input, const ChangelogBatch& batch, size_t row,
                                      const IntervalJoinRecord& rec) {
  const Side& in = sides_[input];
  const Side& ot = sides_[1 - input];
  const std::vector<Column>& other_rows = decoded_[1 - input];
  for (size_t c = 0; c < in.types.size(); ++c) {
    out_.mutable_column(in.column_offset + c).AppendFrom(batch.column(c), row);
  }
  for (size_t c = 0; c < ot.types.size(); ++c) {
    out_.mutable_column(ot.column_offset + c).AppendFrom(other_rows[c], rec.decoded_row);
  }
  out_.mutable_kinds().push_back(RowKind::kInsert);
}

void IntervalJoinOperator::EmitInputPadded(int input, const ChangelogBatch& batch, size_t row) {
  const Side& in = sides_[input];
  const Side& ot = sides_[1 - input];
  for (size_t c = 0; c < in.types.size(); ++c) {
    out_.mutable_column(in.column_offset + c).AppendFrom(batch.column(c), row);
  }
  for (size_t c = 0; c < ot.types.size(); ++c) {
    out_.mutable_column(ot.column_offset + c).AppendNull();
  }
  out_.mutable_kinds().push_back(RowKind::kInsert);
}

absl::Status IntervalJoinOperator::EmitRecordPadded(int side, std::string_view row) {
  const Side& s = sides_[side];
  const Side& ot = sides_[1 - side];
  RETURN_IF_ERROR(s.row.AppendToColumns(
      row, std::span<Column>(out_.mutable_columns().data() + s.column_offset, s.types.size())));
  for (size_t c = 0; c < ot.types.size(); ++c) {
    out_.mutable_column(ot.column_offset + c).AppendNull();
  }
  out_.mutable_kinds().push_back(RowKind::kInsert);
  return EmitWhenFull(&out_, kMaxJoinOutputRows);
}

absl::Status IntervalJoinOperator::FlushState() {
  if (table_ == nullptr) return absl::FailedPreconditionError("IntervalJoin: not open");
  return table_->Flush();
}

absl::Status IntervalJoinOperator::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  RETURN_IF_ERROR(FlushState());
  out->PutInt64(kWatermarkEntry, watermark_);
  out->PutInt64(kOutputWatermarkEntry, out_watermark_);
  out->PutInt64(kStoredRowsEntry, static_cast<int64_t>(stored_rows_));
  std::string timers;
  for (const Timer& t : timers_) EncodeJoinTimer(t, &timers);
  out->Put(kTimersEntry, std::move(timers));
  return absl::OkStatus();
}

absl::Status IntervalJoinOperator::RestoreState(const OperatorSnapshot& snapshot) {
  return RestoreFrom(std::span<const OperatorSnapshot>(&snapshot, 1), OwnedKeyGroups::All());
}

absl::Status IntervalJoinOperator::RestoreRescaledState(
    std::span<const OperatorSnapshot> snapshots) {
  return RestoreFrom(snapshots, owned_);
}

absl::Status IntervalJoinOperator::RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                                               const OwnedKeyGroups& owned) {
  if (table_ == nullptr) return absl::FailedPreconditionError("IntervalJoin: not open");
  const absl::Status malformed = absl::InvalidArgumentError(
      "IntervalJoin: the snapshot is malformed or was taken at another max parallelism");
  std::vector<int64_t> watermarks;
  std::vector<int64_t> out_watermarks;
  std::set<Timer> restored;
  uint64_t recorded = 0;
  bool elsewhere = snapshots.size() != 1;  // some state came from another subtask
  for (const OperatorSnapshot& snapshot : snapshots) {
    ASSIGN_OR_RETURN(std::optional<int64_t> watermark, snapshot.GetInt64(kWatermarkEntry));
    ASSIGN_OR_RETURN(std::optional<int64_t> out_watermark,
                     snapshot.GetInt64(kOutputWatermarkEntry));
    ASSIGN_OR_RETURN(std::optional<int64_t> stored, snapshot.GetInt64(kStoredRowsEntry));
    std::optional<std::string_view> timers = snapshot.Get(kTimersEntry);
    if (!watermark || !out_watermark || !stored || *stored < 0 || !timers) return malformed;
    out_watermarks.push_back(*out_watermark);
    watermarks.push_back(*watermark);
    recorded = static_cast<uint64_t>(*stored);
    if (!DecodeOwnedJoinTimers(*timers, max_parallelism_, owned, &restored, &elsewhere)) {
      return malformed;
    }
  }
  if (elsewhere) {
    // The rows kept are those of the key groups the store holds now.
    ASSIGN_OR_RETURN(recorded,
                     CountStoredRecords(*store_, state_id_, max_parallelism_, owned, "LR"));
  }
  watermark_ = RestartWatermark(watermarks);
  out_watermark_ = RestartWatermark(out_watermarks);
  stored_rows_ = recorded;
  timers_ = std::move(restored);
  return absl::OkStatus();
}

absl::Status IntervalJoinOperator::Close() {
  // The cache and the timers are memory only; the store (and what reached it) stays until the job
  // ends. A second call (Close after a failure) is a no-op.
  table_.reset();
  timers_.clear();
  out_.Clear();
  return absl::OkStatus();
}

}  // namespace eddy
