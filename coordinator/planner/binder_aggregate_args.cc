// The arguments an aggregate call takes beside the aggregated value: LISTAGG's separator, a string
// literal that becomes a property of the call (LogicalAggCall::separator).
#include <string>

#include "common/base/status_macros.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {

size_t MaxAggArguments(const absl::StatusOr<AggKind>& kind) {
  return kind.ok() && *kind == AggKind::kListAgg ? 2 : 1;
}

absl::StatusOr<std::string> BindListAggSeparator(const sql::Expr& e) {
  if (e.kind == sql::ExprKind::kLiteral) {
    ASSIGN_OR_RETURN(ExprPtr literal, BindLiteral(e));
    if (literal->type.IsString() && literal->literal.is_string()) {
      return literal->literal.string_value();
    }
  }
  return ValidationErrorAt(e.pos, "the separator of LISTAGG must be a string literal");
}

}  // namespace eddy::planner
