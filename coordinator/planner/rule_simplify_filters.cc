// Filter simplification (after constant folding): TRUE conjuncts are dropped and a filter left with
// none disappears; a filter with a FALSE or NULL conjunct keeps no row, so it and everything below
// it become an empty VALUES of the filter's schema (nothing is read).
#include "common/base/status_macros.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"

namespace eddy::planner {
namespace {

bool IsBoolLiteral(const Expr& e, bool value) {
  return e.kind == ExprKind::kLiteral && e.literal.is_bool() && e.literal.bool_value() == value;
}
bool IsNullLiteral(const Expr& e) { return e.kind == ExprKind::kLiteral && e.literal.is_null(); }

}  // namespace

absl::StatusOr<LogicalRoots> SimplifyFilters(const LogicalRoots& roots) {
  return RewriteBottomUp(
      roots, [](const LogicalNode&, const LogicalNodePtr& n) -> absl::StatusOr<LogicalNodePtr> {
        if (n->kind != LogicalKind::kFilter) return n;
        const std::vector<ExprPtr> conjuncts = Conjuncts(n->condition);
        std::vector<ExprPtr> kept;
        for (const ExprPtr& c : conjuncts) {
          if (IsBoolLiteral(*c, false) || IsNullLiteral(*c)) return MakeValues(n->schema, {});
          if (!IsBoolLiteral(*c, true)) kept.push_back(c);
        }
        if (kept.empty()) return n->inputs[0];
        if (kept.size() == conjuncts.size()) return n;
        ASSIGN_OR_RETURN(ExprPtr condition, MakeConjunction(kept));
        auto copy = std::make_shared<LogicalNode>(*n);
        copy->condition = std::move(condition);
        return copy;
      });
}

}  // namespace eddy::planner
