#include "coordinator/planner/changelog_mode.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "coordinator/planner/connector_options.h"
#include "coordinator/planner/expr_util.h"
#include "coordinator/planner/plan_digest.h"
#include "coordinator/planner/planner_errors.h"

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
void ComputeModes(const std::vector<LogicalNode*>& order) {
  for (LogicalNode* n : order) {
    switch (n->kind) {
      case LogicalKind::kTableScan:
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
      case LogicalKind::kExpand:  // each change once per grouping set
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
  const ConnectorCapabilities* caps = FindConnector(table.connector());
  if (in.mode.IsInsertOnly()) return absl::OkStatus();
  if (caps == nullptr || !caps->sink_accepts_updates) {
    return ValidationError(absl::StrCat("Table sink '", table.path.ToString(),
                                        "' doesn't support consuming ", ChangesName(in.mode),
                                        " which is produced by node ", Digest(*UpdateOrigin(in))));
  }
  bool need_ub = caps->sink_requires_update_before;
  if (!need_ub && !table.primary_key.empty()) {
    // An upsert sink keyed differently from the query would overwrite the wrong rows: fall back to
    // retractions.
    std::set<int> pk;
    for (const auto& col : table.primary_key) {
      if (auto i = table.schema.FindField(col)) pk.insert(*i);
    }
    std::optional<std::vector<int>> key = UpsertKey(in);
    need_ub = !key || std::set<int>(key->begin(), key->end()) != pk;
  }
  if (need_ub) RequireUpdateBefore(sink);
  return absl::OkStatus();
}

}  // namespace

std::optional<std::vector<int>> UpsertKey(const LogicalNode& n) {
  switch (n.kind) {
    case LogicalKind::kAggregate: {
      std::vector<int> key;
      for (size_t i = 0; i < n.group_keys.size(); ++i) key.push_back(static_cast<int>(i));
      return key;
    }
    case LogicalKind::kFilter:
    case LogicalKind::kSink:
      return UpsertKey(n.input());
    case LogicalKind::kProject: {
      std::optional<std::vector<int>> in = UpsertKey(n.input());
      if (!in) return std::nullopt;
      std::vector<int> key;
      for (int c : *in) {
        int found = -1;
        for (size_t j = 0; j < n.projections.size() && found < 0; ++j) {
          if (IsColumnRef(*n.projections[j], c)) found = static_cast<int>(j);
        }
        if (found < 0) return std::nullopt;  // a key column was projected away
        key.push_back(found);
      }
      return key;
    }
    case LogicalKind::kTableScan:
    case LogicalKind::kValues:
    case LogicalKind::kUnion:
    case LogicalKind::kWatermarkAssigner:
    case LogicalKind::kWindowTableFunction:
    case LogicalKind::kWindowAggregate:
    case LogicalKind::kJoin:
    case LogicalKind::kOverAggregate:
    case LogicalKind::kExpand:  // a row per grouping set: no key of the input is one here
      return std::nullopt;
    case LogicalKind::kRank: {
      // One row per partition and row number; with one rank only, one row per partition.
      std::vector<int> key = n.rank.partition_keys;
      if (n.rank.output_rank_number) {
        key.push_back(static_cast<int>(n.schema.size()) - 1);
      } else if (n.rank.rank_end != 1 || key.empty()) {
        return std::nullopt;
      }
      return key;
    }
  }
  return std::nullopt;  // not reached: every kind is a case above
}

absl::Status InferChangelogModes(const std::vector<LogicalNodePtr>& sinks) {
  std::unordered_set<const LogicalNode*> seen;
  std::vector<LogicalNode*> order;
  for (const auto& s : sinks) TopoOrder(s, &seen, &order);
  for (LogicalNode* n : order) n->requires_update_before = false;
  ComputeModes(order);
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
  ComputeModes(order);
  return absl::OkStatus();
}

}  // namespace eddy::planner
