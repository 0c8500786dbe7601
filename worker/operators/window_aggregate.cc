#include "worker/operators/window_aggregate.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/hash.h"
#include "common/base/status_macros.h"
#include "worker/operators/owned_key_groups.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

constexpr size_t kEndBytes = 8;
constexpr size_t kOutputBatchRows = 1024;
constexpr size_t kMaxPairsPerChunk = 64 * 1024;

// Big-endian with the sign bit flipped, so that byte order is numeric order.
void AppendEnd(int64_t end, std::string* out) {
  const uint64_t u = static_cast<uint64_t>(end) ^ (uint64_t{1} << 63);
  for (int shift = 56; shift >= 0; shift -= 8)
    out->push_back(static_cast<char>((u >> shift) & 0xff));
}

}  // namespace

absl::StatusOr<std::unique_ptr<WindowAggregateOperator>> WindowAggregateOperator::Create(
    WindowAggregateSpec spec) {
  RETURN_IF_ERROR(spec.window.Validate("WindowAggregate", spec.input_types, spec.time_column));
  ASSIGN_OR_RETURN(KeyEncoder encoder, KeyEncoder::Create(spec.input_types, spec.group_keys));
  ASSIGN_OR_RETURN(AggregateFunctions functions,
                   AggregateFunctions::Create(spec.aggregates, spec.input_types,
                                              /*retractions_possible=*/false));
  return std::unique_ptr<WindowAggregateOperator>(
      new WindowAggregateOperator(std::move(spec), std::move(encoder), std::move(functions)));
}

WindowAggregateOperator::WindowAggregateOperator(WindowAggregateSpec spec, KeyEncoder encoder,
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
  native_ = NativeAggregates::Create(functions_);
  functions_.Reset(&loaded_);
}

absl::Status WindowAggregateOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr) {
    return absl::FailedPreconditionError("WindowAggregate needs a keyed state backend");
  }
  if (ctx.max_parallelism <= 0 || ctx.max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("WindowAggregate: max_parallelism out of range");
  }
  backend_ = ctx.state;
  memory_budget_ = ctx.state_cache_bytes;
  entry_overhead_ = sizeof(GroupAccumulators) + functions_.size() * sizeof(Accumulator) + 16;
  state_id_ = ctx.state_id;
  max_parallelism_ = ctx.max_parallelism;
  owned_ = OwnedKeyGroups(ctx);
  // No cache: a firing window is read by a RocksDB scan, which must see every change.
  table_ = std::make_unique<KeyedStateTable>(ctx.state, ctx.state_id, ctx.max_parallelism, 0);
  return absl::OkStatus();
}

absl::Status WindowAggregateOperator::Process(int input, const ChangelogBatch& batch) {
  if (table_ == nullptr)
    return absl::FailedPreconditionError("WindowAggregate: Process before Open");
  CountIn(batch);
  // A row belongs to up to size/slide (HOP) or size/step (CUMULATE) windows; rows go in chunks so
  // that one chunk's (window, key) pairs stay bounded.
  const size_t per_row = static_cast<size_t>(spec_.window.MaxWindowsPerRow());
  const size_t chunk = std::max<size_t>(1, kMaxPairsPerChunk / per_row);
  for (size_t begin = 0; begin < batch.num_rows(); begin += chunk) {
    RETURN_IF_ERROR(ProcessRows(batch, begin, std::min(batch.num_rows(), begin + chunk), per_row));
  }
  reported_memory_bytes_.store(memory_bytes_, std::memory_order_relaxed);
  return absl::OkStatus();
}

