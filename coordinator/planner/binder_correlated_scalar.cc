// Correlated scalar subqueries, decorrelated as Calcite's and Flink's planners do:
//   SELECT o.id, (SELECT MAX(p.price) FROM p WHERE p.x > 0 AND p.k = o.k) FROM o
// becomes a left join of o with
//   SELECT p.k, MAX(p.price) FROM p WHERE p.x > 0 GROUP BY p.k
// on p.k = o.k: the subquery's aggregate per correlation key, hash-partitioned on it. The conjuncts
// that read the outer query must be equalities between an expression of the subquery and an outer
// column (several make a composite key). An outer row that no subquery row matches reads the value
// over no rows: NULL, but 0 for a COUNT (the "count bug"). A subquery without aggregates joins each
// outer row with its matching rows. GROUP BY, HAVING, DISTINCT, ORDER BY, LIMIT and OVER windows in
// the subquery, and outer columns anywhere but in those equalities, are errors naming where.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/evaluator.h"
#include "common/expr/function_registry.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

constexpr char kWhat[] = "a correlated scalar subquery";

// A correlated WHERE conjunct `inner = outer column` (either way round): the subquery's side,
// which becomes a group key, and the outer column it is joined with.
struct CorrelationKey {
  const sql::Expr* conjunct = nullptr;
  const sql::Expr* inner = nullptr;
  int outer_column = -1;
};

absl::StatusOr<CorrelationKey> AsCorrelationKey(const sql::Expr& conjunct,
                                                const CorrelatedScope& scope) {
  const bool equality = conjunct.kind == sql::ExprKind::kBinary && conjunct.op == "=" &&
                        conjunct.args.size() == 2 && conjunct.args[0] && conjunct.args[1] &&
                        !ContainsSubquery(conjunct);
  for (int outer_side = 1; equality && outer_side >= 0; --outer_side) {
    const sql::Expr& inner = *conjunct.args[1 - outer_side];
    if (scope.FindOuterReference(inner) != nullptr) continue;
    absl::StatusOr<ExprPtr> outer = BindExpr(*conjunct.args[outer_side], scope.scope());
    if (outer.ok() && (*outer)->kind == ExprKind::kColumn &&
        (*outer)->column < scope.outer_width()) {
      return CorrelationKey{&conjunct, &inner, (*outer)->column};
    }
  }
  return ValidationErrorAt(
      conjunct.pos, absl::StrCat(kWhat,
                                 " may read the outer query's columns only in WHERE conjuncts "
                                 "`expression = outer column` (the expression over the "
                                 "subquery's own columns)"));
}

// The first identifier of `q`'s clauses that names an outer column, or null.
const sql::Expr* FindOuterReference(const sql::Query& q, const CorrelatedScope& scope) {
  std::vector<const sql::Expr*> clauses = {q.where.get(), q.having.get()};
  for (const sql::SelectItem& item : q.select_list) clauses.push_back(item.expr.get());
  for (const sql::ExprPtr& g : q.group_by) clauses.push_back(g.get());
  for (const sql::OrderItem& o : q.order_by) clauses.push_back(o.expr.get());
  for (const sql::Expr* clause : clauses) {
    if (clause == nullptr) continue;
    if (const sql::Expr* found = scope.FindOuterReference(*clause)) return found;
  }
  return nullptr;
}

