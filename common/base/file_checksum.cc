#include "common/base/file_checksum.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace eddy {

uint32_t Crc32Update(uint32_t crc, const void* data, size_t n) {
  const Bytef* p = static_cast<const Bytef*>(data);
  while (n > 0) {  // zlib takes uInt lengths
    const uInt chunk = static_cast<uInt>(std::min<size_t>(n, size_t{1} << 30));
    crc = static_cast<uint32_t>(crc32(crc, p, chunk));
    p += chunk;
    n -= chunk;
  }
  return crc;
}

absl::StatusOr<FileChecksum> ChecksumFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::NotFoundError(absl::StrCat("cannot read '", path, "': ", std::strerror(errno)));
  }
  FileChecksum sum;
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return absl::DataLossError(absl::StrCat("cannot read '", path, "': ", std::strerror(err)));
    }
    if (n == 0) break;
    sum.crc32 = Crc32Update(sum.crc32, buf, static_cast<size_t>(n));
    sum.size += static_cast<uint64_t>(n);
  }
  ::close(fd);
  return sum;
}

}  // namespace eddy
