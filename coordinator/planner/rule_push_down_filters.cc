// Filter push-down: a filter moves below a projection (its condition rewritten over the
// projection's input), into every branch of a UNION ALL, and, for the conjuncts that only read
// group keys, below an aggregate (dropping groups before they cost state is the same as dropping
// their results). A node with several consumers is never pushed into, since the others need all its
// rows.
#include <unordered_map>
#include <utility>

#include "common/base/status_macros.h"
#include "coordinator/planner/expr_util.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"

namespace eddy::planner {
namespace {

class FilterPusher {
 public:
  explicit FilterPusher(const LogicalRoots& roots) : consumers_(CountConsumers(roots)) {}

  // Remembers that `rewritten` replaces `original` for original's consumers. A node that replaces
  // two originals (a dropped filter's input) counts as shared.
  void Track(const LogicalNode& original, const LogicalNode* rewritten) {
    auto [it, added] = shared_.emplace(rewritten, false);
    it->second = !added || it->second || consumers_[&original] > 1;
  }

  // `condition` applied to `input`, as deep as it can go.
  absl::StatusOr<LogicalNodePtr> Push(ExprPtr condition, const LogicalNodePtr& input) {
    auto it = shared_.find(input.get());
    const bool shared = it == shared_.end() || it->second;
    if (!shared) {
      switch (input->kind) {
        case LogicalKind::kProject: {
          ASSIGN_OR_RETURN(
              LogicalNodePtr below,
              Push(SubstituteColumns(condition, input->projections), input->inputs[0]));
          return WithInputs(input, {std::move(below)});
        }
        case LogicalKind::kUnion: {
          std::vector<LogicalNodePtr> branches;
          for (const auto& b : input->inputs) {
            ASSIGN_OR_RETURN(LogicalNodePtr pushed, Push(condition, b));
            branches.push_back(std::move(pushed));
          }
          return WithInputs(input, std::move(branches));
        }
        case LogicalKind::kAggregate:
          return PushIntoAggregate(condition, input);
        case LogicalKind::kTableScan:
        case LogicalKind::kValues:
        case LogicalKind::kFilter:
        case LogicalKind::kSink:
        case LogicalKind::kWatermarkAssigner:
        case LogicalKind::kWindowTableFunction:
        case LogicalKind::kWindowAggregate:
          break;
      }
    }
    return Filter(input, std::move(condition));
  }

 private:
  absl::StatusOr<LogicalNodePtr> PushIntoAggregate(const ExprPtr& condition,
                                                   const LogicalNodePtr& agg) {
    const int keys = static_cast<int>(agg->group_keys.size());
    std::vector<ExprPtr> on_keys, rest;
    for (const ExprPtr& c : Conjuncts(condition)) {
      (OnlyReferences(*c, [&](int col) { return col < keys; }) ? on_keys : rest).push_back(c);
    }
    LogicalNodePtr out = agg;
    if (!on_keys.empty()) {
      // Output column k (k < keys) is input column group_keys[k].
      std::vector<int> to_input(agg->schema.size(), -1);
      for (int k = 0; k < keys; ++k) to_input[k] = agg->group_keys[k];
      ASSIGN_OR_RETURN(ExprPtr below, MakeConjunction(on_keys));
      ASSIGN_OR_RETURN(LogicalNodePtr input, Push(RemapColumns(below, to_input), agg->inputs[0]));
      out = WithInputs(agg, {std::move(input)});
    }
    if (rest.empty()) return out;
    ASSIGN_OR_RETURN(ExprPtr above, MakeConjunction(rest));
    return Filter(out, std::move(above));
  }

  static LogicalNodePtr Filter(const LogicalNodePtr& input, ExprPtr condition) {
    return MakeFilter(input, std::move(condition));
  }

  std::unordered_map<const LogicalNode*, int> consumers_;
  // Per rewritten node: whether several consumers read it. Unknown nodes count as shared.
  std::unordered_map<const LogicalNode*, bool> shared_;
};

}  // namespace

absl::StatusOr<LogicalRoots> PushDownFilters(const LogicalRoots& roots) {
  FilterPusher pusher(roots);
  return RewriteBottomUp(
      roots,
      [&](const LogicalNode& original, const LogicalNodePtr& n) -> absl::StatusOr<LogicalNodePtr> {
        LogicalNodePtr out = n;
        if (n->kind == LogicalKind::kFilter) {
          ASSIGN_OR_RETURN(out, pusher.Push(n->condition, n->inputs[0]));
        }
        pusher.Track(original, out.get());
        return out;
      });
}

}  // namespace eddy::planner
