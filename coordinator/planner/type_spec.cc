#include "coordinator/planner/type_spec.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {

absl::StatusOr<DataType> TypeFromSpec(const sql::TypeSpec& spec) {
  const std::string& n = spec.name;
  const auto& p = spec.params;
  auto no_params = [&]() -> absl::Status {
    if (!p.empty()) {
      return ValidationErrorAt(spec.pos, absl::StrCat("type ", n, " takes no parameters"));
    }
    return absl::OkStatus();
  };
  DataType t;
  if (n == "BOOLEAN" || n == "TINYINT" || n == "SMALLINT" || n == "INT" || n == "INTEGER" ||
      n == "BIGINT" || n == "FLOAT" || n == "DOUBLE" || n == "STRING" || n == "DATE" ||
      n == "BYTES") {
    if (absl::Status s = no_params(); !s.ok()) return s;
    if (n == "BOOLEAN") t = DataType::Boolean();
    if (n == "TINYINT") t = DataType::TinyInt();
    if (n == "SMALLINT") t = DataType::SmallInt();
    if (n == "INT" || n == "INTEGER") t = DataType::Int();
    if (n == "BIGINT") t = DataType::BigInt();
    if (n == "FLOAT") t = DataType::Float();
    if (n == "DOUBLE") t = DataType::Double();
    if (n == "STRING") t = DataType::String();
    if (n == "DATE") t = DataType::Date();
    if (n == "BYTES") t = DataType::Bytes();
  } else if (n == "DECIMAL" || n == "DEC" || n == "NUMERIC") {
    if (p.size() > 2) return ValidationErrorAt(spec.pos, "DECIMAL takes at most two parameters");
    int precision = p.empty() ? 10 : p[0];
    int scale = p.size() > 1 ? p[1] : 0;
    if (precision > kMaxDecimalPrecision) {
      return ValidationErrorAt(
          spec.pos, absl::StrCat("DECIMAL precision ", precision, " is not supported (maximum ",
                                 kMaxDecimalPrecision, ")"));
    }
    if (precision < 1) {
      return ValidationErrorAt(spec.pos, "DECIMAL precision must be between 1 and 18");
    }
    if (scale < 0 || scale > precision) {
      return ValidationErrorAt(
          spec.pos, absl::StrCat("DECIMAL scale ", scale, " must be between 0 and the precision ",
                                 precision));
    }
    t = DataType::Decimal(precision, scale);
  } else if (n == "VARCHAR" || n == "CHAR") {
    if (p.size() > 1) return ValidationErrorAt(spec.pos, n + " takes one length parameter");
    int len = p.empty() ? 1 : p[0];
    if (len < 1) return ValidationErrorAt(spec.pos, absl::StrCat(n, " length must be positive"));
    t = n == "CHAR" ? DataType::Char(len) : DataType::Varchar(len);
  } else if (n == "VARBINARY" || n == "BINARY") {
    // Flink's BYTES is VARBINARY(2147483647); both default to length 1.
    if (p.size() > 1) return ValidationErrorAt(spec.pos, n + " takes one length parameter");
    const int len = p.empty() ? 1 : p[0];
    if (len < 1) return ValidationErrorAt(spec.pos, absl::StrCat(n, " length must be positive"));
    constexpr int kMaxLength = 2147483647;
    t = n == "BINARY"       ? DataType::Binary(len)
        : len == kMaxLength ? DataType::Bytes()
                            : DataType::VarBinary(len);
  } else if (n == "TIMESTAMP" || n == "TIMESTAMP_LTZ") {
    if (p.size() > 1) return ValidationErrorAt(spec.pos, n + " takes one precision parameter");
    int precision = p.empty() ? 6 : p[0];  // Flink's TIMESTAMP is TIMESTAMP(6), so is its LTZ
    if (precision < 0 || precision > 9) {
      return ValidationErrorAt(spec.pos, n + " precision must be between 0 and 9");
    }
    t = n == "TIMESTAMP" ? DataType::Timestamp(precision) : DataType::TimestampLtz(precision);
  } else if (n == "TIME") {
    if (p.size() > 1) return ValidationErrorAt(spec.pos, "TIME takes one precision parameter");
    const int precision = p.empty() ? 0 : p[0];  // Flink's TIME is TIME(0)
    if (precision < 0 || precision > 9) {
      return ValidationErrorAt(spec.pos, "TIME precision must be between 0 and 9");
    }
    t = DataType::Time(precision);
  } else if (n == "ARRAY" || n == "MAP" || n == "ROW") {
    std::vector<DataType> children;
    for (const sql::TypeSpec& c : spec.children) {
      ASSIGN_OR_RETURN(DataType child, TypeFromSpec(c));
      children.push_back(std::move(child));
    }
    if (n == "ARRAY") t = DataType::Array(children[0]);
    if (n == "MAP") t = DataType::Map(children[0], children[1]);
    if (n == "ROW") {
      std::vector<Field> fields;
      for (size_t i = 0; i < children.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
          if (absl::EqualsIgnoreCase(spec.field_names[j], spec.field_names[i])) {
            return ValidationErrorAt(
                spec.pos, absl::StrCat("ROW field name '", spec.field_names[i], "' appears twice"));
          }
        }
        fields.push_back({spec.field_names[i], children[i]});
      }
      t = DataType::Row(std::move(fields));
    }
  } else if (n == "MULTISET") {
    return ValidationErrorAt(spec.pos, "type MULTISET is not supported (ARRAY, MAP and ROW are)");
  } else {
    return ValidationErrorAt(spec.pos, absl::StrCat("type ", n, " is not supported yet"));
  }
  t.nullable = !spec.not_null;
  return t;
}

}  // namespace eddy::planner
