// RankOperator: batch-at-a-time state access, row-by-row Flink Top-N semantics.
#include "worker/operators/rank_operator.h"

#include <algorithm>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/operators/join_common.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

// The output batch is emitted once it holds this many rows (one input row can move rank_end rows,
// so a batch may be emitted while a row is applied).
constexpr size_t kMaxRankOutputRows = 16384;

}  // namespace

absl::StatusOr<std::unique_ptr<RankOperator>> RankOperator::Create(RankSpec spec) {
  const size_t n = spec.input_types.size();
  for (int c : spec.partition_keys) {
    if (c < 0 || static_cast<size_t>(c) >= n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Rank: partition key column ", c, " out of range for an input with ", n, " columns"));
    }
  }
  if (spec.rank_start < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Rank: rank_start is ", spec.rank_start, "; ranks start at 1"));
  }
  if (spec.rank_end < spec.rank_start) {
    return absl::InvalidArgumentError(
        absl::StrCat("Rank: rank_end ", spec.rank_end, " is below rank_start ", spec.rank_start));
  }
  if (spec.state_ttl_ms < 0) return absl::InvalidArgumentError("Rank: negative state TTL");
  ASSIGN_OR_RETURN(KeyEncoder partition, KeyEncoder::Create(spec.input_types, spec.partition_keys));
  ASSIGN_OR_RETURN(SortKeyEncoder sort,
                   SortKeyEncoder::Create("Rank", spec.input_types, spec.order_by));
  ASSIGN_OR_RETURN(KeyEncoder row, KeyEncoder::Create(spec.input_types, AllColumns(n)));
  return std::unique_ptr<RankOperator>(
      new RankOperator(std::move(spec), std::move(partition), std::move(sort), std::move(row)));
}

RankOperator::RankOperator(RankSpec spec, KeyEncoder partition, SortKeyEncoder sort, KeyEncoder row)
    : spec_(std::move(spec)),
      partition_(std::move(partition)),
      sort_(std::move(sort)),
      row_(std::move(row)) {
  output_types_ = spec_.input_types;
  if (spec_.output_rank_number) output_types_.push_back(DataType::BigInt().WithNullable(false));
  out_ = ChangelogBatch(output_types_);
}

absl::Status RankOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr)
    return absl::FailedPreconditionError("Rank needs a keyed state backend");
  if (ctx.max_parallelism <= 0 || ctx.max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("Rank: max_parallelism out of range");
  }
  max_parallelism_ = ctx.max_parallelism;
  table_ = std::make_unique<KeyedStateTable>(ctx.state, ctx.state_id, ctx.max_parallelism,
                                             ctx.state_cache_bytes, spec_.state_ttl_ms);
  return absl::OkStatus();
}

RankOperator::Slot* RankOperator::AcquireSlot() {
  if (used_slots_ == slots_.size()) slots_.push_back(std::make_unique<Slot>());
  return slots_[used_slots_++].get();
}

absl::Status RankOperator::Process(int input, const ChangelogBatch& batch) {
  if (table_ == nullptr) return absl::FailedPreconditionError("Rank: Process before Open");
  if (input != 0)
    return absl::InvalidArgumentError(absl::StrCat("Rank has one input, not ", input));
  const size_t n = batch.num_rows();
  if (n > 0 && batch.num_columns() != spec_.input_types.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Rank: input has ", batch.num_columns(), " columns, expected ", spec_.input_types.size()));
  }
  CountIn(batch);
  if (n == 0) return absl::OkStatus();
  if (spec_.strategy == RankStrategy::kAppendFast) {
    for (size_t r = 0; r < n; ++r) {
      if (batch.kind(r) != RowKind::kInsert) {
        return absl::InvalidArgumentError(
            absl::StrCat("Rank (APPEND_FAST) accepts insert-only input but received a ",
                         std::string(RowKindShortString(batch.kind(r))),
                         " row; an updating input needs RETRACT"));
      }
    }
  }

  RETURN_IF_ERROR(ReadSlots(batch));

  // Rows in input order, as Flink's processElement.
  out_.Clear();
  for (size_t r = 0; r < n; ++r) {
    Slot& s = *slots_[row_slot_[r]];
    const RowEncoding& e = row_encodings_[r];
    const std::string_view sort_key(encodings_.data() + e.sort_begin, e.sort_end - e.sort_begin);
    const std::string_view row(encodings_.data() + e.row_begin, e.row_end - e.row_begin);
    if (spec_.function != RankFunction::kRowNumber) {
      RETURN_IF_ERROR(ApplyRanked(s.rows, sort_key, row, IsAccumulate(batch.kind(r))));
      continue;
    }
    RETURN_IF_ERROR(IsAccumulate(batch.kind(r)) ? Accumulate(s.rows, sort_key, row)
                                                : Retract(s.rows, sort_key, row));
  }

  WriteSlots();
  RETURN_IF_ERROR(table_->Commit());
  memory_bytes_.store(table_->cache().bytes(), std::memory_order_relaxed);
  return EmitAndClear(&out_);
}

