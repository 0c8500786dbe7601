// Binding of a SELECT block: FROM, WHERE, the select list (with `*` / `t.*`), GROUP BY (with
// GROUPING SETS, ROLLUP and CUBE, binder_grouping_sets.cc), aggregates and GROUPING() anywhere in
// the select list or HAVING, and SELECT DISTINCT (an aggregate without calls). An aggregating block
// becomes Project(keys + aggregate arguments) -> Aggregate -> Filter(HAVING) -> Project(select
// list), as Calcite's SqlToRelConverter does; the Aggregate carries its grouping sets. A correlated
// scalar subquery's block is bound decorrelated (Decorrelation): grouped by its correlation keys,
// which lead its output.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/aggregate_signature.h"
#include "common/expr/evaluator.h"
#include "common/expr/function_registry.h"
#include "common/expr/user_function_call.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/expr_util.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

// One output column of the select list after `*` expansion.
struct SelectColumn {
  const sql::Expr* expr = nullptr;  // null for a column expanded from `*`
  int column = -1;                  // input column of a `*` expansion
  std::string name;
  sql::SourcePos pos;
};

absl::StatusOr<std::vector<SelectColumn>> ExpandSelectList(const sql::Query& q,
                                                           const BoundRelation& in) {
  std::vector<SelectColumn> out;
  for (size_t i = 0; i < q.select_list.size(); ++i) {
    const sql::SelectItem& item = q.select_list[i];
    if (item.expr == nullptr) return ValidationErrorAt(item.pos, "missing select expression");
    const sql::Expr& e = *item.expr;
    if (e.kind == sql::ExprKind::kStar) {
      const std::string qualifier = e.name.parts.empty() ? "" : e.name.parts.back();
      bool any = false;
      for (size_t c = 0; c < in.columns.size(); ++c) {
        if (in.columns[c].hidden) continue;
        if (!qualifier.empty() && in.columns[c].qualifier != qualifier) {
          continue;
        }
        out.push_back({nullptr, static_cast<int>(c), in.node->schema.fields[c].name, e.pos});
        any = true;
      }
      if (!any && !qualifier.empty()) {
        return ValidationErrorAt(
            e.pos, absl::StrCat("table '", qualifier, "' not found in the FROM clause"));
      }
      continue;
    }
    SelectColumn col{&e, -1, "", item.pos};
    if (item.alias) {
      col.name = *item.alias;
    } else if (e.kind == sql::ExprKind::kIdentifier && !e.name.parts.empty()) {
      col.name = e.name.parts.back();  // replaced by the column's declared name once resolved
    } else {
      col.name = absl::StrCat("EXPR$", i);
    }
    out.push_back(std::move(col));
  }
  return out;
}

absl::Status RequireBoolean(const Expr& e, const sql::SourcePos& pos, const std::string& clause) {
  if (e.type.id == TypeId::kBoolean || e.type.id == TypeId::kNull) return absl::OkStatus();
  return ValidationErrorAt(pos, absl::StrCat(clause, " must be a BOOLEAN expression, got ",
                                             e.type.WithNullable(true).ToString()));
}

// State of one aggregating SELECT block while its expressions are bound.
class AggregateScope {
 public:
  AggregateScope(const ExprScope& input) : input_(input) {}

  // Binds GROUP BY expression `g` as a group key; returns its position among the keys.
  absl::StatusOr<int> AddGroupKey(const sql::Expr& g) {
    if (ContainsAggregate(g)) {
      return ValidationErrorAt(g.pos, "aggregate functions are not allowed in GROUP BY clause");
    }
    ExprScope group_by = input_;
    group_by.clause = "GROUP BY clause";
    ASSIGN_OR_RETURN(ExprPtr e, BindExpr(g, group_by));
    if (std::optional<int> k = FindKey(*e)) return *k;  // GROUP BY a, a
    pre_names_.push_back(e->kind == ExprKind::kColumn ? input_.schema->fields[e->column].name
                                                      : absl::StrCat("$f", pre_.size()));
    pre_.push_back(std::move(e));
    return num_keys_++;
  }

  // The grouping sets of GROUP BY (BindGroupingSets), when there are several: the keys some set
  // leaves out become nullable.
  void SetGroupingSets(std::vector<std::vector<int>> sets) {
    nulled_.assign(num_keys_, false);
    for (const std::vector<int>& set : sets) {
      std::vector<bool> in_set(num_keys_, false);
      for (int k : set) in_set[k] = true;
      for (int k = 0; k < num_keys_; ++k) nulled_[k] = nulled_[k] || !in_set[k];
    }
    grouping_sets_ = std::move(sets);
  }

