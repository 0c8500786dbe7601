// The binder: resolves names against the catalog and the FROM scope, types expressions through the
// function registry and builds the logical plan (logical_plan.h) of queries and INSERTs. Internal
// to the planner; planner.h is the public entry point.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/expr/expr.h"
#include "common/sql/ast.h"
#include "coordinator/catalog/catalog.h"
#include "coordinator/planner/logical_plan.h"
#include "coordinator/planner/planner.h"
#include "coordinator/planner/user_functions.h"

namespace eddy::planner {

// One visible column of a FROM scope: `qualifier.name` (qualifier = table alias or name; empty
// for unqualifiable columns such as a query's output).
struct ScopeColumn {
  std::string qualifier;
  std::string name;
  bool hidden = false;  // a scalar subquery's value: not named by identifiers or `*`
};

// The columns of `s` by name alone, as a query's output is seen by its consumer (binder_query.cc).
std::vector<ScopeColumn> UnqualifiedColumns(const Schema& s);

// A bound relation: its logical node plus how its columns are named in the enclosing scope
// (columns[i] is node->schema.fields[i]).
struct BoundRelation {
  LogicalNodePtr node;
  std::vector<ScopeColumn> columns;
};

// How to bind an expression: the scope it reads and, for aggregate contexts, a hook that may bind a
// sub-expression itself (returns nullptr to let the generic binder continue into its children).
struct ExprScope {
  const std::vector<ScopeColumn>* columns = nullptr;  // nullptr: no columns (VALUES)
  const Schema* schema = nullptr;
  std::string clause;  // e.g. "WHERE clause": aggregates found here are an error naming it
  std::function<absl::StatusOr<ExprPtr>(const sql::Expr&)> hook;
  // A correlated subquery's scope (CorrelatedScope): the first `outer_columns` columns are the
  // enclosing query's, which an identifier names only when the other columns (the subquery's own)
  // have no match for it, as SQL scopes nested queries.
  int outer_columns = 0;
};

// plan_query.cc: a LIMIT on the outermost query needs an append-only result (`limited` is the
// query's root after changelog-mode inference). Shared by SELECT and EXPLAIN.
absl::Status CheckOutermostLimit(const sql::Query& query, const LogicalNode& limited);
// Whether the outermost query's LIMIT is the client's (no ORDER BY, no OFFSET).
bool ClientAppliesLimit(const sql::Query& query);

// binder_expr.cc
absl::StatusOr<ExprPtr> BindExpr(const sql::Expr& e, const ExprScope& scope);
// The column an identifier names in `scope`, or a validation error (not found / ambiguous).
absl::StatusOr<int> ResolveColumn(const sql::Expr& identifier, const ExprScope& scope);
bool IsAggregateCall(const sql::Expr& e);
bool ContainsAggregate(const sql::Expr& e);
// Whether `e` or an expression inside it satisfies `pred`.
bool ContainsSubexpression(const sql::Expr& e, const std::function<bool(const sql::Expr&)>& pred);
// GROUPING(...) or GROUPING_ID(...), which only an aggregating select list or HAVING binds.
bool IsGroupingCall(const sql::Expr& e);
bool ContainsGroupingCall(const sql::Expr& e);
// binder_literal.cc
absl::StatusOr<ExprPtr> BindLiteral(const sql::Expr& e, bool negate = false);
// binder_aggregate_args.cc: how many arguments a call of `kind` takes at most (2 for LISTAGG(x,
// separator), else 1; 1 for a name that did not parse), and LISTAGG's separator, a string literal
// (a validation error at its position otherwise).
size_t MaxAggArguments(const absl::StatusOr<AggKind>& kind);
absl::StatusOr<std::string> BindListAggSeparator(const sql::Expr& e);
// binder_interval.cc: INTERVAL literals, as milliseconds of type INTERVAL SECOND(3).
absl::StatusOr<ExprPtr> BindIntervalLiteral(const sql::Expr& e, bool negate = false);

// bind_table_columns.cc: a table's computed columns and watermark expression, and the FROM-item
// plan of a table (scan, computed columns, WatermarkAssigner).
absl::StatusOr<ExprPtr> BindComputedColumn(const CatalogTable& table, const sql::Expr& e);
absl::StatusOr<ExprPtr> BindWatermarkExpr(const CatalogTable& table, const sql::Expr& e);
absl::StatusOr<LogicalNodePtr> BindTableColumns(std::shared_ptr<const CatalogTable> table);

// binder_window.cc. The legacy GROUP BY TUMBLE(ts, size) / HOP(ts, slide, size): the FROM relation
// gets a window TVF whose columns carry these names, TUMBLE_START/_END/_ROWTIME read them.
inline constexpr char kLegacyWindowStart[] = "w$start";
inline constexpr char kLegacyWindowEnd[] = "w$end";
inline constexpr char kLegacyWindowTime[] = "w$rowtime";
struct LegacyWindow {
  size_t group_by_index = 0;
  std::string function;  // TUMBLE, HOP or SESSION (upper-case)
};
std::optional<LegacyWindow> FindLegacyWindow(const sql::Query& q);
absl::StatusOr<BoundRelation> BindLegacyWindow(const LegacyWindow& legacy, const sql::Query& q,
                                               BoundRelation in);
// The window column TUMBLE_START(...)/TUMBLE_END/..._ROWTIME (and HOP_*) stands for, or null.
const char* LegacyWindowProperty(const sql::Expr& e);
// An Aggregate grouped by window_start and window_end over a window TVF becomes a
// WindowAggregate (plus a projection back to the aggregate's column order); others stay.
LogicalNodePtr RewriteWindowAggregate(const LogicalNodePtr& aggregate);

// binder_over.cc: window functions in a select list (ROW_NUMBER() or aggregates OVER (...)). The
// OVER call in `e` (or in one of its sub-expressions), or null.
const sql::Expr* FindOverCall(const sql::Expr& e);
// The select list's OVER calls bound: `node` ranked (a Rank node, appending the row number) or
// aggregated over a window (an OverAggregate node, appending one column per distinct call), and
// the column each call reads.
struct BoundOver {
  LogicalNodePtr node;
  std::map<const sql::Expr*, int> columns;
};
using NamedWindows = std::vector<std::pair<std::string, std::unique_ptr<sql::OverClause>>>;
// `items`: the select list's expressions (null for `*` columns); `names` its output names, one per
// item; `windows` the query's WINDOW clause; `input` the scope over `node`. Nullopt when no item
// has an OVER call.
absl::StatusOr<std::optional<BoundOver>> BindOver(const std::vector<const sql::Expr*>& items,
                                                  const std::vector<std::string>& names,
                                                  const NamedWindows& windows,
                                                  const LogicalNodePtr& node,
                                                  const ExprScope& input);

// binder_grouping_sets.cc: the grouping sets of GROUP BY clause `group_by`, each the positions of
// the group keys it groups by (ascending), in Calcite's order (a set before the sets it contains,
// otherwise lexicographically); one set of every key for a plain GROUP BY, the empty set for none.
// `add_key` binds an expression of the clause as a group key and returns the positions it stands
// for (one; the same for a repeated expression; two for a legacy window call). Duplicate sets,
// more than 4096 sets and more than 63 keys among several sets are errors naming the clause.
using GroupKeyBinder = std::function<absl::StatusOr<std::vector<int>>(const sql::Expr&)>;
absl::StatusOr<std::vector<std::vector<int>>> BindGroupingSets(
    const std::vector<sql::ExprPtr>& group_by, const GroupKeyBinder& add_key);

// binder_subquery.cc: whether some conjunct of `where` is a subquery predicate.
bool HasWhereSubquery(const sql::Expr& where);
// The operands of nested ANDs of `e` (`e` itself when it is no AND), left to right.
void SplitConjuncts(const sql::Expr& e, std::vector<const sql::Expr*>* out);
// Whether `e` holds a scalar, IN or EXISTS subquery.
bool ContainsSubquery(const sql::Expr& e);

// binder_correlation.cc: the scope of a correlated subquery's clauses, the outer relation's
// columns followed by those of the subquery's FROM relation (ExprScope::outer_columns): a bound
// expression reads a row of their join, and an identifier names an outer column only when the
// subquery's own columns do not have it.
class CorrelatedScope {
 public:
  CorrelatedScope(const BoundRelation& outer, const BoundRelation& inner, std::string clause);
  CorrelatedScope(const CorrelatedScope&) = delete;
  CorrelatedScope& operator=(const CorrelatedScope&) = delete;

