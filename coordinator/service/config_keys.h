// The configuration keys a session may SET, with defaults and value checks, so that a typo in a
// value is an error at SET time, naming the key and the expected form.
#pragma once

#include <map>
#include <string>

#include "absl/status/status.h"

namespace eddy {

// Validates `value` for a known key; unknown keys are accepted (as Flink does) and kept.
absl::Status ValidateConfigValue(const std::string& key, const std::string& value);
// The documented defaults of the known keys, shown by `SET;`.
const std::map<std::string, std::string>& ConfigDefaults();

}  // namespace eddy