  // `e` (bound in OutputScope) with the GROUPING calls' columns placed after the aggregate calls,
  // once every call is known.
  ExprPtr PlaceGroupingColumns(const ExprPtr& e) const {
    if (e->kind == ExprKind::kColumn && e->column >= kGroupingColumns) {
      return MakeColumnRef(
          num_keys_ + static_cast<int>(calls_.size()) + (e->column - kGroupingColumns), e->type);
    }
    if (e->kind != ExprKind::kCall) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (ExprPtr& a : copy->args) a = PlaceGroupingColumns(a);
    return copy;
  }

  // A group key ahead of the GROUP BY keys that the select list and HAVING do not see (a
  // decorrelated subquery's correlation key), bound over the input.
  void AddHiddenKey(ExprPtr key, std::string name) {
    pre_.push_back(std::move(key));
    pre_names_.push_back(std::move(name));
    ++num_keys_;
    ++num_hidden_keys_;
  }

  // An ExprScope over the aggregate's output for the select list and HAVING.
  ExprScope OutputScope(std::string clause) {
    ExprScope s;
    s.clause = std::move(clause);
    s.hook = [this](const sql::Expr& e) { return Hook(e); };
    return s;
  }

  // The column of the aggregate output that `e` (bound over the input) is, if it is a key.
  std::optional<int> FindKey(const Expr& e) const {
    for (int k = num_hidden_keys_; k < num_keys_; ++k) {
      if (ExprEquals(*pre_[k], e)) return k;
    }
    return std::nullopt;
  }

  int num_keys() const { return num_keys_; }
  std::vector<ExprPtr>& pre() { return pre_; }
  std::vector<std::string>& pre_names() { return pre_names_; }
  std::vector<LogicalAggCall>& calls() { return calls_; }
  // A key's type in the aggregate's output: nullable when some grouping set leaves it out.
  DataType KeyType(int k) const {
    const bool nulled = k < static_cast<int>(nulled_.size()) && nulled_[k];
    return nulled ? pre_[k]->type.WithNullable(true) : pre_[k]->type;
  }
  const std::vector<std::vector<int>>& grouping_sets() const { return grouping_sets_; }
  const std::vector<GroupingCall>& grouping_calls() const { return grouping_calls_; }

