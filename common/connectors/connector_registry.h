// The connectors Eddy knows, by name: the one place a connector is registered for planning
// (worker/connectors/connector_registry.h registers the runtime half under the same names), and
// the checks of CREATE TABLE that every connector shares.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "common/connectors/connector_factory.h"

namespace eddy {

// The internal sink that feeds a SELECT's rows to the client.
inline constexpr std::string_view kCollectConnector = "collect";

// nullptr for an unknown name (the internal collect sink is found).
const ConnectorFactory* FindConnectorFactory(std::string_view name);
// Every factory, internal ones included, in name order.
const std::vector<const ConnectorFactory*>& AllConnectorFactories();
// "blackhole, datagen, ...": the connectors a table may name.
std::string SupportedConnectorList();

// A table as CREATE TABLE declares it: 'connector' names a connector a table may use, the
// metadata columns are ones it offers (with a type it gives), the factory's checks pass, and the
// factory read every option. InvalidArgument errors name the table and what is wrong.
// `allow_internal`: the table is the coordinator's own (the client-stream table FromStream
// declares), so an internal connector is allowed.
absl::Status ValidateConnectorTable(const ConnectorTable& table,
                                    const std::map<std::string, std::string>& options,
                                    bool allow_internal = false);

}  // namespace eddy
