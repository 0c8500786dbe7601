// Binding of scalar expressions: names against the scope, operators and functions through MakeCall,
// and the SQL forms the registry does not know (IN, BETWEEN, simple CASE, IS [NOT] TRUE, ...)
// expanded into calls it does.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/expr/aggregate_signature.h"
#include "common/expr/evaluator.h"
#include "common/expr/function_registry.h"
#include "common/expr/user_function_call.h"
#include "common/types/collection_codec.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"
#include "coordinator/planner/type_spec.h"
#include "coordinator/planner/user_functions.h"

namespace eddy::planner {
namespace {

// MakeCall widens literal operands with CASTs (`n > 1` on BIGINT becomes >(n, CAST(1 AS BIGINT)));
// folding those into typed literals keeps digests readable, as Flink's do, and saves work per row.
// A cast that fails to evaluate stays, so the error surfaces where Flink's would, at run time.
ExprPtr FoldLiteralCasts(ExprPtr e) {
  if (e->kind != ExprKind::kCall) return e;
  bool changed = false;
  std::vector<ExprPtr> args = e->args;
  for (auto& a : args) {
    if (a->kind == ExprKind::kCall && a->function == "CAST" && a->args.size() == 1 &&
        a->args[0]->kind == ExprKind::kLiteral) {
      auto v = EvaluateConstant(*a);
      if (v.ok()) {
        a = MakeLiteral(*std::move(v), a->type);
        changed = true;
      }
    }
  }
  if (!changed) return e;
  auto copy = std::make_shared<Expr>(*e);
  copy->args = std::move(args);
  return copy;
}

absl::StatusOr<ExprPtr> Call(const sql::SourcePos& pos, std::string_view fn,
                             std::vector<ExprPtr> args) {
  auto r = MakeCall(fn, std::move(args));
  if (!r.ok()) return AsValidationError(pos, r.status());
  return FoldLiteralCasts(*std::move(r));
}

absl::StatusOr<std::vector<ExprPtr>> BindAll(const std::vector<sql::ExprPtr>& args,
                                             const ExprScope& scope) {
  std::vector<ExprPtr> out;
  for (const auto& a : args) {
    if (a == nullptr) return ValidationError("missing expression");
    ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*a, scope));
    out.push_back(std::move(e));
  }
  return out;
}

absl::StatusOr<ExprPtr> BindCase(const sql::Expr& e, const ExprScope& scope) {
  std::vector<ExprPtr> args;
  ExprPtr operand;
  if (e.case_operand) {
    ASSIGN_OR_RETURN(operand, BindExpr(*e.case_operand, scope));
  }
  for (const auto& [when, then] : e.case_when_then) {
    ASSIGN_OR_RETURN(ExprPtr w, BindExpr(*when, scope));
    if (operand) {
      ASSIGN_OR_RETURN(w, Call(when->pos, "=", {operand, w}));
    }
    ASSIGN_OR_RETURN(ExprPtr t, BindExpr(*then, scope));
    args.push_back(std::move(w));
    args.push_back(std::move(t));
  }
  if (e.case_else) {
    ASSIGN_OR_RETURN(ExprPtr el, BindExpr(*e.case_else, scope));
    args.push_back(std::move(el));
  }
  return Call(e.pos, "CASE", std::move(args));
}

// GROUPING / GROUPING_ID outside the select list and HAVING of an aggregating query, which bind
// them in their hook: Calcite's messages.
absl::Status GroupingCallNotAllowed(const sql::Expr& e, const ExprScope& scope) {
  const std::string name = absl::AsciiStrToUpper(e.name.parts[0]);
  if (scope.clause == "WHERE clause" || scope.clause == "GROUP BY clause" ||
      scope.clause == "an aggregate argument" || scope.clause == "a FILTER clause") {
    return ValidationErrorAt(
        e.pos, absl::StrCat(name, " operator may only occur in SELECT, HAVING or ORDER BY clause"));
  }
  return ValidationErrorAt(e.pos,
                           absl::StrCat(name, " operator may only occur in an aggregate query"));
}

