// Column pruning: each node learns which of its output columns its consumers use (the union over
// all of them: a shared node serves every consumer); projections drop unused outputs and table
// scans read only the used columns (at least one, so that rows still have a column). Filters pass
// through what is used above them plus what their condition reads; a join needs of each side what
// is used of that side's columns plus its keys and what its condition reads; aggregates, unions,
// expands and sinks keep all their outputs. Every rebuilt node's column references are remapped to
// the narrower inputs.
#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "common/base/status_macros.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"

namespace eddy::planner {
namespace {

using ColumnSet = std::vector<bool>;

void AddColumns(const Expr& e, ColumnSet* set) {
  if (e.kind == ExprKind::kColumn) (*set)[e.column] = true;
  for (const auto& a : e.args) AddColumns(*a, set);
}

// Consumers before their inputs.
void PostOrder(const LogicalNodePtr& n, std::unordered_map<const LogicalNode*, bool>* seen,
               std::vector<const LogicalNode*>* out) {
  if ((*seen)[n.get()]) return;
  (*seen)[n.get()] = true;
  for (const auto& in : n->inputs) PostOrder(in, seen, out);
  out->push_back(n.get());
}

class ColumnPruner {
 public:
  void ComputeUsed(const LogicalRoots& roots, bool merge_scans_of_a_table) {
    std::unordered_map<const LogicalNode*, bool> seen;
    std::vector<const LogicalNode*> order;
    for (const auto& r : roots) PostOrder(r, &seen, &order);
    for (const auto& r : roots) Used(*r).assign(r->schema.size(), true);
    for (auto it = order.rbegin(); it != order.rend(); ++it) Propagate(**it);
    if (!merge_scans_of_a_table) return;
    std::unordered_map<std::string, ColumnSet> by_table;
    for (const LogicalNode* n : order) {
      if (n->kind != LogicalKind::kTableScan) continue;
      ColumnSet& all =
          by_table.try_emplace(n->table->path.ToString(), n->schema.size(), false).first->second;
      for (size_t c = 0; c < all.size(); ++c) all[c] = all[c] || Used(*n)[c];
    }
    for (const LogicalNode* n : order) {
      if (n->kind == LogicalKind::kTableScan) used_[n] = by_table[n->table->path.ToString()];
    }
  }