 private:
  absl::StatusOr<ExprPtr> Hook(const sql::Expr& e) {
    if (IsAggregateCall(e)) return BindAggregate(e);
    if (IsGroupingCall(e)) return BindGroupingCall(e);
    if (const char* window_column = LegacyWindowProperty(e))
      return BindWindowProperty(e, window_column);
    // Bind the children through this hook: aggregates, GROUPING calls and window properties inside
    // expressions.
    if (ContainsSubexpression(e, [](const sql::Expr& x) {
          return IsAggregateCall(x) || IsGroupingCall(x) || LegacyWindowProperty(x) != nullptr;
        })) {
      return ExprPtr();
    }
    ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(e, input_));
    if (std::optional<int> k = FindKey(*bound)) return MakeColumnRef(*k, KeyType(*k));
    if (IsConstant(*bound)) return bound;
    if (e.kind == sql::ExprKind::kIdentifier) {
      return ValidationErrorAt(
          e.pos, absl::StrCat("expression '", e.name.ToString(), "' is not being grouped"));
    }
    return ExprPtr();
  }

  // TUMBLE_START(ts, INTERVAL ..) and friends: the legacy window's column, which must be grouped.
  absl::StatusOr<ExprPtr> BindWindowProperty(const sql::Expr& e, const char* column) {
    sql::Expr ref;
    ref.kind = sql::ExprKind::kIdentifier;
    ref.pos = e.pos;
    ref.name.parts = {column};
    auto bound = BindExpr(ref, input_);
    if (!bound.ok()) {
      return ValidationErrorAt(e.pos, absl::StrCat("'", e.name.ToString(),
                                                   "' needs a GROUP BY TUMBLE(...) or HOP(...) "
                                                   "window"));
    }
    if (std::optional<int> k = FindKey(**bound)) return MakeColumnRef(*k, KeyType(*k));
    return ValidationErrorAt(e.pos, absl::StrCat("'", e.name.ToString(),
                                                 "' is not supported yet; use the window's "
                                                 "start or end"));
  }

  absl::StatusOr<ExprPtr> BindAggregate(const sql::Expr& e) {
    const std::string name = absl::AsciiStrToUpper(e.name.parts[0]);
    for (const auto& a : e.args) {
      if (a && ContainsAggregate(*a)) {
        return ValidationErrorAt(a->pos, "aggregate function calls cannot be nested");
      }
    }
    ASSIGN_OR_RETURN(std::optional<BoundUserFunction> user, LookupUserFunction(e.name));
    if (user.has_value() && user->function->kind() == UserFunctionKind::kAggregate) {
      return BindUserAggregate(e, *user);
    }
    // FILTER (WHERE cond): the call aggregates CASE WHEN cond THEN arg END, which every aggregate
    // skips where it is NULL; COUNT(*) counts CASE WHEN cond THEN 1 END.
    ExprPtr filter;
    if (e.filter) {
      if (ContainsAggregate(*e.filter)) {
        return ValidationErrorAt(e.filter->pos,
                                 "aggregate functions are not allowed in a FILTER clause");
      }
      ExprScope filter_scope = input_;
      filter_scope.clause = "a FILTER clause";
      ASSIGN_OR_RETURN(filter, BindExpr(*e.filter, filter_scope));
      RETURN_IF_ERROR(RequireBoolean(*filter, e.filter->pos, "FILTER clause"));
    }
    const bool star_arg =
        e.args.size() == 1 && e.args[0] && e.args[0]->kind == sql::ExprKind::kStar;
    const bool star = star_arg && filter == nullptr;
    auto as_written = ParseAggKind(name, star_arg);
    if (!star_arg && (e.args.empty() || e.args.size() > MaxAggArguments(as_written))) {
      return ValidationErrorAt(e.pos, absl::StrCat("Invalid number of arguments to function '",
                                                   name, "': ", e.args.size()));
    }
    if (!as_written.ok()) return AsValidationError(e.pos, as_written.status());  // e.g. SUM(*)
    if (star_arg && e.distinct) {
      return ValidationErrorAt(e.pos, "COUNT(DISTINCT *) is not supported");
    }
    auto kind = ParseAggKind(name, star);
    if (!kind.ok()) return AsValidationError(e.pos, kind.status());
    LogicalAggCall call;
    call.kind = *kind;
    call.distinct = e.distinct;
    if (e.args.size() == 2) {
      ASSIGN_OR_RETURN(call.separator, BindListAggSeparator(*e.args[1]));
    }
    if (star) {
      if (e.distinct) return ValidationErrorAt(e.pos, "COUNT(DISTINCT *) is not supported");
      auto t = AggResultType(call.kind, DataType::BigInt());
      if (!t.ok()) return AsValidationError(e.pos, t.status());
      call.result_type = *t;
    } else {
      ExprScope arg_scope = input_;
      arg_scope.clause = "an aggregate argument";
      ExprPtr arg;
      if (star_arg) {
        arg = MakeLiteral(Value::Int(1), DataType::Int().WithNullable(false));
      } else {
        ASSIGN_OR_RETURN(arg, BindExpr(*e.args[0], arg_scope));
      }
      if (filter) {
        auto filtered = MakeCall("CASE", {filter, arg});
        if (!filtered.ok()) return AsValidationError(e.pos, filtered.status());
        arg = *std::move(filtered);
      }
      if (arg->type.id == TypeId::kNull) {
        return ValidationErrorAt(e.args[0]->pos,
                                 absl::StrCat("cannot apply '", name, "' to an untyped NULL"));
      }
      auto t = AggResultType(call.kind, arg->type);
      if (!t.ok()) return AsValidationError(e.pos, t.status());
      call.result_type = *t;
      call.arg_type = arg->type;
      call.arg = -1;
      for (size_t i = 0; i < pre_.size(); ++i) {
        if (ExprEquals(*pre_[i], *arg)) call.arg = static_cast<int>(i);
      }
      if (call.arg < 0) {
        call.arg = static_cast<int>(pre_.size());
        pre_names_.push_back(arg->kind == ExprKind::kColumn
                                 ? input_.schema->fields[arg->column].name
                                 : absl::StrCat("$f", pre_.size()));
        pre_.push_back(std::move(arg));
      }
    }
    for (size_t i = 0; i < calls_.size(); ++i) {
      const LogicalAggCall& c = calls_[i];
      if (c.kind == call.kind && c.arg == call.arg && c.distinct == call.distinct &&
          c.separator == call.separator) {
        return MakeColumnRef(num_keys_ + static_cast<int>(i), c.result_type);
      }
    }
    calls_.push_back(call);
    return MakeColumnRef(num_keys_ + static_cast<int>(calls_.size()) - 1, call.result_type);
  }

  // A user-defined aggregate: its arguments converted to the declared types, each an input column
  // of the aggregate (shared with equal keys and arguments of other calls).
  absl::StatusOr<ExprPtr> BindUserAggregate(const sql::Expr& e, const BoundUserFunction& user) {
    if (e.distinct || e.filter) {
      return ValidationErrorAt(e.pos, absl::StrCat(e.distinct ? "DISTINCT" : "FILTER",
                                                   " is not supported with the user-defined "
                                                   "aggregate function '",
                                                   user.name, "'"));
    }
    ExprScope arg_scope = input_;
    arg_scope.clause = "an aggregate argument";
    std::vector<ExprPtr> args;
    for (const auto& a : e.args) {
      if (a == nullptr || a->kind == sql::ExprKind::kStar) {
        return ValidationErrorAt(a ? a->pos : e.pos,
                                 absl::StrCat("'*' is not allowed as an argument of ", user.name));
      }
      ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(*a, arg_scope));
      args.push_back(std::move(bound));
    }
    auto coerced = CoerceUserFunctionArgs(user.name, *user.function, std::move(args));
    if (!coerced.ok()) return AsValidationError(e.pos, coerced.status());
    LogicalAggCall call;
    call.kind = AggKind::kUser;
    call.user_function = user.function;
    call.user_name = user.name;
    call.result_type = user.function->result_types()[0].WithNullable(true);
    for (ExprPtr& arg : *coerced) {
      int column = -1;
      for (size_t i = 0; i < pre_.size(); ++i) {
        if (ExprEquals(*pre_[i], *arg)) column = static_cast<int>(i);
      }
      if (column < 0) {
        column = static_cast<int>(pre_.size());
        pre_names_.push_back(arg->kind == ExprKind::kColumn
                                 ? input_.schema->fields[arg->column].name
                                 : absl::StrCat("$f", pre_.size()));
        pre_.push_back(arg);
      }
      call.user_args.push_back(column);
    }
    call.arg = call.user_args.empty() ? -1 : call.user_args[0];
    if (!call.user_args.empty()) call.arg_type = pre_[call.arg]->type;
    for (size_t i = 0; i < calls_.size(); ++i) {
      const LogicalAggCall& c = calls_[i];
      if (c.kind == AggKind::kUser && c.user_function == call.user_function &&
          c.user_args == call.user_args) {
        return MakeColumnRef(num_keys_ + static_cast<int>(i), c.result_type);
      }
    }
    calls_.push_back(call);
    return MakeColumnRef(num_keys_ + static_cast<int>(calls_.size()) - 1, call.result_type);
  }

  // GROUPING(k1, ...) / GROUPING_ID(k1, ...): the keys' bit vector, a column of the aggregate
  // (PlaceGroupingColumns puts it after the calls). Calcite's messages.
  absl::StatusOr<ExprPtr> BindGroupingCall(const sql::Expr& e) {
    const std::string name = absl::AsciiStrToUpper(e.name.parts[0]);
    if (e.distinct || e.filter) {
      return ValidationErrorAt(
          e.pos, absl::StrCat(e.distinct ? "DISTINCT" : "FILTER", " is not allowed in ", name));
    }
    if (e.args.empty()) {
      return ValidationErrorAt(
          e.pos, absl::StrCat("Invalid number of arguments to function '", name, "': 0"));
    }
    GroupingCall call;
    call.id = name == "GROUPING_ID";
    for (const sql::ExprPtr& a : e.args) {
      if (a == nullptr || a->kind == sql::ExprKind::kStar) {
        return ValidationErrorAt(
            a ? a->pos : e.pos,
            absl::StrCat("Argument to ", name, " operator must be a grouped expression"));
      }
      if (ContainsAggregate(*a) || ContainsGroupingCall(*a)) {
        return ValidationErrorAt(a->pos, "aggregate function calls cannot be nested");
      }
      ExprScope arg_scope = input_;
      arg_scope.clause = "an aggregate argument";
      ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(*a, arg_scope));
      std::optional<int> k = FindKey(*bound);
      if (!k) {
        return ValidationErrorAt(
            a->pos, absl::StrCat("Argument to ", name, " operator must be a grouped expression"));
      }
      call.args.push_back(*k);
    }
    grouping_calls_.push_back(std::move(call));
    return MakeColumnRef(kGroupingColumns + static_cast<int>(grouping_calls_.size()) - 1,
                         DataType::BigInt().WithNullable(false));
  }

  // Columns of GROUPING calls while the select list and HAVING are bound.
  static constexpr int kGroupingColumns = 1 << 24;

  const ExprScope& input_;
  std::vector<ExprPtr> pre_;  // keys, then aggregate arguments
  std::vector<std::string> pre_names_;
  int num_keys_ = 0;
  int num_hidden_keys_ = 0;  // the first keys
  std::vector<LogicalAggCall> calls_;
  std::vector<std::vector<int>> grouping_sets_;  // several, or none
  std::vector<bool> nulled_;                     // per key: some grouping set leaves it out
  std::vector<GroupingCall> grouping_calls_;
};

