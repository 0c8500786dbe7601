// Helpers over bound expressions that the binder and the physical planner share: structural
// equality (GROUP BY matching, de-duplicating aggregate arguments) and column substitution (merging
// adjacent Project/Filter nodes into one Calc).
#pragma once

#include <vector>

#include "common/expr/expr.h"

namespace eddy::planner {

// Same structure, types (including nullability), columns, literals and functions.
bool ExprEquals(const Expr& a, const Expr& b);

// Replaces every column reference i in `e` with `inputs[i]` (expressions over a lower input).
ExprPtr SubstituteColumns(const ExprPtr& e, const std::vector<ExprPtr>& inputs);

// True when `e` is a plain reference to column `column`.
inline bool IsColumnRef(const Expr& e, int column) {
  return e.kind == ExprKind::kColumn && e.column == column;
}

}  // namespace eddy::planner
