// The primary key of each temporal join's versioned side: the unique key of its right input, a
// table's PRIMARY KEY or the partition key of a versioned view's deduplication (`ROW_NUMBER() OVER
// (PARTITION BY k ORDER BY rowtime DESC) = 1`), as Flink derives it from the input's unique keys.
// Runs after filter push-down, which fixes the view's rank range.
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"
#include "coordinator/planner/planner_errors.h"
#include "coordinator/planner/unique_keys.h"

namespace eddy::planner {

absl::StatusOr<LogicalRoots> ResolveTemporalKeys(const LogicalRoots& roots) {
  return RewriteBottomUp(
      roots, [](const LogicalNode&, const LogicalNodePtr& n) -> absl::StatusOr<LogicalNodePtr> {
        if (n->kind != LogicalKind::kJoin || !n->temporal ||
            !n->temporal->right_primary_key.empty()) {
          return n;
        }
        std::optional<std::vector<int>> key = UniqueKey(n->input(1));
        if (!key || key->empty()) {
          return ValidationError(absl::StrCat(
              "Temporal Table Join requires primary key in versioned table, but no primary key "
              "can be found ('",
              n->temporal->versioned_name,
              "'); a versioned view must keep the last row per key by its rowtime (ROW_NUMBER() "
              "OVER (PARTITION BY key ORDER BY rowtime DESC) = 1)"));
        }
        auto copy = std::make_shared<LogicalNode>(*n);
        copy->temporal->right_primary_key = *std::move(key);
        return copy;
      });
}

}  // namespace eddy::planner
