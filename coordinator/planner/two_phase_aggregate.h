// Two-phase (local-global) aggregation, as Flink's TwoStageOptimizedAggregateRule: with mini-batch
// on and `table.optimizer.agg-phase-strategy` AUTO or TWO_PHASE, a GroupAggregate whose calls all
// have a partial form (AggPartialFields: COUNT, SUM, AVG, MIN, MAX, LISTAGG; not DISTINCT, not
// FIRST_VALUE/LAST_VALUE, and not MIN/MAX/LISTAGG over a retracting input) becomes a
// LocalGroupAggregate chained before the exchange and a GlobalGroupAggregate after it. This file
// decides the split and names the partial fields.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/types/data_type.h"
#include "coordinator/planner/logical_plan.h"
#include "coordinator/planner/planner.h"

namespace eddy::planner {

enum class AggPhaseStrategy { kAuto, kOnePhase, kTwoPhase };

// `table.optimizer.agg-phase-strategy` (default AUTO, case-insensitive); a validation error naming
// the key for any other value.
absl::StatusOr<AggPhaseStrategy> AggPhaseStrategyFromConfig(const ConfigMap& config);

// The local aggregate's output, what the global one reads.
struct PartialLayout {
  // The group keys (the input's names and types), then each call's partial fields named as Flink
  // names accumulators (`count1$0`, `sum$1`, ...), then `count1$<n>` when `appended_row_count`.
  Schema schema;
  std::vector<int> first_column;  // per call: the column of its first partial field
  std::vector<int> num_fields;    // per call
  // A retracting input's partials carry row-count deltas: a COUNT(*) call's column, or an
  // appended one. -1 for insert-only input.
  int row_count_column = -1;
  bool appended_row_count = false;
  bool retracting = false;
};

// The layout for splitting `aggregate` (changelog modes inferred), or nullopt when a call has no
// partial form and the aggregate stays in one phase.
std::optional<PartialLayout> SplitAggregate(const LogicalNode& aggregate);

// `LocalGroupAggregate(groupBy=[word], select=[word, COUNT(*) AS count1$0])`; AVG's two fields
// print as `AVG(x) AS (sum$1, count$2)`.
std::string LocalAggregateDigest(const LogicalNode& aggregate, const PartialLayout& layout);
// `GlobalGroupAggregate(groupBy=[word], select=[word, COUNT(count1$0) AS cnt])`, AVG as
// `AVG((sum$1, count$2)) AS a`.
std::string GlobalAggregateDigest(const LogicalNode& aggregate, const PartialLayout& layout);

}  // namespace eddy::planner
