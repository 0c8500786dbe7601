// Typed reads of session configuration keys for the planner (the service validated the values when
// they were SET, so a bad value here is still reported, never assumed).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "coordinator/planner/planner.h"

namespace eddy::planner {

// Anything but "false" (case-insensitive) is true; `def` when unset.
bool ConfigFlag(const ConfigMap& config, const std::string& key, bool def);
// execution.runtime-mode is BATCH (docs/sql-reference.md "Batch mode").
bool IsBatchMode(const ConfigMap& config);
absl::StatusOr<int> ConfigPositiveInt(const ConfigMap& config, const std::string& key, int def);
// Milliseconds of a duration value ('5 s', '100 ms', 5000).
absl::StatusOr<int64_t> ConfigDurationMs(const ConfigMap& config, const std::string& key,
                                         int64_t def);

// table.exec.sink.not-null-enforcer is DROP (rows with a null in a NOT NULL sink column are
// dropped); ERROR, the default, fails the job. Any other value is an error naming the key.
absl::StatusOr<bool> DropsRowsWithNullsInNotNullColumns(const ConfigMap& config);

// table.local-time-zone, the zone that zone-dependent calls are planned in ("UTC" when unset).
std::string ConfigTimeZone(const ConfigMap& config);

}  // namespace eddy::planner