// `e`, over the output of `agg`'s aggregate, for a group of no rows: COUNT is 0, the other
// aggregates and the keys are NULL.
ExprPtr OverNoRows(const ExprPtr& e, AggregateScope& agg) {
  std::vector<ExprPtr> no_rows;
  for (int k = 0; k < agg.num_keys(); ++k) {
    no_rows.push_back(MakeLiteral(Value::Null(), agg.KeyType(k).WithNullable(true)));
  }
  for (const LogicalAggCall& call : agg.calls()) {
    switch (call.kind) {
      case AggKind::kCountStar:
      case AggKind::kCount:
        no_rows.push_back(MakeLiteral(Value::Int(0), call.result_type));
        break;
      case AggKind::kSum:
      case AggKind::kAvg:
      case AggKind::kMin:
      case AggKind::kMax:
      case AggKind::kFirstValue:
      case AggKind::kLastValue:
      case AggKind::kListAgg:
      case AggKind::kUser:
        no_rows.push_back(MakeLiteral(Value::Null(), call.result_type.WithNullable(true)));
        break;
    }
  }
  return SubstituteColumns(e, no_rows);
}

// Grouping sets of a window aggregate: each set must keep window_start and window_end (else the
// aggregate is a regular one), and a SESSION window has none (its sessions follow the group keys).
absl::Status CheckWindowGroupingSets(const LogicalNode& top, const sql::Query& q) {
  const LogicalNode* window = &top;
  if (window->kind == LogicalKind::kProject) window = &window->input();
  if (window->kind != LogicalKind::kWindowAggregate || window->grouping_sets.empty() ||
      window->window.kind != WindowSpec::Kind::kSession) {
    return absl::OkStatus();
  }
  return ValidationErrorAt(q.group_by.front()->pos,
                           "GROUPING SETS, ROLLUP and CUBE are not supported in a SESSION window "
                           "aggregation");
}

