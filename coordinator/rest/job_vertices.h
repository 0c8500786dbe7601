// A job's vertices for the REST API and the dashboard: its job graph made again from the plan the
// job store keeps (the same deterministic BuildJobGraph its deployments come from, so node ids
// match what workers report), each vertex with the row counts of its operators summed over
// subtasks.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "eddy/v1/client.pb.h"
#include "eddy/v1/job_store.pb.h"
#include "eddy/v1/rest.pb.h"

namespace eddy {

struct JobTopology {
  std::vector<v1::RestVertex> vertices;
  std::vector<v1::RestPlanNode> nodes;
};

// `info` (may be null) adds the metrics; without it the vertices have none.
absl::StatusOr<JobTopology> BuildJobTopology(const v1::StoredJobSpec& spec,
                                             const v1::JobInfo* info);

// "RUNNING" for JOB_STATUS_RUNNING.
std::string JobStateName(v1::JobStatus status);

}  // namespace eddy
