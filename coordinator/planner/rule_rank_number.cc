// A Top-N whose filter fixes the row number (`WHERE rn = 1`, rank_start == rank_end): projections
// directly over it read the row number as that literal, so column pruning can drop the column
// (Flink's RankNumberColumnRemoveRule). A `SELECT *` deduplication then runs as a Deduplicate.
#include <utility>
#include <vector>

#include "coordinator/planner/expr_util.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"

namespace eddy::planner {

absl::StatusOr<LogicalRoots> ReplaceConstantRankNumbers(const LogicalRoots& roots) {
  return RewriteBottomUp(
      roots, [](const LogicalNode&, const LogicalNodePtr& n) -> absl::StatusOr<LogicalNodePtr> {
        if (n->kind != LogicalKind::kProject) return n;
        const LogicalNode& rank = n->input();
        if (rank.kind != LogicalKind::kRank || !rank.rank.output_rank_number ||
            rank.rank.rank_start != rank.rank.rank_end) {
          return n;
        }
        std::vector<ExprPtr> columns;
        for (size_t c = 0; c < rank.schema.size(); ++c) {
          columns.push_back(MakeColumnRef(static_cast<int>(c), rank.schema.fields[c].type));
        }
        const DataType number_type = rank.schema.fields.back().type;
        columns.back() = MakeLiteral(Value::Int(rank.rank.rank_start), number_type);
        auto copy = std::make_shared<LogicalNode>(*n);
        for (ExprPtr& p : copy->projections) p = SubstituteColumns(p, columns);
        return copy;
      });
}

}  // namespace eddy::planner