absl::Status WindowAggregateOperator::ProcessRows(const ChangelogBatch& batch, size_t begin,
                                                  size_t end_row, size_t per_row) {
  const Column& time = batch.column(spec_.time_column);
  const int64_t* ts = time.data<int64_t>();

  // 1. The (window, key) pairs of the rows, each once; late windows are skipped.
  used_slots_ = 0;
  slot_of_key_.Reset((end_row - begin) * per_row);
  row_slots_.clear();
  uint64_t late = 0;
  for (size_t r = begin; r < end_row; ++r) {
    if (!IsAccumulate(batch.kind(r))) {
      return absl::InvalidArgumentError(
          "WindowAggregate received a retraction; its input must be append-only");
    }
    if (time.IsNull(r)) {
      return absl::InvalidArgumentError(
          absl::StrCat("WindowAggregate: the time attribute (input column ", spec_.time_column,
                       ") is NULL; rowtime values must not be NULL"));
    }
    group_key_.clear();
    encoder_.Encode(batch, r, &group_key_);
    int key_group = -1;  // computed when a window in RocksDB needs it
    ends_.clear();
    spec_.window.AssignEnds(spec_.clock.RowTime(ts[r]), &ends_);
    bool assigned = false;
    for (int64_t end : ends_) {
      if (end - 1 <= watermark_) continue;  // this window already fired
      assigned = true;
      // A window in memory, or a new one while the budget has room, folds in memory.
      // (The window of the previous fold is in memory, never in RocksDB too.)
      if (memory_budget_ > 0 && ((last_window_ != nullptr && last_end_ == end) ||
                                 (!pending_.count(end) && (memory_windows_.count(end) ||
                                                           memory_bytes_ < memory_budget_)))) {
        FoldIntoMemory(batch, r, group_key_, end);
        continue;
      }
      if (key_group < 0)
        key_group = group_key_.empty() ? 0 : KeyGroupOf(group_key_, max_parallelism_);
      key_buf_.clear();
      AppendEnd(end, &key_buf_);
      key_buf_.append(group_key_);
      BatchKeyIndex::Lookup found = slot_of_key_.Find(key_buf_);
      uint32_t index;
      if (found.found) {
        index = found.value;
      } else {
        index = static_cast<uint32_t>(used_slots_);
        if (used_slots_ == slots_.size()) slots_.push_back(std::make_unique<Slot>());
        Slot* s = slots_[used_slots_++].get();
        s->key.assign(key_buf_);
        s->key_group = key_group;
        s->end = end;
        slot_of_key_.Insert(found, s->key, index);
      }
      row_slots_.emplace_back(static_cast<uint32_t>(r), index);
    }
    if (!assigned) ++late;
  }
  if (late > 0) late_rows_dropped_.fetch_add(late, std::memory_order_relaxed);
  if (used_slots_ == 0) return SpillOverBudget();

  // 2. One MultiGet, 3. accumulate in input order, 4. one write.
  table_->ClearReads();
  for (size_t i = 0; i < used_slots_; ++i) table_->AddRead(slots_[i]->key_group, slots_[i]->key);
  RETURN_IF_ERROR(table_->ReadAll());
  for (size_t i = 0; i < used_slots_; ++i) {
    Slot* s = slots_[i].get();
    if (table_->found(i)) {
      RETURN_IF_ERROR(functions_.Deserialize(table_->value(i), &s->acc));
    } else {
      functions_.Reset(&s->acc);
      std::vector<uint8_t>& groups = pending_[s->end];
      if (groups.empty()) groups.assign(static_cast<size_t>(max_parallelism_), 0);
      groups[static_cast<size_t>(s->key_group)] = 1;
    }
  }
  for (const auto& [row, slot] : row_slots_) {
    functions_.Update(&slots_[slot]->acc, batch, row, /*accumulate=*/true);
  }
  for (size_t i = 0; i < used_slots_; ++i) {
    value_buf_.clear();
    functions_.Serialize(slots_[i]->acc, &value_buf_);
    table_->Update(i, value_buf_);
  }
  RETURN_IF_ERROR(table_->Commit());
  return SpillOverBudget();
}

WindowAggregateOperator::MemoryWindow* WindowAggregateOperator::WindowInMemory(int64_t end) {
  if (last_window_ != nullptr && last_end_ == end) return last_window_;
  std::unique_ptr<MemoryWindow>& w = memory_windows_[end];
  if (w == nullptr) {
    if (!spare_windows_.empty()) {
      w = std::move(spare_windows_.back());
      spare_windows_.pop_back();
    } else {
      w = std::make_unique<MemoryWindow>(sizeof(PayloadHeader) +
                                         (native_.has_value() ? native_->payload_bytes() : 0));
    }
  }
  last_end_ = end;
  last_window_ = w.get();
  return w.get();
}

