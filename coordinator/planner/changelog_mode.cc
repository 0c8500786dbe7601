#include "coordinator/planner/changelog_mode.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "coordinator/planner/connector_options.h"
#include "coordinator/planner/expr_util.h"
#include "coordinator/planner/plan_digest.h"
#include "coordinator/planner/planner_errors.h"
#include "coordinator/planner/unique_keys.h"

namespace eddy::planner {
namespace {

// Post-order (inputs before consumers), each shared node once.
void TopoOrder(const LogicalNodePtr& n, std::unordered_set<const LogicalNode*>* seen,
               std::vector<LogicalNode*>* out) {
  if (!seen->insert(n.get()).second) return;
  for (const auto& in : n->inputs) TopoOrder(in, seen, out);
  out->push_back(n.get());
}

// The produced modes, bottom-up. UPDATE_BEFORE of aggregates comes from requires_update_before.
// In batch mode an aggregate (a HashAggregate) and an ORDER BY (a Sort) emit final rows only, and
// any other node that would produce changes gets a ChangelogMaterialize after it (see
// LogicalNode::batch_materialize): every node's output is insert-only.
void ComputeModes(const std::vector<LogicalNode*>& order, bool batch) {
  for (LogicalNode* n : order) {
    n->batch_materialize = false;
    if (batch &&
        (n->kind == LogicalKind::kAggregate ||
         (n->kind == LogicalKind::kRank && (n->rank.origin == RankSpec::Origin::kSort ||
                                            n->rank.origin == RankSpec::Origin::kSortLimit)))) {
      n->mode = ChangelogMode::InsertOnly();
      continue;
    }
    switch (n->kind) {
      case LogicalKind::kTableScan: {
        // An upsert source (upsert-kafka) normalizes its changes by key into a full changelog
        // (Flink's ChangelogNormalize, run in the source subtask).
        const ConnectorFactory* f = n->table ? ConnectorOf(*n->table) : nullptr;
        const bool upsert = f != nullptr && f->source_changes() == SourceChanges::kUpsert;
        n->mode = upsert ? ChangelogMode{true, true, true, true} : ChangelogMode::InsertOnly();
        break;
      }
      case LogicalKind::kValues:
      case LogicalKind::kWindowAggregate:  // a fired window is final: +I only
      case LogicalKind::kOverAggregate:    // each row once, when the watermark passes it
        n->mode = ChangelogMode::InsertOnly();
        break;
      case LogicalKind::kProject:
      case LogicalKind::kFilter:
      case LogicalKind::kSink:
      case LogicalKind::kWatermarkAssigner:
      case LogicalKind::kWindowTableFunction:
      case LogicalKind::kExpand:     // each change once per grouping set
      case LogicalKind::kCorrelate:  // each change with the rows the function makes of it
        n->mode = n->input().mode;
        break;
      case LogicalKind::kUnion: {
        ChangelogMode m = n->input(0).mode;
        for (const auto& in : n->inputs) m = m.Union(in->mode);
        n->mode = m;
        break;
      }
      case LogicalKind::kJoin: {
        // As Flink infers it: inner and semi joins pass their inputs' kinds through; outer and
        // anti joins may produce any change (they retract and re-emit padded or unmatched rows).
        // UPDATE_BEFORE where a consumer needs it, as for an aggregate.
        const ChangelogMode left = n->input(0).mode;
        const ChangelogMode right = n->input(1).mode;
        ChangelogMode m = left.Union(right);
        if (IsIntervalJoin(*n) || n->temporal) {
          n->mode = ChangelogMode::InsertOnly();  // padded rows come out once, when they expire
          break;
        }
        if (n->join_type != JoinType::kInner && n->join_type != JoinType::kSemi) {
          m.update_after = true;
          m.del = true;
        }
        m.update_before = m.update_after && n->requires_update_before;
        n->mode = m;
        break;
      }
      case LogicalKind::kRank: {
        // The first rows of an append-only input (LIMIT without ORDER BY) are final.
        // So is a window Top-N: each window's top rows come out once, when the window closes.
        if ((n->rank.origin == RankSpec::Origin::kLimit && n->input().mode.IsInsertOnly()) ||
            n->rank.origin == RankSpec::Origin::kTemporalSort || IsWindowRank(*n)) {
          n->mode = ChangelogMode::InsertOnly();
          break;
        }
        // A processing-time deduplication sees rows in arrival order: keeping the first row is
        // append-only, keeping the last one updates it and never deletes (Flink's
        // ProcTimeDeduplicate functions).
        const bool proctime_dedup =
            IsDeduplicate(*n) && IsProctimeColumn(n->input(), n->rank.order_keys[0].column);
        if (proctime_dedup && !n->rank.order_keys[0].descending) {
          n->mode = ChangelogMode::InsertOnly();
          break;
        }
        // RANK/DENSE_RANK emit the rows entering and leaving the range: inserts and deletes.
        if (n->rank.function != RankSpec::Function::kRowNumber) {
          ChangelogMode m;
          m.del = true;
          n->mode = m;
          break;
        }
        // Any change, as Flink infers for Rank and for an event-time Deduplicate: rows enter and
        // leave the top N, and rows move within it.
        ChangelogMode m;
        m.update_after = true;
        m.update_before = n->requires_update_before;
        m.del = !proctime_dedup;
        n->mode = m;
        break;
      }
      case LogicalKind::kAggregate: {
        ChangelogMode m;
        m.update_after = true;
        m.update_before = n->requires_update_before;
        // Retractions in the input can empty a group, which then emits a delete.
        m.del = !n->input().mode.IsInsertOnly();
        n->mode = m;
        break;
      }
    }
    if (batch && !n->mode.IsInsertOnly()) {
      n->batch_materialize = true;
      n->own_mode = n->mode;
      n->own_mode.update_before = n->own_mode.update_after;  // the materializer removes old rows
      n->mode = ChangelogMode::InsertOnly();
    }
  }
}

// Marks that `n` must produce UPDATE_BEFORE, propagating to the nodes it passes changes through.
void RequireUpdateBefore(LogicalNode* n) {
  if (n->requires_update_before || !n->mode.HasUpdates()) return;
  n->requires_update_before = true;
  switch (n->kind) {
    case LogicalKind::kProject:
    case LogicalKind::kFilter:
    case LogicalKind::kUnion:
    case LogicalKind::kSink:
    case LogicalKind::kExpand:
    case LogicalKind::kCorrelate:
      for (const auto& in : n->inputs) RequireUpdateBefore(in.get());
      break;
    case LogicalKind::kTableScan:
    case LogicalKind::kValues:
    case LogicalKind::kAggregate:
    case LogicalKind::kWatermarkAssigner:
    case LogicalKind::kWindowTableFunction:
    case LogicalKind::kWindowAggregate:
    case LogicalKind::kJoin:  // requires UB of its inputs (below) and produces UB itself
    case LogicalKind::kRank:
    case LogicalKind::kOverAggregate:
      break;  // an aggregate produces UB itself; sources have no updates
  }
}

// The node that originates the updates reaching `n` (for error messages).
const LogicalNode* UpdateOrigin(const LogicalNode& n) {
  if (n.kind == LogicalKind::kAggregate ||
      (n.kind == LogicalKind::kRank && n.input().mode.IsInsertOnly())) {
    return &n;
  }
  if (n.kind == LogicalKind::kJoin && n.input(0).mode.IsInsertOnly() &&
      n.input(1).mode.IsInsertOnly()) {
    return &n;  // an outer or anti join of append-only inputs
  }
  for (const auto& in : n.inputs) {
    if (!in->mode.IsInsertOnly()) return UpdateOrigin(*in);
  }
  return &n;
}

std::string Digest(const LogicalNode& n) {
  switch (n.kind) {
    case LogicalKind::kJoin:
      return n.temporal          ? TemporalJoinDigest(n)
             : IsIntervalJoin(n) ? IntervalJoinDigest(n)
                                 : JoinDigest(n);
    case LogicalKind::kAggregate:
      return AggregateDigest(n);
    case LogicalKind::kWindowAggregate:
      return WindowAggregateDigest(n);
    case LogicalKind::kUnion:
      return UnionDigest(n);
    case LogicalKind::kRank:
      return RankDigest(n);
    case LogicalKind::kOverAggregate:
      return OverAggregateDigest(n);
    case LogicalKind::kTableScan:
    case LogicalKind::kValues:
    case LogicalKind::kProject:
    case LogicalKind::kFilter:
    case LogicalKind::kSink:
    case LogicalKind::kWatermarkAssigner:
    case LogicalKind::kWindowTableFunction:
      return LogicalNodeName(n.kind);
    case LogicalKind::kExpand:
      return ExpandDigest(n);
    case LogicalKind::kCorrelate:
      return CorrelateDigest(n);
  }
  return LogicalNodeName(n.kind);  // not reached: every kind is a case above
}

// Flink's wording of what a non-append-only mode holds.
std::string ChangesName(const ChangelogMode& mode) {
  if (mode.HasUpdates() && mode.del) return "update and delete changes";
  return mode.HasUpdates() ? "update changes" : "delete changes";
}

absl::Status SinkRequirements(LogicalNode* sink) {
  const LogicalNode& in = sink->input();
  const CatalogTable& table = *sink->sink_table;
  const ConnectorFactory* factory = ConnectorOf(table);
  if (in.mode.IsInsertOnly()) return absl::OkStatus();
  if (factory == nullptr || factory->sink_changes() == SinkChanges::kInsertOnly) {
    return ValidationError(absl::StrCat("Table sink '", table.path.ToString(),
                                        "' doesn't support consuming ", ChangesName(in.mode),
                                        " which is produced by node ", Digest(*UpdateOrigin(in))));
  }
  bool need_ub = factory->sink_changes() == SinkChanges::kRetract;
  if (!need_ub && !table.primary_key.empty()) {
    // An upsert sink keyed differently from the query would overwrite the wrong rows: fall back to
    // retractions.
    std::set<int> pk;
    for (const auto& col : table.primary_key) {
      if (auto i = table.schema.FindField(col)) pk.insert(*i);
    }
    need_ub = true;
    for (const std::vector<int>& key : UpsertKeys(in)) {
      if (std::set<int>(key.begin(), key.end()) == pk) need_ub = false;
    }
  }
  if (need_ub) RequireUpdateBefore(sink);
  return absl::OkStatus();
}

}  // namespace

namespace {

bool Contains(const std::vector<int>& keys, const std::vector<int>& columns) {
  return std::all_of(columns.begin(), columns.end(),
                     [&](int c) { return std::find(keys.begin(), keys.end(), c) != keys.end(); });
}

// Whether an update on either input of `join` keeps its join key: every updating input has a
// unique key within its join keys (Flink's condition for a join to take and give updates without
// UPDATE_BEFORE). Then an update joins the same rows before and after it.
bool UpdatesKeepJoinKeys(const LogicalNode& join) {
  for (int i = 0; i < 2; ++i) {
    const LogicalNode& in = join.input(i);
    if (in.mode.IsInsertOnly()) continue;
    std::optional<std::vector<int>> key = UniqueKey(in);
    if (!key || key->empty() || !Contains(i == 0 ? join.left_keys : join.right_keys, *key)) {
      return false;
    }
  }
  return true;
}

// The upsert keys of a regular join's output, as Flink derives them (FlinkRelMdUpsertKeys): a
// semi or anti join keeps the left side's; otherwise the two sides' unique keys together, and one
// side's alone when the other side has at most one row per join key (inner joins, and the
// preserved side of an outer join). None unless updates keep the join keys.
std::vector<std::vector<int>> JoinUpsertKeys(const LogicalNode& n) {
  if (n.temporal || IsIntervalJoin(n) || !UpdatesKeepJoinKeys(n)) return {};
  std::optional<std::vector<int>> left = UniqueKey(n.input(0));
  if (n.join_type == JoinType::kSemi || n.join_type == JoinType::kAnti) {
    return left ? std::vector<std::vector<int>>{*left} : std::vector<std::vector<int>>{};
  }
  std::optional<std::vector<int>> right = UniqueKey(n.input(1));
  const int nl = static_cast<int>(n.input(0).schema.size());
  if (right) {
    for (int& c : *right) c += nl;
  }
  std::vector<int> right_join_keys;
  for (int k : n.right_keys) right_join_keys.push_back(k + nl);
  std::vector<std::vector<int>> keys;
  const bool left_preserved = n.join_type == JoinType::kInner || n.join_type == JoinType::kLeft;
  const bool right_preserved = n.join_type == JoinType::kInner || n.join_type == JoinType::kRight;
  if (left && right && Contains(right_join_keys, *right) && left_preserved) keys.push_back(*left);
  if (left && right && Contains(n.left_keys, *left) && right_preserved) keys.push_back(*right);
  if (left && right) {
    std::vector<int> both = *left;
    both.insert(both.end(), right->begin(), right->end());
    keys.push_back(std::move(both));
  }
  return keys;
}

}  // namespace

std::vector<std::vector<int>> UpsertKeys(const LogicalNode& n) {
  switch (n.kind) {
    case LogicalKind::kAggregate: {
      std::vector<int> key;
      for (size_t i = 0; i < n.group_keys.size(); ++i) key.push_back(static_cast<int>(i));
      return {key};
    }
    case LogicalKind::kFilter:
    case LogicalKind::kSink:
      return UpsertKeys(n.input());
    case LogicalKind::kProject: {
      std::vector<std::vector<int>> out;
      for (const std::vector<int>& in : UpsertKeys(n.input())) {
        std::vector<int> key;
        for (int c : in) {
          int found = -1;
          for (size_t j = 0; j < n.projections.size() && found < 0; ++j) {
            if (IsColumnRef(*n.projections[j], c)) found = static_cast<int>(j);
          }
          if (found < 0) break;  // a key column was projected away
          key.push_back(found);
        }
        if (key.size() == in.size()) out.push_back(std::move(key));
      }
      return out;
    }
    case LogicalKind::kJoin:
      return JoinUpsertKeys(n);
    case LogicalKind::kTableScan: {
      // An upsert source's changes are by its primary key.
      std::optional<std::vector<int>> key = UniqueKey(n);
      if (key && !n.mode.IsInsertOnly()) return {*key};
      return {};
    }
    case LogicalKind::kValues:
    case LogicalKind::kUnion:
    case LogicalKind::kWatermarkAssigner:
    case LogicalKind::kWindowTableFunction:
    case LogicalKind::kWindowAggregate:
    case LogicalKind::kOverAggregate:
    case LogicalKind::kExpand:     // a row per grouping set: no key of the input is one here
    case LogicalKind::kCorrelate:  // several rows per input row
      return {};
    case LogicalKind::kRank: {
      // One row per partition and row number; with one rank only, one row per partition. Not
      // with RANK/DENSE_RANK, whose ties share a number.
      if (n.rank.function != RankSpec::Function::kRowNumber) return {};
      std::vector<int> key = n.rank.partition_keys;
      if (n.rank.output_rank_number) {
        key.push_back(static_cast<int>(n.schema.size()) - 1);
      } else if (n.rank.rank_end != 1 || key.empty()) {
        return {};
      }
      return {key};
    }
  }
  return {};  // not reached: every kind is a case above
}

absl::Status InferChangelogModes(const std::vector<LogicalNodePtr>& sinks, bool batch) {
  std::unordered_set<const LogicalNode*> seen;
  std::vector<LogicalNode*> order;
  for (const auto& s : sinks) TopoOrder(s, &seen, &order);
  for (LogicalNode* n : order) n->requires_update_before = false;
  ComputeModes(order, batch);
  // A root that is not a Sink is a bare query (EXPLAIN SELECT): like Flink, its consumer is taken
  // to need retractions, as a client collecting the result would.
  for (const auto& s : sinks) {
    if (s->kind != LogicalKind::kSink) RequireUpdateBefore(s.get());
  }
  for (LogicalNode* n : order) {
    // An aggregate must subtract old values, so it needs UB from an updating input. A filter over
    // updates needs UB too: an update that stops matching must retract the old row (FLINK-9528).
    if (n->kind == LogicalKind::kAggregate ||
        (n->kind == LogicalKind::kFilter && n->input().mode.HasUpdates())) {
      RequireUpdateBefore(n->inputs[0].get());
    }
    // A Top-N over updates keeps every row and must remove the exact old row of an update.
    if (n->kind == LogicalKind::kRank) RequireUpdateBefore(n->inputs[0].get());
    // A join keeps each side's rows and must retract the exact old row of an update.
    if (n->kind == LogicalKind::kJoin && !n->temporal) {
      RequireUpdateBefore(n->inputs[0].get());
      RequireUpdateBefore(n->inputs[1].get());
    }
    // A temporal join buffers its left rows until their time: they must be inserts.
    if (n->kind == LogicalKind::kJoin && n->temporal && !n->input(0).mode.IsInsertOnly()) {
      return ValidationError(absl::StrCat(
          "a temporal join's left input must be append-only, but it has updates produced by node ",
          Digest(*UpdateOrigin(n->input(0)))));
    }
    // Windows are defined on event time; an update would have to retract a fired window.
    // A temporal sort emits each row once, in time order.
    const bool temporal_sort =
        n->kind == LogicalKind::kRank && n->rank.origin == RankSpec::Origin::kTemporalSort;
    if ((n->kind == LogicalKind::kWindowAggregate || n->kind == LogicalKind::kWindowTableFunction ||
         n->kind == LogicalKind::kOverAggregate || temporal_sort) &&
        !n->input().mode.IsInsertOnly()) {
      return ValidationError(
          absl::StrCat(n->kind == LogicalKind::kWindowAggregate ? "WindowAggregate"
                       : n->kind == LogicalKind::kOverAggregate ? "OverAggregate"
                       : temporal_sort                          ? "TemporalSort"
                                                                : "WindowTableFunction",
                       " doesn't support consuming update changes which is produced by node ",
                       Digest(*UpdateOrigin(n->input()))));
    }
    if (n->kind == LogicalKind::kSink) {
      absl::Status s = SinkRequirements(n);
      if (!s.ok()) return s;
    }
  }
  ComputeModes(order, batch);
  return absl::OkStatus();
}

}  // namespace eddy::planner
