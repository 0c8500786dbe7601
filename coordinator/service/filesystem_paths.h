// The coordinator's check of filesystem tables before a job is deployed: every filesystem source
// and sink path of the plan is made absolute (against the coordinator's working directory), its
// '..' and symlinks resolved, and checked against --filesystem-allowed-dirs. Workers check again.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

// Rewrites each filesystem node's 'path' option to its canonical form; a path outside
// `allowed_dirs` (canonical) is a validation error naming the table and the path.
absl::Status ResolveFilesystemPaths(const std::vector<std::string>& allowed_dirs,
                                    std::vector<v1::PlanNode>* nodes);

}  // namespace eddy
