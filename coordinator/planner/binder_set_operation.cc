// Binding of the set operations other than UNION ALL, as Flink's planner rewrites them:
//   a UNION b          -> an Aggregate grouping every column (the distinct rows) over UNION ALL
//   a INTERSECT b      -> a semi join of the distinct rows of a with b on every column
//   a EXCEPT b         -> the same with an anti join
//   a INTERSECT ALL b  -> each side's copies of a row numbered 1..n (a ROW_NUMBER partitioned by
//   a EXCEPT ALL b        every column), then a semi (anti) join on the columns and the number:
//                         copy k of a row is kept when b has (has no) copy k, which keeps
//                         min(n, m) (max(n - m, 0)) copies.
// Rows compare as in GROUP BY and DISTINCT: NULLs are equal (IS NOT DISTINCT FROM).
#include <limits>
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

std::string OperatorName(const sql::Query& q) {
  std::string name;
  switch (q.set_operator) {
    case sql::Query::SetOperator::kUnion:
      name = "UNION";
      break;
    case sql::Query::SetOperator::kIntersect:
      name = "INTERSECT";
      break;
    case sql::Query::SetOperator::kExcept:
      name = "EXCEPT";
      break;
  }
  return q.set_all ? absl::StrCat(name, " ALL") : name;
}

std::vector<int> AllColumns(size_t width) {
  std::vector<int> columns;
  for (size_t c = 0; c < width; ++c) columns.push_back(static_cast<int>(c));
  return columns;
}

// The distinct rows of `input` (an Aggregate grouping every column, no calls).
LogicalNodePtr DistinctRows(LogicalNodePtr input) {
  const size_t width = input->schema.size();
  std::vector<std::string> names = input->schema.Names();
  return MakeAggregate(std::move(input), AllColumns(width), {}, std::move(names));
}

// `input` with a last column numbering the copies of each row 1..n.
LogicalNodePtr NumberCopies(LogicalNodePtr input) {
  RankSpec rank;
  rank.function = RankSpec::Function::kRowNumber;
  rank.partition_keys = AllColumns(input->schema.size());
  // Every row of a partition is the same, so any order numbers them; the first column is one.
  rank.order_keys.push_back(SortKey{0, false, true});
  rank.rank_start = 1;
  rank.rank_end = std::numeric_limits<int64_t>::max();
  rank.output_rank_number = true;
  return MakeRank(std::move(input), std::move(rank), "$copy");
}

// Column c of the left side IS NOT DISTINCT FROM column c of the right side, for every c < width,
// over the join's left ++ right columns.
absl::StatusOr<ExprPtr> EveryColumnMatches(const Schema& left, const Schema& right, size_t width) {
  ExprPtr condition;
  for (size_t c = 0; c < width; ++c) {
    ExprPtr l = MakeColumnRef(static_cast<int>(c), left.fields[c].type);
    ExprPtr r = MakeColumnRef(static_cast<int>(left.size() + c), right.fields[c].type);
    ASSIGN_OR_RETURN(ExprPtr match, MakeCall("IS NOT DISTINCT FROM", {l, r}));
    if (condition == nullptr) {
      condition = std::move(match);
    } else {
      ASSIGN_OR_RETURN(condition, MakeCall("AND", {condition, match}));
    }
  }
  return condition;
}

}  // namespace

absl::StatusOr<BoundRelation> Binder::BindSetOperation(const sql::Query& q) {
  const std::string op = OperatorName(q);
  if (q.union_inputs.size() != 2)
    return ValidationErrorAt(q.pos, absl::StrCat(op, " needs two inputs"));
  ASSIGN_OR_RETURN(SetInputs in, BindSetInputs(q, op));
  const size_t width = in.types.size();
  std::vector<std::string> names = in.names;
  BoundRelation out;
  if (q.set_operator == sql::Query::SetOperator::kUnion) {
    // UNION ALL is BindUnion's; this is UNION (DISTINCT).
    out.node = DistinctRows(MakeUnionOf(std::move(in)));
    out.columns = UnqualifiedColumns(out.node->schema);
    return out;
  }
  const JoinType type =
      q.set_operator == sql::Query::SetOperator::kIntersect ? JoinType::kSemi : JoinType::kAnti;
  LogicalNodePtr left = std::move(in.nodes[0]);
  LogicalNodePtr right = std::move(in.nodes[1]);
  if (!q.set_all) {
    left = DistinctRows(std::move(left));
    ASSIGN_OR_RETURN(ExprPtr condition, EveryColumnMatches(left->schema, right->schema, width));
    out.node = MakeJoin(std::move(left), std::move(right), type, std::move(condition), names);
  } else {
    left = NumberCopies(std::move(left));
    right = NumberCopies(std::move(right));
    ASSIGN_OR_RETURN(ExprPtr condition, EveryColumnMatches(left->schema, right->schema, width + 1));
    std::vector<std::string> numbered = names;
    numbered.push_back("$copy");
    LogicalNodePtr join =
        MakeJoin(std::move(left), std::move(right), type, std::move(condition), numbered);
    std::vector<ExprPtr> columns;
    for (size_t c = 0; c < width; ++c) {
      columns.push_back(MakeColumnRef(static_cast<int>(c), join->schema.fields[c].type));
    }
    out.node = MakeProject(std::move(join), std::move(columns), names);
  }
  out.columns = UnqualifiedColumns(out.node->schema);
  return out;
}

}  // namespace eddy::planner
