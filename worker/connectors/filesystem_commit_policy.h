// The partition commit policies of the filesystem connector (sink.partition-commit.policy.kind),
// run on one partition directory whose parts are published: 'success-file' writes an empty
// success file into it (synced, so a reader that sees it finds every part it announces);
// 'metastore' has nothing to do, since the catalog discovers partitions from the directories.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "common/connectors/filesystem_connector.h"

namespace eddy {

// Errors name the file and the cause, for the caller to prefix with its table.
absl::Status RunPartitionCommitPolicies(const FilesystemOptions& options,
                                        const std::string& partition_dir);

}  // namespace eddy
