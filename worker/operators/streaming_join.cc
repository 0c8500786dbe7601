// StreamingJoinOperator: batch-at-a-time state access, row-by-row Flink join semantics.
#include "worker/operators/streaming_join.h"

#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/operators/join_common.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

// Candidate pairs the condition is evaluated over at once, at most (unless one row alone has more).
constexpr size_t kMaxPairsPerChunk = 16384;
// Names the operator in messages.
constexpr char kOp[] = "StreamingJoin";

}  // namespace

const char* StreamingJoinTypeName(StreamingJoinType type) {
  switch (type) {
    case StreamingJoinType::kInner:
      return "INNER";
    case StreamingJoinType::kLeftOuter:
      return "LEFT OUTER";
    case StreamingJoinType::kRightOuter:
      return "RIGHT OUTER";
    case StreamingJoinType::kFullOuter:
      return "FULL OUTER";
    case StreamingJoinType::kSemi:
      return "SEMI";
    case StreamingJoinType::kAnti:
      return "ANTI";
  }
  return "?";
}

absl::StatusOr<std::unique_ptr<StreamingJoinOperator>> StreamingJoinOperator::Create(
    StreamingJoinSpec spec) {
  if (spec.left_keys.size() != spec.right_keys.size()) {
    return absl::InvalidArgumentError(absl::StrCat("StreamingJoin: ", spec.left_keys.size(),
                                                   " left keys but ", spec.right_keys.size(),
                                                   " right keys"));
  }
  if (!spec.null_safe.empty() && spec.null_safe.size() != spec.left_keys.size()) {
    return absl::InvalidArgumentError(absl::StrCat("StreamingJoin: ", spec.null_safe.size(),
                                                   " null_safe flags for ", spec.left_keys.size(),
                                                   " keys"));
  }
  RETURN_IF_ERROR(CheckJoinColumns(kOp, "left key", spec.left_keys, spec.left_types.size()));
  RETURN_IF_ERROR(CheckJoinColumns(kOp, "right key", spec.right_keys, spec.right_types.size()));
  RETURN_IF_ERROR(
      CheckJoinKeyTypes(kOp, spec.left_types, spec.left_keys, spec.right_types, spec.right_keys));
  RETURN_IF_ERROR(
      CheckJoinColumns(kOp, "left unique key", spec.left_unique_key, spec.left_types.size()));
  RETURN_IF_ERROR(
      CheckJoinColumns(kOp, "right unique key", spec.right_unique_key, spec.right_types.size()));
  if (spec.condition != nullptr) {
    RETURN_IF_ERROR(CheckJoinCondition(kOp, *spec.condition, spec.left_types, spec.right_types));
  }
  if (spec.state_ttl_ms < 0) return absl::InvalidArgumentError("StreamingJoin: negative state TTL");

  const bool semi_anti =
      spec.type == StreamingJoinType::kSemi || spec.type == StreamingJoinType::kAnti;
  Side sides[2];
  for (int i = 0; i < 2; ++i) {
    Side& s = sides[i];
    const bool left = i == 0;
    s.types = left ? spec.left_types : spec.right_types;
    ASSIGN_OR_RETURN(s.key, KeyEncoder::Create(s.types, left ? spec.left_keys : spec.right_keys));
    ASSIGN_OR_RETURN(s.row, KeyEncoder::Create(s.types, AllColumns(s.types.size())));
    const std::vector<int>& unique = left ? spec.left_unique_key : spec.right_unique_key;
    s.has_unique = !unique.empty();
    if (s.has_unique) {
      ASSIGN_OR_RETURN(s.unique, KeyEncoder::Create(s.types, unique));
    }
    s.outer = left ? (spec.type == StreamingJoinType::kLeftOuter ||
                      spec.type == StreamingJoinType::kFullOuter)
                   : (spec.type == StreamingJoinType::kRightOuter ||
                      spec.type == StreamingJoinType::kFullOuter);
    s.associations = s.outer || (semi_anti && left);
    s.tag = left ? 'L' : 'R';
    s.column_offset = left ? 0 : spec.left_types.size();
  }
  return std::unique_ptr<StreamingJoinOperator>(
      new StreamingJoinOperator(std::move(spec), std::move(sides[0]), std::move(sides[1])));
}