// The last `n` columns are not named by identifiers or `*` (ORDER BY's hidden sort columns).
void HideLast(size_t n, std::vector<ScopeColumn>* columns) {
  for (size_t i = columns->size() - n; i < columns->size(); ++i) (*columns)[i].hidden = true;
}

// SELECT DISTINCT: group by every column, no calls.
LogicalNodePtr Distinct(LogicalNodePtr in) {
  std::vector<int> keys;
  for (size_t i = 0; i < in->schema.size(); ++i) keys.push_back(static_cast<int>(i));
  std::vector<std::string> names = in->schema.Names();
  return MakeAggregate(std::move(in), std::move(keys), {}, std::move(names));
}

// SELECT without FROM: a one-row VALUES of the (constant) select list.
absl::StatusOr<BoundRelation> BindConstantSelect(const sql::Query& q) {
  if (q.where || !q.group_by.empty() || q.having) {
    return ValidationErrorAt(q.pos, "SELECT without FROM supports only a list of constants");
  }
  ExprScope scope;
  scope.clause = "a SELECT without FROM";
  Schema schema;
  std::vector<Value> row;
  for (size_t i = 0; i < q.select_list.size(); ++i) {
    const sql::SelectItem& item = q.select_list[i];
    if (item.expr == nullptr) return ValidationErrorAt(item.pos, "missing select expression");
    ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*item.expr, scope));
    if (!IsConstant(*e)) {
      return ValidationErrorAt(item.pos, "SELECT without FROM supports only constants");
    }
    if (e->type.id == TypeId::kNull) {
      return ValidationErrorAt(item.pos, "cannot infer the type of NULL; use CAST(NULL AS type)");
    }
    auto v = EvaluateConstant(*e);
    if (!v.ok()) return AsValidationError(item.pos, v.status());
    row.push_back(*std::move(v));
    schema.fields.push_back({item.alias.value_or(absl::StrCat("EXPR$", i)), e->type});
  }
  BoundRelation out;
  out.columns = UnqualifiedColumns(schema);
  out.node = MakeValues(std::move(schema), {std::move(row)});
  return out;
}

}  // namespace

