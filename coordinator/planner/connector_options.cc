#include "coordinator/planner/connector_options.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/base/duration.h"
#include "common/base/memory_size.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/nexmark_table.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

// The capability table: one row per connector. Adding a connector starts here.
constexpr ConnectorCapabilities kConnectors[] = {
    {"blackhole", /*source=*/false, /*sink=*/true, /*accepts_updates=*/true,
     /*requires_update_before=*/false},
    {"datagen", true, false, false, false},
    {"filesystem", true, true, false, false},  // append-only sink
    {"nexmark", true, false, false, false},
    {"print", false, true, true, true},
};

// The sink of a SELECT whose rows go to the client; planned internally, never named in DDL.
constexpr ConnectorCapabilities kCollect = {kCollectConnector, false, true, true, true};

std::string SupportedList() {
  std::string s;
  for (const auto& c : kConnectors) {
    if (!s.empty()) s += ", ";
    s += c.name;
  }
  return s;
}

class OptionChecker {
 public:
  explicit OptionChecker(const CatalogTable& t) : table_(t), name_(t.path.ToString()) {}

  absl::Status Bad(const std::string& key, const std::string& expects, const std::string& value) {
    return ValidationError(absl::StrCat("option '", key, "' of table '", name_, "' expects ",
                                        expects, ", got '", value, "'"));
  }
  absl::Status Unsupported(const std::string& key) {
    return ValidationError(absl::StrCat("unsupported option '", key, "' for connector '",
                                        table_.connector(), "' of table '", name_, "'"));
  }
  absl::Status PositiveNumber(const std::string& k, const std::string& v, double* out = nullptr) {
    double d;
    if (!absl::SimpleAtod(v, &d) || !std::isfinite(d) || d <= 0) {
      return Bad(k, "a positive number", v);
    }
    if (out) *out = d;
    return absl::OkStatus();
  }
  absl::Status Number(const std::string& k, const std::string& v, double* out = nullptr) {
    double d;
    if (!absl::SimpleAtod(v, &d) || !std::isfinite(d)) return Bad(k, "a number", v);
    if (out) *out = d;
    return absl::OkStatus();
  }
  absl::Status Integer(const std::string& k, const std::string& v, int64_t* out = nullptr) {
    int64_t i;
    if (!absl::SimpleAtoi(v, &i)) return Bad(k, "an integer", v);
    if (out) *out = i;
    return absl::OkStatus();
  }
  absl::Status NonNegativeInteger(const std::string& k, const std::string& v) {
    int64_t i;
    if (!absl::SimpleAtoi(v, &i) || i < 0) return Bad(k, "a non-negative integer", v);
    return absl::OkStatus();
  }
  absl::Status PositiveInteger(const std::string& k, const std::string& v) {
    int64_t i;
    if (!absl::SimpleAtoi(v, &i) || i <= 0) return Bad(k, "a positive integer", v);
    return absl::OkStatus();
  }
  absl::Status Boolean(const std::string& k, const std::string& v) {
    std::string l = absl::AsciiStrToLower(v);
    if (l != "true" && l != "false") return Bad(k, "true or false", v);
    return absl::OkStatus();
  }
  const std::string& table_name() const { return name_; }

 private:
  const CatalogTable& table_;
  std::string name_;
};

struct SequenceBounds {
  bool has_start = false, has_end = false;
  int64_t start = 0, end = 0;
  bool sequence = false;
};

