// What the coordinator's /metrics shows (docs/metrics.md lists every name with Flink's
// equivalent): jobs by status, workers and slots, per job its uptime, restarts and checkpoints
// and its operators' row counts summed over subtasks (kept after the job ends, as long as the job
// is listed), and the process.
#pragma once

#include <string>

#include "coordinator/cluster/job_manager.h"
#include "coordinator/cluster/worker_registry.h"

namespace eddy {

std::string CoordinatorMetricsText(JobManager& jobs, WorkerRegistry& workers);

}  // namespace eddy
