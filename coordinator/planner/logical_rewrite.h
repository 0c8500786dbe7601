// Helpers for the logical optimizer rules (optimizer.h): rebuilding a DAG bottom-up once per node,
// so that a node several consumers share is rewritten once and stays shared, and splitting and
// joining conjunctions.
#pragma once

#include <functional>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/planner/logical_plan.h"

namespace eddy::planner {

// `n` itself when `inputs` are n's inputs; otherwise a copy of n over `inputs` (a Filter or Union
// takes its new input's schema).
LogicalNodePtr WithInputs(const LogicalNodePtr& n, std::vector<LogicalNodePtr> inputs);

// `node`'s columns followed by `extra` (expressions over them, e.g. sort or partition keys computed
// before a Rank), each extra column named `$<position>`; `node` itself when `extra` is empty.
LogicalNodePtr WithExtraColumns(const LogicalNodePtr& node, std::vector<ExprPtr> extra);

// Rebuilds every node reachable from `roots`, inputs first: `rewrite` gets the original node and
// the node over its rewritten inputs (WithInputs), and returns what replaces the original. Each
// node is rewritten once.
using NodeRewrite = std::function<absl::StatusOr<LogicalNodePtr>(const LogicalNode& original,
                                                                 const LogicalNodePtr& rebuilt)>;
absl::StatusOr<std::vector<LogicalNodePtr>> RewriteBottomUp(
    const std::vector<LogicalNodePtr>& roots, const NodeRewrite& rewrite);

// How many consumers each node reachable from `roots` has (a root counts one, for its caller).
std::unordered_map<const LogicalNode*, int> CountConsumers(
    const std::vector<LogicalNodePtr>& roots);

// The operands of nested ANDs (`e` itself when it is no AND).
std::vector<ExprPtr> Conjuncts(const ExprPtr& e);
// AND of `conjuncts` (one: itself; none: null).
absl::StatusOr<ExprPtr> MakeConjunction(const std::vector<ExprPtr>& conjuncts);

// Whether `e` references only columns for which `keep(column)` holds.
bool OnlyReferences(const Expr& e, const std::function<bool(int)>& keep);
// Replaces column reference i with column `mapping[i]` (same type).
ExprPtr RemapColumns(const ExprPtr& e, const std::vector<int>& mapping);

}  // namespace eddy::planner
