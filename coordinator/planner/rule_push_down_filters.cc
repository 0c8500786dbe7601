// Filter push-down: a filter moves below a projection (its condition rewritten over the
// projection's input), into every branch of a UNION ALL, and, for the conjuncts that only read
// group keys, below an aggregate (dropping groups before they cost state is the same as dropping
// their results). Into a join: a conjunct that reads one side only goes below the join to that side
// where the join type allows it (never to the side an outer join pads), and over an inner join the
// conjuncts that read both sides become part of its condition (a comma join with a WHERE equality
// becomes an equi-join). The same for a join's own ON condition: a conjunct of one side moves to
// that side's input when that side is not preserved (an inner join's either side, a left join's
// right side). Into a Top-N (Rank): conjuncts bounding the row number by constants set its rank
// range; conjuncts on the partition keys of a Rank or an OVER aggregate go below it (they drop
// whole partitions). A node with several consumers is never pushed into, since the others need all
// its rows.
#include <algorithm>
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
        case LogicalKind::kJoin:
          return PushIntoJoin(condition, input);
        case LogicalKind::kRank:
          return PushIntoRank(condition, input);
        case LogicalKind::kOverAggregate:
          return PushIntoOverAggregate(condition, input);
        case LogicalKind::kExpand:
          return PushIntoExpand(condition, input);
        case LogicalKind::kTableScan:
        case LogicalKind::kValues:
        case LogicalKind::kFilter:
        case LogicalKind::kSink:
        case LogicalKind::kWatermarkAssigner:
        case LogicalKind::kWindowTableFunction:
        case LogicalKind::kWindowAggregate:
        case LogicalKind::kCorrelate:
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

  // Conjuncts on columns every projection copies from one input column (not the keys some grouping
  // set nulls, nor `$e`) hold for every copy of a row alike: they go below.
  absl::StatusOr<LogicalNodePtr> PushIntoExpand(const ExprPtr& condition,
                                                const LogicalNodePtr& expand) {
    std::vector<int> to_input(expand->schema.size(), -1);
    for (size_t c = 0; c < to_input.size(); ++c) {
      if (static_cast<int>(c) == expand->expand_id_column) continue;
      const int source = expand->expand_projections.front().columns[c];
      bool same = source >= 0;
      for (const ExpandProjection& p : expand->expand_projections) {
        same = same && p.columns[c] == source;
      }
      if (same) to_input[c] = source;
    }
    std::vector<ExprPtr> below, rest;
    for (const ExprPtr& c : Conjuncts(condition)) {
      (OnlyReferences(*c, [&](int col) { return to_input[col] >= 0; }) ? below : rest).push_back(c);
    }
    LogicalNodePtr out = expand;
    if (!below.empty()) {
      ASSIGN_OR_RETURN(ExprPtr c, MakeConjunction(below));
      ASSIGN_OR_RETURN(LogicalNodePtr input, Push(RemapColumns(c, to_input), expand->inputs[0]));
      out = WithInputs(expand, {std::move(input)});
    }
    if (rest.empty()) return out;
    ASSIGN_OR_RETURN(ExprPtr above, MakeConjunction(rest));
    return Filter(out, std::move(above));
  }

  absl::StatusOr<LogicalNodePtr> PushIntoRank(const ExprPtr& condition,
                                              const LogicalNodePtr& rank) {
    const int inputs = static_cast<int>(rank->inputs[0]->schema.size());
    const int number = rank->rank.output_rank_number ? inputs : -1;
    RankSpec spec = rank->rank;
    std::vector<ExprPtr> below, rest;
    bool bounded = false;
    for (const ExprPtr& c : Conjuncts(condition)) {
      if (number >= 0 && NarrowRankRange(*c, number, &spec.rank_start, &spec.rank_end)) {
        bounded = true;
      } else if (OnlyReferences(*c, [&](int col) {
                   return std::find(spec.partition_keys.begin(), spec.partition_keys.end(), col) !=
                          spec.partition_keys.end();
                 })) {
        below.push_back(c);
      } else {
        rest.push_back(c);
      }
    }
    LogicalNodePtr out = rank;
    if (bounded || !below.empty()) {
      auto r = std::make_shared<LogicalNode>(*rank);
      r->rank = spec;
      if (!below.empty()) {
        ASSIGN_OR_RETURN(ExprPtr c, MakeConjunction(below));
        ASSIGN_OR_RETURN(r->inputs[0], Push(std::move(c), rank->inputs[0]));
      }
      out = std::move(r);
    }
    if (rest.empty()) return out;
    ASSIGN_OR_RETURN(ExprPtr above, MakeConjunction(rest));
    return Filter(out, std::move(above));
  }

  // Conjuncts on the partition keys drop whole partitions: they go below; the rest stays above.
  absl::StatusOr<LogicalNodePtr> PushIntoOverAggregate(const ExprPtr& condition,
                                                       const LogicalNodePtr& over) {
    const std::vector<int>& keys = over->over.partition_keys;
    std::vector<ExprPtr> below, rest;
    for (const ExprPtr& c : Conjuncts(condition)) {
      (OnlyReferences(
           *c, [&](int col) { return std::find(keys.begin(), keys.end(), col) != keys.end(); })
           ? below
           : rest)
          .push_back(c);
    }
    LogicalNodePtr out = over;
    if (!below.empty()) {
      ASSIGN_OR_RETURN(ExprPtr c, MakeConjunction(below));
      ASSIGN_OR_RETURN(LogicalNodePtr input, Push(std::move(c), over->inputs[0]));
      out = WithInputs(over, {std::move(input)});
    }
    if (rest.empty()) return out;
    ASSIGN_OR_RETURN(ExprPtr above, MakeConjunction(rest));
    return Filter(out, std::move(above));
  }

  // `condition` (over the join's output) applied to `join`.
  absl::StatusOr<LogicalNodePtr> PushIntoJoin(const ExprPtr& condition,
                                              const LogicalNodePtr& join) {
    const JoinType type = join->join_type;
    const int left = static_cast<int>(join->inputs[0]->schema.size());
    const bool to_left = type != JoinType::kRight && type != JoinType::kFull;
    // A temporal join's versions are never filtered below it: that would pick older versions.
    const bool to_right = (type == JoinType::kInner || type == JoinType::kRight) && !join->temporal;
    std::vector<ExprPtr> left_side, right_side, both, rest;
    for (const ExprPtr& c : Conjuncts(condition)) {
      if (to_left && OnlyReferences(*c, [&](int col) { return col < left; })) {
        left_side.push_back(c);
      } else if (to_right && OnlyReferences(*c, [&](int col) { return col >= left; })) {
        right_side.push_back(c);
      } else if (type == JoinType::kInner) {
        both.push_back(c);
      } else {
        rest.push_back(c);
      }
    }
    if (left_side.empty() && right_side.empty() && both.empty()) {
      return Filter(join, condition);
    }
    auto out = std::make_shared<LogicalNode>(*join);
    if (!both.empty()) {
      if (join->condition) both.insert(both.begin(), join->condition);
      ASSIGN_OR_RETURN(out->condition, MakeConjunction(both));
    }
    ASSIGN_OR_RETURN(out->inputs, PushToSides(left_side, right_side, *join));
    if (rest.empty()) return out;
    ASSIGN_OR_RETURN(ExprPtr above, MakeConjunction(rest));
    return Filter(out, std::move(above));
  }

 public:
  // Moves the conjuncts of `join`'s ON condition that read one side only into that side's input,
  // where the join type allows it.
  absl::StatusOr<LogicalNodePtr> PushJoinCondition(const LogicalNodePtr& join) {
    if (join->condition == nullptr) return join;
    const JoinType type = join->join_type;
    const int left = static_cast<int>(join->inputs[0]->schema.size());
    // A side whose unmatched rows are dropped anyway can lose rows that cannot match.
    const bool to_left =
        type == JoinType::kInner || type == JoinType::kRight || type == JoinType::kSemi;
    const bool to_right = type != JoinType::kRight && type != JoinType::kFull && !join->temporal;
    std::vector<ExprPtr> left_side, right_side, rest;
    for (const ExprPtr& c : Conjuncts(join->condition)) {
      if (to_left && OnlyReferences(*c, [&](int col) { return col < left; })) {
        left_side.push_back(c);
      } else if (to_right && OnlyReferences(*c, [&](int col) { return col >= left; })) {
        right_side.push_back(c);
      } else {
        rest.push_back(c);
      }
    }
    if (left_side.empty() && right_side.empty()) return join;
    auto out = std::make_shared<LogicalNode>(*join);
    ASSIGN_OR_RETURN(out->condition, MakeConjunction(rest));
    ASSIGN_OR_RETURN(out->inputs, PushToSides(left_side, right_side, *join));
    return out;
  }

 private:
  // The join's inputs with `left_side` (left columns) and `right_side` (join columns >= the
  // left's width) pushed into them.
  absl::StatusOr<std::vector<LogicalNodePtr>> PushToSides(const std::vector<ExprPtr>& left_side,
                                                          const std::vector<ExprPtr>& right_side,
                                                          const LogicalNode& join) {
    std::vector<LogicalNodePtr> inputs = join.inputs;
    if (!left_side.empty()) {
      ASSIGN_OR_RETURN(ExprPtr c, MakeConjunction(left_side));
      ASSIGN_OR_RETURN(inputs[0], Push(std::move(c), inputs[0]));
    }
    if (!right_side.empty()) {
      const int left = static_cast<int>(join.inputs[0]->schema.size());
      std::vector<int> to_right(left + join.inputs[1]->schema.size(), -1);
      for (size_t c = 0; c < join.inputs[1]->schema.size(); ++c) {
        to_right[left + c] = static_cast<int>(c);
      }
      ASSIGN_OR_RETURN(ExprPtr c, MakeConjunction(right_side));
      ASSIGN_OR_RETURN(inputs[1], Push(RemapColumns(c, to_right), inputs[1]));
    }
    return inputs;
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
        } else if (n->kind == LogicalKind::kJoin) {
          ASSIGN_OR_RETURN(out, pusher.PushJoinCondition(n));
        }
        pusher.Track(original, out.get());
        return out;
      });
}

}  // namespace eddy::planner
