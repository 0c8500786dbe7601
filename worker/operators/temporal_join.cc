// TemporalJoinOperator: batch-at-a-time state access, Flink's event- and processing-time temporal
// join semantics, and watermark work driven by an ordered set of per-(side, join key) timers.
#include "worker/operators/temporal_join.h"

#include <algorithm>
#include <iterator>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/operators/interval_join_records.h"
#include "worker/operators/join_common.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

// Left rows joined at once (condition evaluated over their pairs together), at most.
constexpr size_t kMaxProbesPerChunk = 16384;
// (side, join key) values one timer round reads with one MultiGet, at most.
constexpr size_t kMaxRoundValues = 4096;
// Names the operator in messages.
constexpr char kOp[] = "TemporalJoin";

// Snapshot entries.
constexpr char kWatermarkEntry[] = "watermark";
constexpr char kWaitingRowsEntry[] = "waiting_rows";
// The timers, as EncodeJoinTimer (join_common.h) lists them.
constexpr char kTimersEntry[] = "timers";

const char* InputName(int input) { return input == 0 ? "left" : "right"; }

}  // namespace

absl::StatusOr<std::unique_ptr<TemporalJoinOperator>> TemporalJoinOperator::Create(
    TemporalJoinSpec spec) {
  if (spec.type != StreamingJoinType::kInner && spec.type != StreamingJoinType::kLeftOuter) {
    return absl::InvalidArgumentError(
        absl::StrCat("TemporalJoin: a ", StreamingJoinTypeName(spec.type),
                     " join is not supported; INNER or LEFT OUTER are"));
  }
  if (spec.left_keys.size() != spec.right_keys.size()) {
    return absl::InvalidArgumentError(absl::StrCat("TemporalJoin: ", spec.left_keys.size(),
                                                   " left keys but ", spec.right_keys.size(),
                                                   " right keys"));
  }
  if (spec.left_keys.empty()) {
    return absl::InvalidArgumentError(
        "TemporalJoin: no equi-join key; the versioned table's primary key must be joined on");
  }
  RETURN_IF_ERROR(CheckJoinColumns(kOp, "left key", spec.left_keys, spec.left_types.size()));
  RETURN_IF_ERROR(CheckJoinColumns(kOp, "right key", spec.right_keys, spec.right_types.size()));
  RETURN_IF_ERROR(
      CheckJoinKeyTypes(kOp, spec.left_types, spec.left_keys, spec.right_types, spec.right_keys));
  if ((spec.left_time == -1) != (spec.right_time == -1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TemporalJoin: the left time column is ", spec.left_time, " but the right one is ",
        spec.right_time, "; both are set (event time) or both are -1 (processing time)"));
  }
  const bool event_time = spec.left_time != -1;
  for (int input = 0; event_time && input < 2; ++input) {
    const std::vector<DataType>& types = input == 0 ? spec.left_types : spec.right_types;
    const int column = input == 0 ? spec.left_time : spec.right_time;
    if (column < 0 || static_cast<size_t>(column) >= types.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("TemporalJoin: the ", InputName(input), " time column ", column,
                       " is out of range for an input with ", types.size(), " columns"));
    }
    const DataType& t = types[column];
    if (!t.IsTimestampLike() || t.precision > 3) {
      return absl::InvalidArgumentError(absl::StrCat("TemporalJoin: the ", InputName(input),
                                                     " time column ", column, " is ", t.ToString(),
                                                     ", not a TIMESTAMP(3) rowtime"));
    }
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
    s.tag = left ? 'L' : 'R';
  }
  return std::unique_ptr<TemporalJoinOperator>(
      new TemporalJoinOperator(std::move(spec), std::move(sides[0]), std::move(sides[1])));
}

TemporalJoinOperator::TemporalJoinOperator(TemporalJoinSpec spec, Side left, Side right)
    : spec_(std::move(spec)) {
  event_time_ = spec_.left_time != -1;
  sides_[0] = std::move(left);
  sides_[1] = std::move(right);
  AppendTypes(spec_.left_types, false, &output_types_);
  AppendTypes(spec_.right_types, outer(), &output_types_);
  out_ = ChangelogBatch(output_types_);
  decoded_left_ = EmptyColumns(spec_.left_types);
  decoded_right_ = EmptyColumns(spec_.right_types);
  if (spec_.condition != nullptr) {
    std::vector<DataType> both = spec_.left_types;
    both.insert(both.end(), spec_.right_types.begin(), spec_.right_types.end());
    pairs_ = ChangelogBatch(both);
  }
}

