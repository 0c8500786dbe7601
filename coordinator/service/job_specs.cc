#include "coordinator/service/job_specs.h"

#include <memory>

#include "common/base/status_macros.h"
#include "coordinator/checkpoint/checkpoint_config.h"
#include "coordinator/cluster/restart_strategy.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/job_graph.h"
#include "coordinator/service/batch_file_commit.h"
#include "coordinator/service/deployment_builder.h"

namespace eddy {

v1::StoredJobSpec MakeStoredJobSpec(const std::string& name, bool query, bool bounded,
                                    const std::vector<v1::PlanNode>& nodes,
                                    const std::vector<v1::UserLibrary>& libraries,
                                    const std::map<std::string, std::string>& config,
                                    const std::string& default_checkpoints_dir) {
  v1::StoredJobSpec stored;
  stored.set_name(name);
  stored.set_query(query);
  stored.set_bounded(bounded);
  for (const v1::PlanNode& n : nodes) *stored.add_nodes() = n;
  for (const v1::UserLibrary& lib : libraries) *stored.add_user_libraries() = lib;
  for (const auto& [k, v] : config) (*stored.mutable_config())[k] = v;
  stored.set_default_checkpoints_dir(default_checkpoints_dir);
  return stored;
}

absl::StatusOr<JobManager::JobSpec> JobSpecFrom(const v1::StoredJobSpec& stored) {
  const std::vector<v1::PlanNode> nodes(stored.nodes().begin(), stored.nodes().end());
  const std::map<std::string, std::string> config(stored.config().begin(), stored.config().end());
  ASSIGN_OR_RETURN(JobGraph built_graph, BuildJobGraph(nodes, config));
  JobManager::JobSpec spec;
  spec.name = stored.name();
  spec.slots_needed = built_graph.MaxParallelism();
  ASSIGN_OR_RETURN(spec.checkpointing,
                   CheckpointConfigFrom(config, stored.default_checkpoints_dir()));
  spec.collects_results = stored.query();
  // Batch mode: checkpoints are not used (as Flink): a failed batch job restarts from the start.
  if (planner::IsBatchMode(config)) spec.checkpointing = CheckpointConfig{};
  spec.on_end = BatchSinkCommitter(nodes);
  if (!stored.query() || spec.checkpointing.enabled()) {
    ASSIGN_OR_RETURN(spec.restart, MakeRestartStrategy(config, spec.checkpointing.enabled()));
  }
  // The builder runs again for every restart: it owns the graph and the configuration.
  auto graph = std::make_shared<const JobGraph>(std::move(built_graph));
  auto libraries = std::make_shared<const std::vector<v1::UserLibrary>>(
      stored.user_libraries().begin(), stored.user_libraries().end());
  spec.build = [graph, config, libraries](const std::string& id,
                                          const std::vector<std::string>& workers,
                                          const std::vector<std::string>& addresses)
      -> absl::StatusOr<std::vector<v1::TaskDeployment>> {
    ASSIGN_OR_RETURN(std::vector<v1::TaskDeployment> deployments,
                     BuildDeployments(*graph, id, workers, addresses, config));
    for (v1::TaskDeployment& d : deployments) {
      for (const v1::UserLibrary& lib : *libraries) *d.add_user_libraries() = lib;
    }
    return deployments;
  };
  spec.stored = stored;
  return spec;
}

}  // namespace eddy