void WindowAggregateOperator::FoldIntoMemory(const ChangelogBatch& batch, size_t row,
                                             const std::string& group_key, int64_t end) {
  MemoryWindow* w = WindowInMemory(end);
  const uint64_t hash = GroupTable::Hash(group_key);
  uint32_t g = w->table.Find(group_key, hash);
  if (g == GroupTable::kNone) {
    const size_t before = w->table.bytes();
    g = w->table.Insert(group_key, hash, 0);
    PayloadHeader h{group_key.empty() ? 0 : KeyGroupOf(group_key, max_parallelism_), 0, 0};
    std::memcpy(w->table.payload(g), &h, sizeof(h));
    size_t added = w->table.bytes() - before;
    if (!native_.has_value()) {
      if (g == w->accs.size()) w->accs.push_back(std::make_unique<GroupAccumulators>());
      functions_.Reset(w->accs[g].get());
      added += entry_overhead_;
    }
    w->bytes += added;
    memory_bytes_ += added;
  }
  uint8_t* payload = w->table.payload(g);
  if (native_.has_value()) {
    native_->Update(payload + sizeof(PayloadHeader), batch, row, /*accumulate=*/true);
    return;
  }
  functions_.Update(w->accs[g].get(), batch, row, /*accumulate=*/true);
  // LISTAGG strings, DISTINCT sets: accumulators that grow count toward the budget too.
  const size_t kept = functions_.BytesKept(batch, row);
  if (kept > 0) {
    PayloadHeader h;
    std::memcpy(&h, payload, sizeof(h));
    h.kept_bytes += kept;
    std::memcpy(payload, &h, sizeof(h));
    w->bytes += kept;
    memory_bytes_ += kept;
  }
}

const GroupAccumulators& WindowAggregateOperator::AccumulatorsOf(MemoryWindow& w, uint32_t g) {
  if (!native_.has_value()) return *w.accs[g];
  native_->Load(w.table.payload(g) + sizeof(PayloadHeader), &loaded_);
  return loaded_;
}

void WindowAggregateOperator::Recycle(std::unique_ptr<MemoryWindow> w) {
  memory_bytes_ -= std::min(memory_bytes_, w->bytes);
  if (last_window_ == w.get()) last_window_ = nullptr;
  // A couple of windows keep their memory for the next ones (tumbling windows fire and open one
  // by one); the rest is freed.
  if (spare_windows_.size() >= 2) return;
  w->table.Reset();
  w->bytes = 0;
  spare_windows_.push_back(std::move(w));
}

absl::Status WindowAggregateOperator::Spill(bool all) {
  // Whole windows, latest end first: the earliest ones fire soonest and stay in memory.
  while (!memory_windows_.empty() && (all || memory_bytes_ > memory_budget_)) {
    auto node = memory_windows_.extract(std::prev(memory_windows_.end()));
    const int64_t end = node.key();
    MemoryWindow& w = *node.mapped();
    std::vector<uint8_t>& groups = pending_[end];
    if (groups.empty()) groups.assign(static_cast<size_t>(max_parallelism_), 0);
    for (uint32_t g = 0; g < w.table.size(); ++g) {
      PayloadHeader h;
      std::memcpy(&h, w.table.payload(g), sizeof(h));
      key_buf_.clear();
      AppendEnd(end, &key_buf_);
      key_buf_.append(w.table.key(g));
      value_buf_.clear();
      functions_.Serialize(AccumulatorsOf(w, g), &value_buf_);
      table_->Put(h.key_group, key_buf_, value_buf_);
      groups[static_cast<size_t>(h.key_group)] = 1;
    }
    Recycle(std::move(node.mapped()));
    RETURN_IF_ERROR(table_->Commit());
  }
  return absl::OkStatus();
}

