#include "common/types/data_type.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace eddy {

DataType DataType::Array(DataType element) {
  DataType t{TypeId::kArray};
  t.nested = std::make_shared<const NestedTypes>(NestedTypes{{{"element", std::move(element)}}});
  return t;
}

DataType DataType::Map(DataType key, DataType value) {
  DataType t{TypeId::kMap};
  t.nested = std::make_shared<const NestedTypes>(
      NestedTypes{{{"key", std::move(key)}, {"value", std::move(value)}}});
  return t;
}

DataType DataType::Row(std::vector<Field> fields) {
  DataType t{TypeId::kRow};
  t.nested = std::make_shared<const NestedTypes>(NestedTypes{std::move(fields)});
  return t;
}

const DataType& DataType::element_type() const { return nested->children[0].type; }
const DataType& DataType::key_type() const { return nested->children[0].type; }
const DataType& DataType::value_type() const { return nested->children[1].type; }
const std::vector<Field>& DataType::fields() const {
  static const std::vector<Field> kNone;
  return nested ? nested->children : kNone;
}

bool DataType::NestedEquals(const DataType& o) const {
  if (!nested || !o.nested) return false;
  const auto& a = nested->children;
  const auto& b = o.nested->children;
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].type != b[i].type) return false;
    if (id == TypeId::kRow && a[i].name != b[i].name) return false;
  }
  return true;
}

namespace {

std::string QuoteIdentifier(const std::string& name) {
  return absl::StrCat("`", absl::StrReplaceAll(name, {{"`", "``"}}), "`");
}

}  // namespace

std::string DataType::ToString() const {
  std::string s;
  switch (id) {
    case TypeId::kBoolean:
      s = "BOOLEAN";
      break;
    case TypeId::kTinyInt:
      s = "TINYINT";
      break;
    case TypeId::kSmallInt:
      s = "SMALLINT";
      break;
    case TypeId::kInt:
      s = "INT";
      break;
    case TypeId::kBigInt:
      s = "BIGINT";
      break;
    case TypeId::kFloat:
      s = "FLOAT";
      break;
    case TypeId::kDouble:
      s = "DOUBLE";
      break;
    case TypeId::kDecimal:
      s = absl::StrCat("DECIMAL(", precision, ", ", scale, ")");
      break;
    case TypeId::kString:
      s = length == 0    ? "STRING"
          : fixed_length ? absl::StrCat("CHAR(", length, ")")
                         : absl::StrCat("VARCHAR(", length, ")");
      break;
    case TypeId::kDate:
      s = "DATE";
      break;
    case TypeId::kTime:
      s = absl::StrCat("TIME(", precision, ")");
      break;
    case TypeId::kTimestamp:
      s = absl::StrCat("TIMESTAMP(", precision, ")");
      break;
    case TypeId::kTimestampLtz:
      s = absl::StrCat("TIMESTAMP_LTZ(", precision, ")");
      break;
    case TypeId::kNull:
      return "NULL";
    case TypeId::kInterval:
      s = absl::StrCat("INTERVAL SECOND(", precision, ")");
      break;
    case TypeId::kIntervalYearMonth:
      s = "INTERVAL MONTH";
      break;
    case TypeId::kArray:
      s = absl::StrCat("ARRAY<", element_type().ToString(), ">");
      break;
    case TypeId::kMap:
      s = absl::StrCat("MAP<", key_type().ToString(), ", ", value_type().ToString(), ">");
      break;
    case TypeId::kBinary:
      s = length == 0    ? "BYTES"
          : fixed_length ? absl::StrCat("BINARY(", length, ")")
                         : absl::StrCat("VARBINARY(", length, ")");
      break;
    case TypeId::kRow: {
      s = "ROW<";
      for (size_t i = 0; i < fields().size(); ++i) {
        if (i > 0) s += ", ";
        absl::StrAppend(&s, QuoteIdentifier(fields()[i].name), " ", fields()[i].type.ToString());
      }
      s += ">";
      break;
    }
  }
  if (!nullable) s += " NOT NULL";
  return s;
}

int PhysicalWidth(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
    case TypeId::kTinyInt:
      return 1;
    case TypeId::kSmallInt:
      return 2;
    case TypeId::kInt:
    case TypeId::kFloat:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      return 4;
    case TypeId::kBigInt:
    case TypeId::kDouble:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      return 8;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return 0;
    case TypeId::kNull:
      return 1;
  }
  return 0;
}

std::optional<int> Schema::FindField(std::string_view name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (absl::EqualsIgnoreCase(fields[i].name, absl::string_view(name.data(), name.size())))
      return static_cast<int>(i);
  }
  return std::nullopt;
}

std::vector<DataType> Schema::Types() const {
  std::vector<DataType> out;
  out.reserve(fields.size());
  for (const auto& f : fields) out.push_back(f.type);
  return out;
}

std::vector<std::string> Schema::Names() const {
  std::vector<std::string> out;
  out.reserve(fields.size());
  for (const auto& f : fields) out.push_back(f.name);
  return out;
}

}  // namespace eddy
