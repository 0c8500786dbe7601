#include "common/types/collection_codec.h"

#include <cstring>

namespace eddy {

namespace {

uint32_t ReadU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

void AppendU32(std::string* out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  out->append(b, 4);
}

template <typename T>
T ReadFixed(std::string_view b) {
  T v;
  std::memcpy(&v, b.data(), sizeof(T));
  return v;
}

template <typename T>
void AppendFixedValue(CollectionEncoder* e, T v) {
  e->AppendFixed(&v, sizeof(T));
}

}  // namespace

bool SameIgnoringNullability(const DataType& a, const DataType& b) {
  if (a.id != b.id || a.precision != b.precision || a.scale != b.scale) return false;
  const std::vector<Field>& fa = a.fields();
  const std::vector<Field>& fb = b.fields();
  if (fa.size() != fb.size()) return false;
  for (size_t i = 0; i < fa.size(); ++i) {
    if (!SameIgnoringNullability(fa[i].type, fb[i].type)) return false;
  }
  return true;
}

const DataType& SlotType(const DataType& t, size_t i) {
  switch (t.id) {
    case TypeId::kArray:
      return t.element_type();
    case TypeId::kMap:
      return i % 2 == 0 ? t.key_type() : t.value_type();
    case TypeId::kRow:
      return t.fields()[i].type;
    case TypeId::kBoolean:
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal:
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
    case TypeId::kTimestamp:
    case TypeId::kNull:
    case TypeId::kInterval:
    case TypeId::kTimestampLtz:
      break;
  }
  return t;  // a scalar has no slots; callers only ask collections
}

void CollectionEncoder::Begin(std::string* out, uint32_t slots) {
  out_ = out;
  slots_ = slots;
  slot_ = 0;
  AppendU32(out, slots);
  bitmap_at_ = out->size();
  out->append((slots + 7) / 8, '\0');
}

void CollectionEncoder::MarkPresent() {
  (*out_)[bitmap_at_ + (slot_ >> 3)] |= static_cast<char>(1u << (slot_ & 7));
  ++slot_;
}

void CollectionEncoder::AppendFixed(const void* bytes, int width) {
  MarkPresent();
  out_->append(static_cast<const char*>(bytes), width);
}

void CollectionEncoder::AppendVariable(std::string_view bytes) {
  MarkPresent();
  AppendU32(out_, static_cast<uint32_t>(bytes.size()));
  out_->append(bytes.data(), bytes.size());
}

void CollectionEncoder::AppendValue(const Value& v, const DataType& t) {
  if (v.is_null()) {
    AppendNull();
    return;
  }
  switch (t.id) {
    case TypeId::kBoolean:
      AppendFixedValue<uint8_t>(this, v.bool_value() ? 1 : 0);
      return;
    case TypeId::kTinyInt:
      AppendFixedValue<int8_t>(this, static_cast<int8_t>(v.int_value()));
      return;
    case TypeId::kSmallInt:
      AppendFixedValue<int16_t>(this, static_cast<int16_t>(v.int_value()));
      return;
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      AppendFixedValue<int32_t>(this, static_cast<int32_t>(v.int_value()));
      return;
    case TypeId::kBigInt:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      AppendFixedValue<int64_t>(this, v.int_value());
      return;
    case TypeId::kFloat:
      AppendFixedValue<float>(this, static_cast<float>(v.double_value()));
      return;
    case TypeId::kDouble:
      AppendFixedValue<double>(this, v.double_value());
      return;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      AppendVariable(v.string_value());
      return;
    case TypeId::kNull:
      AppendNull();
      return;
  }
}

void CollectionEncoder::Finish() {
  // Slots never appended stay NULL (their bitmap bits are 0).
  slot_ = slots_;
  out_ = nullptr;
}

bool DecodeSlots(std::string_view encoded, const DataType& t, std::vector<Slot>* slots) {
  slots->clear();
  if (encoded.size() < 4) return false;
  const uint32_t n = ReadU32(encoded.data());
  if (t.id == TypeId::kMap && n % 2 != 0) return false;
  if (t.id == TypeId::kRow && n != t.fields().size()) return false;
  const size_t bitmap_bytes = (static_cast<size_t>(n) + 7) / 8;
  if (encoded.size() - 4 < bitmap_bytes) return false;
  const char* bitmap = encoded.data() + 4;
  size_t pos = 4 + bitmap_bytes;
  slots->resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    Slot& s = (*slots)[i];
    s.present = (static_cast<uint8_t>(bitmap[i >> 3]) >> (i & 7)) & 1;
    if (!s.present) {
      s.bytes = {};
      continue;
    }
    const DataType& st = SlotType(t, i);
    size_t width = PhysicalWidth(st.id);
    if (width == 0) {
      if (encoded.size() - pos < 4) return false;
      width = ReadU32(encoded.data() + pos);
      pos += 4;
    }
    if (encoded.size() - pos < width) return false;
    s.bytes = encoded.substr(pos, width);
    pos += width;
  }
  return pos == encoded.size();
}

uint32_t CollectionCardinality(std::string_view encoded, const DataType& t) {
  if (encoded.size() < 4) return 0;
  const uint32_t n = ReadU32(encoded.data());
  return t.id == TypeId::kMap ? n / 2 : n;
}

Value SlotValue(const Slot& slot, const DataType& t) {
  if (!slot.present) return Value::Null();
  switch (t.id) {
    case TypeId::kBoolean:
      return Value::Bool(ReadFixed<uint8_t>(slot.bytes) != 0);
    case TypeId::kTinyInt:
      return Value::Int(ReadFixed<int8_t>(slot.bytes));
    case TypeId::kSmallInt:
      return Value::Int(ReadFixed<int16_t>(slot.bytes));
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      return Value::Int(ReadFixed<int32_t>(slot.bytes));
    case TypeId::kBigInt:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      return Value::Int(ReadFixed<int64_t>(slot.bytes));
    case TypeId::kFloat:
      return Value::Double(ReadFixed<float>(slot.bytes));
    case TypeId::kDouble:
      return Value::Double(ReadFixed<double>(slot.bytes));
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return Value::String(std::string(slot.bytes));
    case TypeId::kNull:
      return Value::Null();
  }
  return Value::Null();
}

namespace {

void AppendSlotText(const Slot& slot, const DataType& t, std::string* out) {
  if (!slot.present) {
    out->append("NULL");
  } else if (t.IsCollection()) {
    out->append(FormatCollection(slot.bytes, t));
  } else {
    out->append(FormatValue(SlotValue(slot, t), t));
  }
}

}  // namespace

std::string FormatCollection(std::string_view encoded, const DataType& t) {
  std::vector<Slot> slots;
  if (!DecodeSlots(encoded, t, &slots)) return "<malformed>";
  std::string out;
  const bool is_map = t.id == TypeId::kMap;
  out.push_back(t.id == TypeId::kArray ? '[' : is_map ? '{' : '(');
  for (size_t i = 0; i < slots.size(); ++i) {
    if (i > 0) out.append(is_map && i % 2 == 1 ? "=" : ", ");
    AppendSlotText(slots[i], SlotType(t, i), &out);
  }
  out.push_back(t.id == TypeId::kArray ? ']' : is_map ? '}' : ')');
  return out;
}

}  // namespace eddy
