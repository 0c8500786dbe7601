// Scalar subqueries, e.g. `WHERE v > (SELECT AVG(v) FROM t)`: each subquery in the WHERE clause or
// the select list of a non-aggregating SELECT must return one column and is left-joined with the
// FROM relation, so that every row sees its current value. An uncorrelated subquery is bound on its
// own and joined on TRUE (a join without keys, in one subtask), NULL while it has no row; a
// correlated one is decorrelated (binder_correlated_scalar.cc) and joined on its correlation keys.
// As the subquery's result changes (an aggregate over a stream), the join retracts and re-emits
// the rows that read it. The subquery's columns are hidden columns of the relation, and the
// subquery expression binds to its value. A subquery of more than one row (per outer row) joins
// each row once per subquery row (SQL would raise an error).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/function_registry.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

// The scalar subqueries of `e` (not IN's or EXISTS's).
void CollectScalars(const sql::Expr& e, std::vector<const sql::Expr*>* out) {
  if (e.kind == sql::ExprKind::kSubquery) {
    out->push_back(&e);
    return;
  }
  if (e.kind == sql::ExprKind::kExists) return;
  for (size_t i = 0; i < e.args.size(); ++i) {
    if (!e.args[i]) continue;
    if (e.kind == sql::ExprKind::kIn && i == 1 && e.args[i]->kind == sql::ExprKind::kSubquery) {
      continue;
    }
    CollectScalars(*e.args[i], out);
  }
  if (e.case_operand) CollectScalars(*e.case_operand, out);
  for (const auto& [when, then] : e.case_when_then) {
    if (when) CollectScalars(*when, out);
    if (then) CollectScalars(*then, out);
  }
  if (e.case_else) CollectScalars(*e.case_else, out);
}

}  // namespace

absl::StatusOr<std::map<const sql::Expr*, ExprPtr>> Binder::BindScalarSubqueries(
    const sql::Query& q, BoundRelation* in) {
  std::vector<const sql::Expr*> scalars;
  if (q.where) CollectScalars(*q.where, &scalars);
  for (const sql::SelectItem& item : q.select_list) {
    if (item.expr) CollectScalars(*item.expr, &scalars);
  }
  std::map<const sql::Expr*, ExprPtr> values;
  if (scalars.empty()) return values;
  if (!q.group_by.empty() || q.having != nullptr) {
    return ValidationErrorAt(scalars.front()->pos,
                             "scalar subqueries in an aggregating query are not supported yet");
  }
  for (const sql::Expr* e : scalars) {
    ScalarJoin join;
    Binder inner = SubqueryBinder(*in);
    absl::StatusOr<BoundRelation> uncorrelated = inner.BindQuery(*e->subquery);
    if (uncorrelated.ok()) {
      if (uncorrelated->node->schema.size() != 1) {
        return ValidationErrorAt(e->pos, absl::StrCat("a scalar subquery must return one column, "
                                                      "it returns ",
                                                      uncorrelated->node->schema.size()));
      }
      join.right = uncorrelated->node;
    } else {
      ASSIGN_OR_RETURN(join, BindCorrelatedScalar(*e, *in, uncorrelated.status()));
    }
    const int num_keys = static_cast<int>(join.right->schema.size()) - 1;
    // The subquery's columns (correlation keys, then the value) are hidden columns of the join.
    const int left_width = static_cast<int>(in->node->schema.size());
    std::vector<std::string> names = in->node->schema.Names();
    for (int c = 0; c < num_keys; ++c) names.push_back(join.right->schema.fields[c].name);
    names.push_back(absl::StrCat("$scalar", values.size()));
    names = UniquifyNames(std::move(names));
    in->node = MakeJoin(in->node, join.right, JoinType::kLeft, join.condition, names);
    for (size_t c = left_width; c < names.size(); ++c) {
      in->columns.push_back({"", names[c], /*hidden=*/true});
    }
    const Schema& joined = in->node->schema;
    ExprPtr value = MakeColumnRef(left_width + num_keys, joined.fields.back().type);
    if (join.value_over_no_rows != nullptr) {
      // A correlation key is NULL only where no subquery row matched the outer row.
      ExprPtr key = MakeColumnRef(left_width, joined.fields[left_width].type);
      ASSIGN_OR_RETURN(ExprPtr unmatched, MakeCall("IS NULL", {key}));
      auto chosen = MakeCall("CASE", {unmatched, join.value_over_no_rows, value});
      if (!chosen.ok()) return AsValidationError(e->pos, chosen.status());
      value = *std::move(chosen);
    }
    values[e] = std::move(value);
  }
  return values;
}

}  // namespace eddy::planner
