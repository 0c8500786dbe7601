// Where a filesystem table's files are: its 'path' option made canonical (absolute, '..' and
// symlinks resolved) and checked against the coordinator's --filesystem-allowed-dirs, for
// everything the coordinator does with a table's files (deployment, SHOW PARTITIONS, ALTER TABLE
// ADD/DROP PARTITION, TRUNCATE TABLE).
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace eddy {

// `path` is the 'path' option (null when absent) of filesystem table `table`; absent, empty, or
// outside `allowed_dirs` (canonical) is a validation error naming the table and the path.
absl::StatusOr<std::string> CanonicalTablePath(const std::vector<std::string>& allowed_dirs,
                                               const std::string& table, const std::string* path);

}  // namespace eddy
