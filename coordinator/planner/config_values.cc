#include "coordinator/planner/config_values.h"

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/duration.h"
#include "common/types/time_zone.h"

namespace eddy::planner {

bool ConfigFlag(const ConfigMap& config, const std::string& key, bool def) {
  auto it = config.find(key);
  if (it == config.end()) return def;
  return absl::AsciiStrToLower(it->second) != "false";
}

bool IsBatchMode(const ConfigMap& config) {
  auto it = config.find("execution.runtime-mode");
  return it != config.end() && absl::AsciiStrToUpper(it->second) == "BATCH";
}

absl::StatusOr<bool> DropsRowsWithNullsInNotNullColumns(const ConfigMap& config) {
  static constexpr char kKey[] = "table.exec.sink.not-null-enforcer";
  auto it = config.find(kKey);
  if (it == config.end()) return false;
  const std::string value = absl::AsciiStrToUpper(it->second);
  if (value == "ERROR") return false;
  if (value == "DROP") return true;
  return absl::InvalidArgumentError(
      absl::StrCat("'", kKey, "' must be ERROR or DROP, got '", it->second, "'"));
}

absl::StatusOr<int> ConfigPositiveInt(const ConfigMap& config, const std::string& key, int def) {
  auto it = config.find(key);
  if (it == config.end()) return def;
  int v = 0;
  if (!absl::SimpleAtoi(it->second, &v) || v < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", key, "' must be a positive integer, got '", it->second, "'"));
  }
  return v;
}

absl::StatusOr<int64_t> ConfigDurationMs(const ConfigMap& config, const std::string& key,
                                         int64_t def) {
  auto it = config.find(key);
  if (it == config.end()) return def;
  std::optional<int64_t> ms = ParseDurationMillis(it->second);
  if (!ms) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", key, "' must be a duration such as '5 s' or '100 ms', got '", it->second, "'"));
  }
  return *ms;
}

std::string ConfigTimeZone(const ConfigMap& config) {
  auto it = config.find(kLocalTimeZoneKey);
  return it == config.end() || it->second.empty() ? std::string(kDefaultTimeZone) : it->second;
}

}  // namespace eddy::planner
