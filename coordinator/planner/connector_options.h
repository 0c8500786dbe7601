// What each connector can do (read, write, which changes a sink consumes) and the validation of its
// WITH options at CREATE TABLE time, so that a bad option fails the DDL rather than a running job.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "coordinator/catalog/catalog_objects.h"

namespace eddy::planner {

// The internal sink that feeds a SELECT's rows to the client (see PlanQuery).
inline constexpr std::string_view kCollectConnector = "collect";

struct ConnectorCapabilities {
  std::string_view name;
  bool source = false;
  bool sink = false;
  // Sink side: whether update/delete changes are accepted at all (false = append-only), and
  // whether the sink needs UPDATE_BEFORE rows (retract) or works on upserts.
  bool sink_accepts_updates = false;
  bool sink_requires_update_before = false;
};

// nullptr for an unknown connector.
const ConnectorCapabilities* FindConnector(std::string_view name);

// Checks 'connector' and every option of `table` (schema filled in) against the connector's rules.
absl::Status ValidateConnectorOptions(const CatalogTable& table);

}  // namespace eddy::planner
