// EXPLAIN's `== Abstract Syntax Tree ==` section: the bound logical plan as Calcite prints it
// (LogicalSink, LogicalProject(word=[$0]), LogicalFilter(condition=[...]), LogicalAggregate(group=
// [{0}], cnt=[COUNT()]), LogicalTableScan, LogicalValues, LogicalUnion), one tree per root.
#pragma once

#include "coordinator/planner/explain_tree.h"
#include "coordinator/planner/logical_plan.h"

namespace eddy::planner {

// Adds `root`'s tree to `graph` and returns its top node. Projects that only pass their input
// through are left out where Calcite would not create them (around aggregates, INSERT's projection
// onto the sink columns when it casts nothing).
const ExplainNode* LogicalToExplain(const LogicalNode& root, ExplainGraph* graph);

}  // namespace eddy::planner
