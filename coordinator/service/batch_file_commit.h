// The end-of-job commit of a batch job's filesystem sinks (TableSink.commit_at_job_end): when the
// job finishes, each such sink's staged parts are moved into its table (replacing the table's files
// for INSERT OVERWRITE); when it fails or is cancelled, the staging is removed and the tables keep
// what they had. See common/connectors/filesystem_staging.h for the layout.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

// The job's end hook (JobManager::JobSpec::on_end) for the batch filesystem sinks of `nodes`
// (their paths already canonical), or null when there are none.
std::function<absl::Status(const std::string& job_id, bool finished)> BatchSinkCommitter(
    const std::vector<v1::PlanNode>& nodes);

}  // namespace eddy
