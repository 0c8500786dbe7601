#include "coordinator/catalog/table_path.h"

#include "absl/strings/str_cat.h"
#include "common/base/allowed_paths.h"

namespace eddy {

absl::StatusOr<std::string> CanonicalTablePath(const std::vector<std::string>& allowed_dirs,
                                               const std::string& table, const std::string* path) {
  if (path == nullptr || path->empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Validation error: filesystem table '", table, "' has no option 'path'"));
  }
  auto canonical = CanonicalFilesystemPath(*path);
  if (!canonical.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("Validation error: option 'path' of table '",
                                                   table, "': ", canonical.status().message()));
  }
  if (!IsUnderAllowedDir(*canonical, allowed_dirs)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Validation error: path '", *path, "' of filesystem table '", table,
                     "' is outside ", AllowedDirsOf("server", allowed_dirs)));
  }
  return canonical;
}

}  // namespace eddy