  absl::StatusOr<LogicalNodePtr> Rebuild(const LogicalNode& original, const LogicalNodePtr& n) {
    std::vector<int>& mapping = mapping_[&original];
    mapping.resize(original.schema.size());
    std::iota(mapping.begin(), mapping.end(), 0);  // identity unless narrowed below
    const ColumnSet& used = Used(original);
    switch (n->kind) {
      case LogicalKind::kTableScan: {
        std::vector<int> read;
        for (size_t c = 0; c < used.size(); ++c) {
          if (used[c]) read.push_back(static_cast<int>(c));
        }
        if (read.empty()) read.push_back(0);
        if (read.size() == used.size()) return n;
        auto scan = std::make_shared<LogicalNode>(*n);
        scan->scan_columns = read;
        scan->schema.fields.clear();
        std::fill(mapping.begin(), mapping.end(), -1);
        for (size_t i = 0; i < read.size(); ++i) {
          scan->schema.fields.push_back(n->schema.fields[read[i]]);
          mapping[read[i]] = static_cast<int>(i);
        }
        return scan;
      }
      case LogicalKind::kProject: {
        const std::vector<int>& in = InputMapping(original, 0);
        std::vector<int> kept;
        for (size_t c = 0; c < used.size(); ++c) {
          if (used[c]) kept.push_back(static_cast<int>(c));
        }
        if (kept.empty() && !used.empty()) kept.push_back(0);
        if (kept.size() == used.size() && IsIdentity(in)) return n;
        std::vector<ExprPtr> projections;
        std::vector<std::string> names;
        std::fill(mapping.begin(), mapping.end(), -1);
        for (size_t i = 0; i < kept.size(); ++i) {
          projections.push_back(RemapColumns(n->projections[kept[i]], in));
          names.push_back(n->schema.fields[kept[i]].name);
          mapping[kept[i]] = static_cast<int>(i);
        }
        return MakeProject(n->inputs[0], std::move(projections), std::move(names));
      }
      case LogicalKind::kFilter: {
        const std::vector<int>& in = InputMapping(original, 0);
        mapping = in;
        if (IsIdentity(in)) return n;
        auto f = std::make_shared<LogicalNode>(*n);
        f->condition = RemapColumns(n->condition, in);
        return f;
      }
      case LogicalKind::kWatermarkAssigner: {
        const std::vector<int>& in = InputMapping(original, 0);
        mapping = in;
        if (IsIdentity(in)) return n;
        auto w = std::make_shared<LogicalNode>(*n);
        w->rowtime = in[n->rowtime];
        w->watermark = RemapColumns(n->watermark, in);
        w->schema = n->inputs[0]->schema;
        return w;
      }
      case LogicalKind::kAggregate:
      case LogicalKind::kWindowAggregate: {
        const std::vector<int>& in = InputMapping(original, 0);
        if (IsIdentity(in)) return n;
        auto a = std::make_shared<LogicalNode>(*n);
        for (int& k : a->group_keys) k = in[k];
        for (LogicalAggCall& c : a->calls) {
          if (c.arg >= 0) c.arg = in[c.arg];
          for (int& u : c.user_args) u = in[u];
        }
        if (a->window.time_column >= 0) a->window.time_column = in[a->window.time_column];
        return a;
      }
      case LogicalKind::kJoin: {
        const std::vector<int>& lm = InputMapping(original, 0);
        const std::vector<int>& rm = InputMapping(original, 1);
        if (IsIdentity(lm) && IsIdentity(rm)) return n;
        const int nl = static_cast<int>(n->inputs[0]->schema.size());
        std::vector<int> combined(lm.begin(), lm.end());  // over left ++ right
        for (int c : rm) combined.push_back(c < 0 ? -1 : c + nl);
        const size_t out_width = original.schema.size();
        std::vector<std::string> names(nl + n->inputs[1]->schema.size());
        for (size_t c = 0; c < combined.size(); ++c) {
          if (combined[c] >= 0 && c < out_width)
            names[combined[c]] = original.schema.fields[c].name;
        }
        LogicalNodePtr j =
            MakeJoin(n->inputs[0], n->inputs[1], n->join_type,
                     n->condition ? RemapColumns(n->condition, combined) : nullptr, names);
        for (int k : n->left_keys) j->left_keys.push_back(lm[k]);
        for (int k : n->right_keys) j->right_keys.push_back(rm[k]);
        j->null_safe = n->null_safe;
        if (n->temporal) {
          j->temporal = n->temporal;
          j->temporal->left_time = lm[n->temporal->left_time];
          if (n->temporal->right_time >= 0) {
            j->temporal->right_time = rm[n->temporal->right_time];
          }
          for (int& c : j->temporal->right_primary_key) c = rm[c];
        }
        if (n->time_bounds) {
          j->time_bounds = n->time_bounds;
          j->time_bounds->left_time = lm[n->time_bounds->left_time];
          j->time_bounds->right_time = rm[n->time_bounds->right_time];
          j->time_bounds->conjuncts = RemapColumns(n->time_bounds->conjuncts, combined);
        }
        combined.resize(out_width);
        mapping = combined;
        return j;
      }
      case LogicalKind::kRank: {
        const std::vector<int>& in = InputMapping(original, 0);
        const size_t n_in = original.input().schema.size();
        const bool keep_number = original.rank.output_rank_number && used[n_in];
        if (IsIdentity(in) && keep_number == original.rank.output_rank_number) return n;
        RankSpec spec = n->rank;
        for (int& k : spec.partition_keys) k = in[k];
        for (SortKey& k : spec.order_keys) k.column = in[k.column];
        spec.output_rank_number = keep_number;
        const std::string number_name =
            original.rank.output_rank_number ? original.schema.fields[n_in].name : "";
        LogicalNodePtr r = MakeRank(n->inputs[0], std::move(spec), number_name);
        mapping = in;
        if (original.rank.output_rank_number) {
          mapping.push_back(keep_number ? static_cast<int>(r->schema.size()) - 1 : -1);
        }
        return r;
      }
      case LogicalKind::kOverAggregate: {
        // Every call stays (its column is cheap next to the state it shares with the others).
        const std::vector<int>& in = InputMapping(original, 0);
        if (IsIdentity(in)) return n;
        OverSpec spec = n->over;
        for (int& k : spec.partition_keys) k = in[k];
        spec.time_column = in[spec.time_column];
        std::vector<LogicalAggCall> calls = n->calls;
        for (LogicalAggCall& c : calls) {
          if (c.arg >= 0) c.arg = in[c.arg];
        }
        std::vector<std::string> names;
        const size_t n_in = original.input().schema.size();
        for (size_t c = 0; c < calls.size(); ++c)
          names.push_back(original.schema.fields[n_in + c].name);
        LogicalNodePtr o =
            MakeOverAggregate(n->inputs[0], std::move(spec), std::move(calls), names);
        const int width = static_cast<int>(n->inputs[0]->schema.size());
        mapping = in;
        for (size_t c = 0; c < n->calls.size(); ++c) mapping.push_back(width + static_cast<int>(c));
        return o;
      }
      // These keep every column of their inputs.
      case LogicalKind::kValues:
      case LogicalKind::kUnion:
      case LogicalKind::kSink:
      case LogicalKind::kWindowTableFunction:
      case LogicalKind::kExpand:
      case LogicalKind::kCorrelate:
        return n;
    }
    return n;  // not reached: every kind is a case above
  }

 private:
  ColumnSet& Used(const LogicalNode& n) {
    auto [it, added] = used_.try_emplace(&n, n.schema.size(), false);
    return it->second;
  }