absl::Status WindowAggregateOperator::FireFromMemory(int64_t end) {
  auto node = memory_windows_.extract(end);
  MemoryWindow& w = *node.mapped();
  // The order RocksDB would give: key group, then key bytes.
  std::vector<std::pair<std::pair<int, std::string_view>, uint32_t>> entries;
  entries.reserve(w.table.size());
  for (uint32_t g = 0; g < w.table.size(); ++g) {
    PayloadHeader h;
    std::memcpy(&h, w.table.payload(g), sizeof(h));
    entries.push_back({{h.key_group, w.table.key(g)}, g});
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  const int64_t start = spec_.window.StartOf(end);
  const int64_t window_time = spec_.clock.WindowTime(end);
  const size_t num_keys = encoder_.key_types().size();
  for (const auto& [order, g] : entries) {
    std::span<Column> key_columns(out_.mutable_columns().data(), num_keys);
    RETURN_IF_ERROR(encoder_.AppendToColumns(order.second, key_columns));
    functions_.GetValues(AccumulatorsOf(w, g), &values_);
    for (size_t i = 0; i < values_.size(); ++i) {
      functions_.AppendValue(i, values_[i], &out_.mutable_column(num_keys + i));
    }
    out_.mutable_column(num_keys + values_.size()).Append<int64_t>(start);
    out_.mutable_column(num_keys + values_.size() + 1).Append<int64_t>(end);
    if (spec_.window_time) {
      out_.mutable_column(num_keys + values_.size() + 2).Append<int64_t>(window_time);
    }
    out_.mutable_kinds().push_back(RowKind::kInsert);
    RETURN_IF_ERROR(EmitWhenFull(&out_, kOutputBatchRows));
  }
  Recycle(std::move(node.mapped()));
  return absl::OkStatus();
}

absl::Status WindowAggregateOperator::ProcessWatermark(const Watermark& watermark) {
  const int64_t progress = spec_.clock.Progress(watermark.millis);
  if (!watermark.idle && progress > watermark_) {
    watermark_ = progress;
    RETURN_IF_ERROR(FireUpTo(watermark_));
    reported_memory_bytes_.store(memory_bytes_, std::memory_order_relaxed);
  }
  return EmitWatermark(watermark);
}

absl::Status WindowAggregateOperator::Finish() {
  if (table_ == nullptr) return absl::OkStatus();
  watermark_ = kMaxWatermark;
  return FireUpTo(kMaxWatermark);
}

absl::Status WindowAggregateOperator::FireUpTo(int64_t watermark) {
  // In end order, whether a window is in memory or in RocksDB (never both).
  while (true) {
    const bool in_rocksdb = !pending_.empty() && pending_.begin()->first - 1 <= watermark;
    const bool in_memory =
        !memory_windows_.empty() && memory_windows_.begin()->first - 1 <= watermark;
    if (!in_rocksdb && !in_memory) break;
    if (in_memory && (!in_rocksdb || memory_windows_.begin()->first < pending_.begin()->first)) {
      RETURN_IF_ERROR(FireFromMemory(memory_windows_.begin()->first));
    } else {
      auto node = pending_.extract(pending_.begin());
      RETURN_IF_ERROR(Fire(node.key(), node.mapped()));
    }
  }
  return EmitAndClear(&out_);
}

absl::Status WindowAggregateOperator::Fire(int64_t end, const std::vector<uint8_t>& key_groups) {
  const int64_t start = spec_.window.StartOf(end);
  const int64_t window_time = spec_.clock.WindowTime(end);
  const size_t num_keys = encoder_.key_types().size();
  std::string prefix;
  for (size_t kg = 0; kg < key_groups.size(); ++kg) {
    if (!key_groups[kg]) continue;
    prefix.clear();
    AppendStateKeyPrefix(static_cast<int>(kg), state_id_, &prefix);
    AppendEnd(end, &prefix);
    RETURN_IF_ERROR(backend_->ScanAndDeletePrefix(
        prefix, [&](std::string_view key, std::string_view value) -> absl::Status {
          GroupAccumulators acc;
          RETURN_IF_ERROR(functions_.Deserialize(value, &acc));
          std::span<Column> key_columns(out_.mutable_columns().data(), num_keys);
          RETURN_IF_ERROR(encoder_.AppendToColumns(key.substr(prefix.size()), key_columns));
          functions_.GetValues(acc, &values_);
          for (size_t i = 0; i < values_.size(); ++i) {
            functions_.AppendValue(i, values_[i], &out_.mutable_column(num_keys + i));
          }
          out_.mutable_column(num_keys + values_.size()).Append<int64_t>(start);
          out_.mutable_column(num_keys + values_.size() + 1).Append<int64_t>(end);
          if (spec_.window_time) {
            out_.mutable_column(num_keys + values_.size() + 2).Append<int64_t>(window_time);
          }
          out_.mutable_kinds().push_back(RowKind::kInsert);
          return EmitWhenFull(&out_, kOutputBatchRows);
        }));
  }
  return absl::OkStatus();
}

namespace {

constexpr char kWatermarkEntry[] = "watermark";
// Per pending window: its end (8 bytes, AppendEnd) and one byte per key group (1: holds state).
constexpr char kPendingEntry[] = "pending_windows";

int64_t ReadEnd(std::string_view bytes) {
  uint64_t u = 0;
  for (size_t i = 0; i < kEndBytes; ++i) u = (u << 8) | static_cast<uint8_t>(bytes[i]);
  return static_cast<int64_t>(u ^ (uint64_t{1} << 63));
}

}  // namespace

absl::Status WindowAggregateOperator::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  if (table_ == nullptr) return absl::FailedPreconditionError("WindowAggregate: not open");
  RETURN_IF_ERROR(Spill(/*all=*/true));
  std::string watermark;
  AppendEnd(watermark_, &watermark);
  out->Put(kWatermarkEntry, std::move(watermark));
  std::string pending;
  for (const auto& [end, groups] : pending_) {
    AppendEnd(end, &pending);
    pending.append(groups.begin(), groups.end());
  }
  out->Put(kPendingEntry, std::move(pending));
  return absl::OkStatus();
}