absl::Status TemporalJoinOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr) {
    return absl::FailedPreconditionError("TemporalJoin needs a keyed state backend");
  }
  if (ctx.max_parallelism <= 0 || ctx.max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("TemporalJoin: max_parallelism out of range");
  }
  max_parallelism_ = ctx.max_parallelism;
  owned_ = OwnedKeyGroups(ctx);
  store_ = ctx.state;
  state_id_ = ctx.state_id;
  table_ = std::make_unique<KeyedStateTable>(ctx.state, ctx.state_id, ctx.max_parallelism,
                                             ctx.state_cache_bytes);
  return absl::OkStatus();
}

TemporalJoinOperator::Slot* TemporalJoinOperator::AcquireSlot() {
  if (used_slots_ == slots_.size()) slots_.push_back(std::make_unique<Slot>());
  Slot* s = slots_[used_slots_++].get();
  s->need_left = s->need_right = false;
  s->left_found = s->right_found = false;
  s->old_left_timer.reset();
  s->old_right_timer.reset();
  s->remove = false;
  s->new_row = {};
  s->right_row = {};
  s->decoded = DecodedVersion{};
  return s;
}

uint32_t TemporalJoinOperator::SlotFor(std::string_view key) {
  BatchKeyIndex::Lookup found = slot_of_key_.Find(key);
  if (found.found) return found.value;
  const uint32_t index = static_cast<uint32_t>(used_slots_);
  Slot* s = AcquireSlot();
  s->key = key;
  s->key_group = KeyGroupOf(key, max_parallelism_);
  slot_of_key_.Insert(found, s->key, index);
  return index;
}

absl::Status TemporalJoinOperator::Process(int input, const ChangelogBatch& batch) {
  if (table_ == nullptr) return absl::FailedPreconditionError("TemporalJoin: Process before Open");
  RETURN_IF_ERROR(
      CheckJoinInput("TemporalJoin", input, batch, sides_[0].types.size(), sides_[1].types.size()));
  CountIn(batch);
  if (batch.num_rows() == 0) return absl::OkStatus();
  if (input == 0) return ProcessLeft(batch);
  return event_time_ ? ProcessRight(batch) : ProcessRightProcessingTime(batch);
}

absl::Status TemporalJoinOperator::ReadSlots() {
  table_->ClearReads();
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    if (s->need_left) {
      state_key_.assign(1, sides_[0].tag);
      state_key_.append(s->key);
      s->left_read = table_->AddRead(s->key_group, state_key_);
    }
    if (s->need_right) {
      state_key_.assign(1, sides_[1].tag);
      state_key_.append(s->key);
      s->right_read = table_->AddRead(s->key_group, state_key_);
    }
  }
  RETURN_IF_ERROR(table_->ReadAll());
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->left.Reset(/*matched_flags=*/false);
    s->left_found = s->need_left && table_->found(s->left_read);
    if (s->left_found) RETURN_IF_ERROR(s->left.Decode(table_->value(s->left_read)));
    if (!s->left.empty()) s->old_left_timer = s->left.at(0).time;
    s->right.Reset();
    s->right_found = s->need_right && table_->found(s->right_read);
    if (!s->right_found) continue;
    if (event_time_) {
      RETURN_IF_ERROR(s->right.Decode(table_->value(s->right_read)));
      s->old_right_timer = s->right.PruneTime();
    } else {
      s->right_row = table_->value(s->right_read);
    }
  }
  return absl::OkStatus();
}

