#include "common/batch/column.h"

#include "common/base/logging.h"

namespace eddy {

Column::Column(DataType type) : type_(type), width_(PhysicalWidth(type.id)) {}

void Column::Reserve(size_t rows) {
  if (width_ > 0) {
    data_.reserve(rows * width_);
  } else {
    offsets_.reserve(rows + 1);
  }
}

void Column::Clear() {
  size_ = 0;
  null_count_ = 0;
  data_.clear();
  validity_.clear();
  offsets_.assign(1, 0);
  heap_.clear();
}

void Column::SetValidBit(size_t row, bool valid) {
  size_t byte = row >> 3;
  if (byte >= validity_.size()) validity_.resize(byte + 1, 0);
  if (valid) {
    validity_[byte] |= static_cast<uint8_t>(1u << (row & 7));
  } else {
    validity_[byte] &= static_cast<uint8_t>(~(1u << (row & 7)));
  }
}

void Column::MaterializeValidity() {
  // All rows so far are valid.
  validity_.assign((size_ + 8) / 8, 0xff);
}

void Column::AppendString(std::string_view s) {
  heap_.append(s.data(), s.size());
  MarkValid();
}

void Column::AppendNull() {
  if (validity_.empty()) MaterializeValidity();
  SetValidBit(size_, false);
  ++null_count_;
  if (width_ > 0) {
    data_.resize(data_.size() + width_, 0);
  } else {
    offsets_.push_back(static_cast<uint32_t>(heap_.size()));
  }
  ++size_;
}

void Column::AppendNulls(size_t n) {
  if (n == 0) return;
  if (validity_.empty()) MaterializeValidity();
  validity_.resize((size_ + n + 7) / 8, 0);
  for (size_t row = size_; row < size_ + n; ++row) {
    validity_[row >> 3] &= static_cast<uint8_t>(~(1u << (row & 7)));
  }
  null_count_ += n;
  if (width_ > 0) {
    data_.resize(data_.size() + n * width_, 0);
  } else {
    offsets_.insert(offsets_.end(), n, static_cast<uint32_t>(heap_.size()));
  }
  size_ += n;
}

void Column::AppendFrom(const Column& src, size_t row) {
  if (src.IsNull(row)) {
    AppendNull();
    return;
  }
  if (width_ == 0) {
    AppendString(src.GetString(row));
    return;
  }
  size_t pos = data_.size();
  data_.resize(pos + width_);
  std::memcpy(data_.data() + pos, src.data_.data() + row * width_, width_);
  MarkValid();
}

void Column::AppendRange(const Column& src, size_t begin, size_t end) {
  if (src.HasNulls() || !validity_.empty()) {
    for (size_t r = begin; r < end; ++r) AppendFrom(src, r);
    return;
  }
  size_t n = end - begin;
  if (width_ > 0) {
    data_.insert(data_.end(), src.data_.begin() + begin * width_, src.data_.begin() + end * width_);
  } else {
    uint32_t base = static_cast<uint32_t>(heap_.size());
    uint32_t src_base = src.offsets_[begin];
    heap_.append(src.heap_.data() + src_base, src.offsets_[end] - src_base);
    for (size_t r = begin + 1; r <= end; ++r) offsets_.push_back(base + src.offsets_[r] - src_base);
  }
  size_ += n;
}

Value Column::GetValue(size_t row) const {
  if (IsNull(row)) return Value::Null();
  switch (type_.id) {
    case TypeId::kBoolean:
      return Value::Bool(Get<uint8_t>(row) != 0);
    case TypeId::kTinyInt:
      return Value::Int(Get<int8_t>(row));
    case TypeId::kSmallInt:
      return Value::Int(Get<int16_t>(row));
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      return Value::Int(Get<int32_t>(row));
    case TypeId::kBigInt:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      return Value::Int(Get<int64_t>(row));
    case TypeId::kFloat:
      return Value::Double(Get<float>(row));
    case TypeId::kDouble:
      return Value::Double(Get<double>(row));
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return Value::String(std::string(GetString(row)));
    case TypeId::kNull:
      return Value::Null();
  }
  return Value::Null();
}

void Column::AppendValue(const Value& v) {
  if (v.is_null()) {
    AppendNull();
    return;
  }
  switch (type_.id) {
    case TypeId::kBoolean:
      Append<uint8_t>(v.bool_value() ? 1 : 0);
      break;
    case TypeId::kTinyInt:
      Append<int8_t>(static_cast<int8_t>(v.int_value()));
      break;
    case TypeId::kSmallInt:
      Append<int16_t>(static_cast<int16_t>(v.int_value()));
      break;
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      Append<int32_t>(static_cast<int32_t>(v.int_value()));
      break;
    case TypeId::kBigInt:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      Append<int64_t>(v.int_value());
      break;
    case TypeId::kFloat:
      Append<float>(static_cast<float>(v.double_value()));
      break;
    case TypeId::kDouble:
      Append<double>(v.double_value());
      break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      AppendString(v.string_value());
      break;
    case TypeId::kNull:
      AppendNull();
      break;
  }
}

Column Column::FromRaw(DataType type, size_t size, std::vector<uint8_t> data,
                       std::vector<uint8_t> validity, std::vector<uint32_t> offsets,
                       std::string heap) {
  Column c(type);
  c.size_ = size;
  c.data_ = std::move(data);
  c.validity_ = std::move(validity);
  if (c.width_ == 0) c.offsets_ = std::move(offsets);
  c.heap_ = std::move(heap);
  if (!c.validity_.empty()) {
    for (size_t r = 0; r < size; ++r) {
      if (c.IsNull(r)) ++c.null_count_;
    }
  }
  return c;
}

}  // namespace eddy
