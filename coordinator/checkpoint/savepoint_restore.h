// Matching a savepoint's state to the operators of a job started from it (Flink's state
// assignment): state goes to the operator with the same stable state id; an operator whose state
// has another shape (kind, key, accumulator or row types) is refused, naming it; state no
// operator claims is refused unless execution.savepoint.ignore-unclaimed-state is set. Keyed state
// taken at another parallelism is handed out by key group: each new subtask receives every old
// subtask's handle whose key-group range overlaps its own and keeps only its key groups, of its
// keyed state and, for operators whose timers and window bookkeeping name their key groups, of
// those too.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "coordinator/checkpoint/savepoint_store.h"
#include "eddy/v1/checkpoint.pb.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

// The id a node's state carries in snapshots: its keyed state id, else node id + 1.
uint32_t StateHandleIdOf(const v1::PlanNode& node);

// What `node`'s state looks like: its kind, the types of its inputs and output, and for aggregates
// their functions and whether they keep retractable or TTL'd values. `tasks` gives its inputs.
std::string StateSchemaOf(const v1::PlanNode& node, const v1::TaskDeployment& task);

// One descriptor per node of the job (`tasks`: every subtask's deployment; nodes are the same
// for the subtasks of a task).
std::vector<v1::OperatorStateDescriptor> DescribeOperators(
    const std::vector<v1::TaskDeployment>& tasks);

// Whether `node` is a keyed operator whose own state (timers, pending windows; besides its keyed
// state) is partitioned by key group, so that it can be restored at another parallelism: window
// aggregations (TUMBLE/HOP/CUMULATE, session), window Top-N, OVER aggregations, interval and
// temporal joins. Keyed operators without such state rescale anyway; sources and sinks do not.
bool KeyGroupPartitioned(const v1::PlanNode& node);

// The first and last key group subtask `index` of `parallelism` owns (Flink's ranges).
std::pair<int, int> KeyGroupRange(int max_parallelism, int parallelism, int index);

// Sets every subtask's restore state (TaskCheckpointing.restore, restore_job_dir,
// restore_checkpoint_id, restore_parallelism) from `savepoint`, or fails naming the savepoint and
// the operator that does not fit.
absl::Status AssignSavepointState(const LoadedSavepoint& savepoint, bool ignore_unclaimed_state,
                                  std::vector<v1::TaskDeployment>* tasks);

}  // namespace eddy
