// Constant folding: every call whose operands are all literals (after folding them) is evaluated
// once at planning time, with the workers' evaluator, and replaced by a literal of the call's type.
// A call that fails to evaluate (division by zero, a bad CAST) stays, so the error surfaces where
// Flink raises it: when a row reaches it.
#include <string>
#include <utility>

#include "common/expr/evaluator.h"
#include "common/expr/function_table.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"

namespace eddy::planner {
namespace {

// Functions whose value changes from row to row or over time are never folded.
bool IsDeterministic(const std::string& function) {
  const FunctionDef* def = FindFunction(function);
  return def == nullptr || def->deterministic;
}

ExprPtr Fold(const ExprPtr& e) {
  if (e->kind != ExprKind::kCall) return e;
  std::vector<ExprPtr> args;
  bool changed = false;
  bool all_literals = true;
  for (const auto& a : e->args) {
    args.push_back(Fold(a));
    changed = changed || args.back() != a;
    all_literals = all_literals && args.back()->kind == ExprKind::kLiteral;
  }
  ExprPtr call = e;
  if (changed) {
    auto copy = std::make_shared<Expr>(*e);
    copy->args = std::move(args);
    call = std::move(copy);
  }
  // User functions run on the workers only: the coordinator never calls user code per query.
  if (!all_literals || call->user_function != nullptr || !IsDeterministic(call->function)) {
    return call;
  }
  absl::StatusOr<Value> v = EvaluateConstant(*call);
  if (!v.ok()) return call;
  return MakeLiteral(*std::move(v), call->type);
}

}  // namespace

absl::StatusOr<LogicalRoots> FoldConstants(const LogicalRoots& roots) {
  return RewriteBottomUp(
      roots, [](const LogicalNode&, const LogicalNodePtr& n) -> absl::StatusOr<LogicalNodePtr> {
        if (n->kind == LogicalKind::kProject) {
          std::vector<ExprPtr> folded;
          bool changed = false;
          for (const auto& p : n->projections) {
            folded.push_back(Fold(p));
            changed = changed || folded.back() != p;
          }
          if (!changed) return n;
          auto copy = std::make_shared<LogicalNode>(*n);
          copy->projections = std::move(folded);
          return copy;
        }
        if (n->kind == LogicalKind::kFilter) {
          ExprPtr folded = Fold(n->condition);
          if (folded == n->condition) return n;
          auto copy = std::make_shared<LogicalNode>(*n);
          copy->condition = std::move(folded);
          return copy;
        }
        return n;
      });
}

}  // namespace eddy::planner