absl::Status TemporalJoinOperator::ProcessLeft(const ChangelogBatch& batch) {
  const Side& side = sides_[0];
  const size_t n = batch.num_rows();
  const Column* time = event_time_ ? &batch.column(side.time_column) : nullptr;
  const std::vector<int>& key_columns = side.key.key_columns();

  // 1. Each row's action, join key and (when it waits) row bytes, in one buffer that then stops
  // moving.
  encodings_.clear();
  rows_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      return absl::InvalidArgumentError(
          absl::StrCat("TemporalJoin received a ", std::string(RowKindShortString(batch.kind(r))),
                       " row on its left input; the left input must be append-only (+I rows "
                       "only)"));
    }
    RowInfo& info = rows_[r];
    info = RowInfo{};
    if (event_time_) {
      if (time->IsNull(r)) {
        return absl::InvalidArgumentError(
            absl::StrCat("TemporalJoin: the left time attribute (input column ", side.time_column,
                         ") is NULL; rowtime values must not be NULL"));
      }
      info.time = time->data<int64_t>()[r];
    }
    bool matchable = true;
    for (int c : key_columns) matchable = matchable && !batch.column(c).IsNull(r);
    if (!matchable) {
      info.action = Action::kUnmatchable;
      continue;
    }
    info.action = event_time_ && info.time > watermark_ ? Action::kWait : Action::kJoin;
    info.key_begin = static_cast<uint32_t>(encodings_.size());
    side.key.Encode(batch, r, &encodings_);
    info.key_end = info.row_begin = static_cast<uint32_t>(encodings_.size());
    if (info.action == Action::kWait) side.row.Encode(batch, r, &encodings_);
    info.row_end = static_cast<uint32_t>(encodings_.size());
  }

  // 2. The distinct join keys and what each needs: its left value (rows wait) and its right value
  // (rows join now).
  used_slots_ = 0;
  slot_of_key_.Reset(n);
  for (size_t r = 0; r < n; ++r) {
    RowInfo& info = rows_[r];
    if (info.action == Action::kUnmatchable) continue;
    info.slot = SlotFor(
        std::string_view(encodings_.data() + info.key_begin, info.key_end - info.key_begin));
    Slot& s = *slots_[info.slot];
    s.need_left = s.need_left || info.action == Action::kWait;
    s.need_right = s.need_right || info.action == Action::kJoin;
  }
  RETURN_IF_ERROR(ReadSlots());

  // 3. Rows in input order: joined now, or added to their key's waiting rows.
  probes_.clear();
  for (size_t r = 0; r < n; ++r) {
    const RowInfo& info = rows_[r];
    const uint32_t row = static_cast<uint32_t>(r);
    if (info.action == Action::kUnmatchable) {
      probes_.push_back({row, -1});
    } else if (info.action == Action::kWait) {
      Slot& s = *slots_[info.slot];
      s.left.Add(
          info.time,
          std::string_view(encodings_.data() + info.row_begin, info.row_end - info.row_begin),
          false);
      ++waiting_rows_;
    } else {
      Slot& s = *slots_[info.slot];
      Probe probe{row, -1};
      if (event_time_) {
        const int64_t v = s.right.Find(info.time);
        if (v >= 0 && !s.right.at(v).deleted) {
          ASSIGN_OR_RETURN(probe.right, DecodeVersion(&s.decoded, v, s.right.at(v).row));
        }
      } else if (s.right_found) {
        ASSIGN_OR_RETURN(probe.right, DecodeVersion(&s.decoded, 0, s.right_row));
      }
      probes_.push_back(probe);
    }
    if (probes_.size() >= kMaxProbesPerChunk) RETURN_IF_ERROR(JoinProbes(batch.columns()));
  }
  RETURN_IF_ERROR(JoinProbes(batch.columns()));

  // 4. The waiting rows written back, each key's timer at its earliest row (which added rows can
  // only make earlier).
  write_arena_.clear();
  write_ends_.clear();
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    if (s.left.dirty()) s.left.Encode(&write_arena_);
    write_ends_.push_back(write_arena_.size());
  }
  size_t begin = 0;
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    const size_t end = write_ends_[i];
    if (s.left.dirty()) {
      table_->Update(s.left_read, std::string_view(write_arena_).substr(begin, end - begin));
      MoveTimer(0, s.key_group, s.key, s.old_left_timer, s.left.at(0).time);
    }
    begin = end;
  }
  RETURN_IF_ERROR(table_->Commit());
  return EmitAndClear(&out_);
}

