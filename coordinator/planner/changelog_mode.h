// Changelog-mode inference: decides for every logical node which row kinds it produces. Sources are
// insert-only, aggregates produce updates, and UPDATE_BEFORE is produced only where a consumer
// needs it (a retracting sink, a nested aggregate, a filter over updates, a primary-key sink whose
// key differs from the query's upsert key).
#pragma once

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "coordinator/planner/logical_plan.h"

namespace eddy::planner {

// Sets `mode` and `requires_update_before` on every node reachable from `sinks`. Errors when a sink
// cannot consume the changes its input produces (an append-only sink fed updates). A root that is
// not a Sink (a bare query, for EXPLAIN) is consumed with UPDATE_BEFORE.
// In batch mode (`batch`) every node's output is insert-only (see ComputeModes in the .cc).
absl::Status InferChangelogModes(const std::vector<LogicalNodePtr>& sinks, bool batch = false);

// Column sets that each identify a row of `node`'s updating output (the group keys of the nearest
// aggregate, as projected; a Top-N's partition and rank; through a join as Flink derives them),
// none when unknown.
std::vector<std::vector<int>> UpsertKeys(const LogicalNode& node);

}  // namespace eddy::planner
