// Makes the entries of a directory durable (fsync of the directory itself): what a rename or a new
// file needs before a crash can no longer undo it. Used wherever a file is published by renaming
// it into place (checkpoint metadata and state files, the filesystem sink).
#pragma once

#include <string>

#include "absl/status/status.h"

namespace eddy {

// An error names the directory and the system's reason.
absl::Status SyncDirectory(const std::string& dir);

}  // namespace eddy