absl::Status TemporalJoinOperator::ProcessRight(const ChangelogBatch& batch) {
  const Side& side = sides_[1];
  const size_t n = batch.num_rows();
  const Column& time = batch.column(side.time_column);
  const std::vector<int>& key_columns = side.key.key_columns();

  // 1. Each version's join key and row bytes. -U rows and rows with a NULL key are skipped.
  encodings_.clear();
  rows_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    RowInfo& info = rows_[r];
    info = RowInfo{};
    const RowKind kind = batch.kind(r);
    bool matchable = true;
    for (int c : key_columns) matchable = matchable && !batch.column(c).IsNull(r);
    if (kind == RowKind::kUpdateBefore || !matchable) {
      info.skip = true;
      continue;
    }
    if (time.IsNull(r)) {
      return absl::InvalidArgumentError(
          absl::StrCat("TemporalJoin: the right time attribute (input column ", side.time_column,
                       ") is NULL; rowtime values must not be NULL"));
    }
    info.time = time.data<int64_t>()[r];
    info.key_begin = static_cast<uint32_t>(encodings_.size());
    side.key.Encode(batch, r, &encodings_);
    info.key_end = info.row_begin = static_cast<uint32_t>(encodings_.size());
    if (kind != RowKind::kDelete) side.row.Encode(batch, r, &encodings_);
    info.row_end = static_cast<uint32_t>(encodings_.size());
  }

  // 2. The distinct join keys, their versions read once.
  used_slots_ = 0;
  slot_of_key_.Reset(n);
  for (size_t r = 0; r < n; ++r) {
    RowInfo& info = rows_[r];
    if (info.skip) continue;
    info.slot = SlotFor(
        std::string_view(encodings_.data() + info.key_begin, info.key_end - info.key_begin));
    slots_[info.slot]->need_right = true;
  }
  if (used_slots_ == 0) return absl::OkStatus();
  RETURN_IF_ERROR(ReadSlots());

  // 3. The versions in input order, then what the watermark already makes useless is dropped.
  for (size_t r = 0; r < n; ++r) {
    const RowInfo& info = rows_[r];
    if (info.skip) continue;
    slots_[info.slot]->right.Set(
        info.time, batch.kind(r) == RowKind::kDelete,
        std::string_view(encodings_.data() + info.row_begin, info.row_end - info.row_begin));
  }
  write_arena_.clear();
  write_ends_.clear();
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot& s = *slots_[i];
    s.right.Prune(watermark_);
    if (!s.right.empty()) s.right.Encode(&write_arena_);
    write_ends_.push_back(write_arena_.size());
  }
  size_t begin = 0;
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    const size_t end = write_ends_[i];
    if (!s.right.empty()) {
      table_->Update(s.right_read, std::string_view(write_arena_).substr(begin, end - begin));
    } else if (s.right_found) {
      table_->Erase(s.right_read);
    }
    MoveTimer(1, s.key_group, s.key, s.old_right_timer, s.right.PruneTime());
    begin = end;
  }
  return table_->Commit();
}

absl::Status TemporalJoinOperator::ProcessRightProcessingTime(const ChangelogBatch& batch) {
  const Side& side = sides_[1];
  const size_t n = batch.num_rows();
  const std::vector<int>& key_columns = side.key.key_columns();
  encodings_.clear();
  rows_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    RowInfo& info = rows_[r];
    info = RowInfo{};
    const RowKind kind = batch.kind(r);
    bool matchable = true;
    for (int c : key_columns) matchable = matchable && !batch.column(c).IsNull(r);
    if (kind == RowKind::kUpdateBefore || !matchable) {
      info.skip = true;
      continue;
    }
    info.key_begin = static_cast<uint32_t>(encodings_.size());
    side.key.Encode(batch, r, &encodings_);
    info.key_end = info.row_begin = static_cast<uint32_t>(encodings_.size());
    if (kind != RowKind::kDelete) side.row.Encode(batch, r, &encodings_);
    info.row_end = static_cast<uint32_t>(encodings_.size());
  }
  // The last change of each key wins; nothing needs to be read.
  used_slots_ = 0;
  slot_of_key_.Reset(n);
  for (size_t r = 0; r < n; ++r) {
    RowInfo& info = rows_[r];
    if (info.skip) continue;
    info.slot = SlotFor(
        std::string_view(encodings_.data() + info.key_begin, info.key_end - info.key_begin));
    Slot& s = *slots_[info.slot];
    s.remove = batch.kind(r) == RowKind::kDelete;
    s.new_row = std::string_view(encodings_.data() + info.row_begin, info.row_end - info.row_begin);
  }
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    state_key_.assign(1, side.tag);
    state_key_.append(s.key);
    if (s.remove) {
      table_->Delete(s.key_group, state_key_);
    } else {
      table_->Put(s.key_group, state_key_, s.new_row);
    }
  }
  return table_->Commit();
}

