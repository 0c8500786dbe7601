#include "coordinator/service/config_keys.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/config_error.h"
#include "common/base/duration.h"
#include "common/types/time_zone.h"
#include "coordinator/checkpoint/checkpoint_config.h"

namespace eddy {
namespace {

enum class Kind {
  kPositiveInt,
  kNonNegativeInt,
  kInteger,
  kNumber,
  kBool,
  kDuration,
  kEnum,
  kTimeZone,
  kParallelism,  // -1 (none) or a positive integer
  kAny
};

struct KeySpec {
  Kind kind;
  std::string default_value;
  std::vector<std::string> allowed;  // enum values Eddy implements
  // Enum values Flink accepts that Eddy does not implement yet: refused with their own message.
  std::vector<std::string> not_implemented = {};
};

const std::map<std::string, KeySpec>& Specs() {
  static const auto* specs = new std::map<std::string, KeySpec>{
      {"execution.runtime-mode", {Kind::kEnum, "STREAMING", {"STREAMING", "BATCH"}, {"AUTOMATIC"}}},
      // Checkpoints (coordinator/checkpoint/checkpoint_config.h); off without an interval.
      {"execution.checkpointing.interval", {Kind::kDuration, "", {}}},
      {"execution.checkpointing.mode",
       {Kind::kEnum, "EXACTLY_ONCE", {"EXACTLY_ONCE", "AT_LEAST_ONCE"}}},
      {"execution.checkpointing.timeout", {Kind::kDuration, "10 min", {}}},
      {"execution.checkpointing.min-pause", {Kind::kDuration, "0 ms", {}}},
      {"execution.checkpointing.max-concurrent-checkpoints", {Kind::kPositiveInt, "1", {}}},
      {"execution.checkpointing.tolerable-failed-checkpoints", {Kind::kNonNegativeInt, "0", {}}},
      {"state.checkpoints.dir", {Kind::kAny, "", {}}},
      {"state.checkpoints.num-retained", {Kind::kPositiveInt, "1", {}}},
      // Savepoints (docs/savepoints.md).
      {"state.savepoints.dir", {Kind::kAny, "", {}}},
      {"execution.savepoint.path", {Kind::kAny, "", {}}},
      {"execution.savepoint.ignore-unclaimed-state", {Kind::kBool, "false", {}}},
      // A materialized table whose freshness is below it is refreshed continuously
      // (coordinator/service/materialized_table.h).
      {"materialized-table.refresh-mode.freshness-threshold", {Kind::kDuration, "30 min", {}}},
      {"parallelism.default", {Kind::kPositiveInt, "1", {}}},
      // Overrides parallelism.default for the table program's operators when positive.
      {"table.exec.resource.default-parallelism", {Kind::kParallelism, "-1", {}}},
      // Eddy parses Flink's default SQL dialect; its state lives in RocksDB (with a cache).
      {"table.sql-dialect", {Kind::kEnum, "default", {"default"}, {"HIVE"}}},
      {"state.backend.type", {Kind::kEnum, "rocksdb", {"rocksdb"}, {"HASHMAP"}}},
      {"table.exec.mini-batch.enabled", {Kind::kBool, "false", {}}},
      {"table.exec.mini-batch.allow-latency", {Kind::kDuration, "0 ms", {}}},
      {"table.exec.mini-batch.size", {Kind::kPositiveInt, "1000", {}}},
      {"table.exec.state.ttl", {Kind::kDuration, "0 ms", {}}},
      // Whether a table reference may carry /*+ OPTIONS(...) */ (dynamic table options).
      {"table.dynamic-table-options.enabled", {Kind::kBool, "true", {}}},
      {"table.exec.source.idle-timeout", {Kind::kDuration, "0 ms", {}}},
      // What a sink does with a row that has a null in a NOT NULL column: fail the job, or drop it.
      {"table.exec.sink.not-null-enforcer", {Kind::kEnum, "ERROR", {"ERROR", "DROP"}}},
      // The session time zone of TIMESTAMP_LTZ values and of LOCALTIMESTAMP/CURRENT_DATE
      // (common/types/time_zone.h).
      {kLocalTimeZoneKey, {Kind::kTimeZone, kDefaultTimeZone, {}}},
      {"table.optimizer.reuse-sub-plan-enabled", {Kind::kBool, "true", {}}},
      {"table.optimizer.reuse-source-enabled", {Kind::kBool, "true", {}}},
      {"table.optimizer.join-reorder-enabled", {Kind::kBool, "false", {}}},
      {"table.optimizer.agg-phase-strategy",
       {Kind::kEnum, "AUTO", {"AUTO", "ONE_PHASE", "TWO_PHASE"}}},
      {"sql-client.execution.result-mode",
       {Kind::kEnum, "TABLEAU", {"TABLEAU", "TABLE", "CHANGELOG"}}},
      {"sql-client.display.max-column-width", {Kind::kPositiveInt, "30", {}}},
      // Followed by the client (client/client_settings.h). print-time-cost is off by default so
      // that a result's closing line is the same on every run (Flink's default is on).
      {"sql-client.verbose", {Kind::kBool, "false", {}}},
      {"sql-client.display.print-time-cost", {Kind::kBool, "false", {}}},
      {"sql-client.display.show-line-numbers", {Kind::kBool, "false", {}}},
      // The TABLE result mode's row limit; 0 or less: none (as Flink).
      {kMaxTableResultRowsKey, {Kind::kInteger, absl::StrCat(kDefaultMaxTableResultRows), {}}},
      {"table.dml-sync", {Kind::kBool, "false", {}}},
      // COMPILE PLAN overwrites an existing plan file when true
      // (coordinator/service/compiled_plan.h).
      {"table.plan.force-recompile", {Kind::kBool, "false", {}}},
      {"pipeline.name", {Kind::kAny, "", {}}},
      // Restart strategies (coordinator/cluster/restart_strategy.h). No type: none, or
      // exponential-delay when checkpointing is on.
      {"restart-strategy.type",
       {Kind::kEnum,
        "",
        {"none", "off", "disable", "fixed-delay", "failure-rate", "exponential-delay"}}},
      {"restart-strategy.fixed-delay.attempts", {Kind::kNonNegativeInt, "1", {}}},
      {"restart-strategy.fixed-delay.delay", {Kind::kDuration, "1 s", {}}},
      {"restart-strategy.failure-rate.max-failures-per-interval", {Kind::kPositiveInt, "1", {}}},
      {"restart-strategy.failure-rate.failure-rate-interval", {Kind::kDuration, "1 min", {}}},
      {"restart-strategy.failure-rate.delay", {Kind::kDuration, "1 s", {}}},
      {"restart-strategy.exponential-delay.initial-backoff", {Kind::kDuration, "1 s", {}}},
      {"restart-strategy.exponential-delay.max-backoff", {Kind::kDuration, "1 min", {}}},
      {"restart-strategy.exponential-delay.backoff-multiplier", {Kind::kNumber, "1.5", {}}},
      {"restart-strategy.exponential-delay.reset-backoff-threshold", {Kind::kDuration, "1 h", {}}},
      {"restart-strategy.exponential-delay.jitter-factor", {Kind::kNumber, "0.1", {}}},
      {"restart-strategy.exponential-delay.attempts-before-reset-backoff",
       {Kind::kPositiveInt, "2147483647", {}}},
  };
  return *specs;
}

bool Contains(const std::vector<std::string>& values, const std::string& v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

}  // namespace

absl::Status ValidateConfigKey(const std::string& key) {
  if (Specs().count(key) > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("Unsupported configuration key '", key,
                   "': Eddy does not implement it ('SET;' lists the keys it implements)"));
}

absl::StatusOr<std::string> ValidateConfigValue(const std::string& key, const std::string& value) {
  if (absl::Status s = ValidateConfigKey(key); !s.ok()) return s;
  const KeySpec& spec = Specs().at(key);
  auto bad = [&](const std::string& expected) { return InvalidConfigValue(key, value, expected); };
  int64_t n = 0;
  switch (spec.kind) {
    case Kind::kPositiveInt:
      if (!absl::SimpleAtoi(value, &n) || n <= 0) return bad("a positive integer");
      return absl::StrCat(n);
    case Kind::kParallelism:
      if (!absl::SimpleAtoi(value, &n) || (n <= 0 && n != -1)) {
        return bad("-1 (no default) or a positive integer");
      }
      return absl::StrCat(n);
    case Kind::kNonNegativeInt:
      if (!absl::SimpleAtoi(value, &n) || n < 0) return bad("a non-negative integer");
      return absl::StrCat(n);
    case Kind::kInteger:
      if (!absl::SimpleAtoi(value, &n)) return bad("an integer");
      return absl::StrCat(n);
    case Kind::kNumber: {
      double d = 0;
      if (!absl::SimpleAtod(value, &d) || d < 0) return bad("a non-negative number");
      return value;
    }
    case Kind::kBool: {
      const std::string lower = absl::AsciiStrToLower(value);
      if (lower != "true" && lower != "false") return bad("true or false");
      return lower;
    }
    case Kind::kDuration:
      if (!ParseDurationMillis(value)) return bad("a duration such as '5 s' or '100 ms'");
      return value;
    case Kind::kEnum: {
      // Matched in any case; stored as the key spells its values.
      for (const std::string& allowed : spec.allowed) {
        if (absl::EqualsIgnoreCase(allowed, value)) return allowed;
      }
      const std::string upper = absl::AsciiStrToUpper(value);
      if (Contains(spec.not_implemented, upper)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Unsupported value for configuration key '", key, "': '", value,
            "' is not implemented yet; supported: ", absl::StrJoin(spec.allowed, ", ")));
      }
      return bad("one of " + absl::StrJoin(spec.allowed, ", "));
    }
    case Kind::kTimeZone:
      if (!SessionTimeZone::Parse(value).ok()) {
        return bad(
            "'UTC', a fixed offset such as 'GMT+08:00' or '+08:00', or a time zone database name "
            "such as 'America/Los_Angeles'");
      }
      return value;
    case Kind::kAny:
      // The checkpoint directory's form (absolute, file://) is checked with the other
      // checkpointing settings.
      if (key == "state.checkpoints.dir" || key == "state.savepoints.dir" ||
          key == "execution.savepoint.path") {
        if (absl::Status s = CheckpointConfigFrom({{key, value}}, "/").status(); !s.ok()) return s;
      }
      return value;
  }
  return value;
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
