// What the filesystem source and sink both read from a table's options when they are created: the
// options (common/connectors/filesystem_connector.h, as the planner validated them) and the
// canonical path, which must lie within the worker's --filesystem-allowed-dirs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/filesystem_connector.h"

namespace eddy {

struct FilesystemTable {
  FilesystemOptions options;
  std::string path;  // canonical
};

// Errors are messages for the connector to prefix with its table's name.
absl::StatusOr<FilesystemTable> ReadFilesystemTable(
    const std::string& table, const std::map<std::string, std::string>& options,
    const std::vector<std::string>& allowed_dirs);

}  // namespace eddy
