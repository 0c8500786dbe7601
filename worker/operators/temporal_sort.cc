#include "worker/operators/temporal_sort.h"

#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/operators/operator_snapshot.h"
#include "worker/operators/source.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

constexpr char kWatermarkEntry[] = "temporal_sort.watermark";
constexpr char kSequenceEntry[] = "temporal_sort.sequence";

// Big-endian with the sign bit flipped: byte order is numeric order.
void AppendOrderedInt64(int64_t v, std::string* out) {
  const uint64_t u = static_cast<uint64_t>(v) ^ (uint64_t{1} << 63);
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(u >> shift));
}

int64_t ReadOrderedInt64(std::string_view bytes) {
  uint64_t u = 0;
  for (int i = 0; i < 8; ++i) u = (u << 8) | static_cast<uint8_t>(bytes[i]);
  return static_cast<int64_t>(u ^ (uint64_t{1} << 63));
}

// Stops a prefix scan early; not an error.
absl::Status StopScan() { return absl::CancelledError("temporal sort scan done"); }

}  // namespace

absl::StatusOr<std::unique_ptr<TemporalSortOperator>> TemporalSortOperator::Create(
    TemporalSortSpec spec) {
  const int n = static_cast<int>(spec.input_types.size());
  if (spec.time_column < 0 || spec.time_column >= n) {
    return absl::InvalidArgumentError(
        absl::StrCat("TemporalSort: time column ", spec.time_column, " out of range"));
  }
  if (!spec.input_types[spec.time_column].IsTimestampLike()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TemporalSort: the time column ", spec.time_column, " is ",
        spec.input_types[spec.time_column].ToString(), ", not a TIMESTAMP(3) time attribute"));
  }
  std::vector<int> all;
  for (int c = 0; c < n; ++c) all.push_back(c);
  ASSIGN_OR_RETURN(KeyEncoder row_codec, KeyEncoder::Create(spec.input_types, std::move(all)));
  ASSIGN_OR_RETURN(SortKeyEncoder secondary,
                   SortKeyEncoder::Create("TemporalSort", spec.input_types, spec.secondary));
  return std::unique_ptr<TemporalSortOperator>(
      new TemporalSortOperator(std::move(spec), std::move(row_codec), std::move(secondary)));
}

absl::Status TemporalSortOperator::Open(const OperatorContext& ctx) {
  if (ctx.state == nullptr)
    return absl::FailedPreconditionError("TemporalSort needs a state store");
  store_ = ctx.state;
  prefix_.clear();
  AppendStateKeyPrefix(0, ctx.state_id, &prefix_);
  return absl::OkStatus();
}

absl::Status TemporalSortOperator::Process(int, const ChangelogBatch& batch) {
  CountIn(batch);
  const Column& times = batch.column(spec_.time_column);
  StateWriteBatch writes;
  uint64_t late = 0;
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      return absl::InvalidArgumentError(absl::StrCat("TemporalSort received a ",
                                                     std::string(RowKindShortString(batch.kind(r))),
                                                     " row; its input must be append-only"));
    }
    if (times.IsNull(r)) {
      return absl::InvalidArgumentError(
          "TemporalSort: a row has a NULL time attribute; a rowtime must not be NULL");
    }
    const int64_t t = times.Get<int64_t>(r);
    if (t <= watermark_) {
      ++late;
      continue;
    }
    key_ = prefix_;
    AppendOrderedInt64(t, &key_);
    secondary_.Encode(batch, r, &key_);
    for (int shift = 56; shift >= 0; shift -= 8) {
      key_.push_back(static_cast<char>(sequence_ >> shift));
    }
    ++sequence_;
    value_.clear();
    row_codec_.Encode(batch, r, &value_);
    writes.Put(key_, value_);
    if (earliest_ != INT64_MIN) earliest_ = std::min(earliest_, t);
  }
  if (late > 0) late_rows_dropped_.fetch_add(late, std::memory_order_relaxed);
  return writes.count() == 0 ? absl::OkStatus() : store_->Write(&writes);
}

absl::Status TemporalSortOperator::EmitUpTo(int64_t up_to) {
  if (earliest_ != INT64_MIN && earliest_ > up_to) return absl::OkStatus();  // nothing due
  ChangelogBatch out(spec_.input_types);
  StateWriteBatch deletes;
  int64_t next_earliest = INT64_MAX;
  absl::Status emitted = absl::OkStatus();
  absl::Status scan =
      store_->ScanPrefix(prefix_, [&](std::string_view key, std::string_view value) {
        const int64_t t = ReadOrderedInt64(key.substr(prefix_.size()));
        if (t > up_to) {
          next_earliest = t;
          return StopScan();
        }
        std::span<Column> columns(out.mutable_columns());
        RETURN_IF_ERROR(row_codec_.AppendToColumns(value, columns));
        out.mutable_kinds().push_back(RowKind::kInsert);
        deletes.Delete(key);
        if (out.num_rows() >= kDefaultBatchRows) emitted.Update(EmitAndClear(&out));
        return emitted;
      });
  if (!scan.ok() && !absl::IsCancelled(scan)) return scan;
  RETURN_IF_ERROR(emitted);
  RETURN_IF_ERROR(EmitAndClear(&out));
  earliest_ = next_earliest;
  return deletes.count() == 0 ? absl::OkStatus() : store_->Write(&deletes);
}

absl::Status TemporalSortOperator::ProcessWatermark(const Watermark& watermark) {
  if (watermark.millis > watermark_) {
    watermark_ = watermark.millis;
    RETURN_IF_ERROR(EmitUpTo(watermark_));
  }
  return EmitWatermark(watermark);
}

absl::Status TemporalSortOperator::Finish() { return EmitUpTo(kMaxWatermark); }

absl::Status TemporalSortOperator::SnapshotState(int64_t, OperatorSnapshot* out) {
  out->PutInt64(kWatermarkEntry, watermark_);
  out->PutInt64(kSequenceEntry, static_cast<int64_t>(sequence_));
  return absl::OkStatus();
}

absl::Status TemporalSortOperator::RestoreState(const OperatorSnapshot& snapshot) {
  ASSIGN_OR_RETURN(std::optional<int64_t> watermark, snapshot.GetInt64(kWatermarkEntry));
  ASSIGN_OR_RETURN(std::optional<int64_t> sequence, snapshot.GetInt64(kSequenceEntry));
  if (!watermark || !sequence) {
    return absl::InvalidArgumentError("TemporalSort: the snapshot has no watermark or sequence");
  }
  watermark_ = *watermark;
  sequence_ = static_cast<uint64_t>(*sequence);
  earliest_ = INT64_MIN;  // unknown until the next emit scans the restored store
  return absl::OkStatus();
}

}  // namespace eddy