// `r.f`, `t.r.f`, `r.f.g`: the longest leading part of the name that is a column, then a field
// access per remaining part. nullptr when no leading part names a ROW column.
absl::StatusOr<ExprPtr> BindRowFieldAccess(const sql::Expr& e, const ExprScope& scope) {
  const auto& parts = e.name.parts;
  for (size_t prefix = parts.size() - 1; prefix >= 1; --prefix) {
    sql::Expr column;
    column.kind = sql::ExprKind::kIdentifier;
    column.pos = e.pos;
    column.name = e.name;
    column.name.parts.assign(parts.begin(), parts.begin() + prefix);
    absl::StatusOr<int> i = ResolveColumn(column, scope);
    if (!i.ok() || scope.schema->fields[*i].type.id != TypeId::kRow) continue;
    ExprPtr value = MakeColumnRef(*i, scope.schema->fields[*i].type);
    for (size_t k = prefix; k < parts.size(); ++k) {
      ExprPtr name = MakeLiteral(Value::String(parts[k]), DataType::String().WithNullable(false));
      ASSIGN_OR_RETURN(value, Call(e.pos, "FIELD", {std::move(value), std::move(name)}));
    }
    return value;
  }
  return ExprPtr(nullptr);
}

// The family of `type` as Calcite names it in a function signature.
std::string SignatureFamily(const DataType& type) {
  if (type.IsNumeric()) return "<NUMERIC>";
  if (type.id == TypeId::kString) return "<CHARACTER>";
  if (type.id == TypeId::kBoolean) return "<BOOLEAN>";
  if (type.id == TypeId::kDate) return "<DATE>";
  if (type.id == TypeId::kTime) return "<TIME>";
  if (type.id == TypeId::kTimestamp || type.id == TypeId::kTimestampLtz) return "<TIMESTAMP>";
  if (type.id == TypeId::kInterval) return "<INTERVAL_DAY_TIME>";
  if (type.id == TypeId::kIntervalYearMonth) return "<INTERVAL_YEAR_MONTH>";
  if (type.id == TypeId::kNull) return "<NULL>";
  return absl::StrCat("<", type.ToString(), ">");
}

// A call of a built-in function while the core module is not in use (UNLOAD MODULE core, USE
// MODULES without it): the name matches no function, as in Flink.
absl::Status NoMatchingFunction(const sql::Expr& e, const ExprScope& scope) {
  std::vector<std::string> families;
  for (const auto& a : e.args) {
    if (a == nullptr || a->kind == sql::ExprKind::kStar) {
      families.push_back("<ANY>");
      continue;
    }
    absl::StatusOr<ExprPtr> bound = BindExpr(*a, scope);
    families.push_back(bound.ok() ? SignatureFamily((*bound)->type) : "<ANY>");
  }
  return ValidationErrorAt(
      e.pos, absl::StrCat("No match found for function signature ", e.name.ToString(), "(",
                          absl::StrJoin(families, ", "), ")"));
}

absl::StatusOr<ExprPtr> BindFunction(const sql::Expr& e, const ExprScope& scope) {
  const std::string name = e.name.ToString();
  if (IsGroupingCall(e)) return GroupingCallNotAllowed(e, scope);
  if (!BuiltinFunctionsResolve()) {
    ASSIGN_OR_RETURN(std::optional<BoundUserFunction> user, LookupUserFunction(e.name));
    if (!user.has_value()) return NoMatchingFunction(e, scope);
  }
  if (IsAggregateCall(e)) {
    // Aggregate contexts bind aggregates in their hook; reaching here means they are not allowed.
    return ValidationErrorAt(
        e.pos,
        absl::StrCat("aggregate function ", absl::AsciiStrToUpper(name), " is not allowed in ",
                     scope.clause.empty() ? "this context" : scope.clause));
  }
  if (e.distinct) {
    return ValidationErrorAt(e.pos, absl::StrCat("DISTINCT is only allowed in aggregate functions, "
                                                 "not in ",
                                                 absl::AsciiStrToUpper(name)));
  }
  if (e.filter) {
    return ValidationErrorAt(e.filter->pos,
                             absl::StrCat("FILTER is only allowed in aggregate functions, not in ",
                                          absl::AsciiStrToUpper(name)));
  }
  for (const auto& a : e.args) {
    if (a && a->kind == sql::ExprKind::kStar) {
      return ValidationErrorAt(a->pos, absl::StrCat("'*' is not allowed as an argument of ",
                                                    absl::AsciiStrToUpper(name)));
    }
  }
  ASSIGN_OR_RETURN(std::optional<BoundUserFunction> user, LookupUserFunction(e.name));
  ASSIGN_OR_RETURN(std::vector<ExprPtr> args, BindAll(e.args, scope));
  if (user.has_value()) {
    auto r = MakeUserFunctionCall(user->name, user->function, std::move(args));
    if (!r.ok()) return AsValidationError(e.pos, r.status());
    return *std::move(r);
  }
  return Call(e.pos, name, std::move(args));
}

}  // namespace