StreamingJoinOperator::StreamingJoinOperator(StreamingJoinSpec spec, Side left, Side right)
    : spec_(std::move(spec)) {
  sides_[0] = std::move(left);
  sides_[1] = std::move(right);
  AppendTypes(spec_.left_types, sides_[1].outer, &output_types_);
  if (!semi_or_anti()) AppendTypes(spec_.right_types, sides_[0].outer, &output_types_);
  out_ = ChangelogBatch(output_types_);
  decoded_[0] = EmptyColumns(spec_.left_types);
  decoded_[1] = EmptyColumns(spec_.right_types);
  if (spec_.condition != nullptr) {
    std::vector<DataType> both = spec_.left_types;
    both.insert(both.end(), spec_.right_types.begin(), spec_.right_types.end());
    pairs_ = ChangelogBatch(both);
  }
}

absl::Status StreamingJoinOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr) {
    return absl::FailedPreconditionError("StreamingJoin needs a keyed state backend");
  }
  if (ctx.max_parallelism <= 0 || ctx.max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("StreamingJoin: max_parallelism out of range");
  }
  max_parallelism_ = ctx.max_parallelism;
  table_ = std::make_unique<KeyedStateTable>(ctx.state, ctx.state_id, ctx.max_parallelism,
                                             ctx.state_cache_bytes, spec_.state_ttl_ms);
  return absl::OkStatus();
}

StreamingJoinOperator::Slot* StreamingJoinOperator::AcquireSlot() {
  if (used_slots_ == slots_.size()) slots_.push_back(std::make_unique<Slot>());
  return slots_[used_slots_++].get();
}

absl::Status StreamingJoinOperator::Process(int input, const ChangelogBatch& batch) {
  if (table_ == nullptr) return absl::FailedPreconditionError("StreamingJoin: Process before Open");
  RETURN_IF_ERROR(CheckJoinInput("StreamingJoin", input, batch, sides_[0].types.size(),
                                 sides_[1].types.size()));
  CountIn(batch);
  const size_t n = batch.num_rows();
  if (n == 0) return absl::OkStatus();

  RETURN_IF_ERROR(ReadSlots(input, batch));
  RETURN_IF_ERROR(DecodeOtherRows(1 - input));

  // Rows in input order, as Flink's processElement. The other side's records do not change while
  // this input's batch is applied (only their association counts do), so every row's candidates
  // are known up front and the condition is evaluated over chunks of (row, candidate) pairs.
  out_.Clear();
  size_t begin = 0;
  while (begin < n) {
    size_t end = n;
    if (spec_.condition != nullptr) {
      ASSIGN_OR_RETURN(end, EvaluateChunk(input, batch, begin));
    }
    for (size_t r = begin; r < end; ++r) {
      Slot& s = *slots_[row_slot_[r]];
      const uint8_t* matches =
          spec_.condition != nullptr ? match_.data() + pair_begin_[r - begin] : nullptr;
      RETURN_IF_ERROR(semi_or_anti() ? ProcessSemiAntiRow(input, batch, r, s, matches)
                                     : ProcessJoinRow(input, batch, r, s, matches));
      RETURN_IF_ERROR(EmitWhenFull(&out_, kMaxJoinOutputRows));
    }
    begin = end;
  }

  RETURN_IF_ERROR(WriteSlots());
  RETURN_IF_ERROR(table_->Commit());
  memory_bytes_.store(table_->cache().bytes(), std::memory_order_relaxed);
  RETURN_IF_ERROR(Emit(out_));
  out_.Clear();
  return absl::OkStatus();
}

