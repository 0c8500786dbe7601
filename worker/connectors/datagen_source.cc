#include "worker/connectors/datagen_source.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "common/base/hash.h"
#include "common/base/status_macros.h"
#include "common/types/timestamp_precision.h"

namespace eddy {
namespace {

constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

// Default random range per integer type (Flink uses the type's full range).
void IntegerRange(TypeId id, int64_t* lo, int64_t* hi) {
  switch (id) {
    case TypeId::kTinyInt:
      *lo = INT8_MIN;
      *hi = INT8_MAX;
      break;
    case TypeId::kSmallInt:
      *lo = INT16_MIN;
      *hi = INT16_MAX;
      break;
    case TypeId::kInt:
      *lo = INT32_MIN;
      *hi = INT32_MAX;
      break;
    default:
      *lo = INT64_MIN;
      *hi = INT64_MAX;
      break;
  }
}

// splitmix64 over a per-value state: fast, good enough for synthetic data.
uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

DatagenSource::DatagenSource(v1::DatagenSource spec, Schema schema)
    : spec_(std::move(spec)), schema_(std::move(schema)) {}

absl::Status DatagenSource::Open(const OperatorContext& ctx) {
  const int p = std::max(1, ctx.parallelism);
  const int i = ctx.subtask_index;
  seed_ = MixHash64(spec_.seed() * 1000003 + static_cast<uint64_t>(i) + 1);
  fields_.resize(schema_.size());
  int64_t sequence_rows = -1;
  for (int f = 0; f < spec_.fields_size() && f < static_cast<int>(schema_.size()); ++f) {
    const auto& fs = spec_.fields(f);
    if (fs.kind() != "sequence") continue;
    // Split [start, end] into p contiguous ranges.
    int64_t start = fs.start(), end = fs.end();
    int64_t total = end - start + 1;
    int64_t per = total / p, extra = total % p;
    int64_t my_start = start + per * i + std::min<int64_t>(i, extra);
    int64_t my_count = per + (i < extra ? 1 : 0);
    fields_[f] = {true, my_start, my_start + my_count - 1};
    sequence_rows = sequence_rows < 0 ? my_count : std::min(sequence_rows, my_count);
  }
  if (spec_.bounded() && spec_.number_of_rows() > 0) {
    int64_t total = spec_.number_of_rows();
    rows_remaining_ = total / p + (i < total % p ? 1 : 0);
  } else if (spec_.bounded() && spec_.number_of_rows() == 0 && sequence_rows < 0) {
    rows_remaining_ = 0;
  }
  if (sequence_rows >= 0) {
    rows_remaining_ =
        rows_remaining_ < 0 ? sequence_rows : std::min(rows_remaining_, sequence_rows);
  }
  rows_per_second_ = spec_.rows_per_second() > 0 ? spec_.rows_per_second() / p : 0;
  start_ = std::chrono::steady_clock::now();
  return absl::OkStatus();
}

void DatagenSource::GenerateValue(size_t f, uint64_t row, Column* column) {
  const v1::DatagenField* fs =
      f < static_cast<size_t>(spec_.fields_size()) ? &spec_.fields(f) : nullptr;
  const FieldState& st = fields_[f];
  const DataType& type = schema_.fields[f].type;
  // The value's own generator state: a function of (subtask seed, row, field) alone.
  uint64_t rng = MixHash64(seed_ ^ MixHash64(row * 0x9e3779b97f4a7c15ULL + f + 1));
  auto NextRandom = [&rng] { return SplitMix64(&rng); };
  if (fs && fs->null_rate() > 0 &&
      static_cast<double>(NextRandom() >> 11) * 0x1.0p-53 < fs->null_rate()) {
    column->AppendNull();
    return;
  }
  if (st.sequence) {
    int64_t v = st.start + static_cast<int64_t>(row);
    if (type.IsString()) {
      column->AppendString(std::to_string(v));
    } else {
      column->AppendValue(Value::Int(v));
    }
    return;
  }
  switch (type.id) {
    case TypeId::kBoolean:
      column->Append<uint8_t>(NextRandom() & 1);
      return;
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double lo = fs && fs->has_min() ? fs->min() : 0.0;
      double hi = fs && fs->has_max() ? fs->max() : 1.0;
      double u = static_cast<double>(NextRandom() >> 11) * 0x1.0p-53;
      column->AppendValue(Value::Double(lo + u * (hi - lo)));
      return;
    }
    case TypeId::kString: {
      int len = fs && fs->length() > 0 ? fs->length() : 100;
      if (type.length > 0) len = std::min(len, type.length);
      char buf[256];
      std::string big;
      char* p = buf;
      if (len > static_cast<int>(sizeof(buf))) {
        big.resize(len);
        p = big.data();
      }
      for (int k = 0; k < len; ++k) p[k] = kAlphabet[NextRandom() % (sizeof(kAlphabet) - 1)];
      column->AppendString(std::string_view(p, len));
      return;
    }
    case TypeId::kBinary: {  // random bytes, `length` of them (at most the type's length)
      int len = fs && fs->length() > 0 ? fs->length() : 100;
      if (type.length > 0) len = std::min(len, type.length);
      std::string& bytes = binary_scratch_;
      bytes.resize(static_cast<size_t>(len));
      for (int k = 0; k < len; ++k) bytes[k] = static_cast<char>(NextRandom() & 0xff);
      column->AppendString(bytes);
      return;
    }
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: {
      auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
      int64_t value = now_ms / 86400000;
      if (type.IsTimestampLike()) RescaleTimestamp(now_ms, 3, type.precision, &value);
      column->AppendValue(Value::Int(value));
      return;
    }
    case TypeId::kTime: {  // the current time of day (UTC), as Flink's datagen, to milliseconds
      auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
      int64_t value = now_ms % 86400000;
      if (type.precision < 3)
        value -= value % (type.precision == 0 ? 1000 : type.precision == 1 ? 100 : 10);
      column->AppendValue(Value::Int(value));
      return;
    }
    default: {
      // Integers; DECIMAL draws its unscaled value, with min/max
      // given in units of the value.
      int64_t lo, hi;
      IntegerRange(type.id, &lo, &hi);
      int64_t unit = 1;
      if (type.id == TypeId::kDecimal) {
        for (int k = 0; k < type.scale; ++k) unit *= 10;
        lo = -999999;
        hi = 999999;
      }
      if (fs && fs->has_min()) lo = static_cast<int64_t>(fs->min()) * unit;
      if (fs && fs->has_max()) hi = static_cast<int64_t>(fs->max()) * unit;
      uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
      uint64_t r = NextRandom();
      // span == 0 means the full 64-bit range.
      int64_t v = span == 0 ? static_cast<int64_t>(r) : static_cast<int64_t>(lo + r % span);
      column->AppendValue(Value::Int(v));
      return;
    }
  }
}

absl::StatusOr<SourceState> DatagenSource::Next(ChangelogBatch* out) {
  if (rows_remaining_ == 0) return SourceState::kEnd;
  size_t n = kDefaultBatchRows;
  if (rows_remaining_ > 0) n = std::min<size_t>(n, rows_remaining_);
  if (rows_per_second_ > 0) {
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    double allowed = rows_per_second_ * elapsed + 1;  // +1: the first row goes out at once
    if (static_cast<double>(rate_emitted_) >= allowed) {
      double wait_s =
          (static_cast<double>(rate_emitted_) + 1 - rows_per_second_ * elapsed) / rows_per_second_;
      idle_wait_ = std::chrono::microseconds(
          std::clamp<int64_t>(static_cast<int64_t>(wait_s * 1e6), 100, 100000));
      return SourceState::kIdle;
    }
    // Emit what the rate allows so far, in batches of at most a tenth of a second's rows.
    n = std::min<size_t>(n, static_cast<size_t>(allowed - static_cast<double>(rate_emitted_)));
    n = std::clamp<size_t>(n, 1, std::max<size_t>(1, static_cast<size_t>(rows_per_second_ / 10)));
  }
  *out = ChangelogBatch(schema_.Types());
  out->Reserve(n);
  for (size_t f = 0; f < schema_.size(); ++f) {
    Column* c = &out->mutable_column(f);
    for (size_t r = 0; r < n; ++r) GenerateValue(f, emitted_ + r, c);
  }
  out->mutable_kinds().assign(n, RowKind::kInsert);
  emitted_ += n;
  rate_emitted_ += n;
  rows_out_ += n;
  if (rows_remaining_ > 0) rows_remaining_ -= static_cast<int64_t>(n);
  return SourceState::kData;
}

absl::Status DatagenSource::SnapshotState(int64_t, OperatorSnapshot* out) {
  out->PutInt64("rows", static_cast<int64_t>(emitted_));
  return absl::OkStatus();
}

absl::Status DatagenSource::RestoreState(const OperatorSnapshot& snapshot) {
  ASSIGN_OR_RETURN(std::optional<int64_t> rows, snapshot.GetInt64("rows"));
  if (!rows) return absl::OkStatus();
  if (*rows < 0 || (rows_remaining_ >= 0 && *rows > rows_remaining_)) {
    return absl::DataLossError(absl::StrCat("datagen source: restored position of ", *rows,
                                            " rows is beyond this subtask's ", rows_remaining_));
  }
  emitted_ = static_cast<uint64_t>(*rows);
  if (rows_remaining_ > 0) rows_remaining_ -= *rows;
  return absl::OkStatus();
}

}  // namespace eddy
