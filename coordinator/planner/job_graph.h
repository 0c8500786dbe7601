// Splits a planned job's node DAG into stages (tasks) at exchange points: a hash (or singleton)
// exchange before every GroupAggregate and GlobalGroupAggregate not fed by parallelism 1 into
// parallelism 1 (a LocalGroupAggregate chains into its input's stage), before each input of a Join
// (hash by that side's keys; singleton into parallelism 1 without keys), a rebalance wherever the
// parallelism changes, forward (chained in one task) otherwise. VALUES run at 1.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/planner/planner.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

// One upstream stage feeding a stage's ExchangeSource.
struct JobEdge {
  int producer = 0;       // stage index
  int producer_node = 0;  // node id (in the producer stage) whose output is shipped
  v1::ExchangeSink::Partitioning partitioning = v1::ExchangeSink::FORWARD;
  std::vector<int> hash_keys;  // HASH only: the consumer aggregate's group keys
  int input_index = 0;         // the consumer's gate: which input of its stage (a join has two)
};

struct JobStage {
  // The task's nodes, topologically ordered; one ExchangeSource per input gate first when `inputs`
  // is non-empty. ExchangeSinks are not included: the deployment adds them (they need consumer
  // addresses).
  std::vector<v1::PlanNode> nodes;
  int parallelism = 1;
  std::vector<JobEdge> inputs;  // per input gate, in its ExchangeSource's channel order
};

struct JobGraph {
  std::vector<JobStage> stages;  // producers before consumers
  int MaxParallelism() const;
};

// A filesystem sink of a partitioned table with a commit policy
// (sink.partition-commit.policy.kind), outside batch mode: as in Flink, its writers report the
// partitions they published to a PartitionCommitter node the job graph adds after it, one subtask
// in a stage of its own fed by a singleton exchange; the sink node in the graph has
// TableSink.report_partition_commits set.
bool HasPartitionCommitter(const v1::TableSink& sink);

// A filesystem sink of a partitioned table with sink.shuffle-by-partition.enable: its rows reach
// it hash-partitioned by the partition columns, so each partition is written by one subtask.
bool SinkShufflesByPartition(const v1::TableSink& sink);

// Reads `parallelism.default` from `config` (default 1; `table.exec.resource.default-parallelism`
// overrides it when positive) and each sink's `sink.parallelism`.
absl::StatusOr<JobGraph> BuildJobGraph(const std::vector<v1::PlanNode>& nodes,
                                       const ConfigMap& config);

}  // namespace eddy
