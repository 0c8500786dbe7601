// Binding of a ranking window function in a select list: ROW_NUMBER() OVER (PARTITION BY ..
// ORDER BY ..). The block's rows go through a Rank node that appends the row number, which the call
// then reads. Only a filter bounding the row number by constants makes it runnable (a Top-N: see
// PushDownFilters); RANK, DENSE_RANK and OVER aggregations are refused here, with their position.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/expr_util.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

absl::Status CheckRankingCall(const sql::Expr& call) {
  const std::string name =
      call.name.parts.empty() ? "" : absl::AsciiStrToUpper(call.name.parts.back());
  if (name == "ROW_NUMBER") {
    if (!call.args.empty()) {
      return ValidationErrorAt(call.pos, "ROW_NUMBER() takes no arguments");
    }
    if (call.over->order_by.empty()) {
      return ValidationErrorAt(call.over->pos, "ROW_NUMBER() OVER needs an ORDER BY");
    }
    return absl::OkStatus();
  }
  if (name == "RANK" || name == "DENSE_RANK") {
    return ValidationErrorAt(call.pos,
                             absl::StrCat(name,
                                          "() OVER is not supported yet: a streaming Top-N ranks "
                                          "with ROW_NUMBER()"));
  }
  sql::Expr plain;
  plain.kind = sql::ExprKind::kFunction;
  plain.name = call.name;
  if (IsAggregateCall(plain)) {
    return ValidationErrorAt(call.pos, absl::StrCat("OVER aggregations (", name,
                                                    "(...) OVER ...) are not supported yet"));
  }
  return ValidationErrorAt(call.pos, absl::StrCat("'", name, "' is not a window function"));
}

// Binds `e` over `input`; a column reference gives its column, another expression is appended to
// `*extra` (computed before the rank) and gives the column it will have.
absl::StatusOr<int> KeyColumn(const sql::Expr& e, const ExprScope& input, int input_columns,
                              std::vector<ExprPtr>* extra, std::vector<std::string>* extra_names) {
  ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(e, input));
  if (bound->kind == ExprKind::kColumn) return bound->column;
  for (size_t i = 0; i < extra->size(); ++i) {
    if (ExprEquals(*(*extra)[i], *bound)) return input_columns + static_cast<int>(i);
  }
  extra_names->push_back(absl::StrCat("$", input_columns + extra->size()));
  extra->push_back(std::move(bound));
  return input_columns + static_cast<int>(extra->size()) - 1;
}

void CollectOverCalls(const sql::Expr& e, std::vector<const sql::Expr*>* out) {
  if (e.kind == sql::ExprKind::kFunction && e.over) out->push_back(&e);
  for (const auto& a : e.args) {
    if (a) CollectOverCalls(*a, out);
  }
  if (e.case_operand) CollectOverCalls(*e.case_operand, out);
  for (const auto& [w, t] : e.case_when_then) {
    if (w) CollectOverCalls(*w, out);
    if (t) CollectOverCalls(*t, out);
  }
  if (e.case_else) CollectOverCalls(*e.case_else, out);
}

}  // namespace

const sql::Expr* FindOverCall(const sql::Expr& e) {
  std::vector<const sql::Expr*> calls;
  CollectOverCalls(e, &calls);
  return calls.empty() ? nullptr : calls.front();
}

absl::StatusOr<std::optional<BoundOver>> BindOver(const std::vector<const sql::Expr*>& items,
                                                  const std::vector<std::string>& names,
                                                  const LogicalNodePtr& node,
                                                  const ExprScope& input) {
  std::vector<const sql::Expr*> calls;
  std::string row_number_name = "w0$o0";
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i] == nullptr) continue;
    const size_t before = calls.size();
    CollectOverCalls(*items[i], &calls);
    if (calls.size() == before + 1 && calls.back() == items[i] && i < names.size()) {
      row_number_name = names[i];
    }
  }
  if (calls.empty()) return std::nullopt;
  for (const sql::Expr* call : calls) RETURN_IF_ERROR(CheckRankingCall(*call));
  if (calls.size() > 1) {
    return ValidationErrorAt(calls[1]->pos,
                             "only one ROW_NUMBER() OVER per SELECT is supported; rank in a "
                             "subquery first");
  }
  const sql::Expr& call = *calls[0];
  const int n = static_cast<int>(node->schema.size());
  ExprScope scope = input;
  scope.clause = "an OVER clause";
  std::vector<ExprPtr> extra;
  std::vector<std::string> extra_names;
  RankSpec rank;
  for (const auto& p : call.over->partition_by) {
    ASSIGN_OR_RETURN(int column, KeyColumn(*p, scope, n, &extra, &extra_names));
    rank.partition_keys.push_back(column);
  }
  for (const sql::OrderItem& item : call.over->order_by) {
    ASSIGN_OR_RETURN(int column, KeyColumn(*item.expr, scope, n, &extra, &extra_names));
    SortKey key;
    key.column = column;
    key.descending = item.descending;
    // NULL sorts as the lowest value unless the item says otherwise (Flink).
    key.nulls_first = item.nulls_first.value_or(!item.descending);
    rank.order_keys.push_back(key);
  }
  LogicalNodePtr ranked = node;
  if (!extra.empty()) {
    std::vector<ExprPtr> projections;
    std::vector<std::string> projection_names = node->schema.Names();
    for (int c = 0; c < n; ++c) {
      projections.push_back(MakeColumnRef(c, node->schema.fields[c].type));
    }
    for (auto& e : extra) projections.push_back(std::move(e));
    projection_names.insert(projection_names.end(), extra_names.begin(), extra_names.end());
    ranked = MakeProject(ranked, std::move(projections), std::move(projection_names));
  }
  BoundOver out;
  out.call = &call;
  out.node = MakeRank(std::move(ranked), std::move(rank), row_number_name);
  out.column = static_cast<int>(out.node->schema.size()) - 1;
  return out;
}

}  // namespace eddy::planner