  const ExprScope& scope() const { return scope_; }
  int outer_width() const { return scope_.outer_columns; }
  // Whether `e`, bound in this scope, reads an outer column.
  bool ReadsOuter(const Expr& e) const;
  // `e`, bound in this scope and reading no outer column, over the subquery's columns alone.
  ExprPtr InnerOnly(const ExprPtr& e) const;
  // The first identifier of `e` (not looking into nested subqueries) that names an outer column,
  // or null.
  const sql::Expr* FindOuterReference(const sql::Expr& e) const;
  // The error naming the first identifier of `e` (not in nested subqueries) that names no column
  // of either scope; OK when there is none.
  absl::Status Resolves(const sql::Expr& e) const;
  // An error when the WHERE clause or select list of `q` (this scope's subquery; not looking into
  // nested subqueries) names a table of neither scope but of a query further out (`enclosing`
  // holds their qualifiers): a correlation across more than one level, which is not supported.
  absl::Status CheckNoReferenceBeyondOuter(const sql::Query& q,
                                           const std::vector<std::string>& enclosing) const;

 private:
  std::vector<ScopeColumn> columns_;
  Schema schema_;
  ExprScope scope_;
};

// How BindSelect binds a correlated scalar subquery's SELECT in its decorrelated form
// (binder_correlated_scalar.cc): without the WHERE conjuncts that read the outer query (they
// become the join condition), and with `keys` (the subquery's sides of those equalities, over its
// FROM relation) as the leading output columns: the leading group keys of an aggregating select
// list, which does not see them, or the leading projections of a plain one.
struct Decorrelation {
  std::set<const sql::Expr*> correlated_conjuncts;
  std::vector<const sql::Expr*> keys;
  // Set by BindSelect for an aggregating select list: its first item over no rows (COUNT gives 0,
  // the other aggregates NULL), a constant expression.
  ExprPtr value_over_no_rows;
};

// Types that convert implicitly when a query result is written into a sink column (Flink's
// supportsImplicitCast): wider numeric, any string to string, DATE to TIMESTAMP, NULL to anything.
bool IsImplicitlyCastable(const DataType& from, const DataType& to);

class Binder {
 public:
  Binder(const SessionCatalog& catalog, const ConfigMap& config, int view_depth = 0)
      : catalog_(catalog), config_(config), view_depth_(view_depth) {}

