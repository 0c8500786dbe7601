// The nexmark connector on the planner's side: the columns a nexmark table may declare (any subset
// of the generator's, by name and type), its WITH options, validated at CREATE TABLE, and the
// source spec a scan deploys. docs/sql-reference.md lists both.
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "coordinator/catalog/catalog_objects.h"
#include "coordinator/planner/logical_plan.h"
#include "eddy/v1/plan.pb.h"

namespace eddy::planner {

// Checks the physical columns and every option of a 'nexmark' table.
absl::Status ValidateNexmarkTable(const CatalogTable& table);

// The spec of `scan`: the options, and the columns it reads in output order. `now_ms` is the
// event time of the first event when the table sets no 'base-time' (one value per plan, so that
// two scans of one table stay one source).
void FillNexmark(const LogicalNode& scan, int64_t now_ms, v1::NexmarkSource* out);

}  // namespace eddy::planner