absl::StatusOr<BoundRelation> Binder::BindSelect(const sql::Query& q,
                                                 const std::vector<const sql::Expr*>& hidden_items,
                                                 Decorrelation* decorrelation) {
  if (!hidden_items.empty() && q.distinct) {
    return ValidationErrorAt(hidden_items[0]->pos,
                             "ORDER BY expression not in the select list of a SELECT DISTINCT");
  }
  RETURN_IF_ERROR(RefuseQueryHints(q.hints));
  if (q.from == nullptr) {
    ASSIGN_OR_RETURN(BoundRelation r, BindConstantSelect(q));
    if (q.distinct) r.node = Distinct(r.node);
    return r;
  }
  ASSIGN_OR_RETURN(BoundRelation in, BindTableRef(*q.from));
  // Scalar subqueries become columns of `in` (a left join with each), which their uses read.
  using ScalarValues = std::map<const sql::Expr*, ExprPtr>;
  ASSIGN_OR_RETURN(const ScalarValues scalars, BindScalarSubqueries(q, &in));
  ExprScope input;
  input.columns = &in.columns;
  input.schema = &in.node->schema;
  if (!scalars.empty()) {
    input.hook = [&scalars](const sql::Expr& e) -> absl::StatusOr<ExprPtr> {
      auto it = scalars.find(&e);
      return it == scalars.end() ? ExprPtr() : it->second;
    };
  }
  LogicalNodePtr node = in.node;
  if (q.where && (HasWhereSubquery(*q.where) || decorrelation != nullptr)) {
    // Subquery predicates become semi/anti joins (same columns); the rest filters them. A
    // decorrelated subquery leaves out its correlated conjuncts (they become the join condition).
    std::vector<const sql::Expr*> conjuncts;
    SplitConjuncts(*q.where, &conjuncts);
    if (decorrelation != nullptr) {
      std::erase_if(conjuncts, [decorrelation](const sql::Expr* c) {
        return decorrelation->correlated_conjuncts.contains(c);
      });
    }
    ASSIGN_OR_RETURN(std::vector<const sql::Expr*> rest, BindWhereSubqueries(conjuncts, &in));
    node = in.node;
    input.schema = &in.node->schema;
    std::vector<ExprPtr> conditions;
    for (const sql::Expr* c : rest) {
      ExprScope where = input;
      where.clause = "WHERE clause";
      ASSIGN_OR_RETURN(ExprPtr cond, BindExpr(*c, where));
      RETURN_IF_ERROR(RequireBoolean(*cond, c->pos, "WHERE clause"));
      conditions.push_back(std::move(cond));
    }
    ASSIGN_OR_RETURN(ExprPtr all, MakeConjunction(conditions));
    if (all) node = MakeFilter(node, std::move(all));
  } else if (q.where) {
    ExprScope where = input;
    where.clause = "WHERE clause";
    ASSIGN_OR_RETURN(ExprPtr cond, BindExpr(*q.where, where));
    RETURN_IF_ERROR(RequireBoolean(*cond, q.where->pos, "WHERE clause"));
    node = MakeFilter(node, std::move(cond));
  }
  // GROUP BY TUMBLE(ts, size): window the filtered rows; the call groups by the window's columns.
  const std::optional<LegacyWindow> legacy = FindLegacyWindow(q);
  if (legacy) {
    in.node = node;
    ASSIGN_OR_RETURN(in, BindLegacyWindow(*legacy, q, std::move(in)));
    node = in.node;
    input.columns = &in.columns;
    input.schema = &in.node->schema;
  }
  ASSIGN_OR_RETURN(std::vector<SelectColumn> items, ExpandSelectList(q, in));
  for (size_t i = 0; i < hidden_items.size(); ++i) {
    items.push_back({hidden_items[i], -1, absl::StrCat("$sort", i), hidden_items[i]->pos});
  }
  // Identifiers take the declared spelling of the column they name.
  for (auto& item : items) {
    if (item.expr && item.expr->kind == sql::ExprKind::kIdentifier && !q.select_list.empty()) {
      bool aliased = false;
      for (const auto& s : q.select_list)
        aliased = aliased || (s.expr.get() == item.expr && s.alias);
      if (aliased) continue;
      auto c = ResolveColumn(*item.expr, input);
      if (c.ok()) item.name = in.node->schema.fields[*c].name;
    }
  }
  bool aggregating = !q.group_by.empty() || q.having != nullptr;
  for (const auto& item : items)
    aggregating = aggregating || (item.expr && ContainsAggregate(*item.expr));

  std::vector<std::string> names;
  for (const auto& item : items) names.push_back(item.name);
  names = UniquifyNames(std::move(names));

  // A decorrelated subquery's correlation keys, which lead its output.
  std::vector<ExprPtr> keys;
  std::vector<std::string> key_names;
  if (decorrelation != nullptr) {
    ExprScope key_scope = input;
    key_scope.clause = "WHERE clause";
    for (const sql::Expr* k : decorrelation->keys) {
      ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*k, key_scope));
      key_names.push_back(e->kind == ExprKind::kColumn ? input.schema->fields[e->column].name
                                                       : absl::StrCat("$f", key_names.size()));
      keys.push_back(std::move(e));
    }
  }
  auto keys_then = [&key_names](const std::vector<std::string>& item_names) {
    std::vector<std::string> all = key_names;
    all.insert(all.end(), item_names.begin(), item_names.end());
    return UniquifyNames(std::move(all));
  };

  std::vector<const sql::Expr*> item_exprs;
  for (const auto& item : items) item_exprs.push_back(item.expr);
  if (aggregating) {
    for (const sql::Expr* e : item_exprs) {
      if (const sql::Expr* over = e ? FindOverCall(*e) : nullptr) {
        return ValidationErrorAt(over->pos,
                                 "OVER windows in an aggregating SELECT are not supported yet; "
                                 "aggregate in a subquery first");
      }
    }
  }

  if (!aggregating) {
    ExprScope select = input;
    select.clause = "this context without GROUP BY";
    // Window functions: the rows are ranked or aggregated over the window first, and each call
    // reads its column.
    ASSIGN_OR_RETURN(std::optional<BoundOver> over,
                     BindOver(item_exprs, names, q.windows, node, input));
    if (over) {
      node = over->node;
      select.hook = [&over, outer = input.hook](const sql::Expr& e) -> absl::StatusOr<ExprPtr> {
        if (auto it = over->columns.find(&e); it != over->columns.end()) {
          return MakeColumnRef(it->second, over->node->schema.fields[it->second].type);
        }
        return outer ? outer(e) : ExprPtr();
      };
    }
    std::vector<ExprPtr> exprs = keys;
    for (const auto& item : items) {
      if (item.expr == nullptr) {
        exprs.push_back(MakeColumnRef(item.column, in.node->schema.fields[item.column].type));
        continue;
      }
      ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*item.expr, select));
      exprs.push_back(std::move(e));
    }
    BoundRelation out;
    out.node = MakeProject(node, std::move(exprs), keys_then(names));
    if (q.distinct) out.node = Distinct(out.node);
    out.columns = UnqualifiedColumns(out.node->schema);
    HideLast(hidden_items.size(), &out.columns);
    return out;
  }

  AggregateScope agg(input);
  for (size_t i = 0; i < keys.size(); ++i) agg.AddHiddenKey(keys[i], key_names[i]);
  for (const auto& g : q.group_by) {
    if (g == nullptr) return ValidationErrorAt(q.pos, "missing GROUP BY expression");
  }
  // The GROUP BY keys and their grouping sets; a legacy window call groups by its window's start
  // and end, and by its window_time where TUMBLE_ROWTIME (HOP_, SESSION_, _PROCTIME) reads it (a
  // time attribute of the result, as in Flink).
  const auto reads_window_time = [](const sql::Expr& x) {
    const char* column = LegacyWindowProperty(x);
    return column != nullptr && std::string(column) == kLegacyWindowTime;
  };
  bool legacy_time = false;
  for (const auto& item : items) {
    legacy_time = legacy_time ||
                  (item.expr != nullptr && ContainsSubexpression(*item.expr, reads_window_time));
  }
  legacy_time = legacy_time || (q.having && ContainsSubexpression(*q.having, reads_window_time));
  GroupKeyBinder add_key = [&](const sql::Expr& g) -> absl::StatusOr<std::vector<int>> {
    if (legacy && &g == q.group_by[legacy->group_by_index].get()) {
      std::vector<int> window_keys;
      std::vector<const char*> columns = {kLegacyWindowStart, kLegacyWindowEnd};
      if (legacy_time) columns.push_back(kLegacyWindowTime);
      for (const char* column : columns) {
        sql::Expr ref;
        ref.kind = sql::ExprKind::kIdentifier;
        ref.pos = g.pos;
        ref.name.parts = {column};
        ASSIGN_OR_RETURN(int key, agg.AddGroupKey(ref));
        window_keys.push_back(key);
      }
      return window_keys;
    }
    ASSIGN_OR_RETURN(int key, agg.AddGroupKey(g));
    return std::vector<int>{key};
  };
  ASSIGN_OR_RETURN(std::vector<std::vector<int>> grouping_sets,
                   BindGroupingSets(q.group_by, add_key));
  if (grouping_sets.size() > 1) agg.SetGroupingSets(std::move(grouping_sets));
  ExprScope out_scope = agg.OutputScope("the select list");
  std::vector<ExprPtr> select_exprs;
  for (const auto& item : items) {
    if (item.expr == nullptr) {
      ExprPtr ref = MakeColumnRef(item.column, in.node->schema.fields[item.column].type);
      std::optional<int> k = agg.FindKey(*ref);
      if (!k) {
        return ValidationErrorAt(item.pos,
                                 absl::StrCat("expression '", item.name, "' is not being grouped"));
      }
      select_exprs.push_back(MakeColumnRef(*k, agg.KeyType(*k)));
      continue;
    }
    ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*item.expr, out_scope));
    select_exprs.push_back(std::move(e));
  }
  ExprPtr having;
  if (q.having) {
    ExprScope having_scope = agg.OutputScope("HAVING clause");
    ASSIGN_OR_RETURN(having, BindExpr(*q.having, having_scope));
    RETURN_IF_ERROR(RequireBoolean(*having, q.having->pos, "HAVING clause"));
    having = agg.PlaceGroupingColumns(having);
  }
  for (ExprPtr& e : select_exprs) e = agg.PlaceGroupingColumns(e);

  // Names of the aggregate's output: keys by their input name, a call (or a GROUPING call) by the
  // select alias when the item is exactly that call (so EXPLAIN reads COUNT(*) AS cnt).
  const int k = agg.num_keys();
  const size_t num_calls = agg.calls().size() + agg.grouping_calls().size();
  std::vector<std::string> agg_names;
  for (int i = 0; i < k; ++i) agg_names.push_back(agg.pre_names()[i]);
  for (size_t c = 0; c < num_calls; ++c) {
    std::string name = absl::StrCat("$f", k + c);
    for (size_t i = 0; i < items.size(); ++i) {
      if (IsColumnRef(*select_exprs[i], k + static_cast<int>(c)) && items[i].expr &&
          (IsAggregateCall(*items[i].expr) || IsGroupingCall(*items[i].expr))) {
        name = names[i];
        break;
      }
    }
    agg_names.push_back(std::move(name));
  }
  agg_names = UniquifyNames(std::move(agg_names));
  const std::vector<std::string> grouping_names(agg_names.end() - agg.grouping_calls().size(),
                                                agg_names.end());
  agg_names.resize(agg_names.size() - grouping_names.size());
  std::vector<int> group_keys;
  for (int i = 0; i < k; ++i) group_keys.push_back(i);
  LogicalNodePtr pre = MakeProject(node, agg.pre(), UniquifyNames(agg.pre_names()));
  LogicalNodePtr aggregate =
      MakeAggregate(pre, std::move(group_keys), agg.calls(), std::move(agg_names));
  if (!agg.grouping_sets().empty() || !agg.grouping_calls().empty()) {
    SetGroupingSets(aggregate.get(), agg.grouping_sets(), agg.grouping_calls(), grouping_names);
  }
  LogicalNodePtr top = RewriteWindowAggregate(aggregate);
  RETURN_IF_ERROR(CheckWindowGroupingSets(*top, q));
  if (having) top = MakeFilter(top, std::move(having));
  if (decorrelation != nullptr && !select_exprs.empty()) {
    decorrelation->value_over_no_rows = OverNoRows(select_exprs.front(), agg);
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    select_exprs.insert(select_exprs.begin() + i,
                        MakeColumnRef(static_cast<int>(i), agg.KeyType(static_cast<int>(i))));
  }
  BoundRelation out;
  out.node = MakeProject(top, std::move(select_exprs), keys_then(names));
  if (q.distinct) out.node = Distinct(out.node);
  out.columns = UnqualifiedColumns(out.node->schema);
  HideLast(hidden_items.size(), &out.columns);
  return out;
}

}  // namespace eddy::planner