  // Adds what `n` needs of its inputs, given what is used of `n`.
  void Propagate(const LogicalNode& n) {
    const ColumnSet used = Used(n);
    switch (n.kind) {
      case LogicalKind::kProject: {
        ColumnSet& in = Used(*n.inputs[0]);
        bool any = false;
        for (size_t c = 0; c < used.size(); ++c) {
          if (used[c]) AddColumns(*n.projections[c], &in), any = true;
        }
        if (!any && !n.projections.empty()) AddColumns(*n.projections[0], &in);
        return;
      }
      case LogicalKind::kFilter: {
        ColumnSet& in = Used(*n.inputs[0]);
        for (size_t c = 0; c < used.size(); ++c) in[c] = in[c] || used[c];
        AddColumns(*n.condition, &in);
        return;
      }
      case LogicalKind::kWatermarkAssigner: {
        ColumnSet& in = Used(*n.inputs[0]);
        for (size_t c = 0; c < used.size(); ++c) in[c] = in[c] || used[c];
        in[n.rowtime] = true;
        AddColumns(*n.watermark, &in);
        return;
      }
      case LogicalKind::kAggregate:
      case LogicalKind::kWindowAggregate: {
        ColumnSet& in = Used(*n.inputs[0]);
        if (n.kind == LogicalKind::kWindowAggregate) in[n.window.time_column] = true;
        for (int k : n.group_keys) in[k] = true;
        for (const LogicalAggCall& c : n.calls) {
          if (c.arg >= 0) in[c.arg] = true;
          for (int u : c.user_args) in[u] = true;
        }
        return;
      }
      case LogicalKind::kJoin: {
        ColumnSet& left = Used(*n.inputs[0]);
        ColumnSet& right = Used(*n.inputs[1]);
        const size_t nl = left.size();
        for (size_t c = 0; c < used.size(); ++c) {
          if (!used[c]) continue;
          if (c < nl) {
            left[c] = true;
          } else {
            right[c - nl] = true;
          }
        }
        for (int k : n.left_keys) left[k] = true;
        for (int k : n.right_keys) right[k] = true;
        if (n.time_bounds) {
          left[n.time_bounds->left_time] = true;
          right[n.time_bounds->right_time] = true;
        }
        if (n.temporal) {
          left[n.temporal->left_time] = true;
          if (n.temporal->right_time >= 0) right[n.temporal->right_time] = true;
          for (int c : n.temporal->right_primary_key) right[c] = true;
        }
        if (n.condition || n.time_bounds) {
          ColumnSet both(nl + right.size(), false);
          if (n.condition) AddColumns(*n.condition, &both);
          if (n.time_bounds) AddColumns(*n.time_bounds->conjuncts, &both);
          for (size_t c = 0; c < both.size(); ++c) {
            if (!both[c]) continue;
            if (c < nl) {
              left[c] = true;
            } else {
              right[c - nl] = true;
            }
          }
        }
        return;
      }
      case LogicalKind::kRank: {
        // The rank reads its keys; other columns pass through when used.
        ColumnSet& in = Used(*n.inputs[0]);
        for (size_t c = 0; c < in.size(); ++c) in[c] = in[c] || used[c];
        for (int k : n.rank.partition_keys) in[k] = true;
        for (const SortKey& k : n.rank.order_keys) in[k.column] = true;
        return;
      }
      case LogicalKind::kOverAggregate: {
        ColumnSet& in = Used(*n.inputs[0]);
        for (size_t c = 0; c < in.size(); ++c) in[c] = in[c] || used[c];
        for (int k : n.over.partition_keys) in[k] = true;
        in[n.over.time_column] = true;
        for (const LogicalAggCall& c : n.calls) {
          if (c.arg >= 0) in[c.arg] = true;
        }
        return;
      }
      case LogicalKind::kTableScan:
      case LogicalKind::kValues:
      case LogicalKind::kUnion:
      case LogicalKind::kSink:
      case LogicalKind::kWindowTableFunction:
      case LogicalKind::kExpand:  // its input is the aggregate's pre-projection: all used
      case LogicalKind::kCorrelate:
        for (const auto& input : n.inputs) {
          ColumnSet& in = Used(*input);
          std::fill(in.begin(), in.end(), true);
        }
        return;
    }
  }

  const std::vector<int>& InputMapping(const LogicalNode& original, size_t i) {
    return mapping_.at(original.inputs[i].get());
  }
  static bool IsIdentity(const std::vector<int>& m) {
    for (size_t i = 0; i < m.size(); ++i) {
      if (m[i] != static_cast<int>(i)) return false;
    }
    return true;
  }

  std::unordered_map<const LogicalNode*, ColumnSet> used_;
  std::unordered_map<const LogicalNode*, std::vector<int>> mapping_;
};

}  // namespace

absl::StatusOr<LogicalRoots> PruneColumns(const LogicalRoots& roots, bool merge_scans_of_a_table) {
  ColumnPruner pruner;
  pruner.ComputeUsed(roots, merge_scans_of_a_table);
  return RewriteBottomUp(roots, [&](const LogicalNode& original, const LogicalNodePtr& n) {
    return pruner.Rebuild(original, n);
  });
}

}  // namespace eddy::planner