absl::StatusOr<uint32_t> TemporalJoinOperator::DecodeVersion(DecodedVersion* cache, int64_t version,
                                                             std::string_view row) {
  if (cache->generation == decode_generation_ && cache->version == version) return cache->row;
  RETURN_IF_ERROR(sides_[1].row.AppendToColumns(row, std::span<Column>(decoded_right_)));
  cache->generation = decode_generation_;
  cache->version = version;
  cache->row = static_cast<uint32_t>(decoded_right_[0].size() - 1);
  return cache->row;
}

absl::Status TemporalJoinOperator::JoinProbes(const std::vector<Column>& left) {
  const size_t left_columns = sides_[0].types.size();
  const size_t right_columns = sides_[1].types.size();
  if (spec_.condition != nullptr) {
    pairs_.Clear();
    for (const Probe& p : probes_) {
      if (p.right < 0) continue;
      for (size_t c = 0; c < left_columns; ++c) {
        pairs_.mutable_column(c).AppendFrom(left[c], p.left);
      }
      for (size_t c = 0; c < right_columns; ++c) {
        pairs_.mutable_column(left_columns + c)
            .AppendFrom(decoded_right_[c], static_cast<size_t>(p.right));
      }
      pairs_.mutable_kinds().push_back(RowKind::kInsert);
    }
    RETURN_IF_ERROR(EvaluateJoinCondition(*spec_.condition, pairs_, &match_));
  }
  size_t pair = 0;
  for (const Probe& p : probes_) {
    bool matched = p.right >= 0;
    if (matched && spec_.condition != nullptr) matched = match_[pair++] != 0;
    if (!matched && !outer()) continue;
    for (size_t c = 0; c < left_columns; ++c) out_.mutable_column(c).AppendFrom(left[c], p.left);
    for (size_t c = 0; c < right_columns; ++c) {
      Column& dst = out_.mutable_column(left_columns + c);
      if (matched) {
        dst.AppendFrom(decoded_right_[c], static_cast<size_t>(p.right));
      } else {
        dst.AppendNull();
      }
    }
    out_.mutable_kinds().push_back(RowKind::kInsert);
    RETURN_IF_ERROR(EmitWhenFull(&out_, kMaxJoinOutputRows));
  }
  probes_.clear();
  for (Column& c : decoded_right_) c.Clear();
  ++decode_generation_;
  return absl::OkStatus();
}

void TemporalJoinOperator::MoveTimer(uint8_t side, int key_group, std::string_view key,
                                     std::optional<int64_t> old_time,
                                     std::optional<int64_t> new_time) {
  if (old_time == new_time) return;
  Timer t;
  t.side = side;
  t.key_group = key_group;
  t.key.assign(key);
  if (old_time.has_value()) {
    t.time = *old_time;
    timers_.erase(t);
  }
  if (new_time.has_value()) {
    t.time = *new_time;
    timers_.insert(std::move(t));
  }
}

absl::Status TemporalJoinOperator::ProcessWatermark(const Watermark& watermark) {
  if (table_ == nullptr) {
    return absl::FailedPreconditionError("TemporalJoin: watermark before Open");
  }
  if (!watermark.idle && watermark.millis > watermark_) {
    watermark_ = watermark.millis;
    if (event_time_) RETURN_IF_ERROR(FireUpTo(watermark_, /*prune=*/true));
  }
  return EmitWatermark(watermark);
}

absl::Status TemporalJoinOperator::Finish() {
  if (table_ == nullptr || !event_time_) return absl::OkStatus();
  // As a final watermark, except that versions are left alone: nothing can use them any more.
  watermark_ = kMaxWatermark;
  return FireUpTo(kMaxWatermark, /*prune=*/false);
}

