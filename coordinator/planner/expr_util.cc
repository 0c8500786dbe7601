#include "coordinator/planner/expr_util.h"

#include <memory>

namespace eddy::planner {

bool ExprEquals(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || !(a.type == b.type)) return false;
  switch (a.kind) {
    case ExprKind::kColumn:
      return a.column == b.column;
    case ExprKind::kLiteral:
      return a.literal == b.literal;
    case ExprKind::kCall:
      if (a.function != b.function || a.args.size() != b.args.size()) return false;
      for (size_t i = 0; i < a.args.size(); ++i) {
        if (!ExprEquals(*a.args[i], *b.args[i])) return false;
      }
      return true;
  }
  return false;
}

ExprPtr SubstituteColumns(const ExprPtr& e, const std::vector<ExprPtr>& inputs) {
  switch (e->kind) {
    case ExprKind::kColumn:
      if (e->column >= 0 && e->column < static_cast<int>(inputs.size())) {
        const ExprPtr& in = inputs[e->column];
        // The reference's type may be stricter about nullability than the expression it
        // names only if the binder derived it from the same schema, so the input's type wins.
        return in;
      }
      return e;
    case ExprKind::kLiteral:
      return e;
    case ExprKind::kCall: {
      auto copy = std::make_shared<Expr>(*e);
      for (auto& a : copy->args) a = SubstituteColumns(a, inputs);
      return copy;
    }
  }
  return e;
}

}  // namespace eddy::planner