bool IsAggregateCall(const sql::Expr& e) {
  if (e.kind != sql::ExprKind::kFunction || e.over != nullptr) return false;
  if (e.name.parts.size() == 1 && IsBuiltinAggregate(e.name.parts[0])) {
    return BuiltinFunctionsResolve();
  }
  auto user = LookupUserFunction(e.name);
  return user.ok() && user->has_value() &&
         (*user)->function->kind() == UserFunctionKind::kAggregate;
}

bool ContainsSubexpression(const sql::Expr& e, const std::function<bool(const sql::Expr&)>& pred) {
  if (pred(e)) return true;
  for (const auto& a : e.args) {
    if (a && ContainsSubexpression(*a, pred)) return true;
  }
  if (e.case_operand && ContainsSubexpression(*e.case_operand, pred)) return true;
  for (const auto& [w, t] : e.case_when_then) {
    if ((w && ContainsSubexpression(*w, pred)) || (t && ContainsSubexpression(*t, pred))) {
      return true;
    }
  }
  return e.case_else && ContainsSubexpression(*e.case_else, pred);
}

bool ContainsAggregate(const sql::Expr& e) { return ContainsSubexpression(e, IsAggregateCall); }

bool IsGroupingCall(const sql::Expr& e) {
  if (e.kind != sql::ExprKind::kFunction || e.over != nullptr || e.name.parts.size() != 1) {
    return false;
  }
  const std::string name = absl::AsciiStrToUpper(e.name.parts[0]);
  return name == "GROUPING" || name == "GROUPING_ID";
}

bool ContainsGroupingCall(const sql::Expr& e) { return ContainsSubexpression(e, IsGroupingCall); }

absl::StatusOr<int> ResolveColumn(const sql::Expr& id, const ExprScope& scope) {
  const auto& parts = id.name.parts;
  if (parts.empty()) return ValidationErrorAt(id.pos, "empty identifier");
  const std::string& col = parts.back();
  // Only the last qualifier part is matched: `db.t.col` resolves like `t.col`.
  const std::string* qualifier = parts.size() >= 2 ? &parts[parts.size() - 2] : nullptr;
  bool qualifier_seen = false;
  // The column among columns [begin, end) that `id` names, -1 when none does.
  auto find = [&](size_t begin, size_t end) -> absl::StatusOr<int> {
    int found = -1;
    for (size_t i = begin; i < end; ++i) {
      const ScopeColumn& c = (*scope.columns)[i];
      if (c.hidden) continue;
      if (qualifier != nullptr) {
        if (c.qualifier != *qualifier) continue;
        qualifier_seen = true;
      }
      if (c.name != col) continue;
      if (found >= 0) {
        // A window TVF over a table that already has the window columns (a cascading window
        // aggregation that kept their names) adds them a second time.
        const bool window_column =
            col == "window_start" || col == "window_end" || col == "window_time";
        return ValidationErrorAt(id.pos,
                                 absl::StrCat("column '", id.name.ToString(), "' is ambiguous",
                                              window_column ? "; a window TVF adds its own " + col +
                                                                  ": rename the input's column (AS)"
                                                            : ""));
      }
      found = static_cast<int>(i);
    }
    return found;
  };
  if (scope.columns != nullptr) {
    // The scope's own columns first; a correlated subquery's outer columns only when the
    // identifier names none of them (a qualifier naming one of its tables stays there).
    const size_t outer = static_cast<size_t>(scope.outer_columns);
    ASSIGN_OR_RETURN(int found, find(outer, scope.columns->size()));
    if (found >= 0) return found;
    if (!qualifier_seen && outer > 0) {
      ASSIGN_OR_RETURN(found, find(0, outer));
      if (found >= 0) return found;
    }
  }
  if (qualifier != nullptr && qualifier_seen) {
    return ValidationErrorAt(
        id.pos, absl::StrCat("column '", col, "' not found in table '", *qualifier, "'"));
  }
  if (qualifier != nullptr) {
    return ValidationErrorAt(id.pos,
                             absl::StrCat("table '", *qualifier, "' not found in the FROM clause"));
  }
  return ValidationErrorAt(id.pos, absl::StrCat("column '", col, "' not found in any table"));
}