absl::Status TemporalJoinOperator::FireUpTo(int64_t watermark, bool prune) {
  const Side& left_side = sides_[0];
  while (!timers_.empty() && timers_.begin()->side == 0 && timers_.begin()->time <= watermark) {
    // A round: the earliest due left values and their keys' versions, read at once.
    due_.clear();
    while (!timers_.empty() && timers_.begin()->side == 0 && timers_.begin()->time <= watermark &&
           due_.size() < kMaxRoundValues) {
      due_.push_back(std::move(timers_.extract(timers_.begin()).value()));
    }
    used_slots_ = 0;
    for (const Timer& t : due_) {
      Slot* s = AcquireSlot();
      s->key = t.key;
      s->key_group = t.key_group;
      s->need_left = s->need_right = true;
    }
    RETURN_IF_ERROR(ReadSlots());
    for (Column& c : decoded_left_) c.Clear();
    probes_.clear();
    for (size_t i = 0; i < used_slots_; ++i) {
      Slot& s = *slots_[i];
      if (s.left.empty()) {
        return absl::InternalError(absl::StrCat("TemporalJoin: a timer at ", due_[i].time,
                                                " has no waiting rows for its join key"));
      }
      // The timer was popped: the value has none until one is set again below.
      s.old_left_timer.reset();
      // Rows are in time order: the released ones are a prefix, joined in that order.
      size_t released = 0;
      for (; released < s.left.size() && s.left.at(released).time <= watermark; ++released) {
        const IntervalJoinRecord& rec = s.left.at(released);
        RETURN_IF_ERROR(left_side.row.AppendToColumns(rec.row, std::span<Column>(decoded_left_)));
        Probe probe{static_cast<uint32_t>(decoded_left_[0].size() - 1), -1};
        const int64_t v = s.right.Find(rec.time);
        if (v >= 0 && !s.right.at(v).deleted) {
          ASSIGN_OR_RETURN(probe.right, DecodeVersion(&s.decoded, v, s.right.at(v).row));
        }
        probes_.push_back(probe);
        if (probes_.size() >= kMaxProbesPerChunk) {
          RETURN_IF_ERROR(JoinProbes(decoded_left_));
          for (Column& c : decoded_left_) c.Clear();
        }
      }
      s.left.RemoveFront(released);
      waiting_rows_ -= std::min<uint64_t>(waiting_rows_, released);
      if (prune) s.right.Prune(watermark);
    }
    RETURN_IF_ERROR(JoinProbes(decoded_left_));
    for (Column& c : decoded_left_) c.Clear();

    // Write back: encode first (the lists are views into the values being replaced).
    write_arena_.clear();
    write_ends_.clear();
    for (size_t i = 0; i < used_slots_; ++i) {
      const Slot& s = *slots_[i];
      if (!s.left.empty()) s.left.Encode(&write_arena_);
      write_ends_.push_back(write_arena_.size());
      if (s.right.dirty() && !s.right.empty()) s.right.Encode(&write_arena_);
      write_ends_.push_back(write_arena_.size());
    }
    size_t begin = 0;
    for (size_t i = 0; i < used_slots_; ++i) {
      const Slot& s = *slots_[i];
      size_t end = write_ends_[2 * i];
      if (s.left.empty()) {
        table_->Erase(s.left_read);
      } else {
        table_->Update(s.left_read, std::string_view(write_arena_).substr(begin, end - begin));
        MoveTimer(0, s.key_group, s.key, std::nullopt, s.left.at(0).time);
      }
      begin = end;
      end = write_ends_[2 * i + 1];
      if (s.right.dirty()) {
        if (!s.right.empty()) {
          table_->Update(s.right_read, std::string_view(write_arena_).substr(begin, end - begin));
        } else if (s.right_found) {
          table_->Erase(s.right_read);
        }
        MoveTimer(1, s.key_group, s.key, s.old_right_timer, s.right.PruneTime());
      }
      begin = end;
    }
    RETURN_IF_ERROR(table_->Commit());
  }
  if (prune) RETURN_IF_ERROR(PruneDueVersions(watermark));
  return EmitAndClear(&out_);
}

