#include "worker/connectors/rolling_policy.h"

#include "absl/strings/str_cat.h"
#include "common/base/duration.h"
#include "common/base/memory_size.h"

namespace eddy {

absl::StatusOr<RollingPolicy> RollingPolicy::FromOptions(
    const std::map<std::string, std::string>& options) {
  RollingPolicy p;
  auto bad = [](const std::string& key, const std::string& value, const char* expected) {
    return absl::InvalidArgumentError(
        absl::StrCat("option '", key, "' must be ", expected, ", but is '", value, "'"));
  };
  for (const auto& [key, value] : options) {
    if (key == "sink.rolling-policy.file-size") {
      std::optional<int64_t> bytes = ParseMemorySizeBytes(value);
      if (!bytes || *bytes <= 0) return bad(key, value, "a positive memory size (e.g. 128mb)");
      p.file_size_bytes = *bytes;
      continue;
    }
    std::chrono::milliseconds* interval = nullptr;
    if (key == "sink.rolling-policy.rollover-interval") interval = &p.rollover_interval;
    if (key == "sink.rolling-policy.inactivity-interval") interval = &p.inactivity_interval;
    if (key == "sink.rolling-policy.check-interval") interval = &p.check_interval;
    if (interval == nullptr) continue;
    std::optional<int64_t> ms = ParseDurationMillis(value);
    if (!ms || *ms <= 0) return bad(key, value, "a positive duration (e.g. 30 min)");
    *interval = std::chrono::milliseconds(*ms);
  }
  return p;
}

}  // namespace eddy