  absl::StatusOr<BoundRelation> BindQuery(const sql::Query& q);  // binder_query.cc
  // The same for the outermost query of a SELECT (run or explained), whose LIMIT is allowed: the
  // client applies it (PlanQuery). Every other check, ORDER BY included, is BindQuery's.
  absl::StatusOr<BoundRelation> BindOutermostQuery(const sql::Query& q);
  // Returns the Sink node of the INSERT (binder_insert.cc).
  absl::StatusOr<LogicalNodePtr> BindInsert(const sql::Insert& insert);

 private:
  // The query without its ORDER BY / LIMIT / OFFSET.
  absl::StatusOr<BoundRelation> BindQueryBody(const sql::Query& q);
  // binder_order_limit.cc: ORDER BY ... LIMIT n [OFFSET m] becomes a Top-N of the whole result
  // (Flink's SortLimit), LIMIT alone the first n rows (Flink's Limit); with `client_limit` (the
  // outermost query of a SELECT) a plain LIMIT is left to the client, which stops the job.
  absl::StatusOr<BoundRelation> BindOrderAndLimit(const sql::Query& q, BoundRelation body,
                                                  bool client_limit);
  // binder_select.cc. `hidden_items`: expressions appended to the select list as hidden columns
  // (ORDER BY expressions over the FROM clause that the select list does not show).
  // `decorrelation`: bind a correlated scalar subquery's SELECT decorrelated (see Decorrelation).
  absl::StatusOr<BoundRelation> BindSelect(const sql::Query& q,
                                           const std::vector<const sql::Expr*>& hidden_items = {},
                                           Decorrelation* decorrelation = nullptr);
  absl::StatusOr<BoundRelation> BindValues(const sql::Query& q);
  absl::StatusOr<BoundRelation> BindUnion(const sql::Query& q);
  // The inputs of a UNION ALL or another set operation (`op` names it in errors), each cast to
  // the column types common to all, and the column names (the first input's).
  struct SetInputs {
    std::vector<LogicalNodePtr> nodes;
    std::vector<DataType> types;
    std::vector<std::string> names;
  };
  absl::StatusOr<SetInputs> BindSetInputs(const sql::Query& q, const std::string& op);
  static LogicalNodePtr MakeUnionOf(SetInputs in);
  // binder_set_operation.cc: UNION, INTERSECT [ALL] and EXCEPT [ALL].
  absl::StatusOr<BoundRelation> BindSetOperation(const sql::Query& q);
  absl::StatusOr<BoundRelation> BindTableRef(const sql::TableRef& ref);  // binder_from.cc
  // `versioned`: the right side of a temporal join, which may say FOR SYSTEM_TIME AS OF.
  absl::StatusOr<BoundRelation> BindNamedTable(const sql::TableRef& ref, bool versioned = false);
  absl::StatusOr<BoundRelation> BindJoin(const sql::TableRef& ref);
  // binder_lateral.cc: `join`'s right side is LATERAL TABLE(f(...)) over `left` (a Correlate).
  absl::StatusOr<BoundRelation> BindLateralTable(const sql::TableRef& join, BoundRelation left,
                                                 JoinType type);
  // Checks a temporal join's versioned table and period and marks `join` as temporal.
  absl::Status BindTemporal(const sql::TableRef& versioned, const BoundRelation& left,
                            const BoundRelation& right, LogicalNode* join);
  // binder_subquery.cc: turns `*in` into semi/anti joins for the WHERE conjuncts that are
  // [NOT] IN (subquery) or [NOT] EXISTS, and returns the other conjuncts.
  absl::StatusOr<std::vector<const sql::Expr*>> BindWhereSubqueries(
      const std::vector<const sql::Expr*>& conjuncts, BoundRelation* in);
  // The right side of a subquery predicate's join: the subquery's relation, the correlated
  // condition over outer ++ subquery columns (null: none) and, for IN, the value compared with the
  // operand (over the subquery's columns).
  struct SubqueryJoin {
    LogicalNodePtr right;
    ExprPtr condition;
    ExprPtr value;
  };
  // binder_scalar_subquery.cc: left-joins `*in` with every scalar subquery of the WHERE clause
  // and select list (hidden columns) and returns the value of each, an expression over `*in`.
  absl::StatusOr<std::map<const sql::Expr*, ExprPtr>> BindScalarSubqueries(const sql::Query& q,
                                                                           BoundRelation* in);
  // The right side of a scalar subquery's left join: the subquery's relation, whose last column is
  // the value and whose others are correlation keys; the condition over outer ++ subquery columns
  // (null: none, an uncorrelated subquery); and, when it is not NULL, the value of an outer row
  // that no subquery row matches (a correlated COUNT gives 0), a constant.
  struct ScalarJoin {
    LogicalNodePtr right;
    ExprPtr condition;
    ExprPtr value_over_no_rows;
  };
  // binder_correlated_scalar.cc: a scalar subquery `e` that reads the columns of `outer`,
  // decorrelated: its aggregate grouped by the subquery's sides of its correlated equalities,
  // joined on them. `uncorrelated_error` (why `e` does not bind on its own) is returned when `e`
  // does not read `outer` either.
  absl::StatusOr<ScalarJoin> BindCorrelatedScalar(const sql::Expr& e, const BoundRelation& outer,
                                                  const absl::Status& uncorrelated_error);
  absl::StatusOr<SubqueryJoin> BindSubqueryJoin(const sql::Query& q, const sql::Expr* in_operand,
                                                const BoundRelation& outer,
                                                const sql::SourcePos& pos);
  absl::StatusOr<BoundRelation> BindWindowTableFunction(const sql::TableRef& ref);
  // ML_PREDICT(TABLE t, MODEL m, DESCRIPTOR(cols)): checked, then refused naming the model's
  // provider (Eddy ships none; binder_model.cc).
  absl::StatusOr<BoundRelation> BindModelPrediction(const sql::TableRef& ref);
  // A table reference's /*+ OPTIONS(...) */ hints (binder_hints.cc): the table with those options
  // merged in and validated as CREATE TABLE validates them; `table` itself without hints.
  absl::StatusOr<std::shared_ptr<const CatalogTable>> ApplyTableHints(
      std::shared_ptr<const CatalogTable> table, const std::vector<sql::HintDef>& hints);
  // SELECT /*+ ... */: Flink's query hints, none of which Eddy's planner takes; an error naming
  // the first.
  static absl::Status RefuseQueryHints(const std::vector<sql::HintDef>& hints);
  absl::StatusOr<BoundRelation> BindView(const CatalogView& view, const sql::SourcePos& pos);

  // A binder for a subquery of this binder's query whose enclosing relation is `outer`.
  Binder SubqueryBinder(const BoundRelation& outer) const;

  const SessionCatalog& catalog_;
  const ConfigMap& config_;
  int view_depth_;
  UserFunctionScope user_functions_{&catalog_};  // calls in expressions see its functions
  // The table qualifiers of every query enclosing this binder's (for the error on a correlation
  // across more than one level).
  std::vector<std::string> enclosing_qualifiers_;
};

// Renames duplicates the way Calcite does (word, word0, word1, ...), so a subquery's columns stay
// addressable.
std::vector<std::string> UniquifyNames(std::vector<std::string> names);

}  // namespace eddy::planner