absl::Status RankOperator::ReadSlots(const ChangelogBatch& batch) {
  const size_t n = batch.num_rows();

  // 1. Every row's partition key, sort key and row bytes, in one buffer that then stops moving.
  encodings_.clear();
  row_encodings_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    RowEncoding& e = row_encodings_[r];
    e.key_begin = static_cast<uint32_t>(encodings_.size());
    partition_.Encode(batch, r, &encodings_);
    e.key_end = e.sort_begin = static_cast<uint32_t>(encodings_.size());
    sort_.Encode(batch, r, &encodings_);
    e.sort_end = e.row_begin = static_cast<uint32_t>(encodings_.size());
    row_.Encode(batch, r, &encodings_);
    e.row_end = static_cast<uint32_t>(encodings_.size());
  }

  // 2. The distinct partitions, in first-appearance order.
  used_slots_ = 0;
  slot_of_key_.Reset(n);
  row_slot_.resize(n);
  for (size_t r = 0; r < n; ++r) {
    const RowEncoding& e = row_encodings_[r];
    const std::string_view key(encodings_.data() + e.key_begin, e.key_end - e.key_begin);
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

  // 3. One read of each partition's rows.
  table_->ClearReads();
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->read = table_->AddRead(s->key_group, s->key);
  }
  RETURN_IF_ERROR(table_->ReadAll());
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->found = table_->found(s->read);
    s->rows.Clear();
    if (s->found) RETURN_IF_ERROR(s->rows.Decode(table_->value(s->read)));
  }
  return absl::OkStatus();
}

absl::Status RankOperator::Accumulate(RankRecordList& rows, std::string_view sort_key,
                                      std::string_view row) {
  const int64_t end = spec_.rank_end;
  const int64_t n = rows.rows();
  const size_t at = rows.UpperBound(sort_key);
  const bool append_only = spec_.strategy == RankStrategy::kAppendFast;
  // An append-only partition holds its top rank_end rows: a row enters below a full one only with
  // a sort key strictly before the last row's (at a tie it would rank after it).
  if (append_only && n >= end && at == rows.size()) return absl::OkStatus();

  const int64_t p = rows.RankOf(at, end);  // the new row's rank (end + 1: beyond the Top-N)
  if (p <= end) {
    RankCursor c{at, 0};  // S[p], which moves to p + 1
    if (numbered()) {
      std::string_view now = row;  // the row that now has rank r
      for (int64_t r = p; r <= std::min(n, end); ++r) {
        const std::string_view old = rows.RecordAt(c).row;
        if (in_range(r)) {
          if (spec_.generate_update_before) {
            RETURN_IF_ERROR(EmitRow(RowKind::kUpdateBefore, old, r));
          }
          RETURN_IF_ERROR(EmitRow(RowKind::kUpdateAfter, now, r));
        }
        now = old;
        rows.Advance(&c, 1);
      }
      if (n + 1 <= end && in_range(n + 1)) RETURN_IF_ERROR(EmitRow(RowKind::kInsert, now, n + 1));
    } else {
      if (n >= end) {
        rows.Advance(&c, end - p);  // S[end], pushed out
        RETURN_IF_ERROR(EmitRow(RowKind::kDelete, rows.RecordAt(c).row, end));
      }
      RETURN_IF_ERROR(EmitRow(RowKind::kInsert, row, p));
    }
  }
  rows.Insert(at, sort_key, row);
  if (append_only) rows.Truncate(end);
  return absl::OkStatus();
}

absl::Status RankOperator::Retract(RankRecordList& rows, std::string_view sort_key,
                                   std::string_view row) {
  const size_t at = rows.Find(sort_key, row);
  if (at == RankRecordList::kNotFound) return absl::OkStatus();  // never seen, or expired
  const int64_t end = spec_.rank_end;
  const int64_t n = rows.rows();
  const int64_t q = rows.RankOf(at, end);
  if (q <= end) {
    RankCursor c{at, 0};  // S[q], leaving
    if (numbered()) {
      for (int64_t r = q; r <= std::min(n - 1, end); ++r) {
        const std::string_view old = rows.RecordAt(c).row;
        rows.Advance(&c, 1);  // S[r + 1], moving up to r
        if (in_range(r)) {
          if (spec_.generate_update_before) {
            RETURN_IF_ERROR(EmitRow(RowKind::kUpdateBefore, old, r));
          }
          RETURN_IF_ERROR(EmitRow(RowKind::kUpdateAfter, rows.RecordAt(c).row, r));
        }
      }
      // The last row moved up: its old rank is empty now.
      if (n <= end && in_range(n)) {
        RETURN_IF_ERROR(EmitRow(RowKind::kDelete, rows.RecordAt(c).row, n));
      }
    } else {
      RETURN_IF_ERROR(EmitRow(RowKind::kDelete, rows.RecordAt(c).row, q));
      if (n > end) {
        rows.Advance(&c, end + 1 - q);  // S[end + 1], pulled in
        RETURN_IF_ERROR(EmitRow(RowKind::kInsert, rows.RecordAt(c).row, end));
      }
    }
  }
  rows.RemoveOne(at);
  return absl::OkStatus();
}