absl::StatusOr<ExprPtr> BindExpr(const sql::Expr& e, const ExprScope& scope) {
  if (scope.hook) {
    ASSIGN_OR_RETURN(ExprPtr hooked, scope.hook(e));
    if (hooked != nullptr) return hooked;
  }
  auto arg = [&](size_t i) -> absl::StatusOr<ExprPtr> {
    if (i >= e.args.size() || e.args[i] == nullptr) {
      return ValidationErrorAt(e.pos, "missing operand");
    }
    return BindExpr(*e.args[i], scope);
  };
  switch (e.kind) {
    case sql::ExprKind::kLiteral:
      return BindLiteral(e);
    case sql::ExprKind::kIdentifier: {
      absl::StatusOr<int> i = ResolveColumn(e, scope);
      if (!i.ok() && e.name.parts.size() >= 2) {
        ASSIGN_OR_RETURN(ExprPtr field, BindRowFieldAccess(e, scope));
        if (field != nullptr) return field;
      }
      if (!i.ok()) return i.status();
      return MakeColumnRef(*i, scope.schema->fields[*i].type);
    }
    case sql::ExprKind::kStar:
      return ValidationErrorAt(e.pos, "'*' is only allowed in a SELECT list or COUNT(*)");
    case sql::ExprKind::kUnary: {
      if (e.op == "-" && !e.args.empty() && e.args[0] &&
          e.args[0]->kind == sql::ExprKind::kLiteral &&
          (e.args[0]->literal_kind == sql::LiteralKind::kInteger ||
           e.args[0]->literal_kind == sql::LiteralKind::kDecimal ||
           e.args[0]->literal_kind == sql::LiteralKind::kDouble)) {
        // Fold the sign into the literal: -5 is INT -5, and -9223372036854775808 fits BIGINT.
        return BindLiteral(*e.args[0], /*negate=*/true);
      }
      if (e.op == "-" && !e.args.empty() && e.args[0] &&
          e.args[0]->kind == sql::ExprKind::kInterval) {
        return BindIntervalLiteral(*e.args[0], /*negate=*/true);
      }
      ASSIGN_OR_RETURN(ExprPtr a, arg(0));
      if (e.op == "+") {
        if (!a->type.IsNumeric() && a->type.id != TypeId::kNull) {
          return ValidationErrorAt(e.pos, absl::StrCat("Cannot apply '+' to arguments of type <",
                                                       a->type.WithNullable(true).ToString(), ">"));
        }
        return a;
      }
      return Call(e.pos, e.op == "-" ? "NEGATE" : e.op, {std::move(a)});
    }
    case sql::ExprKind::kBinary: {
      ASSIGN_OR_RETURN(ExprPtr a, arg(0));
      ASSIGN_OR_RETURN(ExprPtr b, arg(1));
      return Call(e.pos, e.op, {std::move(a), std::move(b)});
    }
    case sql::ExprKind::kIsNull: {
      ASSIGN_OR_RETURN(ExprPtr a, arg(0));
      return Call(e.pos, e.negated ? "IS NOT NULL" : "IS NULL", {std::move(a)});
    }
    case sql::ExprKind::kIsTrue: {
      ASSIGN_OR_RETURN(ExprPtr a, arg(0));
      return Call(e.pos, e.negated ? "IS NOT TRUE" : "IS TRUE", {std::move(a)});
    }
    case sql::ExprKind::kIsFalse: {
      ASSIGN_OR_RETURN(ExprPtr a, arg(0));
      return Call(e.pos, e.negated ? "IS NOT FALSE" : "IS FALSE", {std::move(a)});
    }
    case sql::ExprKind::kLike: {
      ASSIGN_OR_RETURN(std::vector<ExprPtr> args, BindAll(e.args, scope));
      ASSIGN_OR_RETURN(ExprPtr like, Call(e.pos, "LIKE", std::move(args)));
      if (!e.negated) return like;
      return Call(e.pos, "NOT", {std::move(like)});
    }
    case sql::ExprKind::kIn: {
      if (e.args.size() < 2) return ValidationErrorAt(e.pos, "IN needs at least one value");
      ASSIGN_OR_RETURN(ExprPtr x, arg(0));
      std::vector<ExprPtr> eqs;
      for (size_t i = 1; i < e.args.size(); ++i) {
        if (e.args[i] && e.args[i]->kind == sql::ExprKind::kSubquery) {
          return ValidationErrorAt(e.args[i]->pos,
                                   "IN (subquery) is supported as a conjunct of a WHERE clause "
                                   "(it becomes a semi or anti join), not here");
        }
        ASSIGN_OR_RETURN(ExprPtr v, arg(i));
        ASSIGN_OR_RETURN(ExprPtr eq, Call(e.args[i]->pos, "=", {x, std::move(v)}));
        eqs.push_back(std::move(eq));
      }
      ExprPtr any = eqs.front();
      if (eqs.size() > 1) {
        ASSIGN_OR_RETURN(any, Call(e.pos, "OR", std::move(eqs)));
      }
      if (!e.negated) return any;
      return Call(e.pos, "NOT", {std::move(any)});
    }
    case sql::ExprKind::kBetween: {
      ASSIGN_OR_RETURN(ExprPtr x, arg(0));
      ASSIGN_OR_RETURN(ExprPtr lo, arg(1));
      ASSIGN_OR_RETURN(ExprPtr hi, arg(2));
      ASSIGN_OR_RETURN(ExprPtr ge, Call(e.pos, ">=", {x, std::move(lo)}));
      ASSIGN_OR_RETURN(ExprPtr le, Call(e.pos, "<=", {x, std::move(hi)}));
      ASSIGN_OR_RETURN(ExprPtr both, Call(e.pos, "AND", {std::move(ge), std::move(le)}));
      if (!e.negated) return both;
      return Call(e.pos, "NOT", {std::move(both)});
    }
    case sql::ExprKind::kCase:
      return BindCase(e, scope);
    case sql::ExprKind::kCast: {
      ASSIGN_OR_RETURN(ExprPtr a, arg(0));
      ASSIGN_OR_RETURN(DataType to, TypeFromSpec(e.cast_type));
      if (absl::Status s = CheckCast(a->type, to); !s.ok()) return AsValidationError(e.pos, s);
      return MakeCast(std::move(a), to, e.try_cast);
    }
    case sql::ExprKind::kFunction:
      if (e.over) {
        return ValidationErrorAt(
            e.pos, absl::StrCat("OVER windows are not allowed in ",
                                scope.clause.empty() ? "this context" : scope.clause));
      }
      return BindFunction(e, scope);
    case sql::ExprKind::kInterval:
      return BindIntervalLiteral(e);
    case sql::ExprKind::kSubquery:
      return ValidationErrorAt(e.pos,
                               "scalar subqueries are supported in the WHERE clause and the select "
                               "list of a query without GROUP BY, not here");
    case sql::ExprKind::kGroupingElement:
      return ValidationErrorAt(e.pos, absl::StrCat(e.op == "()" ? "a parenthesized list" : e.op,
                                                   " is only allowed as an element of GROUP BY"));
    case sql::ExprKind::kExists:
      return ValidationErrorAt(e.pos,
                               "EXISTS is supported as a conjunct of a WHERE clause (it becomes a "
                               "semi or anti join), not here");
  }
  return ValidationErrorAt(e.pos, "unsupported expression");
}

