// ORDER BY and LIMIT of a query in streaming mode, as Flink plans them: ORDER BY ... LIMIT n
// [OFFSET m] is a Top-N of the whole result without a row number (a Rank of origin kSortLimit,
// ranks m+1..m+n, one subtask); LIMIT n [OFFSET m] alone keeps the first rows in arrival order (a
// Rank of origin kLimit, no sort key). ORDER BY items are output columns by name, by ordinal
// (`ORDER BY 2`), expressions over them, or (in a SELECT block) expressions over its FROM clause,
// carried as hidden select items up to the sort and dropped after it. ORDER BY without LIMIT is
// refused with Flink's message unless its first key is an ascending time attribute (Flink's
// temporal sort). In batch mode ORDER BY may sort on any columns, with or without LIMIT (Flink's
// batch Sort and SortLimit): a Rank of origin kSort, or kSortLimit, that the physical planner makes
// a Sort.
#include <cstdlib>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {

absl::StatusOr<BoundRelation> Binder::BindOrderAndLimit(const sql::Query& q, BoundRelation body,
                                                        bool client_limit) {
  const bool limited = q.limit.has_value();
  if (q.order_by.empty() && (!limited || (client_limit && !q.offset))) return body;
  const int width = static_cast<int>(body.node->schema.size());  // the result's columns
  // Each item: an ordinal, an expression over the result's columns, or (in a SELECT block) one over
  // its FROM clause that the select list does not show: those become hidden select items.
  std::vector<std::optional<ExprPtr>> over_result(q.order_by.size());
  std::vector<const sql::Expr*> hidden;
  std::vector<int> hidden_index(q.order_by.size(), -1);
  ExprScope scope;
  scope.columns = &body.columns;
  scope.schema = &body.node->schema;
  scope.clause = "ORDER BY";
  for (size_t i = 0; i < q.order_by.size(); ++i) {
    const sql::Expr& e = *q.order_by[i].expr;
    if (e.kind == sql::ExprKind::kLiteral && e.literal_kind == sql::LiteralKind::kInteger) continue;
    absl::StatusOr<ExprPtr> bound = BindExpr(e, scope);
    if (bound.ok()) {
      over_result[i] = *std::move(bound);
    } else if (q.kind == sql::Query::Kind::kSelect) {
      hidden_index[i] = static_cast<int>(hidden.size());
      hidden.push_back(&e);
    } else {
      return bound.status();
    }
  }
  if (!hidden.empty()) {
    ASSIGN_OR_RETURN(body, BindSelect(q, hidden));
  }
  std::vector<ExprPtr> extra;  // sort expressions computed over the result
  RankSpec rank;
  rank.origin = q.order_by.empty() ? RankSpec::Origin::kLimit : RankSpec::Origin::kSortLimit;
  rank.output_rank_number = false;
  const int bound_width = static_cast<int>(body.node->schema.size());  // with hidden columns
  for (size_t i = 0; i < q.order_by.size(); ++i) {
    const sql::OrderItem& item = q.order_by[i];
    SortKey key;
    key.descending = item.descending;
    key.nulls_first = item.nulls_first.value_or(!item.descending);
    if (hidden_index[i] >= 0) {
      key.column = width + hidden_index[i];
    } else if (over_result[i]) {
      const ExprPtr& bound = *over_result[i];
      if (bound->kind == ExprKind::kColumn) {
        key.column = bound->column;
      } else {
        key.column = bound_width + static_cast<int>(extra.size());
        extra.push_back(bound);
      }
    } else {
      const sql::Expr& e = *item.expr;
      const int ordinal = std::atoi(e.text.c_str());
      if (ordinal < 1 || ordinal > width) {
        return ValidationErrorAt(
            e.pos, absl::StrCat("ORDER BY position ", ordinal, " is not in the select list (1 to ",
                                width, ")"));
      }
      key.column = ordinal - 1;
    }
    rank.order_keys.push_back(key);
  }
  if (!limited && IsBatchMode(config_)) {
    rank.origin = RankSpec::Origin::kSort;
    rank.rank_start = 1;
    rank.rank_end = std::numeric_limits<int64_t>::max();
  } else if (!limited) {
    // Only a temporal sort: the first key an ascending time attribute (Flink).
    const SortKey& first = rank.order_keys.front();
    const sql::SourcePos& pos = q.order_by.front().pos;
    if (first.column >= bound_width || first.descending ||
        TimeAttributeOf(*body.node, first.column) == TimeAttribute::kNone) {
      return ValidationErrorAt(pos, "Sort on a non-time-attribute field is not supported.");
    }
    rank.origin = RankSpec::Origin::kTemporalSort;
  } else {
    const int64_t offset = q.offset.value_or(0);
    if (*q.limit < 1 || offset < 0) {
      return ValidationErrorAt(q.pos, "LIMIT needs at least one row and OFFSET cannot be negative");
    }
    rank.rank_start = offset + 1;
    rank.rank_end = offset + *q.limit;
  }
  LogicalNodePtr sorted =
      MakeRank(WithExtraColumns(body.node, std::move(extra)), std::move(rank), "");
  if (static_cast<int>(sorted->schema.size()) > width) {
    // The sort columns are not part of the result.
    std::vector<ExprPtr> projections;
    std::vector<std::string> names;
    for (int c = 0; c < width; ++c) {
      projections.push_back(MakeColumnRef(c, sorted->schema.fields[c].type));
      names.push_back(sorted->schema.fields[c].name);
    }
    sorted = MakeProject(sorted, std::move(projections), std::move(names));
  }
  body.node = std::move(sorted);
  body.columns.resize(width);
  return body;
}

}  // namespace eddy::planner
