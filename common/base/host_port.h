// Addresses given on command lines (`--coordinator host[:port]`): a missing port takes the
// service's default, so `--coordinator coord-host` reaches coord-host:8081, and anything that is
// not a host with an optional port in 1..65535 is an error naming the flag's value.
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace eddy {

inline constexpr int kDefaultCoordinatorPort = 8081;

// `host`, `host:port`, `[v6addr]` or `[v6addr]:port` -> `host:port` (`[v6addr]:port`).
absl::StatusOr<std::string> WithDefaultPort(const std::string& address, int default_port);

}  // namespace eddy
