#include "worker/connectors/filesystem_table.h"

#include "absl/strings/str_cat.h"
#include "common/base/allowed_paths.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<FilesystemTable> ReadFilesystemTable(
    const std::map<std::string, std::string>& options,
    const std::vector<std::string>& allowed_dirs) {
  FilesystemTable t;
  ASSIGN_OR_RETURN(t.format, FileFormatFromOptions(options));
  auto path = options.find("path");
  if (path == options.end() || path->second.empty()) {
    return absl::InvalidArgumentError("option 'path' is missing");
  }
  ASSIGN_OR_RETURN(t.path, CanonicalFilesystemPath(path->second));
  if (!IsUnderAllowedDir(t.path, allowed_dirs)) {
    return absl::InvalidArgumentError(absl::StrCat("path '", path->second, "' is outside ",
                                                   AllowedDirsOf("worker", allowed_dirs)));
  }
  return t;
}

}  // namespace eddy