bool IsImplicitlyCastable(const DataType& from, const DataType& to) {
  if (from.id == TypeId::kNull || from.SameAs(to)) return true;
  // ARRAY<INT NOT NULL> into ARRAY<INT>: the same values (elements are not converted).
  if (from.IsCollection()) return SameIgnoringNullability(from, to);
  auto rank = [](TypeId id) {
    switch (id) {
      case TypeId::kTinyInt:
        return 0;
      case TypeId::kSmallInt:
        return 1;
      case TypeId::kInt:
        return 2;
      case TypeId::kBigInt:
        return 3;
      case TypeId::kDecimal:
        return 4;
      case TypeId::kFloat:
        return 5;
      case TypeId::kDouble:
        return 6;
      default:
        return -1;
    }
  };
  if (from.IsNumeric() && to.IsNumeric()) return rank(from.id) <= rank(to.id);
  if (from.IsString() && to.IsString()) return true;
  if (from.IsBinary() && to.IsBinary()) return true;
  // DATE widens to TIMESTAMP; TIMESTAMP and TIMESTAMP_LTZ convert into each other through the
  // session zone (one family in Flink).
  if (from.IsTemporal() && to.IsTimestampLike()) return true;
  if (from.id == TypeId::kTime && to.id == TypeId::kTime) return true;
  return false;
}

}  // namespace eddy::planner