absl::Status WindowAggregateOperator::RestoreState(const OperatorSnapshot& snapshot) {
  return RestoreFrom(std::span<const OperatorSnapshot>(&snapshot, 1), OwnedKeyGroups::All());
}

absl::Status WindowAggregateOperator::RestoreRescaledState(
    std::span<const OperatorSnapshot> snapshots) {
  return RestoreFrom(snapshots, owned_);
}

absl::Status WindowAggregateOperator::RestoreFrom(std::span<const OperatorSnapshot> snapshots,
                                                  const OwnedKeyGroups& owned) {
  if (table_ == nullptr) return absl::FailedPreconditionError("WindowAggregate: not open");
  const size_t per_window = kEndBytes + static_cast<size_t>(max_parallelism_);
  std::vector<int64_t> watermarks;
  std::map<int64_t, std::vector<uint8_t>> pending;
  for (const OperatorSnapshot& snapshot : snapshots) {
    std::optional<std::string_view> watermark = snapshot.Get(kWatermarkEntry);
    std::optional<std::string_view> windows = snapshot.Get(kPendingEntry);
    if (!watermark || watermark->size() != kEndBytes || !windows ||
        windows->size() % per_window != 0) {
      return absl::InvalidArgumentError(
          "WindowAggregate: the snapshot is malformed or was taken at another max parallelism");
    }
    watermarks.push_back(ReadEnd(*watermark));
    // A pending window's key groups that this subtask owns (all of them unless rescaled).
    for (size_t at = 0; at < windows->size(); at += per_window) {
      std::string_view groups = windows->substr(at + kEndBytes, max_parallelism_);
      std::vector<uint8_t>* kept = nullptr;
      for (int g = 0; g < max_parallelism_; ++g) {
        if (groups[g] == 0 || !owned.Contains(g)) continue;
        if (kept == nullptr) {
          kept = &pending[ReadEnd(windows->substr(at))];
          kept->resize(static_cast<size_t>(max_parallelism_), 0);
        }
        (*kept)[g] = 1;
      }
    }
  }
  watermark_ = RestartWatermark(watermarks);
  pending_ = std::move(pending);
  return absl::OkStatus();
}

absl::Status WindowAggregateOperator::Close() {
  // Windows held in memory are freed; what is in the store stays until the job ends.
  table_.reset();
  memory_windows_.clear();
  spare_windows_.clear();
  last_window_ = nullptr;
  memory_bytes_ = 0;
  return absl::OkStatus();
}

}  // namespace eddy
