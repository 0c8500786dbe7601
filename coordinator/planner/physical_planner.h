// Translation of the logical plan (after changelog-mode inference) into the worker's PlanNodes:
// TableScan -> datagen, nexmark or filesystem source, Values -> values source, adjacent
// Project/Filter -> one Calc (dropped when it is an identity without a filter), Aggregate ->
// GroupAggregate, Union -> UnionAll, Sink, Expand, WatermarkAssigner and WindowAggregate as they
// are. With mini-batch on, a source that feeds an aggregate is followed by a MiniBatchAssigner, and
// an aggregate splits into LocalGroupAggregate + GlobalGroupAggregate (two_phase_aggregate.h), as
// in Flink. A logical node shared by several consumers is emitted once; BuildPhysicalPlan then
// merges identical sub-plans (reuse_sub_plans.h).
#pragma once

#include <chrono>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/planner/logical_plan.h"
#include "coordinator/planner/planner.h"
#include "coordinator/planner/two_phase_aggregate.h"
#include "eddy/v1/plan.pb.h"

namespace eddy::planner {

// A job's optimized DAG. Node ids are indexes into `nodes`.
struct PhysicalPlan {
  std::vector<v1::PlanNode> nodes;   // inputs before consumers
  std::vector<ChangelogMode> modes;  // what each node produces (EXPLAIN CHANGELOG_MODE)
  std::vector<int> roots;            // the node of each root, in the order given
  bool bounded = true;
  // The streaming GroupAggregates left in one phase (mini-batch off, or ONE_PHASE) whose calls
  // would all split into local and global phases (EXPLAIN PLAN_ADVICE suggests the settings).
  std::set<int> splittable_one_phase_aggregates;
};

// Translates `roots` (sinks, or one bare query for EXPLAIN; changelog modes already inferred) and
// merges identical sub-plans as the table.optimizer.reuse-* keys of `config` allow. Stateful nodes
// get their stable state ids last (state_ids.h).
absl::StatusOr<PhysicalPlan> BuildPhysicalPlan(const std::vector<LogicalNodePtr>& roots,
                                               const ConfigMap& config);

// table.exec.mini-batch.size when unset.
inline constexpr int kDefaultMiniBatchSize = 1000;

// table.exec.mini-batch.* as the aggregates get it; size 0 = off.
struct MiniBatchSettings {
  int size = 0;
  int64_t latency_ms = 0;
};
absl::StatusOr<MiniBatchSettings> MiniBatchFromConfig(const ConfigMap& config);

class PhysicalPlanner {
 public:
  explicit PhysicalPlanner(MiniBatchSettings mini_batch = {},
                           AggPhaseStrategy agg_phase = AggPhaseStrategy::kAuto)
      : mini_batch_(mini_batch), agg_phase_(agg_phase) {}

  // Batch mode (changelog modes inferred for batch): aggregates become HashAggregates, ORDER BY a
  // Sort, a node marked batch_materialize gets a ChangelogMaterialize, and an unbounded source is
  // an error naming its table.
  void set_batch(bool batch) { batch_ = batch; }

  // table.exec.state.ttl for the aggregates' state (0: forever).
  void set_state_ttl_ms(int64_t ttl_ms) { state_ttl_ms_ = ttl_ms; }

  // With mini-batch on: the sources below an aggregate of `roots` get a MiniBatchAssigner above
  // them. Call before Translate.
  void PlanMiniBatchAssigners(const std::vector<LogicalNodePtr>& roots);

  // table.exec.source.idle-timeout, for WatermarkAssigner nodes (0: off).
  void set_source_idle_timeout_ms(int64_t ms) { source_idle_timeout_ms_ = ms; }

  // table.exec.sink.not-null-enforcer is DROP: sinks drop the rows with a null in a NOT NULL
  // column instead of failing the job.
  void set_drop_rows_with_nulls(bool drop) { drop_rows_with_nulls_ = drop; }

  // Emits `root` and everything below it; returns the id of root's PlanNode.
  absl::StatusOr<int> Translate(const LogicalNodePtr& root);

  // Topologically ordered: inputs before consumers.
  std::vector<v1::PlanNode>& nodes() { return nodes_; }
  // One per node: the changelog mode of the logical node it was made from.
  std::vector<ChangelogMode>& modes() { return modes_; }
  // False once any emitted source is unbounded.
  bool bounded() const { return bounded_; }
  const std::set<int>& splittable_one_phase_aggregates() const {
    return splittable_one_phase_aggregates_;
  }

 private:
  absl::StatusOr<int> TranslateCalc(const LogicalNodePtr& top);
  absl::Status FillJoin(const LogicalNode& n, v1::Join* join) const;
  absl::Status FillIntervalJoin(const LogicalNode& n, v1::IntervalJoin* join) const;
  absl::Status FillTemporalJoin(const LogicalNode& n, v1::TemporalJoin* join) const;
  // A Rank as a Top-N or, when it is one (IsDeduplicate), a Deduplicate; an error for a row number
  // no filter bounds.
  absl::Status FillRank(const LogicalNode& n, v1::PlanNode* p) const;
  void FillAggregate(const LogicalNode& aggregate, v1::GroupAggregate* out) const;
  // LocalGroupAggregate over `input`, then GlobalGroupAggregate; returns the global's id.
  int TranslateTwoPhase(const LogicalNode& aggregate, int input, const PartialLayout& layout);
  v1::PlanNode* NewNode(const LogicalNode& logical, const Schema& schema);
  // The MiniBatchAssigner over source node `source` when it needs one, else `source`.
  int WithMiniBatchAssigner(const LogicalNode& logical, int source);

  std::vector<v1::PlanNode> nodes_;
  std::vector<ChangelogMode> modes_;
  std::unordered_map<const LogicalNode*, int> ids_;
  bool bounded_ = true;
  std::set<int> splittable_one_phase_aggregates_;
  bool batch_ = false;
  std::vector<LogicalNodePtr> materialized_;  // batch: the node copies Translate made
  MiniBatchSettings mini_batch_;
  int64_t source_idle_timeout_ms_ = 0;
  bool drop_rows_with_nulls_ = false;
  AggPhaseStrategy agg_phase_;
  int64_t state_ttl_ms_ = 0;
  // The time this plan is made (epoch ms): a nexmark table's first event time by default.
  int64_t plan_time_ms_ = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
  std::unordered_set<const LogicalNode*> mini_batch_sources_;
};

}  // namespace eddy::planner
