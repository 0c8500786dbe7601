// Join reordering (`table.optimizer.join-reorder-enabled`, off by default as in Flink): a tree of
// inner joins (regular ones, each node consumed only by its parent) is flattened into its inputs
// and the conjuncts of all its conditions, then rebuilt left-deep, greedily: the input with the
// smallest estimated row count first, then each time the smallest input that an equality connects
// to what is joined so far (the smallest of the rest when none does). Each conjunct goes into the
// first join where all the inputs it reads are present; a projection on top restores the original
// column order. Estimates (there are no table statistics): a bounded datagen table its
// number-of-rows, VALUES its rows, any other table 10^9 (unbounded), a filter halves its input, an
// aggregate keeps a tenth, a projection or watermark assigner its input's, a join the larger of its
// inputs.
#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

#include "absl/strings/numbers.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/connector_options.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"

namespace eddy::planner {
namespace {

constexpr double kUnboundedRows = 1e9;

double EstimatedRows(const LogicalNode& n) {
  switch (n.kind) {
    case LogicalKind::kTableScan: {
      const ConnectorFactory* factory = ConnectorOf(*n.table);
      ConnectorConfig config = ConnectorConfigOf(*n.table);
      std::optional<double> rows = factory ? factory->RowCount(config) : std::nullopt;
      return rows.value_or(kUnboundedRows);
    }
    case LogicalKind::kValues:
      return static_cast<double>(n.rows.size());
    case LogicalKind::kFilter:
      return EstimatedRows(n.input()) / 2;
    case LogicalKind::kAggregate:
    case LogicalKind::kWindowAggregate:
      return EstimatedRows(n.input()) / 10;
    case LogicalKind::kRank:  // at most N rows per partition: unknown, taken as its input
    case LogicalKind::kOverAggregate:
    case LogicalKind::kProject:
    case LogicalKind::kWatermarkAssigner:
    case LogicalKind::kWindowTableFunction:
    case LogicalKind::kSink:
      return EstimatedRows(n.input());
    case LogicalKind::kUnion: {
      double sum = 0;
      for (const auto& in : n.inputs) sum += EstimatedRows(*in);
      return sum;
    }
    case LogicalKind::kJoin:
      return std::max(EstimatedRows(n.input(0)), EstimatedRows(n.input(1)));
    case LogicalKind::kExpand:
      return EstimatedRows(n.input()) * static_cast<double>(n.expand_projections.size());
    case LogicalKind::kCorrelate:
      return EstimatedRows(n.input());
  }
  return kUnboundedRows;
}

bool Reorderable(const LogicalNode& n) {
  return n.kind == LogicalKind::kJoin && n.join_type == JoinType::kInner && !n.temporal &&
         !n.time_bounds && n.left_keys.empty();
}

// An inner-join tree as its inputs and conjuncts; columns are numbered as in the tree's output.
struct Flat {
  std::vector<LogicalNodePtr> inputs;
  std::vector<int> offsets;  // first output column of each input
  std::vector<ExprPtr> conjuncts;
};

void Flatten(const LogicalNodePtr& n, int offset,
             const std::unordered_map<const LogicalNode*, int>& consumers, bool root, Flat* out) {
  const auto it = consumers.find(n.get());
  const bool shared = it != consumers.end() && it->second > 1;
  if (!Reorderable(*n) || (!root && shared)) {
    out->inputs.push_back(n);
    out->offsets.push_back(offset);
    return;
  }
  const int nl = static_cast<int>(n->input(0).schema.size());
  Flatten(n->inputs[0], offset, consumers, false, out);
  Flatten(n->inputs[1], offset + nl, consumers, false, out);
  if (n->condition) {
    std::vector<int> shift(n->schema.size());
    for (size_t c = 0; c < shift.size(); ++c) shift[c] = offset + static_cast<int>(c);
    for (const ExprPtr& c : Conjuncts(n->condition))
      out->conjuncts.push_back(RemapColumns(c, shift));
  }
}

// The inputs a conjunct reads (as a bit per input).
uint64_t InputsOf(const Expr& e, const Flat& f) {
  if (e.kind == ExprKind::kColumn) {
    for (size_t i = f.inputs.size(); i-- > 0;) {
      if (e.column >= f.offsets[i]) return uint64_t{1} << i;
    }
  }
  uint64_t bits = 0;
  for (const auto& a : e.args) bits |= InputsOf(*a, f);
  return bits;
}

absl::StatusOr<LogicalNodePtr> Reorder(
    const LogicalNodePtr& join, const std::unordered_map<const LogicalNode*, int>& consumers) {
  Flat f;
  Flatten(join, 0, consumers, true, &f);
  const size_t n = f.inputs.size();
  if (n < 3 || n > 63) return join;  // two inputs have one order; masks hold 63
  std::vector<uint64_t> reads;
  std::vector<bool> equi;
  for (const ExprPtr& c : f.conjuncts) {
    reads.push_back(InputsOf(*c, f));
    equi.push_back(c->kind == ExprKind::kCall && c->function == "=");
  }
  std::vector<double> rows;
  for (const auto& in : f.inputs) rows.push_back(EstimatedRows(*in));
  // Greedy order.
  std::vector<size_t> order;
  uint64_t joined = 0;
  while (order.size() < n) {
    size_t best = n;
    bool best_connected = false;
    for (size_t i = 0; i < n; ++i) {
      if (joined & (uint64_t{1} << i)) continue;
      bool connected = false;
      for (size_t c = 0; c < reads.size() && !order.empty(); ++c) {
        const uint64_t with = joined | (uint64_t{1} << i);
        connected = connected || (equi[c] && (reads[c] & (uint64_t{1} << i)) &&
                                  (reads[c] & joined) && (reads[c] & ~with) == 0);
      }
      if (best == n || (connected && !best_connected) ||
          (connected == best_connected && rows[i] < rows[best])) {
        best = i;
        best_connected = connected;
      }
    }
    order.push_back(best);
    joined |= uint64_t{1} << best;
  }
  bool same = true;
  for (size_t i = 0; i < n; ++i) same = same && order[i] == i;
  if (same) return join;
  // Rebuild left-deep; `position[g]` is global column g's column in the tree built so far.
  std::vector<int> position(join->schema.size(), -1);
  auto width = [&](size_t i) { return static_cast<int>(f.inputs[i]->schema.size()); };
  LogicalNodePtr tree = f.inputs[order[0]];
  for (int c = 0; c < width(order[0]); ++c) position[f.offsets[order[0]] + c] = c;
  std::vector<bool> placed(f.conjuncts.size(), false);
  joined = uint64_t{1} << order[0];
  for (size_t step = 1; step < n; ++step) {
    const size_t next = order[step];
    const int base = static_cast<int>(tree->schema.size());
    for (int c = 0; c < width(next); ++c) position[f.offsets[next] + c] = base + c;
    joined |= uint64_t{1} << next;
    std::vector<ExprPtr> here;
    for (size_t c = 0; c < f.conjuncts.size(); ++c) {
      if (placed[c] || (reads[c] & ~joined) != 0) continue;
      placed[c] = true;
      here.push_back(RemapColumns(f.conjuncts[c], position));
    }
    ASSIGN_OR_RETURN(ExprPtr condition, MakeConjunction(here));
    std::vector<std::string> names = tree->schema.Names();
    for (const std::string& name : f.inputs[next]->schema.Names()) names.push_back(name);
    tree = MakeJoin(tree, f.inputs[next], JoinType::kInner, condition,
                    UniquifyNames(std::move(names)));
  }
  std::vector<ExprPtr> projections;
  for (size_t g = 0; g < join->schema.size(); ++g) {
    projections.push_back(MakeColumnRef(position[g], tree->schema.fields[position[g]].type));
  }
  return MakeProject(tree, std::move(projections), join->schema.Names());
}

}  // namespace

absl::StatusOr<LogicalRoots> ReorderJoins(const LogicalRoots& roots, const ConfigMap& config) {
  if (!ConfigFlag(config, "table.optimizer.join-reorder-enabled", false)) return roots;
  const std::unordered_map<const LogicalNode*, int> consumers = CountConsumers(roots);
  // Only the top of each inner-join tree is rebuilt: its inner joins are flattened into it.
  std::unordered_map<const LogicalNode*, bool> below_reorderable;
  for (const auto& [node, count] : consumers) {
    if (!Reorderable(*node)) continue;
    for (const auto& in : node->inputs) {
      if (Reorderable(*in) && consumers.at(in.get()) == 1) below_reorderable[in.get()] = true;
    }
  }
  return RewriteBottomUp(
      roots,
      [&](const LogicalNode& original, const LogicalNodePtr& n) -> absl::StatusOr<LogicalNodePtr> {
        if (!Reorderable(*n) || below_reorderable.count(&original)) return n;
        return Reorder(n, consumers);
      });
}

}  // namespace eddy::planner
