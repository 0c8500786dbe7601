// The one-active-coordinator rule for a data directory: the coordinator that holds an exclusive
// lock on <data-dir>/coordinator.lock (flock) is the active one; a standby coordinator started on
// the same directory waits for the lock, which the kernel releases when the active process ends
// (even by SIGKILL), and then takes over: it opens the catalog and job store and recovers the
// jobs as a restarted coordinator does. Only processes of one host share a flock reliably, so
// standbys run on the host of the data directory (docs/fault-tolerance.md, "Standby coordinators").
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace eddy {

class LeaderLock {
 public:
  // Takes the lock or fails at once naming the process that holds it (`wait` false), or waits
  // for it, logging that this coordinator is a standby (`wait` true).
  static absl::StatusOr<LeaderLock> Acquire(const std::string& data_dir, bool wait);
  LeaderLock(LeaderLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  LeaderLock& operator=(LeaderLock&& other) noexcept;
  LeaderLock(const LeaderLock&) = delete;
  LeaderLock& operator=(const LeaderLock&) = delete;
  ~LeaderLock();

 private:
  explicit LeaderLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace eddy
