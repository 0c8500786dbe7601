// The datagen connector (Flink's): random or sequence values per column at 'rows-per-second',
// bounded by 'number-of-rows' or by the shortest sequence. Its options become the source's
// v1::DatagenSource spec here, for the planner (validation, boundedness) and the worker alike.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/connector_factory.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

const ConnectorFactory& DatagenConnector();

// The spec of a scan of `table` reading `columns` (indexes into table.columns, in output order):
// only the columns read, but bounded by every sequence of the table (a sequence column nobody
// reads still ends the table).
absl::StatusOr<v1::DatagenSource> ReadDatagenSpec(const ConnectorTable& table,
                                                  ConnectorConfig& config,
                                                  const std::vector<int>& columns);

}  // namespace eddy
