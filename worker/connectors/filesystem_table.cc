#include "worker/connectors/filesystem_table.h"

#include "absl/strings/str_cat.h"
#include "common/base/allowed_paths.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<FilesystemTable> ReadFilesystemTable(
    const std::string& table, const std::map<std::string, std::string>& options,
    const std::vector<std::string>& allowed_dirs) {
  FilesystemTable t;
  ConnectorConfig config("filesystem", table, options);
  ASSIGN_OR_RETURN(t.options, ReadFilesystemOptions(config));
  ASSIGN_OR_RETURN(t.path, CanonicalFilesystemPath(t.options.path));
  if (!IsUnderAllowedDir(t.path, allowed_dirs)) {
    return absl::InvalidArgumentError(absl::StrCat("path '", t.options.path, "' is outside ",
                                                   AllowedDirsOf("worker", allowed_dirs)));
  }
  return t;
}

}  // namespace eddy
