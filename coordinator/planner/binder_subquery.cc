// Subqueries in WHERE as Flink's planner decorrelates them: a conjunct `x [NOT] IN (SELECT y ...)`
// or `[NOT] EXISTS (SELECT ...)` turns the FROM relation into a left semi join (IN, EXISTS) or a
// left anti join (NOT IN, NOT EXISTS) with the subquery, whose output columns are the FROM
// relation's. A correlated subquery (a simple SELECT ... FROM ... WHERE whose conjuncts may read
// the outer query's columns; a name its own FROM has is its own, CorrelatedScope) moves its
// correlated conjuncts into the join condition. NOT IN keeps
// SQL's NULL semantics: a row is dropped when some subquery value equals x or the comparison is
// unknown (x or a value NULL), so its condition is `x = y OR (x = y) IS NULL` unless both are NOT
// NULL.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/function_registry.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

// A WHERE conjunct that is a subquery predicate: its subquery, the IN operand (null for EXISTS)
// and whether it is negated.
struct SubqueryPredicate {
  const sql::Query* query = nullptr;
  const sql::Expr* operand = nullptr;
  bool negated = false;
  sql::SourcePos pos;
};

std::optional<SubqueryPredicate> AsSubqueryPredicate(const sql::Expr& conjunct) {
  const sql::Expr* e = &conjunct;
  bool negated = false;
  while (e->kind == sql::ExprKind::kUnary && e->op == "NOT" && e->args.size() == 1) {
    negated = !negated;
    e = e->args[0].get();
  }
  if (e->kind == sql::ExprKind::kExists && e->subquery) {
    return SubqueryPredicate{e->subquery.get(), nullptr, negated, e->pos};
  }
  if (e->kind == sql::ExprKind::kIn && e->args.size() == 2 && e->args[1] &&
      e->args[1]->kind == sql::ExprKind::kSubquery && e->args[1]->subquery) {
    return SubqueryPredicate{e->args[1]->subquery.get(), e->args[0].get(), negated != e->negated,
                             e->pos};
  }
  return std::nullopt;
}

// Column references of `e` (over the subquery's columns) moved past the outer columns.
ExprPtr ShiftColumns(const ExprPtr& e, int by, int width) {
  std::vector<int> mapping(width);
  for (int c = 0; c < width; ++c) mapping[c] = by + c;
  return RemapColumns(e, mapping);
}

}  // namespace

void SplitConjuncts(const sql::Expr& e, std::vector<const sql::Expr*>* out) {
  if (e.kind == sql::ExprKind::kBinary && e.op == "AND" && e.args.size() == 2) {
    SplitConjuncts(*e.args[0], out);
    SplitConjuncts(*e.args[1], out);
    return;
  }
  out->push_back(&e);
}

bool ContainsSubquery(const sql::Expr& e) {
  if (e.kind == sql::ExprKind::kSubquery || e.kind == sql::ExprKind::kExists) return true;
  for (const auto& a : e.args) {
    if (a && ContainsSubquery(*a)) return true;
  }
  return false;
}

bool HasWhereSubquery(const sql::Expr& where) {
  std::vector<const sql::Expr*> conjuncts;
  SplitConjuncts(where, &conjuncts);
  for (const sql::Expr* c : conjuncts) {
    if (AsSubqueryPredicate(*c)) return true;
  }
  return false;
}

