#include "common/expr/expr.h"

namespace eddy {

ExprPtr MakeColumnRef(int index, DataType type) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kColumn;
  e->type = type;
  e->column = index;
  return e;
}

ExprPtr MakeLiteral(Value v, DataType type) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kLiteral;
  // A NULL literal is nullable whatever the caller says; a non-NULL one never is.
  e->type = type.WithNullable(v.is_null());
  e->literal = std::move(v);
  return e;
}

}  // namespace eddy