absl::Status StreamingJoinOperator::ReadSlots(int input, const ChangelogBatch& batch) {
  const Side& side = sides_[input];
  const Side& other = sides_[1 - input];
  const size_t n = batch.num_rows();

  // 1. Every row's join key, row and unique key bytes, in one buffer that then stops moving.
  encodings_.clear();
  row_encodings_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    RowEncoding& e = row_encodings_[r];
    e.key_begin = static_cast<uint32_t>(encodings_.size());
    side.key.Encode(batch, r, &encodings_);
    e.key_end = e.row_begin = static_cast<uint32_t>(encodings_.size());
    side.row.Encode(batch, r, &encodings_);
    e.row_end = static_cast<uint32_t>(encodings_.size());
    if (side.has_unique) {
      e.id_begin = e.row_end;
      side.unique.Encode(batch, r, &encodings_);
      e.id_end = static_cast<uint32_t>(encodings_.size());
    } else {
      e.id_begin = e.row_begin;
      e.id_end = e.row_end;
    }
  }

  // 2. The distinct join keys, in first-appearance order.
  const std::vector<int>& key_columns = side.key.key_columns();
  used_slots_ = 0;
  slot_of_key_.Reset(n);
  row_slot_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    const RowEncoding& e = row_encodings_[r];
    std::string_view key(encodings_.data() + e.key_begin, e.key_end - e.key_begin);
    BatchKeyIndex::Lookup found = slot_of_key_.Find(key);
    if (found.found) {
      row_slot_[r] = found.value;
      continue;
    }
    const uint32_t index = static_cast<uint32_t>(used_slots_);
    Slot* s = AcquireSlot();
    s->key = key;
    s->key_group = key.empty() ? 0 : KeyGroupOf(key, max_parallelism_);
    // Rows with equal key bytes have NULLs in the same columns: the first row speaks for all.
    s->matchable = true;
    for (size_t k = 0; k < key_columns.size(); ++k) {
      const bool null_safe = !spec_.null_safe.empty() && spec_.null_safe[k];
      if (!null_safe && batch.column(key_columns[k]).IsNull(r)) s->matchable = false;
    }
    slot_of_key_.Insert(found, s->key, index);
    row_slot_[r] = index;
  }

  // 3. One read of each (side, join key) value: the input side's, and the other side's where a
  // row can match.
  table_->ClearReads();
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    state_key_.assign(1, side.tag);
    state_key_.append(s->key);
    s->own_read = table_->AddRead(s->key_group, state_key_);
    if (s->matchable) {
      state_key_[0] = other.tag;
      s->other_read = table_->AddRead(s->key_group, state_key_);
    }
  }
  RETURN_IF_ERROR(table_->ReadAll());
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->own.Reset(side.has_unique, side.associations);
    s->own_found = table_->found(s->own_read);
    if (s->own_found) RETURN_IF_ERROR(s->own.Decode(table_->value(s->own_read)));
    s->other.Reset(other.has_unique, other.associations);
    s->other_found = s->matchable && table_->found(s->other_read);
    if (s->other_found) RETURN_IF_ERROR(s->other.Decode(table_->value(s->other_read)));
    s->other_live = s->other.live();
  }
  return absl::OkStatus();
}

