#include "worker/connectors/filesystem_commit_policy.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>

#include "absl/strings/str_cat.h"

namespace eddy {

absl::Status RunPartitionCommitPolicies(const FilesystemOptions& options,
                                        const std::string& partition_dir) {
  if (!options.commit_success_file) return absl::OkStatus();
  const std::string path = absl::StrCat(partition_dir, "/", options.success_file_name);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    return absl::InternalError(
        absl::StrCat("cannot write the success file '", path, "': ", std::strerror(error)));
  }
  ::close(fd);
  return absl::OkStatus();
}

}  // namespace eddy