absl::Status TemporalJoinOperator::PruneDueVersions(int64_t watermark) {
  Timer first_right;
  first_right.side = 1;
  first_right.time = kMinWatermark;
  while (true) {
    auto it = timers_.lower_bound(first_right);
    if (it == timers_.end() || it->time > watermark) break;
    // A round: the earliest due right values, read at once.
    due_.clear();
    while (it != timers_.end() && it->time <= watermark && due_.size() < kMaxRoundValues) {
      auto next = std::next(it);
      due_.push_back(std::move(timers_.extract(it).value()));
      it = next;
    }
    used_slots_ = 0;
    for (const Timer& t : due_) {
      Slot* s = AcquireSlot();
      s->key = t.key;
      s->key_group = t.key_group;
      s->need_right = true;
    }
    RETURN_IF_ERROR(ReadSlots());
    write_arena_.clear();
    write_ends_.clear();
    for (size_t i = 0; i < used_slots_; ++i) {
      Slot& s = *slots_[i];
      if (!s.right_found) {
        return absl::InternalError(absl::StrCat("TemporalJoin: a timer at ", due_[i].time,
                                                " has no versions for its join key"));
      }
      s.right.Prune(watermark);
      if (!s.right.empty()) s.right.Encode(&write_arena_);
      write_ends_.push_back(write_arena_.size());
    }
    size_t begin = 0;
    for (size_t i = 0; i < used_slots_; ++i) {
      const Slot& s = *slots_[i];
      const size_t end = write_ends_[i];
      if (s.right.empty()) {
        table_->Erase(s.right_read);
      } else {
        table_->Update(s.right_read, std::string_view(write_arena_).substr(begin, end - begin));
      }
      // The timer was popped: set again where the pruned versions will shrink next.
      MoveTimer(1, s.key_group, s.key, std::nullopt, s.right.PruneTime());
      begin = end;
    }
    RETURN_IF_ERROR(table_->Commit());
  }
  return absl::OkStatus();
}

absl::Status TemporalJoinOperator::FlushState() {
  if (table_ == nullptr) return absl::FailedPreconditionError("TemporalJoin: not open");
  return table_->Flush();
}

absl::Status TemporalJoinOperator::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  RETURN_IF_ERROR(FlushState());
  out->PutInt64(kWatermarkEntry, watermark_);
  out->PutInt64(kWaitingRowsEntry, static_cast<int64_t>(waiting_rows_));
  std::string timers;
  for (const Timer& t : timers_) EncodeJoinTimer(t, &timers);
  out->Put(kTimersEntry, std::move(timers));
  return absl::OkStatus();
}

absl::Status TemporalJoinOperator::RestoreState(const OperatorSnapshot& snapshot) {
  return RestoreFrom(std::span<const OperatorSnapshot>(&snapshot, 1), OwnedKeyGroups::All());
}

absl::Status TemporalJoinOperator::RestoreRescaledState(
    std::span<const OperatorSnapshot> snapshots) {
  return RestoreFrom(snapshots, owned_);
}

absl::Status TemporalJoinOperator::RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                                               const OwnedKeyGroups& owned) {
  if (table_ == nullptr) return absl::FailedPreconditionError("TemporalJoin: not open");
  const absl::Status malformed = absl::InvalidArgumentError(
      "TemporalJoin: the snapshot is malformed or was taken at another max parallelism");
  std::vector<int64_t> watermarks;
  std::set<Timer> restored;
  uint64_t recorded = 0;
  bool elsewhere = snapshots.size() != 1;  // some state came from another subtask
  for (const OperatorSnapshot& snapshot : snapshots) {
    ASSIGN_OR_RETURN(std::optional<int64_t> watermark, snapshot.GetInt64(kWatermarkEntry));
    ASSIGN_OR_RETURN(std::optional<int64_t> waiting, snapshot.GetInt64(kWaitingRowsEntry));
    std::optional<std::string_view> timers = snapshot.Get(kTimersEntry);
    if (!watermark || !waiting || *waiting < 0 || !timers) return malformed;
    watermarks.push_back(*watermark);
    recorded = static_cast<uint64_t>(*waiting);
    if (!DecodeOwnedJoinTimers(*timers, max_parallelism_, owned, &restored, &elsewhere)) {
      return malformed;
    }
  }
  if (elsewhere) {
    // The rows kept are those of the key groups the store holds now.
    ASSIGN_OR_RETURN(recorded,
                     CountStoredRecords(*store_, state_id_, max_parallelism_, owned, "L"));
  }
  watermark_ = RestartWatermark(watermarks);
  waiting_rows_ = recorded;
  timers_ = std::move(restored);
  return absl::OkStatus();
}

absl::Status TemporalJoinOperator::Close() {
  // The cache and the timers are memory only; the store (and what reached it) stays until the job
  // ends. A second call (Close after a failure) is a no-op.
  table_.reset();
  timers_.clear();
  out_.Clear();
  return absl::OkStatus();
}

}  // namespace eddy
