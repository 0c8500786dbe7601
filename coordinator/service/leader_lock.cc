#include "coordinator/service/leader_lock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/base/logging.h"

namespace eddy {
namespace {

// What the holder wrote into the file: its pid and when it took the lock.
std::string HolderOf(int fd) {
  char buffer[256] = {};
  const ssize_t n = ::pread(fd, buffer, sizeof(buffer) - 1, 0);
  std::string holder = n > 0 ? std::string(buffer, static_cast<size_t>(n)) : "";
  while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
  return holder.empty() ? "another coordinator" : holder;
}

}  // namespace

absl::StatusOr<LeaderLock> LeaderLock::Acquire(const std::string& data_dir, bool wait) {
  const std::string path = data_dir + "/coordinator.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      return absl::FailedPreconditionError(absl::StrCat("cannot lock '", path, "': ", why));
    }
    const std::string holder = HolderOf(fd);
    if (!wait) {
      ::close(fd);
      return absl::FailedPreconditionError(
          absl::StrCat("the data directory '", data_dir, "' is in use by ", holder, " (", path,
                       "); start this coordinator with --standby to take over when that one ends"));
    }
    EDDY_LOG_INFO("standby: the data directory {} is in use by {}; waiting to take over", data_dir,
                  holder);
    // Polled rather than blocking, so that a termination signal (blocked for sigwait by the
    // coordinator's main) still stops a standby.
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        const std::string why = std::strerror(errno);
        ::close(fd);
        return absl::FailedPreconditionError(absl::StrCat("cannot lock '", path, "': ", why));
      }
      sigset_t pending;
      if (::sigpending(&pending) == 0 &&
          (::sigismember(&pending, SIGTERM) == 1 || ::sigismember(&pending, SIGINT) == 1)) {
        ::close(fd);
        return absl::CancelledError("stopped while waiting as a standby");
      }
      ::usleep(100 * 1000);
    }
    EDDY_LOG_INFO("standby: the data directory {} is free; this coordinator takes over", data_dir);
  }
  const std::string me = absl::StrCat("coordinator pid ", ::getpid(), "\n");
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, me.data(), me.size(), 0) < 0) {
    EDDY_LOG_WARN("cannot record this coordinator in {}: {}", path, std::strerror(errno));
  }
  return LeaderLock(fd);
}

LeaderLock& LeaderLock::operator=(LeaderLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

LeaderLock::~LeaderLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

}  // namespace eddy
