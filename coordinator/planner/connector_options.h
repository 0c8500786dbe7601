// A catalog table as the connector registry (common/connectors/connector_registry.h) sees it, and
// the validation of its connector and WITH options at CREATE TABLE, so that a bad option fails the
// DDL rather than a running job.
#pragma once

#include "absl/status/status.h"
#include "common/connectors/connector_config.h"
#include "common/connectors/connector_factory.h"
#include "common/connectors/connector_registry.h"
#include "coordinator/catalog/catalog_objects.h"

namespace eddy::planner {

// The columns the table's connector reads (the non-computed ones, metadata ones with their keys),
// or with `sink` the ones it writes (without VIRTUAL metadata columns), and its primary key.
ConnectorTable ConnectorTableOf(const CatalogTable& table, bool sink = false);
// The table's options as its connector reads them.
ConnectorConfig ConnectorConfigOf(const CatalogTable& table);
// The table's connector; nullptr when unknown (CREATE TABLE refused it, so only for a table the
// catalog could not have validated).
const ConnectorFactory* ConnectorOf(const CatalogTable& table);

// Checks 'connector', the columns and every option of `table` (schema filled in) against the
// connector's factory; errors are validation errors naming the table and the option.
absl::Status ValidateConnectorOptions(const CatalogTable& table, bool allow_internal = false);

}  // namespace eddy::planner
