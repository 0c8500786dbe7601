#include "coordinator/planner/unique_keys.h"

#include <algorithm>

namespace eddy::planner {

std::optional<std::vector<int>> UniqueKey(const LogicalNode& n) {
  switch (n.kind) {
    case LogicalKind::kAggregate: {
      std::vector<int> key;
      for (size_t i = 0; i < n.group_keys.size(); ++i) key.push_back(static_cast<int>(i));
      return key;
    }
    case LogicalKind::kTableScan: {
      if (n.table == nullptr || n.table->primary_key.empty()) return std::nullopt;
      std::vector<int> key;
      for (const std::string& column : n.table->primary_key) {
        std::optional<int> i = n.schema.FindField(column);
        if (!i) return std::nullopt;  // not read
        key.push_back(*i);
      }
      return key;
    }
    case LogicalKind::kFilter:
    case LogicalKind::kWatermarkAssigner:
    case LogicalKind::kOverAggregate:  // each input row once, columns appended
      return UniqueKey(n.input());
    case LogicalKind::kProject: {
      std::optional<std::vector<int>> in = UniqueKey(n.input());
      if (!in) return std::nullopt;
      std::vector<int> key;
      for (int c : *in) {
        int found = -1;
        for (size_t j = 0; j < n.projections.size() && found < 0; ++j) {
          const Expr& e = *n.projections[j];
          if (e.kind == ExprKind::kColumn && e.column == c) found = static_cast<int>(j);
        }
        if (found < 0) return std::nullopt;  // a key column was projected away
        key.push_back(found);
      }
      return key;
    }
    case LogicalKind::kJoin: {
      std::optional<std::vector<int>> left = UniqueKey(n.input(0));
      if (!left) return std::nullopt;
      // A left row joins at most one version of a temporal join's right side.
      if (n.join_type == JoinType::kSemi || n.join_type == JoinType::kAnti || n.temporal) {
        return left;
      }
      if (n.join_type != JoinType::kInner) return std::nullopt;  // padded rows repeat NULLs
      std::optional<std::vector<int>> right = UniqueKey(n.input(1));
      if (!right) return std::nullopt;
      const int nl = static_cast<int>(n.input(0).schema.size());
      for (int c : *right) left->push_back(nl + c);
      return left;
    }
    case LogicalKind::kRank: {
      // One row per partition and row number; with rank 1 only, one row per partition. Otherwise
      // a subset of the input's rows.
      std::vector<int> key = n.rank.partition_keys;
      // RANK/DENSE_RANK: ties share a number, so neither holds; the rows are the input's.
      if (n.rank.function != RankSpec::Function::kRowNumber) return UniqueKey(n.input());
      if (n.rank.rank_end == 1 && !key.empty()) return key;
      if (n.rank.output_rank_number) {
        key.push_back(static_cast<int>(n.schema.size()) - 1);
        return key;
      }
      return UniqueKey(n.input());
    }
    case LogicalKind::kValues:
    case LogicalKind::kUnion:
    case LogicalKind::kSink:
    case LogicalKind::kWindowTableFunction:
    case LogicalKind::kWindowAggregate:
    case LogicalKind::kExpand:
    case LogicalKind::kCorrelate:
      return std::nullopt;
  }
  return std::nullopt;  // not reached: every kind is a case above
}

std::string JoinInputSpec(const LogicalNode& input, const std::vector<int>& join_keys) {
  std::optional<std::vector<int>> key = UniqueKey(input);
  if (!key) return "NoUniqueKey";
  const bool contained = std::all_of(key->begin(), key->end(), [&](int c) {
    return std::find(join_keys.begin(), join_keys.end(), c) != join_keys.end();
  });
  return contained && !join_keys.empty() ? "JoinKeyContainsUniqueKey" : "HasUniqueKey";
}

}  // namespace eddy::planner
