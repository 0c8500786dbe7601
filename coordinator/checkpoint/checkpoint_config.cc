#include "coordinator/checkpoint/checkpoint_config.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/config_error.h"
#include "common/base/duration.h"

namespace eddy {

absl::StatusOr<CheckpointConfig> CheckpointConfigFrom(
    const std::map<std::string, std::string>& config, const std::string& default_dir,
    const std::string& default_savepoints_dir) {
  CheckpointConfig c;
  c.dir = default_dir;
  c.savepoints_dir = default_savepoints_dir;
  auto duration = [&](const std::string& key, std::chrono::milliseconds* out,
                      bool positive) -> absl::Status {
    auto it = config.find(key);
    if (it == config.end()) return absl::OkStatus();
    auto ms = ParseDurationMillis(it->second);
    if (!ms || *ms < 0 || (positive && *ms == 0)) {
      return InvalidConfigValue(key, it->second, positive ? "a positive duration" : "a duration");
    }
    *out = std::chrono::milliseconds(*ms);
    return absl::OkStatus();
  };
  auto integer = [&](const std::string& key, int* out, int min) -> absl::Status {
    auto it = config.find(key);
    if (it == config.end()) return absl::OkStatus();
    if (!absl::SimpleAtoi(it->second, out) || *out < min) {
      return InvalidConfigValue(key, it->second, absl::StrCat("an integer >= ", min));
    }
    return absl::OkStatus();
  };
  const std::string p = "execution.checkpointing.";
  if (absl::Status s = duration(p + "interval", &c.interval, false); !s.ok()) return s;
  if (absl::Status s = duration(p + "timeout", &c.timeout, true); !s.ok()) return s;
  if (absl::Status s = duration(p + "min-pause", &c.min_pause, false); !s.ok()) return s;
  if (absl::Status s = integer(p + "max-concurrent-checkpoints", &c.max_concurrent, 1); !s.ok()) {
    return s;
  }
  if (absl::Status s = integer(p + "tolerable-failed-checkpoints", &c.tolerable_failures, 0);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = integer("state.checkpoints.num-retained", &c.num_retained, 1); !s.ok()) {
    return s;
  }
  if (auto it = config.find(p + "mode"); it != config.end()) {
    const std::string mode = absl::AsciiStrToUpper(it->second);
    if (mode != "EXACTLY_ONCE" && mode != "AT_LEAST_ONCE") {
      return InvalidConfigValue(p + "mode", it->second, "EXACTLY_ONCE or AT_LEAST_ONCE");
    }
    c.exactly_once = mode == "EXACTLY_ONCE";
  }
  if (auto it = config.find("state.checkpoints.dir"); it != config.end()) {
    std::string dir = it->second;
    if (absl::StartsWith(dir, "file://")) dir = dir.substr(7);
    if (dir.find("://") != std::string::npos) {
      return InvalidConfigValue("state.checkpoints.dir", it->second,
                                "a local or mounted path (file://...)");
    }
    if (dir.empty() || dir.front() != '/') {
      return InvalidConfigValue("state.checkpoints.dir", it->second, "an absolute path");
    }
    c.dir = dir;
  }
  auto local_dir = [&](const std::string& key, std::string* out) -> absl::Status {
    auto it = config.find(key);
    if (it == config.end()) return absl::OkStatus();
    std::string dir = it->second;
    if (absl::StartsWith(dir, "file://")) dir = dir.substr(7);
    if (dir.find("://") != std::string::npos) {
      return InvalidConfigValue(key, it->second, "a local or mounted path (file://...)");
    }
    if (dir.empty() || dir.front() != '/') {
      return InvalidConfigValue(key, it->second, "an absolute path");
    }
    *out = dir;
    return absl::OkStatus();
  };
  if (absl::Status s = local_dir("state.savepoints.dir", &c.savepoints_dir); !s.ok()) return s;
  if (absl::Status s = local_dir("execution.savepoint.path", &c.savepoint_path); !s.ok()) return s;
  if (auto it = config.find("execution.savepoint.ignore-unclaimed-state"); it != config.end()) {
    const std::string v = absl::AsciiStrToLower(it->second);
    if (v != "true" && v != "false") {
      return InvalidConfigValue("execution.savepoint.ignore-unclaimed-state", it->second,
                                "true or false");
    }
    c.ignore_unclaimed_state = v == "true";
  }
  if (c.enabled() && c.dir.empty()) {
    return absl::InvalidArgumentError(
        "checkpointing is on but no checkpoint directory is set: SET 'state.checkpoints.dir', or "
        "start the coordinator with --checkpoints-dir");
  }
  return c;
}

}  // namespace eddy
