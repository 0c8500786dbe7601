#include "common/base/sync_directory.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace eddy {

absl::Status SyncDirectory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return absl::InternalError(
        absl::StrCat("cannot open directory '", dir, "' to sync it: ", std::strerror(errno)));
  }
  const int rc = ::fsync(fd);
  const int sync_errno = errno;
  ::close(fd);
  if (rc != 0) {
    return absl::InternalError(
        absl::StrCat("cannot sync directory '", dir, "': ", std::strerror(sync_errno)));
  }
  return absl::OkStatus();
}

}  // namespace eddy
