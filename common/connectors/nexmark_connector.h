// The nexmark connector: the columns a nexmark table may declare (any subset of the generator's,
// by name and type), its WITH options, and the source spec a scan deploys, read by the planner
// (validation) and the worker (building the source) alike. docs/sql-reference.md lists both.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/connector_factory.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

const ConnectorFactory& NexmarkConnector();

// The spec of a scan reading `columns` (indexes into table.columns, in output order). `now_ms` is
// the event time of the first event when the table sets no 'base-time' (the planning time, one
// value per plan, so that two scans of one table stay one source).
absl::StatusOr<v1::NexmarkSource> ReadNexmarkSpec(const ConnectorTable& table,
                                                  ConnectorConfig& config,
                                                  const std::vector<int>& columns, int64_t now_ms);

}  // namespace eddy