int64_t RankOperator::InRange(const RankRecordList& rows,
                              std::vector<std::pair<std::string_view, int64_t>>* out) {
  out->clear();
  int64_t before = 0;  // rows ahead of the current record
  int64_t rank = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const RankRecord& rec = rows.at(i);
    if (i == 0 || rec.sort_key != rows.at(i - 1).sort_key) {  // a new sort key: a new rank
      rank = spec_.function == RankFunction::kRank ? before + 1 : rank + 1;
    }
    if (rank > spec_.rank_end) break;  // no row from here on can enter the range
    if (rank >= spec_.rank_start) {
      // Unnumbered output compares rows only.
      const int64_t shown = spec_.output_rank_number ? rank : 0;
      for (int64_t c = 0; c < rec.count; ++c) out->emplace_back(rec.row, shown);
    }
    before += rec.count;
  }
  std::sort(out->begin(), out->end());
  return before;
}

absl::Status RankOperator::ApplyRanked(RankRecordList& rows, std::string_view sort_key,
                                       std::string_view row, bool accumulate) {
  InRange(rows, &before_);
  if (accumulate) {
    rows.Insert(rows.UpperBound(sort_key), sort_key, row);
  } else {
    const size_t at = rows.Find(sort_key, row);
    if (at == RankRecordList::kNotFound) return absl::OkStatus();  // never seen, or expired
    rows.RemoveOne(at);
  }
  const int64_t ranked = InRange(rows, &after_);
  // Append-only input: ranks only grow, so rows ranked beyond rank_end never come back.
  if (spec_.strategy == RankStrategy::kAppendFast) rows.Truncate(ranked);
  // Both lists are sorted: what only `before_` holds left the range, what only `after_` holds
  // entered it.
  size_t a = 0, b = 0;
  while (a < before_.size() || b < after_.size()) {
    if (b == after_.size() || (a < before_.size() && before_[a] < after_[b])) {
      RETURN_IF_ERROR(EmitRow(RowKind::kDelete, before_[a].first, before_[a].second));
      ++a;
    } else if (a == before_.size() || after_[b] < before_[a]) {
      RETURN_IF_ERROR(EmitRow(RowKind::kInsert, after_[b].first, after_[b].second));
      ++b;
    } else {
      ++a;
      ++b;
    }
  }
  return absl::OkStatus();
}

absl::Status RankOperator::EmitRow(RowKind kind, std::string_view row, int64_t rank) {
  std::vector<Column>& columns = out_.mutable_columns();
  const size_t n = spec_.input_types.size();
  RETURN_IF_ERROR(row_.AppendToColumns(row, std::span<Column>(columns.data(), n)));
  if (spec_.output_rank_number) columns[n].Append<int64_t>(rank);
  out_.mutable_kinds().push_back(kind);
  return EmitWhenFull(&out_, kMaxRankOutputRows);
}

void RankOperator::WriteSlots() {
  // Encode first, then write: the decoded lists are views into the values being replaced.
  write_arena_.clear();
  write_ends_.clear();
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    if (s.rows.dirty() && !s.rows.empty()) s.rows.Encode(&write_arena_);
    write_ends_.push_back(write_arena_.size());
  }
  size_t begin = 0;
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    const size_t end = write_ends_[i];
    if (s.rows.dirty()) {
      if (!s.rows.empty()) {
        table_->Update(s.read, std::string_view(write_arena_).substr(begin, end - begin));
      } else if (s.found) {
        table_->Erase(s.read);
      }
    }
    begin = end;
  }
}

absl::Status RankOperator::FlushState() {
  if (table_ == nullptr) return absl::FailedPreconditionError("Rank: not open");
  return table_->Flush();
}

absl::Status RankOperator::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  // Everything is in the store once the cache is written back.
  return FlushState();
}

absl::Status RankOperator::Close() {
  // The cache is memory only; the store (and what reached it) stays until the job ends. A second
  // call (Close after a failure) is a no-op.
  table_.reset();
  out_.Clear();
  return absl::OkStatus();
}

}  // namespace eddy
