// WindowRankOperator: batch-at-a-time keyed state per (window, partition), bounded to the top
// rank_end rows, fired by the watermark in window_end order.
#include "worker/operators/window_rank_operator.h"

#include <algorithm>
#include <optional>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/operators/join_common.h"
#include "worker/operators/owned_key_groups.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

constexpr size_t kTimeBytes = 8;
constexpr size_t kOutputBatchRows = 4096;

// Big-endian with the sign bit flipped, so that byte order is numeric order.
void AppendTime(int64_t millis, std::string* out) {
  const uint64_t u = static_cast<uint64_t>(millis) ^ (uint64_t{1} << 63);
  for (int shift = 56; shift >= 0; shift -= 8)
    out->push_back(static_cast<char>((u >> shift) & 0xff));
}

int64_t ReadTime(std::string_view bytes) {
  uint64_t u = 0;
  for (size_t i = 0; i < kTimeBytes; ++i) u = (u << 8) | static_cast<uint8_t>(bytes[i]);
  return static_cast<int64_t>(u ^ (uint64_t{1} << 63));
}

absl::Status CheckWindowColumn(const char* what, int column, const std::vector<DataType>& types) {
  if (column < 0 || static_cast<size_t>(column) >= types.size()) {
    return absl::InvalidArgumentError(absl::StrCat("WindowRank: ", what, " column ", column,
                                                   " out of range for an input with ", types.size(),
                                                   " columns"));
  }
  const DataType& t = types[static_cast<size_t>(column)];
  if (!t.IsTimestampLike() || t.precision > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("WindowRank: the ", what, " column ", column, " must be a TIMESTAMP(3)"));
  }
  return absl::OkStatus();
}

constexpr char kWatermarkEntry[] = "watermark";
// Per pending window: its end (8 bytes, AppendTime) and one byte per key group (1: holds state).
constexpr char kPendingEntry[] = "pending_windows";

}  // namespace

absl::StatusOr<std::unique_ptr<WindowRankOperator>> WindowRankOperator::Create(
    WindowRankSpec spec) {
  const size_t n = spec.input_types.size();
  for (int c : spec.partition_keys) {
    if (c < 0 || static_cast<size_t>(c) >= n) {
      return absl::InvalidArgumentError(absl::StrCat("WindowRank: partition key column ", c,
                                                     " out of range for an input with ", n,
                                                     " columns"));
    }
  }
  RETURN_IF_ERROR(CheckWindowColumn("window_start", spec.window_start_column, spec.input_types));
  RETURN_IF_ERROR(CheckWindowColumn("window_end", spec.window_end_column, spec.input_types));
  if (spec.rank_start < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("WindowRank: rank_start is ", spec.rank_start, "; ranks start at 1"));
  }
  if (spec.rank_end < spec.rank_start) {
    return absl::InvalidArgumentError(absl::StrCat("WindowRank: rank_end ", spec.rank_end,
                                                   " is below rank_start ", spec.rank_start));
  }
  ASSIGN_OR_RETURN(KeyEncoder partition, KeyEncoder::Create(spec.input_types, spec.partition_keys));
  ASSIGN_OR_RETURN(SortKeyEncoder sort,
                   SortKeyEncoder::Create("WindowRank", spec.input_types, spec.order_by));
  ASSIGN_OR_RETURN(KeyEncoder row, KeyEncoder::Create(spec.input_types, AllColumns(n)));
  return std::unique_ptr<WindowRankOperator>(new WindowRankOperator(
      std::move(spec), std::move(partition), std::move(sort), std::move(row)));
}

WindowRankOperator::WindowRankOperator(WindowRankSpec spec, KeyEncoder partition,
                                       SortKeyEncoder sort, KeyEncoder row)
    : spec_(std::move(spec)),
      partition_(std::move(partition)),
      sort_(std::move(sort)),
      row_(std::move(row)) {
  output_types_ = spec_.input_types;
  if (spec_.output_rank_number) output_types_.push_back(DataType::BigInt().WithNullable(false));
  out_ = ChangelogBatch(output_types_);
}

