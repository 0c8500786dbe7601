// Unique keys of logical nodes: columns whose values identify at most one row of a node's current
// table (a source table's PRIMARY KEY, an aggregate's group keys, carried through projections,
// filters and joins). A join keeps one row per unique key in its state and shows the key in EXPLAIN
// as its input spec (Flink's JoinKeyContainsUniqueKey / HasUniqueKey / NoUniqueKey).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "coordinator/planner/logical_plan.h"

namespace eddy::planner {

// A unique key of `node` (output columns; empty for a node of at most one row), or nullopt.
std::optional<std::vector<int>> UniqueKey(const LogicalNode& node);

// How a join input's rows relate to its join keys: "JoinKeyContainsUniqueKey" (one row per join
// key), "HasUniqueKey" or "NoUniqueKey".
std::string JoinInputSpec(const LogicalNode& input, const std::vector<int>& join_keys);

}  // namespace eddy::planner
