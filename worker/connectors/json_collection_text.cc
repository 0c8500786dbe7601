#include "worker/connectors/json_collection_text.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "absl/strings/numbers.h"
#include "common/base/json_string.h"
#include "common/expr/decimal_util.h"
#include "common/expr/json_value.h"
#include "common/types/binary_text.h"
#include "common/types/collection_codec.h"
#include "common/types/temporal_text.h"
#include "common/types/value.h"

namespace eddy {
namespace {

bool IntegerInRange(TypeId id, int64_t v) {
  if (id == TypeId::kTinyInt) {
    return v >= std::numeric_limits<int8_t>::min() && v <= std::numeric_limits<int8_t>::max();
  }
  if (id == TypeId::kSmallInt) {
    return v >= std::numeric_limits<int16_t>::min() && v <= std::numeric_limits<int16_t>::max();
  }
  if (id == TypeId::kInt) {
    return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
  }
  return true;
}

// The text a scalar JSON value stands for: a string's content, a number or boolean as written.
bool ScalarText(const json::Value& v, std::string* out) {
  switch (v.kind) {
    case json::Value::Kind::kString:
    case json::Value::Kind::kNumber:
      *out = v.text;
      return true;
    case json::Value::Kind::kBool:
      *out = v.boolean ? "true" : "false";
      return true;
    case json::Value::Kind::kNull:
    case json::Value::Kind::kArray:
    case json::Value::Kind::kObject:
      return false;
  }
  return false;
}

// The boxed value of scalar text of type t; false when it is no such value.
bool ScalarFromText(const std::string& s, const DataType& t, Value* out) {
  switch (t.id) {
    case TypeId::kBoolean:
      if (s != "true" && s != "false") return false;
      *out = Value::Bool(s == "true");
      return true;
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt: {
      int64_t v;
      if (!absl::SimpleAtoi(s, &v) || !IntegerInRange(t.id, v)) return false;
      *out = Value::Int(v);
      return true;
    }
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d;
      if (!absl::SimpleAtod(s, &d)) return false;
      *out = Value::Double(d);
      return true;
    }
    case TypeId::kDecimal: {
      int64_t v;
      if (!decimal::ParseDecimal(s, t.precision, t.scale, &v)) return false;
      *out = Value::Int(v);
      return true;
    }
    case TypeId::kString:
      *out = Value::String(
          t.length > 0 && s.size() > static_cast<size_t>(t.length) ? s.substr(0, t.length) : s);
      return true;
    case TypeId::kBinary: {  // base64, as Flink's json format
      std::string bytes;
      if (!Base64Decode(s, &bytes)) return false;
      *out = Value::String(std::move(bytes));
      return true;
    }
    case TypeId::kDate: {
      int32_t days;
      if (!ParseDateText(s, &days)) return false;
      *out = Value::Int(days);
      return true;
    }
    case TypeId::kTime: {  // HH:mm:ss[.fff], whole seconds kept, as Flink's json format
      int32_t millis;
      if (!ParseTimeText(s, 0, &millis, nullptr)) return false;
      *out = Value::Int(millis);
      return true;
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: {
      std::string_view v = s;
      if (t.id == TypeId::kTimestampLtz && !v.empty() && (v.back() == 'Z' || v.back() == 'z')) {
        v.remove_suffix(1);
      }
      int64_t value;
      if (!ParseTimestampText(v, t.precision, &value, nullptr)) return false;
      *out = Value::Int(value);
      return true;
    }
    case TypeId::kNull:
    case TypeId::kInterval:
    case TypeId::kIntervalYearMonth:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return false;
  }
  return false;
}

bool Encode(const json::Value& v, const DataType& t, std::string* out);

// The boxed value of JSON value v as a slot of type t (NULL for JSON null).
bool SlotFromJson(const json::Value& v, const DataType& t, Value* out) {
  if (v.kind == json::Value::Kind::kNull) {
    *out = Value::Null();
    return t.nullable;
  }
  if (t.IsCollection()) {
    std::string nested;
    if (!Encode(v, t, &nested)) return false;
    *out = Value::String(std::move(nested));
    return true;
  }
  if (t.id == TypeId::kString && !v.IsScalar()) {
    std::string text;
    json::Write(v, &text);
    *out = Value::String(std::move(text));
    return true;
  }
  std::string text;
  return ScalarText(v, &text) && ScalarFromText(text, t, out);
}

// Appends the encoding of JSON value v (not null) as a value of collection type t.
bool Encode(const json::Value& v, const DataType& t, std::string* out) {
  CollectionEncoder e;
  Value slot;
  if (t.id == TypeId::kArray) {
    if (v.kind != json::Value::Kind::kArray) return false;
    std::vector<Value> items(v.items.size());
    for (size_t i = 0; i < v.items.size(); ++i) {
      if (!SlotFromJson(v.items[i], t.element_type(), &items[i])) return false;
    }
    e.Begin(out, static_cast<uint32_t>(items.size()));
    for (const Value& item : items) e.AppendValue(item, t.element_type());
    e.Finish();
    return true;
  }
  if (v.kind != json::Value::Kind::kObject) return false;
  if (t.id == TypeId::kMap) {
    // Keys unique in order of first appearance; a later duplicate replaces the value.
    std::vector<std::pair<Value, Value>> entries;
    for (size_t i = 0; i < v.keys.size(); ++i) {
      Value key, value;
      if (!ScalarFromText(v.keys[i], t.key_type(), &key)) return false;
      if (!SlotFromJson(v.items[i], t.value_type(), &value)) return false;
      bool replaced = false;
      for (auto& entry : entries) {
        if (entry.first == key) {
          entry.second = value;
          replaced = true;
        }
      }
      if (!replaced) entries.emplace_back(std::move(key), std::move(value));
    }
    e.Begin(out, static_cast<uint32_t>(2 * entries.size()));
    for (const auto& [key, value] : entries) {
      e.AppendValue(key, t.key_type());
      e.AppendValue(value, t.value_type());
    }
    e.Finish();
    return true;
  }
  // ROW
  const std::vector<Field>& fields = t.fields();
  std::vector<Value> values(fields.size());
  for (size_t f = 0; f < fields.size(); ++f) {
    const json::Value* member = nullptr;
    for (size_t i = 0; i < v.keys.size(); ++i) {
      if (v.keys[i] == fields[f].name) member = &v.items[i];
    }
    if (member == nullptr) {
      if (!fields[f].type.nullable) return false;
      continue;
    }
    if (!SlotFromJson(*member, fields[f].type, &values[f])) return false;
  }
  e.Begin(out, static_cast<uint32_t>(fields.size()));
  for (size_t f = 0; f < fields.size(); ++f) e.AppendValue(values[f], fields[f].type);
  e.Finish();
  return true;
}

void AppendSlotJson(const Slot& s, const DataType& t, std::string* out) {
  if (!s.present) {
    out->append("null");
    return;
  }
  if (t.IsCollection()) {
    AppendCollectionJson(s.bytes, t, out);
    return;
  }
  const Value v = SlotValue(s, t);
  switch (t.id) {
    case TypeId::kBoolean:
      out->append(v.bool_value() ? "true" : "false");
      return;
    case TypeId::kFloat:
    case TypeId::kDouble: {
      const double d = v.double_value();
      const std::string text = FormatApproximate(d, t.id == TypeId::kFloat);
      if (std::isfinite(d)) {
        out->append(text);
      } else {
        AppendJsonString(text, out);  // NaN and Infinity as strings, as Jackson writes them
      }
      return;
    }
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt:
    case TypeId::kDecimal:
      out->append(FormatValue(v, t));
      return;
    case TypeId::kBinary:
      AppendJsonString(Base64Encode(v.string_value()), out);
      return;
    case TypeId::kTime:  // HH:mm:ss, as Flink's json format
      AppendJsonString(FormatTime(static_cast<int32_t>(v.int_value()), 0), out);
      return;
    case TypeId::kString:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
    case TypeId::kIntervalYearMonth:
    case TypeId::kNull:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      AppendJsonString(FormatValue(v, t), out);
      return;
  }
}

}  // namespace

Column CollectionsFromJsonText(const Column& text, const DataType& type) {
  Column out(type);
  out.Reserve(text.size());
  json::Value doc;
  std::string encoded;
  for (size_t r = 0; r < text.size(); ++r) {
    encoded.clear();
    if (text.IsNull(r) || !json::Parse(text.GetString(r), &doc) ||
        doc.kind == json::Value::Kind::kNull || !Encode(doc, type, &encoded)) {
      out.AppendNull();
    } else {
      out.AppendString(encoded);
    }
  }
  return out;
}

void AppendCollectionJson(std::string_view encoded, const DataType& type, std::string* out) {
  std::vector<Slot> slots;
  if (!DecodeSlots(encoded, type, &slots)) {
    out->append("null");
    return;
  }
  const bool array = type.id == TypeId::kArray;
  out->push_back(array ? '[' : '{');
  for (size_t i = 0; i < slots.size(); ++i) {
    if (type.id == TypeId::kMap) {
      if (i % 2 == 1) continue;
      if (i > 0) out->push_back(',');
      const DataType& kt = type.key_type();
      AppendJsonString(slots[i].present ? FormatValue(SlotValue(slots[i], kt), kt) : "null", out);
      out->push_back(':');
      AppendSlotJson(slots[i + 1], type.value_type(), out);
      continue;
    }
    if (i > 0) out->push_back(',');
    if (type.id == TypeId::kRow) {
      AppendJsonString(type.fields()[i].name, out);
      out->push_back(':');
    }
    AppendSlotJson(slots[i], SlotType(type, i), out);
  }
  out->push_back(array ? ']' : '}');
}

}  // namespace eddy
