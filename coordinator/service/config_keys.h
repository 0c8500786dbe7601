// The configuration keys a session may SET, with defaults and value checks, so that a typo in a
// key or a value is an error at SET time, naming the key and the expected form. A key Eddy does
// not implement is refused rather than kept and ignored.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace eddy {

// sql-client.execution.max-table-result.rows: how many rows the TABLE result mode keeps.
inline constexpr char kMaxTableResultRowsKey[] = "sql-client.execution.max-table-result.rows";
inline constexpr int64_t kDefaultMaxTableResultRows = 1000000;

// Validates `key` and `value` and returns the value to store: booleans in lower case and enum
// values in upper case, however they were typed. An unknown key, or a value the key does not
// accept (or accepts in Flink but Eddy does not implement), is an InvalidArgument error.
absl::StatusOr<std::string> ValidateConfigValue(const std::string& key, const std::string& value);
// An error naming `key` when it is not a configuration key (for RESET 'key').
absl::Status ValidateConfigKey(const std::string& key);
// The documented defaults of the known keys, shown by `SET;`.
const std::map<std::string, std::string>& ConfigDefaults();

}  // namespace eddy
