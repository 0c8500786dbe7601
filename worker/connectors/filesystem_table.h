// What the filesystem source and sink both read from a table's options when they are created: the
// format and the canonical path, which must lie within the worker's --filesystem-allowed-dirs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/connectors/file_format.h"

namespace eddy {

struct FilesystemTable {
  FileFormatOptions format;
  std::string path;  // canonical
};

// Errors are messages for the connector to prefix with its table's name.
absl::StatusOr<FilesystemTable> ReadFilesystemTable(
    const std::map<std::string, std::string>& options,
    const std::vector<std::string>& allowed_dirs);

}  // namespace eddy