absl::Status WindowRankOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr) {
    return absl::FailedPreconditionError("WindowRank needs a keyed state backend");
  }
  if (ctx.max_parallelism <= 0 || ctx.max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("WindowRank: max_parallelism out of range");
  }
  backend_ = ctx.state;
  state_id_ = ctx.state_id;
  max_parallelism_ = ctx.max_parallelism;
  owned_ = OwnedKeyGroups(ctx);
  // No cache: a firing window is read by a RocksDB prefix scan, which must see every change.
  table_ = std::make_unique<KeyedStateTable>(ctx.state, ctx.state_id, ctx.max_parallelism, 0);
  return absl::OkStatus();
}

absl::Status WindowRankOperator::Process(int input, const ChangelogBatch& batch) {
  if (table_ == nullptr) return absl::FailedPreconditionError("WindowRank: Process before Open");
  if (input != 0) {
    return absl::InvalidArgumentError(absl::StrCat("WindowRank has one input, not ", input));
  }
  if (batch.num_rows() > 0 && batch.num_columns() != spec_.input_types.size()) {
    return absl::InvalidArgumentError(absl::StrCat("WindowRank: input has ", batch.num_columns(),
                                                   " columns, expected ",
                                                   spec_.input_types.size()));
  }
  CountIn(batch);
  if (batch.num_rows() == 0) return absl::OkStatus();

  RETURN_IF_ERROR(ReadSlots(batch));
  if (used_slots_ == 0) return absl::OkStatus();  // every row was late
  // Rows in input order: ties keep their arrival order.
  for (const RowEncoding& e : row_encodings_) {
    Accumulate(slots_[e.slot]->rows,
               std::string_view(encodings_.data() + e.sort_begin, e.sort_end - e.sort_begin),
               std::string_view(encodings_.data() + e.row_begin, e.row_end - e.row_begin));
  }
  WriteSlots();
  RETURN_IF_ERROR(table_->Commit());
  UpdateMemoryBytes();
  return absl::OkStatus();
}

absl::Status WindowRankOperator::ReadSlots(const ChangelogBatch& batch) {
  const size_t n = batch.num_rows();
  const Column& starts = batch.column(spec_.window_start_column);
  const Column& ends = batch.column(spec_.window_end_column);
  const int64_t* start_values = starts.data<int64_t>();
  const int64_t* end_values = ends.data<int64_t>();

  // 1. Every on-time row's state key (window_end | window_start | partition key), sort key and row
  // bytes, in one buffer that then stops moving.
  encodings_.clear();
  row_encodings_.clear();
  uint64_t late = 0;
  for (size_t r = 0; r < n; ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      return absl::InvalidArgumentError(
          absl::StrCat("WindowRank accepts insert-only input but received a ",
                       std::string(RowKindShortString(batch.kind(r))), " row"));
    }
    if (starts.IsNull(r) || ends.IsNull(r)) {
      return absl::InvalidArgumentError(
          "WindowRank: a row's window_start or window_end is NULL; window bounds must not be NULL");
    }
    const int64_t end = end_values[r];
    if (end - 1 <= watermark_) {  // its window already fired
      ++late;
      continue;
    }
    RowEncoding e;
    e.slot = 0;
    e.key_begin = static_cast<uint32_t>(encodings_.size());
    AppendTime(end, &encodings_);
    AppendTime(start_values[r], &encodings_);
    partition_.Encode(batch, r, &encodings_);
    e.key_end = e.sort_begin = static_cast<uint32_t>(encodings_.size());
    sort_.Encode(batch, r, &encodings_);
    e.sort_end = e.row_begin = static_cast<uint32_t>(encodings_.size());
    row_.Encode(batch, r, &encodings_);
    e.row_end = static_cast<uint32_t>(encodings_.size());
    row_encodings_.push_back(e);
  }
  if (late > 0) late_rows_dropped_.fetch_add(late, std::memory_order_relaxed);

  // 2. The distinct partitions, in first-appearance order.
  used_slots_ = 0;
  slot_of_key_.Reset(row_encodings_.size());
  for (RowEncoding& e : row_encodings_) {
    const std::string_view key(encodings_.data() + e.key_begin, e.key_end - e.key_begin);
    BatchKeyIndex::Lookup found = slot_of_key_.Find(key);
    if (found.found) {
      e.slot = found.value;
      continue;
    }
    e.slot = static_cast<uint32_t>(used_slots_);
    if (used_slots_ == slots_.size()) slots_.push_back(std::make_unique<Slot>());
    Slot* s = slots_[used_slots_++].get();
    s->key = key;
    const std::string_view partition_key = key.substr(2 * kTimeBytes);
    s->key_group = partition_key.empty() ? 0 : KeyGroupOf(partition_key, max_parallelism_);
    s->window_end = ReadTime(key);
    slot_of_key_.Insert(found, s->key, e.slot);
  }

  // 3. One read of each partition's rows; a new partition registers its window's key group.
  table_->ClearReads();
  for (size_t i = 0; i < used_slots_; ++i) table_->AddRead(slots_[i]->key_group, slots_[i]->key);
  RETURN_IF_ERROR(table_->ReadAll());
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    s->found = table_->found(i);
    s->rows.Clear();
    if (s->found) {
      RETURN_IF_ERROR(s->rows.Decode(table_->value(i)));
    } else {
      std::vector<uint8_t>& groups = pending_[s->window_end];
      if (groups.empty()) groups.assign(static_cast<size_t>(max_parallelism_), 0);
      groups[static_cast<size_t>(s->key_group)] = 1;
    }
  }
  return absl::OkStatus();
}

