// TableStatistics to and from the catalog store's StoredTableStatistics.
#pragma once

#include "coordinator/catalog/table_statistics.h"
#include "eddy/v1/catalog.pb.h"

namespace eddy {

void StatisticsToProto(const TableStatistics& stats, v1::StoredTableStatistics* out);
TableStatistics StatisticsFromProto(const v1::StoredTableStatistics& p);

}  // namespace eddy
