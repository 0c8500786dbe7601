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

// A comma-separated list of such addresses (an active coordinator and its standbys), each
// normalized as WithDefaultPort does: `a,b:9000` -> `a:8081,b:9000`.
absl::StatusOr<std::string> WithDefaultPorts(const std::string& addresses, int default_port);

// The gRPC channel target for a normalized address list: one address as it is; several as an
// `ipv4:` (or `ipv6:`) list of their resolved addresses, which gRPC's pick_first policy tries in
// order and fails over between, so a client follows whichever coordinator listens. A host that
// does not resolve is an error naming it.
absl::StatusOr<std::string> ChannelTarget(const std::string& addresses);

}  // namespace eddy
