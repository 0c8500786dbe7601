// Binding of a user-defined table function joined with the table on its left (Flink's syntax):
//   FROM t, LATERAL TABLE(f(t.x)) [AS T(a, b)]          (or CROSS JOIN LATERAL TABLE(...))
//   FROM t [INNER] JOIN LATERAL TABLE(f(t.x)) ON TRUE
//   FROM t LEFT JOIN LATERAL TABLE(f(t.x)) [AS T(a, b)] ON TRUE
// into a Correlate node: the function's arguments are bound over the left side's columns.
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/user_function_call.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

bool IsTrueLiteral(const sql::Expr& e) {
  return e.kind == sql::ExprKind::kLiteral && e.literal_kind == sql::LiteralKind::kBoolean &&
         absl::AsciiStrToUpper(e.text) == "TRUE";
}

}  // namespace

absl::StatusOr<BoundRelation> Binder::BindLateralTable(const sql::TableRef& join,
                                                       BoundRelation left, JoinType type) {
  const sql::TableRef& fn_ref = *join.right;
  if (type != JoinType::kInner && type != JoinType::kLeft) {
    return ValidationErrorAt(fn_ref.pos,
                             "a LATERAL TABLE join must be a CROSS, INNER or LEFT join");
  }
  if (join.join_condition != nullptr && !IsTrueLiteral(*join.join_condition)) {
    return ValidationErrorAt(join.join_condition->pos,
                             "a join with a LATERAL TABLE only supports the condition ON TRUE");
  }
  if (fn_ref.table_arg != nullptr || !fn_ref.descriptor_cols.empty() || fn_ref.model_arg) {
    return ValidationErrorAt(fn_ref.pos, "a LATERAL TABLE function takes scalar arguments only");
  }
  ASSIGN_OR_RETURN(std::optional<BoundUserFunction> user, LookupUserFunction(fn_ref.name));
  if (!user.has_value()) {
    return ValidationErrorAt(fn_ref.pos, absl::StrCat("table function '", fn_ref.name.ToString(),
                                                      "' not found (CREATE FUNCTION registers "
                                                      "one)"));
  }
  if (user->function->kind() != UserFunctionKind::kTable) {
    const bool scalar = user->function->kind() == UserFunctionKind::kScalar;
    return ValidationErrorAt(fn_ref.pos, absl::StrCat("function '", user->name, "' is ",
                                                      scalar ? "a scalar" : "an aggregate",
                                                      " function, not a table function"));
  }
  ExprScope scope;
  scope.columns = &left.columns;
  scope.schema = &left.node->schema;
  scope.clause = "LATERAL TABLE arguments";
  std::vector<ExprPtr> args;
  for (const auto& a : fn_ref.function_args) {
    ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*a, scope));
    args.push_back(std::move(e));
  }
  auto coerced = CoerceUserFunctionArgs(user->name, *user->function, std::move(args));
  if (!coerced.ok()) return AsValidationError(fn_ref.pos, coerced.status());
  std::vector<std::string> names = user->function->result_names();
  if (!fn_ref.column_aliases.empty()) {
    if (fn_ref.column_aliases.size() != names.size()) {
      return ValidationErrorAt(
          fn_ref.pos, absl::StrCat("table function '", user->name, "' returns ", names.size(),
                                   " columns but the alias names ", fn_ref.column_aliases.size()));
    }
    names = fn_ref.column_aliases;
  }
  BoundRelation r;
  r.node = MakeCorrelate(left.node, user->name, user->function, *std::move(coerced), type, names);
  std::vector<std::string> unique = UniquifyNames(r.node->schema.Names());
  for (size_t i = 0; i < unique.size(); ++i) r.node->schema.fields[i].name = unique[i];
  r.columns = std::move(left.columns);
  const std::string qualifier = fn_ref.alias.value_or(user->name);
  for (const std::string& n : names) r.columns.push_back({qualifier, n});
  return r;
}

}  // namespace eddy::planner