absl::StatusOr<std::vector<const sql::Expr*>> Binder::BindWhereSubqueries(
    const std::vector<const sql::Expr*>& conjuncts, BoundRelation* in) {
  std::vector<const sql::Expr*> rest;
  for (const sql::Expr* c : conjuncts) {
    std::optional<SubqueryPredicate> p = AsSubqueryPredicate(*c);
    if (!p) {
      rest.push_back(c);
      continue;
    }
    ASSIGN_OR_RETURN(SubqueryJoin join, BindSubqueryJoin(*p->query, p->operand, *in, p->pos));
    const int nl = static_cast<int>(in->node->schema.size());
    ExprPtr condition = join.condition;
    if (join.value != nullptr) {
      // x IN (SELECT y ...): x = y, and for NOT IN also an unknown comparison.
      ASSIGN_OR_RETURN(
          ExprPtr x,
          BindExpr(*p->operand, ExprScope{&in->columns, &in->node->schema, "WHERE clause", {}}));
      ExprPtr y = ShiftColumns(join.value, nl, static_cast<int>(join.right->schema.size()));
      auto eq = MakeCall("=", {x, y});
      if (!eq.ok()) return AsValidationError(p->pos, eq.status());
      ExprPtr match = *eq;
      if (p->negated && (x->type.nullable || y->type.nullable)) {
        ASSIGN_OR_RETURN(ExprPtr unknown, MakeCall("IS NULL", {match}));
        ASSIGN_OR_RETURN(match, MakeCall("OR", {match, unknown}));
      }
      std::vector<ExprPtr> parts;
      if (condition) parts.push_back(condition);
      parts.push_back(match);
      ASSIGN_OR_RETURN(condition, MakeConjunction(parts));
    }
    in->node = MakeJoin(in->node, join.right, p->negated ? JoinType::kAnti : JoinType::kSemi,
                        condition, in->node->schema.Names());
  }
  return rest;
}

absl::StatusOr<Binder::SubqueryJoin> Binder::BindSubqueryJoin(const sql::Query& q,
                                                              const sql::Expr* in_operand,
                                                              const BoundRelation& outer,
                                                              const sql::SourcePos& pos) {
  Binder inner = SubqueryBinder(outer);
  // Uncorrelated: any query.
  absl::StatusOr<BoundRelation> plain = inner.BindQuery(q);
  if (plain.ok()) {
    SubqueryJoin out;
    out.right = plain->node;
    if (in_operand != nullptr) {
      if (out.right->schema.size() != 1) {
        return ValidationErrorAt(pos, absl::StrCat("the subquery of IN must return one column, "
                                                   "it returns ",
                                                   out.right->schema.size()));
      }
      out.value = MakeColumnRef(0, out.right->schema.fields[0].type);
    }
    return out;
  }
  // Correlated: SELECT items FROM t WHERE conjuncts, some of which read the outer columns.
  const bool simple = q.kind == sql::Query::Kind::kSelect && q.from != nullptr &&
                      q.group_by.empty() && q.having == nullptr && !q.distinct &&
                      q.order_by.empty() && !q.limit;
  if (!simple) return plain.status();
  ASSIGN_OR_RETURN(BoundRelation r, inner.BindTableRef(*q.from));
  ExprScope inner_scope{&r.columns, &r.node->schema, "WHERE clause", {}};
  const CorrelatedScope both(outer, r, "WHERE clause");
  RETURN_IF_ERROR(both.CheckNoReferenceBeyondOuter(q, enclosing_qualifiers_));
  std::vector<ExprPtr> local, correlated;
  std::vector<const sql::Expr*> conjuncts;
  if (q.where) SplitConjuncts(*q.where, &conjuncts);
  for (const sql::Expr* c : conjuncts) {
    if (ContainsSubquery(*c)) return plain.status();
    ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*c, both.scope()));
    if (both.ReadsOuter(*e)) {
      correlated.push_back(std::move(e));
    } else {
      local.push_back(both.InnerOnly(e));
    }
  }
  if (correlated.empty()) return plain.status();
  SubqueryJoin out;
  out.right = r.node;
  if (!local.empty()) {
    ASSIGN_OR_RETURN(ExprPtr filter, MakeConjunction(local));
    out.right = MakeFilter(out.right, std::move(filter));
  }
  ASSIGN_OR_RETURN(out.condition, MakeConjunction(correlated));
  if (in_operand != nullptr) {
    if (q.select_list.size() != 1 || q.select_list[0].expr == nullptr ||
        q.select_list[0].expr->kind == sql::ExprKind::kStar) {
      return ValidationErrorAt(pos, "the subquery of IN must return one column");
    }
    ASSIGN_OR_RETURN(out.value, BindExpr(*q.select_list[0].expr, inner_scope));
  }
  return out;
}

}  // namespace eddy::planner
