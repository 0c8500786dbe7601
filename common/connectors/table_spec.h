// The plan's generic TableSource / TableSink messages as a connector reads them: the table its
// factory sees (columns, metadata keys, primary key, checked against the message) and its options
// as a ConnectorConfig.
#pragma once

#include "absl/status/statusor.h"
#include "common/connectors/connector_config.h"
#include "common/connectors/connector_factory.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

// Errors name the table when the message's indexes do not fit its schema.
absl::StatusOr<ConnectorTable> ConnectorTableOf(const v1::TableSource& spec);
ConnectorConfig ConnectorConfigOf(const v1::TableSource& spec);
// The table of a sink whose input columns are `input`.
ConnectorTable ConnectorTableOf(const v1::TableSink& spec, const Schema& input);
ConnectorConfig ConnectorConfigOf(const v1::TableSink& spec);

}  // namespace eddy