void WindowRankOperator::Accumulate(RankRecordList& rows, std::string_view sort_key,
                                    std::string_view row) const {
  const size_t at = spec_.later_ties_first ? rows.LowerBound(sort_key) : rows.UpperBound(sort_key);
  // A full partition takes a row only if it ranks before the last kept row.
  if (rows.rows() >= spec_.rank_end && at == rows.size()) return;
  rows.Insert(at, sort_key, row);
  rows.Truncate(spec_.rank_end);
}

void WindowRankOperator::WriteSlots() {
  // Encode first, then write: the decoded lists are views into the values being replaced.
  write_arena_.clear();
  write_ends_.clear();
  for (size_t i = 0; i < used_slots_; ++i) {
    const Slot& s = *slots_[i];
    if (s.rows.dirty()) s.rows.Encode(&write_arena_);
    write_ends_.push_back(write_arena_.size());
  }
  size_t begin = 0;
  for (size_t i = 0; i < used_slots_; ++i) {
    const size_t end = write_ends_[i];
    if (slots_[i]->rows.dirty()) {
      table_->Update(i, std::string_view(write_arena_).substr(begin, end - begin));
    }
    begin = end;
  }
}

absl::Status WindowRankOperator::ProcessWatermark(const Watermark& watermark) {
  if (table_ == nullptr) return absl::FailedPreconditionError("WindowRank: not open");
  const int64_t progress = spec_.clock.Progress(watermark.millis);
  if (!watermark.idle && progress > watermark_) {
    watermark_ = progress;
    RETURN_IF_ERROR(FireUpTo(watermark_));
  }
  return EmitWatermark(watermark);
}

absl::Status WindowRankOperator::Finish() {
  if (table_ == nullptr) return absl::OkStatus();
  watermark_ = kMaxWatermark;
  return FireUpTo(kMaxWatermark);
}

absl::Status WindowRankOperator::FireUpTo(int64_t watermark) {
  while (!pending_.empty() && pending_.begin()->first - 1 <= watermark) {
    auto node = pending_.extract(pending_.begin());
    RETURN_IF_ERROR(Fire(node.key(), node.mapped()));
  }
  UpdateMemoryBytes();
  return EmitAndClear(&out_);
}

absl::Status WindowRankOperator::Fire(int64_t window_end, const std::vector<uint8_t>& key_groups) {
  std::string prefix;
  for (size_t kg = 0; kg < key_groups.size(); ++kg) {
    if (!key_groups[kg]) continue;
    prefix.clear();
    AppendStateKeyPrefix(static_cast<int>(kg), state_id_, &prefix);
    AppendTime(window_end, &prefix);
    RETURN_IF_ERROR(backend_->ScanAndDeletePrefix(
        prefix, [&](std::string_view key, std::string_view value) -> absl::Status {
          RETURN_IF_ERROR(fired_.Decode(value));
          return EmitPartition(fired_);
        }));
  }
  fired_.Clear();
  return absl::OkStatus();
}