absl::Status ValidateDatagen(const CatalogTable& t, OptionChecker& c) {
  std::map<std::string, SequenceBounds> fields;
  for (const auto& [key, value] : t.options) {
    if (key == "connector") continue;
    if (key == "rows-per-second") {
      RETURN_IF_ERROR(c.PositiveNumber(key, value));
      continue;
    }
    if (key == "number-of-rows") {
      RETURN_IF_ERROR(c.NonNegativeInteger(key, value));
      continue;
    }
    if (!absl::StartsWith(key, "fields.")) return c.Unsupported(key);
    // fields.<col>.<property>; the column name itself may not contain '.'.
    std::vector<std::string> parts = absl::StrSplit(key, '.');
    if (parts.size() != 3) return c.Unsupported(key);
    const std::string& col = parts[1];
    const std::string& prop = parts[2];
    bool found = false;
    const Schema physical = t.PhysicalSchema();
    for (const auto& f : physical.fields) found = found || f.name == col;
    if (!found) return c.Unsupported(key);
    SequenceBounds& b = fields[col];
    if (prop == "kind") {
      if (value != "random" && value != "sequence")
        return c.Bad(key, "one of random, sequence", value);
      b.sequence = value == "sequence";
    } else if (prop == "start") {
      RETURN_IF_ERROR(c.Integer(key, value, &b.start));
      b.has_start = true;
    } else if (prop == "end") {
      RETURN_IF_ERROR(c.Integer(key, value, &b.end));
      b.has_end = true;
    } else if (prop == "min" || prop == "max") {
      RETURN_IF_ERROR(c.Number(key, value));
    } else if (prop == "length") {
      RETURN_IF_ERROR(c.PositiveInteger(key, value));
    } else if (prop == "null-rate") {
      double d = 0;
      RETURN_IF_ERROR(c.Number(key, value, &d));
      if (d < 0 || d > 1) return c.Bad(key, "a number between 0 and 1", value);
    } else {
      return c.Unsupported(key);
    }
  }
  for (const auto& [col, b] : fields) {
    if (!b.sequence) continue;
    if (!b.has_start || !b.has_end) {
      return ValidationError(absl::StrCat("field '", col, "' of table '", c.table_name(),
                                          "' is a sequence and needs options 'fields.", col,
                                          ".start' and 'fields.", col, ".end'"));
    }
    if (b.start > b.end) {
      return ValidationError(absl::StrCat("option 'fields.", col, ".start' of table '",
                                          c.table_name(), "' must not be greater than 'fields.",
                                          col, ".end' (", b.start, " > ", b.end, ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidatePrint(const CatalogTable& t, OptionChecker& c) {
  for (const auto& [key, value] : t.options) {
    if (key == "connector" || key == "print-identifier") continue;
    if (key == "standard-error") {
      RETURN_IF_ERROR(c.Boolean(key, value));
    } else if (key == "sink.parallelism") {
      RETURN_IF_ERROR(c.PositiveInteger(key, value));
    } else {
      return c.Unsupported(key);
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateBlackhole(const CatalogTable& t, OptionChecker& c) {
  for (const auto& [key, value] : t.options) {
    if (key != "connector") return c.Unsupported(key);
  }
  return absl::OkStatus();
}

// Flink's filesystem connector with the csv and json formats (docs/sql-reference.md lists them).
absl::Status ValidateFilesystem(const CatalogTable& t, OptionChecker& c) {
  const std::string* path = t.FindOption("path");
  if (path == nullptr || path->empty()) {
    return ValidationError(
        absl::StrCat("table '", c.table_name(), "' (connector 'filesystem') needs option 'path'"));
  }
  const std::string* format = t.FindOption("format");
  if (format == nullptr) {
    return ValidationError(absl::StrCat("table '", c.table_name(),
                                        "' (connector 'filesystem') needs option 'format' "
                                        "('csv' or 'json')"));
  }
  if (*format != "csv" && *format != "json") return c.Bad("format", "one of csv, json", *format);
  // One ASCII character other than a line break; Flink's '\t' (backslash, t) means a tab.
  auto character = [&](const std::string& key, const std::string& value, char* out) {
    if (value == "\\t") {
      *out = '\t';
      return absl::OkStatus();
    }
    if (value.size() != 1 || static_cast<unsigned char>(value[0]) >= 0x80 || value[0] == '\n' ||
        value[0] == '\r') {
      return c.Bad(key, "a single character", value);
    }
    *out = value[0];
    return absl::OkStatus();
  };
  char delimiter = ',', quote = '"';
  bool quote_set = false, quote_disabled = false;
  bool fail_on_missing = false, json_ignore_errors = false;
  for (const auto& [key, value] : t.options) {
    if (key == "connector" || key == "path" || key == "format") continue;
    if (key == "sink.parallelism") {
      RETURN_IF_ERROR(c.PositiveInteger(key, value));
    } else if (key == "sink.rolling-policy.file-size") {
      std::optional<int64_t> bytes = ParseMemorySizeBytes(value);
      if (!bytes || *bytes <= 0) return c.Bad(key, "a positive memory size (e.g. 128mb)", value);
    } else if (key == "sink.rolling-policy.rollover-interval" ||
               key == "sink.rolling-policy.inactivity-interval" ||
               key == "sink.rolling-policy.check-interval") {
      std::optional<int64_t> ms = ParseDurationMillis(value);
      if (!ms || *ms <= 0) return c.Bad(key, "a positive duration (e.g. 30 min)", value);
    } else if (*format == "csv" && key == "csv.field-delimiter") {
      RETURN_IF_ERROR(character(key, value, &delimiter));
    } else if (*format == "csv" && key == "csv.quote-character") {
      RETURN_IF_ERROR(character(key, value, &quote));
      quote_set = true;
    } else if (*format == "csv" && key == "csv.disable-quote-character") {
      RETURN_IF_ERROR(c.Boolean(key, value));
      quote_disabled = absl::AsciiStrToLower(value) == "true";
    } else if (*format == "csv" &&
               (key == "csv.allow-comments" || key == "csv.ignore-parse-errors" ||
                key == "csv.ignore-first-line")) {
      RETURN_IF_ERROR(c.Boolean(key, value));
    } else if (*format == "csv" && key == "csv.null-literal") {
      // any text, the empty string included
    } else if (*format == "json" &&
               (key == "json.fail-on-missing-field" || key == "json.ignore-parse-errors")) {
      RETURN_IF_ERROR(c.Boolean(key, value));
      const bool on = absl::AsciiStrToLower(value) == "true";
      (key == "json.fail-on-missing-field" ? fail_on_missing : json_ignore_errors) = on;
    } else if (*format == "json" && key == "json.timestamp-format.standard") {
      if (value != "SQL" && value != "ISO-8601") return c.Bad(key, "one of SQL, ISO-8601", value);
    } else {
      return c.Unsupported(key);
    }
  }
  if (quote_set && quote_disabled) {
    return ValidationError(absl::StrCat("table '", c.table_name(),
                                        "' cannot set both 'csv.quote-character' and "
                                        "'csv.disable-quote-character' = 'true'"));
  }
  if (!quote_disabled && quote == delimiter) {
    return ValidationError(
        absl::StrCat("options 'csv.field-delimiter' and 'csv.quote-character' of "
                     "table '",
                     c.table_name(), "' must differ"));
  }
  if (fail_on_missing && json_ignore_errors) {
    return ValidationError(absl::StrCat("table '", c.table_name(),
                                        "' cannot set both 'json.fail-on-missing-field' and "
                                        "'json.ignore-parse-errors' to true"));
  }
  return absl::OkStatus();
}

}  // namespace

const ConnectorCapabilities* FindConnector(std::string_view name) {
  for (const auto& c : kConnectors) {
    if (c.name == name) return &c;
  }
  if (name == kCollect.name) return &kCollect;
  return nullptr;
}

absl::Status ValidateConnectorOptions(const CatalogTable& table) {
  const std::string* connector = table.FindOption("connector");
  if (connector == nullptr) {
    return ValidationError(
        absl::StrCat("table '", table.path.ToString(), "' has no 'connector' option"));
  }
  if (FindConnector(*connector) == nullptr || *connector == kCollectConnector) {
    return ValidationError(absl::StrCat("unknown connector '", *connector, "' for table '",
                                        table.path.ToString(), "'; supported: ", SupportedList()));
  }
  OptionChecker checker(table);
  if (*connector == "datagen") return ValidateDatagen(table, checker);
  if (*connector == "print") return ValidatePrint(table, checker);
  if (*connector == "blackhole") return ValidateBlackhole(table, checker);
  if (*connector == "filesystem") return ValidateFilesystem(table, checker);
  if (*connector == "nexmark") return ValidateNexmarkTable(table);
  return absl::InternalError(absl::StrCat("connector '", *connector, "' has no option checks"));
}

}  // namespace eddy::planner