absl::Status StreamingJoinOperator::DecodeOtherRows(int other) {
  // The other side's rows are output by INNER/OUTER joins and by SEMI/ANTI for right input rows
  // (the left records), and are the condition's input.
  const bool needed = !semi_or_anti() || other == 0 || spec_.condition != nullptr;
  if (!needed) return absl::OkStatus();
  std::vector<Column>& columns = decoded_[other];
  for (Column& c : columns) c.Clear();
  uint32_t next = 0;
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot& s = *slots_[i];
    for (size_t j = 0; j < s.other.size(); ++j) {
      JoinRecord& rec = s.other.at(j);
      RETURN_IF_ERROR(sides_[other].row.AppendToColumns(rec.row, std::span<Column>(columns)));
      rec.decoded_row = next++;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<size_t> StreamingJoinOperator::EvaluateChunk(int input, const ChangelogBatch& batch,
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
    const Slot& s = *slots_[row_slot_[end]];
    const size_t candidates = s.matchable ? s.other_live : 0;
    if (end > begin && pairs + candidates > kMaxPairsPerChunk) break;
    pair_begin_.push_back(pairs);
    pairs += candidates;
    if (candidates == 0) continue;
    // Column by column: the input row repeated, then each candidate's row.
    for (size_t c = 0; c < in.types.size(); ++c) {
      Column& dst = pairs_.mutable_column(in.column_offset + c);
      for (size_t p = 0; p < candidates; ++p) dst.AppendFrom(batch.column(c), end);
    }
    for (size_t c = 0; c < ot.types.size(); ++c) {
      Column& dst = pairs_.mutable_column(ot.column_offset + c);
      for (size_t j = 0; j < s.other.size(); ++j) {
        const JoinRecord& rec = s.other.at(j);
        if (rec.count > 0) dst.AppendFrom(other_rows[c], rec.decoded_row);
      }
    }
    pairs_.mutable_kinds().insert(pairs_.mutable_kinds().end(), candidates, RowKind::kInsert);
  }
  RETURN_IF_ERROR(EvaluateJoinCondition(*spec_.condition, pairs_, &match_));
  return end;
}

int64_t StreamingJoinOperator::CollectAssociated(const Slot& s, const uint8_t* matches) {
  associated_.clear();
  if (!s.matchable) return 0;
  int64_t total = 0;
  size_t p = 0;  // the record's candidate pair, in the order EvaluateChunk built them
  for (size_t j = 0; j < s.other.size(); ++j) {
    const JoinRecord& rec = s.other.at(j);
    if (rec.count <= 0) continue;
    if (matches == nullptr || matches[p] != 0) {
      associated_.push_back(static_cast<uint32_t>(j));
      total += rec.count;
    }
    ++p;
  }
  return total;
}

absl::Status StreamingJoinOperator::ProcessJoinRow(int input, const ChangelogBatch& batch,
                                                   size_t row, Slot& s, const uint8_t* matches) {
  const int other = 1 - input;
  const bool input_outer = sides_[input].outer;
  const bool other_outer = sides_[other].outer;
  const RowKind kind = batch.kind(row);
  const RowEncoding& e = row_encodings_[row];
  const std::string_view id(encodings_.data() + e.id_begin, e.id_end - e.id_begin);
  const std::string_view bytes(encodings_.data() + e.row_begin, e.row_end - e.row_begin);

  if (IsAccumulate(kind)) {
    const int64_t associated = CollectAssociated(s, matches);
    if (!input_outer) s.own.Add(id, bytes, 0);
    if (associated == 0) {
      if (input_outer) {
        EmitInputPadded(RowKind::kInsert, input, batch, row);
        s.own.Add(id, bytes, 0);
      }
      return absl::OkStatus();
    }
    RowKind out_kind = input_outer ? RowKind::kInsert : kind;
    if (other_outer) {
      // Other records matched for the first time take back their padded rows.
      for (uint32_t j : associated_) {
        JoinRecord& rec = s.other.at(j);
        if (rec.associations == 0) EmitOtherPadded(RowKind::kDelete, other, rec, rec.count);
        ++rec.associations;
      }
      s.other.MarkDirty();
      out_kind = RowKind::kInsert;
    }
    for (uint32_t j : associated_) {
      const JoinRecord& rec = s.other.at(j);
      EmitJoined(out_kind, input, batch, row, rec, rec.count);
    }
    if (input_outer) s.own.Add(id, bytes, associated);
    return absl::OkStatus();
  }

  if (!s.own.Retract(id)) return absl::OkStatus();  // not held: never seen, or expired
  const int64_t associated = CollectAssociated(s, matches);
  if (associated == 0) {
    if (input_outer) EmitInputPadded(RowKind::kDelete, input, batch, row);
    return absl::OkStatus();
  }
  const RowKind out_kind = input_outer ? RowKind::kDelete : kind;
  for (uint32_t j : associated_) {
    const JoinRecord& rec = s.other.at(j);
    EmitJoined(out_kind, input, batch, row, rec, rec.count);
  }
  if (other_outer) {
    // Other records that lost their last match are emitted padded again.
    for (uint32_t j : associated_) {
      JoinRecord& rec = s.other.at(j);
      if (rec.associations == 1) EmitOtherPadded(RowKind::kInsert, other, rec, rec.count);
      if (rec.associations > 0) --rec.associations;
    }
    s.other.MarkDirty();
  }
  return absl::OkStatus();
}

absl::Status StreamingJoinOperator::ProcessSemiAntiRow(int input, const ChangelogBatch& batch,
                                                       size_t row, Slot& s,
                                                       const uint8_t* matches) {
  const bool semi = spec_.type == StreamingJoinType::kSemi;
  const RowKind kind = batch.kind(row);
  const bool accumulate = IsAccumulate(kind);
  const RowEncoding& e = row_encodings_[row];
  const std::string_view id(encodings_.data() + e.id_begin, e.id_end - e.id_begin);
  const std::string_view bytes(encodings_.data() + e.row_begin, e.row_end - e.row_begin);

  if (input == 0) {
    if (!accumulate && !s.own.Retract(id)) return absl::OkStatus();
    const int64_t associated = CollectAssociated(s, matches);
    if (semi == (associated > 0)) EmitLeftInput(kind, batch, row);
    if (accumulate) s.own.Add(id, bytes, associated);
    return absl::OkStatus();
  }

  if (accumulate) {
    s.own.Add(id, bytes, 0);
  } else if (!s.own.Retract(id)) {
    return absl::OkStatus();
  }
  if (CollectAssociated(s, matches) == 0) return absl::OkStatus();
  for (uint32_t j : associated_) {
    JoinRecord& left = s.other.at(j);
    if (accumulate) {
      // A left record's first match: in the SEMI result now, out of the ANTI result.
      if (left.associations == 0) {
        EmitLeftRecord(semi ? RowKind::kInsert : RowKind::kDelete, left, left.count);
      }
      ++left.associations;
    } else {
      // Its last match gone: out of the SEMI result, back in the ANTI result.
      if (left.associations == 1) {
        EmitLeftRecord(semi ? RowKind::kDelete : RowKind::kInsert, left, left.count);
      }
      if (left.associations > 0) --left.associations;
    }
  }
  s.other.MarkDirty();
  return absl::OkStatus();
}

absl::Status StreamingJoinOperator::WriteSlots() {
  // Encode first, then write: the decoded lists are views into the values being replaced.
  write_arena_.clear();
  write_ends_.clear();
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    for (const JoinRecordList* list : {&s.own, &s.other}) {
      if (list->dirty() && list->live() > 0) list->Encode(&write_arena_);
      write_ends_.push_back(write_arena_.size());
    }
  }
  size_t begin = 0;
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    for (int which = 0; which < 2; ++which) {
      const JoinRecordList& list = which == 0 ? s.own : s.other;
      const size_t end = write_ends_[2 * i + which];
      if (list.dirty()) {
        const size_t read = which == 0 ? s.own_read : s.other_read;
        const bool found = which == 0 ? s.own_found : s.other_found;
        if (list.live() > 0) {
          table_->Update(read, std::string_view(write_arena_).substr(begin, end - begin));
        } else if (found) {
          table_->Erase(read);
        }
      }
      begin = end;
    }
  }
  return absl::OkStatus();
}

