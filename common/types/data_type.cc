#include "common/types/data_type.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace eddy {

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
      s = length > 0 ? absl::StrCat("VARCHAR(", length, ")") : "STRING";
      break;
    case TypeId::kDate:
      s = "DATE";
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
      return 4;
    case TypeId::kBigInt:
    case TypeId::kDouble:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      return 8;
    case TypeId::kString:
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