// The clauses that have no decorrelated form, and outer columns in the select list.
absl::Status CheckDecorrelatable(const sql::Query& q, const CorrelatedScope& scope) {
  auto unsupported = [](const sql::SourcePos& pos, const char* clause) {
    return ValidationErrorAt(pos, absl::StrCat(clause, " is not supported in ", kWhat));
  };
  if (!q.group_by.empty()) return unsupported(q.group_by.front()->pos, "GROUP BY");
  if (q.having) return unsupported(q.having->pos, "HAVING");
  if (q.distinct) return unsupported(q.pos, "SELECT DISTINCT");
  if (!q.order_by.empty()) return unsupported(q.order_by.front().pos, "ORDER BY");
  if (q.limit || q.offset) return unsupported(q.pos, "LIMIT");
  for (const sql::SelectItem& item : q.select_list) {
    if (item.expr == nullptr) continue;
    if (const sql::Expr* over = FindOverCall(*item.expr)) {
      return unsupported(over->pos, "an OVER window");
    }
    if (const sql::Expr* outer = scope.FindOuterReference(*item.expr)) {
      return ValidationErrorAt(
          outer->pos,
          absl::StrCat(kWhat, " cannot read the outer query's column '", outer->name.ToString(),
                       "' in its select list, only in WHERE equalities"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Binder::ScalarJoin> Binder::BindCorrelatedScalar(
    const sql::Expr& e, const BoundRelation& outer, const absl::Status& uncorrelated_error) {
  const sql::Query& q = *e.subquery;
  if (q.kind != sql::Query::Kind::kSelect || q.from == nullptr) return uncorrelated_error;
  Binder inner = SubqueryBinder(outer);
  absl::StatusOr<BoundRelation> from = inner.BindTableRef(*q.from);
  if (!from.ok()) return uncorrelated_error;
  const CorrelatedScope scope(outer, *from, "WHERE clause");
  RETURN_IF_ERROR(scope.CheckNoReferenceBeyondOuter(q, enclosing_qualifiers_));
  if (FindOuterReference(q, scope) == nullptr) {
    // Not correlated. A name that the outer query lacks as well is the better message (`o.zz`:
    // no column zz in o, rather than no table o).
    std::vector<const sql::Expr*> clauses = {q.where.get()};
    for (const sql::SelectItem& item : q.select_list) clauses.push_back(item.expr.get());
    for (const sql::Expr* clause : clauses) {
      if (clause != nullptr) RETURN_IF_ERROR(scope.Resolves(*clause));
    }
    return uncorrelated_error;
  }
  RETURN_IF_ERROR(CheckDecorrelatable(q, scope));

  // The conjuncts that read the outer query become the join condition; the subquery's sides of
  // their equalities its group keys.
  std::vector<const sql::Expr*> conjuncts;
  if (q.where) SplitConjuncts(*q.where, &conjuncts);
  std::vector<CorrelationKey> keys;
  Decorrelation decorrelation;
  for (const sql::Expr* c : conjuncts) {
    if (scope.FindOuterReference(*c) == nullptr) continue;  // the subquery's own filter
    ASSIGN_OR_RETURN(CorrelationKey key, AsCorrelationKey(*c, scope));
    decorrelation.correlated_conjuncts.insert(c);
    decorrelation.keys.push_back(key.inner);
    keys.push_back(key);
  }
  ASSIGN_OR_RETURN(BoundRelation right, inner.BindSelect(q, {}, &decorrelation));
  const size_t width = right.node->schema.size() - keys.size();
  if (width != 1) {
    return ValidationErrorAt(
        e.pos, absl::StrCat("a scalar subquery must return one column, it returns ", width));
  }

  ScalarJoin join;
  join.right = right.node;
  const int left_width = scope.outer_width();
  std::vector<ExprPtr> equalities;
  for (size_t i = 0; i < keys.size(); ++i) {
    const int o = keys[i].outer_column;
    const int k = static_cast<int>(i);
    auto eq = MakeCall("=", {MakeColumnRef(o, outer.node->schema.fields[o].type),
                             MakeColumnRef(left_width + k, right.node->schema.fields[k].type)});
    if (!eq.ok()) return AsValidationError(keys[i].conjunct->pos, eq.status());
    equalities.push_back(*std::move(eq));
  }
  ASSIGN_OR_RETURN(join.condition, MakeConjunction(equalities));
  if (decorrelation.value_over_no_rows != nullptr) {
    // A constant; one that fails to evaluate (e.g. a division by COUNT) fails where it is read,
    // as SQL's would.
    const ExprPtr& no_rows = decorrelation.value_over_no_rows;
    absl::StatusOr<Value> v = EvaluateConstant(*no_rows);
    if (!v.ok()) {
      join.value_over_no_rows = no_rows;
    } else if (!v->is_null()) {
      join.value_over_no_rows = MakeLiteral(*std::move(v), no_rows->type);
    }
  }
  return join;
}

}  // namespace eddy::planner
