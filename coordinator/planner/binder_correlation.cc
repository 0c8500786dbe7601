// The scope of a correlated subquery's clauses, shared by the decorrelation of IN / EXISTS
// (binder_subquery.cc) and of scalar subqueries (binder_correlated_scalar.cc): the outer relation's
// columns followed by the subquery's FROM columns, which identifiers name first.
#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {

CorrelatedScope::CorrelatedScope(const BoundRelation& outer, const BoundRelation& inner,
                                 std::string clause)
    : columns_(outer.columns), schema_(outer.node->schema) {
  columns_.insert(columns_.end(), inner.columns.begin(), inner.columns.end());
  schema_.fields.insert(schema_.fields.end(), inner.node->schema.fields.begin(),
                        inner.node->schema.fields.end());
  scope_.columns = &columns_;
  scope_.schema = &schema_;
  scope_.clause = std::move(clause);
  scope_.outer_columns = static_cast<int>(outer.node->schema.size());
}

bool CorrelatedScope::ReadsOuter(const Expr& e) const {
  return !OnlyReferences(e, [this](int c) { return c >= outer_width(); });
}

ExprPtr CorrelatedScope::InnerOnly(const ExprPtr& e) const {
  std::vector<int> mapping(schema_.size());
  for (size_t c = 0; c < mapping.size(); ++c) {
    mapping[c] = static_cast<int>(c) - outer_width();
  }
  return RemapColumns(e, mapping);
}

namespace {

// The first identifier of `e` (not looking into nested subqueries) for which `pick` holds, or null.
const sql::Expr* FindIdentifier(const sql::Expr& e,
                                const std::function<bool(const sql::Expr&)>& pick) {
  if (e.kind == sql::ExprKind::kIdentifier) return pick(e) ? &e : nullptr;
  std::vector<const sql::Expr*> children;
  for (const auto& a : e.args) children.push_back(a.get());
  children.push_back(e.case_operand.get());
  for (const auto& [when, then] : e.case_when_then) {
    children.push_back(when.get());
    children.push_back(then.get());
  }
  children.push_back(e.case_else.get());
  children.push_back(e.filter.get());
  if (e.over) {
    for (const auto& p : e.over->partition_by) children.push_back(p.get());
    for (const auto& o : e.over->order_by) children.push_back(o.expr.get());
  }
  for (const sql::Expr* child : children) {
    if (child == nullptr) continue;
    if (const sql::Expr* found = FindIdentifier(*child, pick)) return found;
  }
  return nullptr;
}

}  // namespace

const sql::Expr* CorrelatedScope::FindOuterReference(const sql::Expr& e) const {
  return FindIdentifier(e, [this](const sql::Expr& id) {
    absl::StatusOr<int> c = ResolveColumn(id, scope_);
    return c.ok() && *c < outer_width();
  });
}

absl::Status CorrelatedScope::CheckNoReferenceBeyondOuter(
    const sql::Query& q, const std::vector<std::string>& enclosing) const {
  auto beyond = [&](const sql::Expr& id) {
    const std::vector<std::string>& parts = id.name.parts;
    if (parts.size() < 2) return false;
    const std::string& qualifier = parts[parts.size() - 2];
    for (const ScopeColumn& c : columns_) {
      if (c.qualifier == qualifier) return false;
    }
    return std::find(enclosing.begin(), enclosing.end(), qualifier) != enclosing.end();
  };
  std::vector<const sql::Expr*> clauses = {q.where.get()};
  for (const sql::SelectItem& item : q.select_list) clauses.push_back(item.expr.get());
  for (const sql::Expr* clause : clauses) {
    if (clause == nullptr) continue;
    if (const sql::Expr* id = FindIdentifier(*clause, beyond)) {
      return ValidationErrorAt(
          id->pos, absl::StrCat("column '", id->name.ToString(),
                                "' belongs to a query more than one level out; a subquery may "
                                "read only the columns of the query directly enclosing it"));
    }
  }
  return absl::OkStatus();
}

absl::Status CorrelatedScope::Resolves(const sql::Expr& e) const {
  const sql::Expr* unresolved =
      FindIdentifier(e, [this](const sql::Expr& id) { return !ResolveColumn(id, scope_).ok(); });
  if (unresolved == nullptr) return absl::OkStatus();
  return ResolveColumn(*unresolved, scope_).status();
}

Binder Binder::SubqueryBinder(const BoundRelation& outer) const {
  Binder inner(catalog_, config_, view_depth_);
  inner.enclosing_qualifiers_ = enclosing_qualifiers_;
  for (const ScopeColumn& c : outer.columns) {
    if (!c.qualifier.empty()) inner.enclosing_qualifiers_.push_back(c.qualifier);
  }
  return inner;
}

}  // namespace eddy::planner
