#include "common/connectors/connector_config.h"

#include <cmath>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/duration.h"
#include "common/base/memory_size.h"

namespace eddy {

ConnectorConfig::ConnectorConfig(std::string connector, std::string table,
                                 std::map<std::string, std::string> options)
    : connector_(std::move(connector)), table_(std::move(table)), options_(std::move(options)) {
  options_.erase("connector");
}

const std::string* ConnectorConfig::Find(const std::string& key) {
  auto it = options_.find(key);
  if (it == options_.end()) return nullptr;
  read_.insert(key);
  return &it->second;
}

std::optional<std::string> ConnectorConfig::Get(const std::string& key) {
  const std::string* v = Find(key);
  if (v == nullptr) return std::nullopt;
  return *v;
}

absl::StatusOr<std::string> ConnectorConfig::Required(const std::string& key,
                                                      std::string_view hint) {
  const std::string* v = Find(key);
  if (v == nullptr || v->empty()) {
    return Error(absl::StrCat("table '", table_, "' (connector '", connector_, "') needs option '",
                              key, "'",
                              hint.empty() ? "" : absl::StrCat(" (", std::string(hint), ")")));
  }
  return *v;
}

absl::StatusOr<bool> ConnectorConfig::Bool(const std::string& key, bool default_value) {
  const std::string* v = Find(key);
  if (v == nullptr) return default_value;
  const std::string l = absl::AsciiStrToLower(*v);
  if (l != "true" && l != "false") return Bad(key, "true or false");
  return l == "true";
}

absl::StatusOr<int64_t> ConnectorConfig::Int(const std::string& key, int64_t default_value,
                                             int64_t min) {
  const std::string* v = Find(key);
  if (v == nullptr) return default_value;
  int64_t i = 0;
  if (!absl::SimpleAtoi(*v, &i) || i < min) {
    return Bad(key, min == 1           ? "a positive integer"
                    : min == 0         ? "a non-negative integer"
                    : min == INT64_MIN ? "an integer"
                                       : absl::StrCat("an integer of at least ", min));
  }
  return i;
}

absl::StatusOr<double> ConnectorConfig::Number(const std::string& key, double default_value) {
  const std::string* v = Find(key);
  if (v == nullptr) return default_value;
  double d = 0;
  if (!absl::SimpleAtod(*v, &d) || !std::isfinite(d)) return Bad(key, "a number");
  return d;
}

absl::StatusOr<double> ConnectorConfig::PositiveNumber(const std::string& key,
                                                       double default_value) {
  const std::string* v = Find(key);
  if (v == nullptr) return default_value;
  double d = 0;
  if (!absl::SimpleAtod(*v, &d) || !std::isfinite(d) || d <= 0) {
    return Bad(key, "a positive number");
  }
  return d;
}

absl::StatusOr<int64_t> ConnectorConfig::DurationMs(const std::string& key, int64_t default_value) {
  const std::string* v = Find(key);
  if (v == nullptr) return default_value;
  std::optional<int64_t> ms = ParseDurationMillis(*v);
  if (!ms || *ms <= 0) return Bad(key, "a positive duration (e.g. 30 min)");
  return *ms;
}

absl::StatusOr<int64_t> ConnectorConfig::NonNegativeDurationMs(const std::string& key,
                                                               int64_t default_value) {
  const std::string* v = Find(key);
  if (v == nullptr) return default_value;
  std::optional<int64_t> ms = ParseDurationMillis(*v);
  if (!ms || *ms < 0) return Bad(key, "a duration (e.g. 5 s)");
  return *ms;
}

absl::StatusOr<int64_t> ConnectorConfig::MemoryBytes(const std::string& key,
                                                     int64_t default_value) {
  const std::string* v = Find(key);
  if (v == nullptr) return default_value;
  std::optional<int64_t> bytes = ParseMemorySizeBytes(*v);
  if (!bytes || *bytes <= 0) return Bad(key, "a positive memory size (e.g. 128mb)");
  return *bytes;
}

absl::StatusOr<std::string> ConnectorConfig::Enum(const std::string& key,
                                                  std::initializer_list<std::string_view> allowed,
                                                  std::string default_value) {
  const std::string* v = Find(key);
  if (v == nullptr) return default_value;
  std::string list;
  for (std::string_view a : allowed) {
    if (*v == a) return *v;
    absl::StrAppend(&list, list.empty() ? "" : ", ", std::string(a));
  }
  return Bad(key, absl::StrCat("one of ", list));
}

absl::StatusOr<char> ConnectorConfig::Character(const std::string& key, char default_value) {
  const std::string* v = Find(key);
  if (v == nullptr) return default_value;
  if (*v == "\\t") return '\t';
  if (v->size() != 1 || static_cast<unsigned char>((*v)[0]) >= 0x80 || (*v)[0] == '\n' ||
      (*v)[0] == '\r') {
    return Bad(key, "a single character");
  }
  return (*v)[0];
}

std::map<std::string, std::string> ConnectorConfig::WithPrefix(std::string_view prefix) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : options_) {
    if (key.size() <= prefix.size() || key.compare(0, prefix.size(), prefix) != 0) continue;
    read_.insert(key);
    out.emplace(key.substr(prefix.size()), value);
  }
  return out;
}

absl::Status ConnectorConfig::CheckAllRead() const {
  for (const auto& [key, value] : options_) {
    if (read_.count(key)) continue;
    return Error(absl::StrCat("unsupported option '", key, "' for connector '", connector_,
                              "' of table '", table_, "'"));
  }
  return absl::OkStatus();
}

absl::Status ConnectorConfig::Bad(const std::string& key, std::string_view expects) const {
  auto it = options_.find(key);
  const std::string value = it == options_.end() ? "" : it->second;
  return Error(absl::StrCat("option '", key, "' of table '", table_, "' expects ",
                            std::string(expects), ", got '", value, "'"));
}

absl::Status ConnectorConfig::Error(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

}  // namespace eddy
