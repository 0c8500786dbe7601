#include "coordinator/planner/connector_options.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

// The capability table: one row per connector. Adding a connector starts here.
constexpr ConnectorCapabilities kConnectors[] = {
    {"blackhole", /*source=*/false, /*sink=*/true, /*accepts_updates=*/true,
     /*requires_update_before=*/false},
    {"datagen", true, false, false, false},
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
      if (value != "random" && value != "sequence") return c.Bad(key, "one of random, sequence", value);
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
  return absl::OkStatus();
}

}  // namespace eddy::planner
