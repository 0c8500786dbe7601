// Every connector runtime the worker has, by name (the planning halves are registered under the
// same names in common/connectors/connector_registry.h), and the construction of a plan's table
// sources and sinks through them: an unknown connector is an error naming it, never a default.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/connectors/connector_runtime.h"

namespace eddy {

// nullptr for an unknown name.
const ConnectorRuntime* FindConnectorRuntime(std::string_view name);
const std::vector<const ConnectorRuntime*>& AllConnectorRuntimes();

absl::StatusOr<std::unique_ptr<Source>> CreateTableSource(const v1::TableSource& spec,
                                                          const ConnectorContext& ctx);
absl::StatusOr<std::unique_ptr<Operator>> CreateTableSink(const v1::TableSink& spec,
                                                          const Schema& input,
                                                          const ConnectorContext& ctx);

}  // namespace eddy
