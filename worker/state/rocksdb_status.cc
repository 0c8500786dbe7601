#include "worker/state/rocksdb_status.h"

#include <string>

namespace eddy::state_internal {

absl::Status FromRocksStatus(const rocksdb::Status& s, std::string_view op, std::string_view path) {
  if (s.ok()) return absl::OkStatus();
  std::string msg = "State backend ";
  msg.append(op.data(), op.size());
  msg += " failed at '";
  msg.append(path.data(), path.size());
  msg += "': ";
  msg += s.ToString();
  switch (s.code()) {
    case rocksdb::Status::kNotFound:
      return absl::NotFoundError(msg);
    case rocksdb::Status::kCorruption:
      return absl::DataLossError(msg);
    case rocksdb::Status::kNotSupported:
      return absl::UnimplementedError(msg);
    case rocksdb::Status::kInvalidArgument:
      return absl::InvalidArgumentError(msg);
    case rocksdb::Status::kBusy:
    case rocksdb::Status::kTryAgain:
    case rocksdb::Status::kTimedOut:
      return absl::UnavailableError(msg);
    case rocksdb::Status::kAborted:
      return absl::AbortedError(msg);
    case rocksdb::Status::kShutdownInProgress:
      return absl::CancelledError(msg);
    default:
      return absl::InternalError(msg);
  }
}

}  // namespace eddy::state_internal
