#include "worker/operators/key_encoder.h"

#include <bit>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

// Fixed-width values are copied in memory order; stable across processes because every supported
// target is little-endian.
static_assert(std::endian::native == std::endian::little, "key encoding assumes little-endian");

namespace {

constexpr char kNullFlag = 0;
constexpr char kValueFlag = 1;

void AppendVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool ReadVarint(std::string_view in, size_t* pos, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && *pos < in.size(); shift += 7) {
    uint8_t b = static_cast<uint8_t>(in[(*pos)++]);
    result |= uint64_t{b & 0x7fu} << shift;
    if (!(b & 0x80)) {
      *v = result;
      return true;
    }
  }
  return false;
}

absl::Status Corrupt(std::string_view what) {
  return absl::DataLossError(
      absl::StrCat("Corrupt group key: ", absl::string_view(what.data(), what.size())));
}

// One decoded key field: either null, fixed-width bytes, or string bytes, as views into the key.
struct KeyField {
  bool null = true;
  std::string_view bytes;
};

absl::Status NextField(std::string_view key, size_t* pos, const DataType& type, KeyField* f) {
  if (*pos >= key.size()) return Corrupt("truncated");
  char flag = key[(*pos)++];
  if (flag == kNullFlag) {
    f->null = true;
    f->bytes = {};
    return absl::OkStatus();
  }
  if (flag != kValueFlag) return Corrupt("bad null flag");
  f->null = false;
  size_t width = static_cast<size_t>(PhysicalWidth(type.id));
  if (width == 0) {
    uint64_t len = 0;
    if (!ReadVarint(key, pos, &len)) return Corrupt("bad string length");
    width = static_cast<size_t>(len);
  }
  if (key.size() - *pos < width) return Corrupt("truncated value");
  f->bytes = key.substr(*pos, width);
  *pos += width;
  return absl::OkStatus();
}

template <typename T>
T Load(std::string_view b) {
  T v;
  std::memcpy(&v, b.data(), sizeof(T));
  return v;
}

Value FieldToValue(const KeyField& f, const DataType& type) {
  if (f.null) return Value::Null();
  switch (type.id) {
    case TypeId::kBoolean:
      return Value::Bool(f.bytes[0] != 0);
    case TypeId::kTinyInt:
      return Value::Int(Load<int8_t>(f.bytes));
    case TypeId::kSmallInt:
      return Value::Int(Load<int16_t>(f.bytes));
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      return Value::Int(Load<int32_t>(f.bytes));
    case TypeId::kBigInt:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      return Value::Int(Load<int64_t>(f.bytes));
    case TypeId::kFloat:
      return Value::Double(Load<float>(f.bytes));
    case TypeId::kDouble:
      return Value::Double(Load<double>(f.bytes));
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return Value::String(std::string(f.bytes));
    case TypeId::kNull:
      return Value::Null();
  }
  return Value::Null();
}

}  // namespace

size_t KeyEncoder::MaxFixedBytes() const {
  size_t n = 0;
  for (const DataType& t : key_types_) {
    const size_t width = static_cast<size_t>(PhysicalWidth(t.id));
    if (width == 0) return 0;
    n += 1 + width;
  }
  return n;
}

absl::StatusOr<KeyEncoder> KeyEncoder::Create(const std::vector<DataType>& input_types,
                                              std::vector<int> key_columns) {
  std::vector<DataType> key_types;
  key_types.reserve(key_columns.size());
  for (int c : key_columns) {
    if (c < 0 || static_cast<size_t>(c) >= input_types.size()) {
      return absl::InvalidArgumentError(absl::StrCat("Group key column ", c,
                                                     " out of range for an input with ",
                                                     input_types.size(), " columns"));
    }
    key_types.push_back(input_types[c]);
  }
  return KeyEncoder(std::move(key_columns), std::move(key_types));
}

void KeyEncoder::Encode(const ChangelogBatch& batch, size_t row, std::string* out) const {
  for (int c : key_columns_) {
    const Column& col = batch.column(c);
    if (col.IsNull(row)) {
      out->push_back(kNullFlag);
      continue;
    }
    out->push_back(kValueFlag);
    if (col.is_string()) {
      std::string_view s = col.GetString(row);
      AppendVarint(s.size(), out);
      out->append(s.data(), s.size());
    } else if (col.type().id == TypeId::kBoolean) {
      out->push_back(col.Get<uint8_t>(row) != 0 ? 1 : 0);
    } else {
      const size_t w = static_cast<size_t>(col.width());
      out->append(reinterpret_cast<const char*>(col.raw_data().data()) + row * w, w);
    }
  }
}

absl::Status KeyEncoder::Decode(std::string_view key, std::vector<Value>* values) const {
  values->clear();
  size_t pos = 0;
  KeyField f;
  for (const DataType& t : key_types_) {
    RETURN_IF_ERROR(NextField(key, &pos, t, &f));
    values->push_back(FieldToValue(f, t));
  }
  if (pos != key.size()) return Corrupt("trailing bytes");
  return absl::OkStatus();
}

absl::Status KeyEncoder::AppendToColumns(std::string_view key, std::span<Column> columns) const {
  if (columns.size() != key_types_.size()) {
    return absl::InvalidArgumentError("AppendToColumns: column count differs from key arity");
  }
  size_t pos = 0;
  KeyField f;
  for (size_t i = 0; i < key_types_.size(); ++i) {
    RETURN_IF_ERROR(NextField(key, &pos, key_types_[i], &f));
    Column& col = columns[i];
    if (f.null) {
      col.AppendNull();
    } else if (col.is_string()) {
      col.AppendString(f.bytes);
    } else {
      if (f.bytes.size() != static_cast<size_t>(col.width())) {
        return absl::InvalidArgumentError("AppendToColumns: column type differs from key type");
      }
      switch (col.width()) {
        case 1:
          col.Append<uint8_t>(Load<uint8_t>(f.bytes));
          break;
        case 2:
          col.Append<uint16_t>(Load<uint16_t>(f.bytes));
          break;
        case 4:
          col.Append<uint32_t>(Load<uint32_t>(f.bytes));
          break;
        case 8:
          col.Append<uint64_t>(Load<uint64_t>(f.bytes));
          break;
        default:
          return absl::InternalError("AppendToColumns: unexpected width");
      }
    }
  }
  if (pos != key.size()) return Corrupt("trailing bytes");
  return absl::OkStatus();
}

}  // namespace eddy
