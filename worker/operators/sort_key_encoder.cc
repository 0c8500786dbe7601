// SortKeyEncoder: order-preserving bytes of a row's ORDER BY columns.
#include "worker/operators/sort_key_encoder.h"

#include <bit>
#include <cmath>
#include <cstdint>

#include "absl/strings/str_cat.h"

namespace eddy {
namespace {

constexpr char kNullFirst = 0x00;
constexpr char kValue = 0x01;
constexpr char kNullLast = 0x02;

// Appends `v` big-endian, each byte xor `invert` (0x00 or 0xff).
void PutBigEndian(uint64_t v, int bytes, uint8_t invert, std::string* out) {
  for (int i = bytes - 1; i >= 0; --i) {
    out->push_back(static_cast<char>(static_cast<uint8_t>(v >> (8 * i)) ^ invert));
  }
}

// Signed integers in unsigned order: the sign bit flipped.
uint64_t OrderedInt(int64_t v) { return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63); }

// IEEE bits in unsigned order: negatives inverted, the sign bit of the others set.
uint64_t OrderedDouble(double d) {
  if (d == 0) d = 0.0;  // -0.0 ties with 0.0
  // One NaN, above +Infinity.
  const uint64_t bits = std::isnan(d) ? 0x7ff8000000000000ull : std::bit_cast<uint64_t>(d);
  return (bits & (uint64_t{1} << 63)) ? ~bits : bits | (uint64_t{1} << 63);
}

uint32_t OrderedFloat(float f) {
  if (f == 0) f = 0.0f;
  const uint32_t bits = std::isnan(f) ? 0x7fc00000u : std::bit_cast<uint32_t>(f);
  return (bits & (uint32_t{1} << 31)) ? ~bits : bits | (uint32_t{1} << 31);
}

int64_t IntegerValue(const Column& col, size_t row) {
  switch (col.width()) {
    case 1:
      return col.Get<int8_t>(row);
    case 2:
      return col.Get<int16_t>(row);
    case 4:
      return col.Get<int32_t>(row);
    default:
      return col.Get<int64_t>(row);
  }
}

}  // namespace

absl::StatusOr<SortKeyEncoder> SortKeyEncoder::Create(const char* op,
                                                      const std::vector<DataType>& input_types,
                                                      std::vector<SortKeyField> fields) {
  for (const SortKeyField& f : fields) {
    if (f.column < 0 || static_cast<size_t>(f.column) >= input_types.size()) {
      return absl::InvalidArgumentError(absl::StrCat(op, ": ORDER BY column ", f.column,
                                                     " out of range for an input with ",
                                                     input_types.size(), " columns"));
    }
  }
  return SortKeyEncoder(std::move(fields));
}

void SortKeyEncoder::Encode(const ChangelogBatch& batch, size_t row, std::string* out) const {
  for (const SortKeyField& f : fields_) {
    const Column& col = batch.column(f.column);
    if (col.IsNull(row) || col.type().id == TypeId::kNull) {
      out->push_back(f.nulls_first ? kNullFirst : kNullLast);
      continue;
    }
    out->push_back(kValue);
    const uint8_t invert = f.descending ? 0xff : 0x00;
    switch (col.type().id) {
      case TypeId::kBoolean:
        out->push_back(static_cast<char>((col.Get<uint8_t>(row) != 0 ? 1 : 0) ^ invert));
        break;
      case TypeId::kTinyInt:
      case TypeId::kSmallInt:
      case TypeId::kInt:
      case TypeId::kBigInt:
      case TypeId::kDecimal:
      case TypeId::kDate:
      case TypeId::kTime:
      case TypeId::kIntervalYearMonth:
      case TypeId::kTimestamp:
      case TypeId::kTimestampLtz:
      case TypeId::kInterval:
        PutBigEndian(OrderedInt(IntegerValue(col, row)), 8, invert, out);
        break;
      case TypeId::kFloat:
        PutBigEndian(OrderedFloat(col.Get<float>(row)), 4, invert, out);
        break;
      case TypeId::kDouble:
        PutBigEndian(OrderedDouble(col.Get<double>(row)), 8, invert, out);
        break;
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kArray:
      case TypeId::kMap:
      case TypeId::kRow: {
        for (char c : col.GetString(row)) {
          out->push_back(static_cast<char>(static_cast<uint8_t>(c) ^ invert));
          if (c == 0) out->push_back(static_cast<char>(0xff ^ invert));
        }
        out->push_back(static_cast<char>(invert));
        out->push_back(static_cast<char>(invert));
        break;
      }
      case TypeId::kNull:
        break;
    }
  }
}

}  // namespace eddy
