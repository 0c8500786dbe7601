// Scalar subqueries, e.g. `WHERE v > (SELECT AVG(v) FROM t)`: each uncorrelated subquery in the
// WHERE clause or the select list of a non-aggregating SELECT is bound on its own, must return one
// column, and is left-joined with the FROM relation on TRUE (a join without keys, in one subtask),
// so that every row sees its current value, NULL while it has none. As the subquery's result
// changes (an aggregate over a stream), the join retracts and re-emits the rows that read it. The
// value is a hidden column of the relation, which the subquery expression binds to. A subquery of
// more than one row joins each row once per subquery row (SQL would raise an error).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
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

absl::StatusOr<std::map<const sql::Expr*, int>> Binder::BindScalarSubqueries(const sql::Query& q,
                                                                             BoundRelation* in) {
  std::vector<const sql::Expr*> scalars;
  if (q.where) CollectScalars(*q.where, &scalars);
  for (const sql::SelectItem& item : q.select_list) {
    if (item.expr) CollectScalars(*item.expr, &scalars);
  }
  std::map<const sql::Expr*, int> columns;
  if (scalars.empty()) return columns;
  if (!q.group_by.empty() || q.having != nullptr) {
    return ValidationErrorAt(scalars.front()->pos,
                             "scalar subqueries in an aggregating query are not supported yet");
  }
  for (const sql::Expr* e : scalars) {
    Binder inner(catalog_, config_, view_depth_);
    ASSIGN_OR_RETURN(BoundRelation value, inner.BindQuery(*e->subquery));
    if (value.node->schema.size() != 1) {
      return ValidationErrorAt(e->pos, absl::StrCat("a scalar subquery must return one column, "
                                                    "it returns ",
                                                    value.node->schema.size()));
    }
    const int column = static_cast<int>(in->node->schema.size());
    std::vector<std::string> names = in->node->schema.Names();
    names.push_back(absl::StrCat("$scalar", columns.size()));
    in->node = MakeJoin(in->node, value.node, JoinType::kLeft, nullptr, UniquifyNames(names));
    in->columns.push_back({"", names.back(), /*hidden=*/true});
    columns[e] = column;
  }
  return columns;
}

}  // namespace eddy::planner
