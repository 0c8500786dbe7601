// The one wording of a bad configuration value, shared by SET's checks and the settings each job
// reads at submission (checkpointing, restart strategies), so a user sees the same error wherever
// the value is caught.
#pragma once

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace eddy {

// "Invalid value for configuration key 'k': expected <expected>, got 'v'"
inline absl::Status InvalidConfigValue(absl::string_view key, absl::string_view value,
                                       absl::string_view expected) {
  return absl::InvalidArgumentError(absl::StrCat("Invalid value for configuration key '", key,
                                                 "': expected ", expected, ", got '", value, "'"));
}

}  // namespace eddy
