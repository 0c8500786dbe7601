// The directories a server lets the filesystem connector read and write (--filesystem-allowed-dirs
// on eddy-coordinator, eddy-worker and eddy), and the check of a table's path against them. Paths
// are compared after resolving '.', '..' and symlinks (as far as the path exists), so neither a
// relative escape nor a link out of an allowed directory passes.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace eddy {

// The help line of --filesystem-allowed-dirs on eddy-coordinator, eddy-worker and eddy (default:
// the working directory).
inline constexpr char kFilesystemAllowedDirsHelp[] =
    "comma-separated directories the filesystem connector may read and write, subdirectories "
    "included ('' allows none, '/' everything)";

// The flag's default: the process's working directory (canonical).
std::string DefaultFilesystemAllowedDir();

// Parses the comma-separated flag value into canonical absolute directories. Blank entries are
// ignored, so an empty value allows nothing. Relative entries resolve against the working
// directory.
absl::StatusOr<std::vector<std::string>> ParseFilesystemAllowedDirs(const std::string& flag_value);

// `path` made absolute (against the working directory) with '.', '..' and the symlinks of its
// existing part resolved, without a trailing '/'.
absl::StatusOr<std::string> CanonicalFilesystemPath(const std::string& path);

// True when canonical `path` is one of `dirs` or lies below one of them.
bool IsUnderAllowedDir(const std::string& path, const std::vector<std::string>& dirs);

// `'/a', '/b'` for messages; `none` when empty.
std::string DescribeAllowedDirs(const std::vector<std::string>& dirs);
// The end of an "outside ..." message: `the directories this <server> allows
// (--filesystem-allowed-dirs: '/a', '/b')`.
std::string AllowedDirsOf(const char* server, const std::vector<std::string>& dirs);

}  // namespace eddy
