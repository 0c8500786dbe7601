#include "coordinator/service/config_keys.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/duration.h"

namespace eddy {
namespace {

enum class Kind { kPositiveInt, kNonNegativeInt, kBool, kDuration, kEnum, kAny };

struct KeySpec {
  Kind kind;
  std::string default_value;
  std::string allowed;  // enum: comma-separated
};

const std::map<std::string, KeySpec>& Specs() {
  static const auto* specs = new std::map<std::string, KeySpec>{
      {"parallelism.default", {Kind::kPositiveInt, "1", ""}},
      {"table.exec.mini-batch.enabled", {Kind::kBool, "false", ""}},
      {"table.exec.mini-batch.allow-latency", {Kind::kDuration, "0 ms", ""}},
      {"table.exec.mini-batch.size", {Kind::kPositiveInt, "1000", ""}},
      {"table.exec.state.ttl", {Kind::kDuration, "0 ms", ""}},
      {"table.exec.source.idle-timeout", {Kind::kDuration, "0 ms", ""}},
      {"table.optimizer.reuse-sub-plan-enabled", {Kind::kBool, "true", ""}},
      {"table.optimizer.reuse-source-enabled", {Kind::kBool, "true", ""}},
      {"table.optimizer.agg-phase-strategy", {Kind::kEnum, "AUTO", "AUTO,ONE_PHASE,TWO_PHASE"}},
      {"sql-client.execution.result-mode", {Kind::kEnum, "TABLEAU", "TABLEAU,TABLE,CHANGELOG"}},
      {"table.dml-sync", {Kind::kBool, "false", ""}},
      {"pipeline.name", {Kind::kAny, "", ""}},
  };
  return *specs;
}

}  // namespace

absl::Status ValidateConfigValue(const std::string& key, const std::string& value) {
  auto it = Specs().find(key);
  if (it == Specs().end()) return absl::OkStatus();
  const KeySpec& spec = it->second;
  auto bad = [&](const std::string& expected) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid value for configuration key '", key,
                                                   "': expected ", expected, ", got '", value, "'"));
  };
  int64_t n = 0;
  switch (spec.kind) {
    case Kind::kPositiveInt:
      if (!absl::SimpleAtoi(value, &n) || n <= 0) return bad("a positive integer");
      break;
    case Kind::kNonNegativeInt:
      if (!absl::SimpleAtoi(value, &n) || n < 0) return bad("a non-negative integer");
      break;
    case Kind::kBool:
      if (value != "true" && value != "false") return bad("true or false");
      break;
    case Kind::kDuration:
      if (!ParseDurationMillis(value)) return bad("a duration such as '5 s' or '100 ms'");
      break;
    case Kind::kEnum: {
      std::string upper;
      for (char c : value) upper += static_cast<char>(toupper(static_cast<unsigned char>(c)));
      bool ok = false;
      size_t start = 0;
      while (start <= spec.allowed.size()) {
        size_t comma = spec.allowed.find(',', start);
        if (comma == std::string::npos) comma = spec.allowed.size();
        if (spec.allowed.substr(start, comma - start) == upper) ok = true;
        start = comma + 1;
      }
      if (!ok) return bad("one of " + spec.allowed);
      break;
    }
    case Kind::kAny:
      break;
  }
  return absl::OkStatus();
}

const std::map<std::string, std::string>& ConfigDefaults() {
  static const auto* defaults = [] {
    auto* m = new std::map<std::string, std::string>();
    for (const auto& [k, spec] : Specs()) (*m)[k] = spec.default_value;
    return m;
  }();
  return *defaults;
}

}  // namespace eddy
