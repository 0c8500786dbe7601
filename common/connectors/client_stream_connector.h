// The client-stream connector's planning half: the table TableEnvironment::FromStream declares for
// a program's rows, read by one source subtask that pulls them from the coordinator's stream relay.
// Internal: only the coordinator declares such a table (OpenStream), never a CREATE TABLE.
#pragma once

#include <string_view>

#include "common/connectors/connector_factory.h"

namespace eddy {

inline constexpr std::string_view kClientStreamConnector = "client-stream";

const ConnectorFactory& ClientStreamConnector();

}  // namespace eddy