void StreamingJoinOperator::EmitJoined(RowKind kind, int input, const ChangelogBatch& batch,
                                       size_t row, const JoinRecord& rec, int64_t times) {
  if (kind == RowKind::kUpdateBefore && spec_.omit_update_before) return;
  const Side& in = sides_[input];
  const Side& ot = sides_[1 - input];
  const std::vector<Column>& other_rows = decoded_[1 - input];
  for (int64_t t = 0; t < times; ++t) {
    for (size_t c = 0; c < in.types.size(); ++c) {
      out_.mutable_column(in.column_offset + c).AppendFrom(batch.column(c), row);
    }
    for (size_t c = 0; c < ot.types.size(); ++c) {
      out_.mutable_column(ot.column_offset + c).AppendFrom(other_rows[c], rec.decoded_row);
    }
    out_.mutable_kinds().push_back(kind);
  }
}

void StreamingJoinOperator::EmitInputPadded(RowKind kind, int input, const ChangelogBatch& batch,
                                            size_t row) {
  const Side& in = sides_[input];
  const Side& ot = sides_[1 - input];
  for (size_t c = 0; c < in.types.size(); ++c) {
    out_.mutable_column(in.column_offset + c).AppendFrom(batch.column(c), row);
  }
  for (size_t c = 0; c < ot.types.size(); ++c) {
    out_.mutable_column(ot.column_offset + c).AppendNull();
  }
  out_.mutable_kinds().push_back(kind);
}

void StreamingJoinOperator::EmitOtherPadded(RowKind kind, int other, const JoinRecord& rec,
                                            int64_t times) {
  const Side& in = sides_[1 - other];
  const Side& ot = sides_[other];
  const std::vector<Column>& other_rows = decoded_[other];
  for (int64_t t = 0; t < times; ++t) {
    for (size_t c = 0; c < in.types.size(); ++c) {
      out_.mutable_column(in.column_offset + c).AppendNull();
    }
    for (size_t c = 0; c < ot.types.size(); ++c) {
      out_.mutable_column(ot.column_offset + c).AppendFrom(other_rows[c], rec.decoded_row);
    }
    out_.mutable_kinds().push_back(kind);
  }
}

void StreamingJoinOperator::EmitLeftInput(RowKind kind, const ChangelogBatch& batch, size_t row) {
  if (kind == RowKind::kUpdateBefore && spec_.omit_update_before) return;
  out_.AppendRow(batch, row, kind);
}

void StreamingJoinOperator::EmitLeftRecord(RowKind kind, const JoinRecord& rec, int64_t times) {
  const std::vector<Column>& left_rows = decoded_[0];
  for (int64_t t = 0; t < times; ++t) {
    for (size_t c = 0; c < left_rows.size(); ++c) {
      out_.mutable_column(c).AppendFrom(left_rows[c], rec.decoded_row);
    }
    out_.mutable_kinds().push_back(kind);
  }
}

absl::Status StreamingJoinOperator::FlushState() {
  if (table_ == nullptr) return absl::FailedPreconditionError("StreamingJoin: not open");
  return table_->Flush();
}

absl::Status StreamingJoinOperator::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  // Everything is in the store once the cache is written back.
  return FlushState();
}

absl::Status StreamingJoinOperator::Close() {
  // The cache is memory only; the store (and what reached it) stays until the job ends. A second
  // call (Close after a failure) is a no-op.
  table_.reset();
  out_.Clear();
  return absl::OkStatus();
}

}  // namespace eddy