absl::Status WindowRankOperator::EmitPartition(const RankRecordList& rows) {
  const size_t n = spec_.input_types.size();
  std::vector<Column>& columns = out_.mutable_columns();
  RankCursor c;
  const int64_t last = std::min(rows.rows(), spec_.rank_end);
  for (int64_t rank = 1; rank <= last; ++rank, rows.Advance(&c, 1)) {
    if (rank < spec_.rank_start) continue;
    RETURN_IF_ERROR(
        row_.AppendToColumns(rows.RecordAt(c).row, std::span<Column>(columns.data(), n)));
    if (spec_.output_rank_number) columns[n].Append<int64_t>(rank);
    out_.mutable_kinds().push_back(RowKind::kInsert);
    RETURN_IF_ERROR(EmitWhenFull(&out_, kOutputBatchRows));
  }
  return absl::OkStatus();
}

void WindowRankOperator::UpdateMemoryBytes() {
  const size_t per_window = sizeof(int64_t) + static_cast<size_t>(max_parallelism_) + 64;
  memory_bytes_.store(pending_.size() * per_window, std::memory_order_relaxed);
}

absl::Status WindowRankOperator::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  if (table_ == nullptr) return absl::FailedPreconditionError("WindowRank: not open");
  std::string watermark;
  AppendTime(watermark_, &watermark);
  out->Put(kWatermarkEntry, std::move(watermark));
  std::string pending;
  for (const auto& [end, groups] : pending_) {
    AppendTime(end, &pending);
    pending.append(groups.begin(), groups.end());
  }
  out->Put(kPendingEntry, std::move(pending));
  return absl::OkStatus();
}

absl::Status WindowRankOperator::RestoreState(const OperatorSnapshot& snapshot) {
  return RestoreFrom(std::span<const OperatorSnapshot>(&snapshot, 1), OwnedKeyGroups::All());
}

absl::Status WindowRankOperator::RestoreRescaledState(std::span<const OperatorSnapshot> snapshots) {
  return RestoreFrom(snapshots, owned_);
}

absl::Status WindowRankOperator::RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                                             const OwnedKeyGroups& owned) {
  if (table_ == nullptr) return absl::FailedPreconditionError("WindowRank: not open");
  const size_t per_window = kTimeBytes + static_cast<size_t>(max_parallelism_);
  std::vector<int64_t> watermarks;
  std::map<int64_t, std::vector<uint8_t>> pending;
  for (const OperatorSnapshot& snapshot : snapshots) {
    std::optional<std::string_view> watermark = snapshot.Get(kWatermarkEntry);
    std::optional<std::string_view> windows = snapshot.Get(kPendingEntry);
    if (!watermark || watermark->size() != kTimeBytes || !windows ||
        windows->size() % per_window != 0) {
      return absl::InvalidArgumentError(
          "WindowRank: the snapshot is malformed or was taken at another max parallelism");
    }
    watermarks.push_back(ReadTime(*watermark));
    // A pending window's key groups that this subtask owns (all of them unless rescaled).
    for (size_t at = 0; at < windows->size(); at += per_window) {
      std::string_view groups = windows->substr(at + kTimeBytes, max_parallelism_);
      std::vector<uint8_t>* kept = nullptr;
      for (int g = 0; g < max_parallelism_; ++g) {
        if (groups[g] == 0 || !owned.Contains(g)) continue;
        if (kept == nullptr) {
          kept = &pending[ReadTime(windows->substr(at))];
          kept->resize(static_cast<size_t>(max_parallelism_), 0);
        }
        (*kept)[g] = 1;
      }
    }
  }
  watermark_ = RestartWatermark(watermarks);
  pending_ = std::move(pending);
  UpdateMemoryBytes();
  return absl::OkStatus();
}

absl::Status WindowRankOperator::Close() {
  // The store keeps its state until the job ends; a second call is a no-op.
  table_.reset();
  out_.Clear();
  return absl::OkStatus();
}

}  // namespace eddy
