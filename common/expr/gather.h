// Row selection for batches and columns: picks the rows a filter kept (Calc) or the rows a CASE
// branch applies to, keeping each row's RowKind and the given order.
#pragma once

#include <cstdint>
#include <vector>

#include "common/batch/changelog_batch.h"
#include "common/batch/column.h"

namespace eddy {

// Rows `rows` of `c`, in that order.
Column GatherColumn(const Column& c, const std::vector<uint32_t>& rows);

// Rows `rows` of every column of `batch`, with their kinds.
ChangelogBatch Gather(const ChangelogBatch& batch, const std::vector<uint32_t>& rows);

}  // namespace eddy
