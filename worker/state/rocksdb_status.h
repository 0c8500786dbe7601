// Converts rocksdb::Status into absl::Status, naming the DB path and the operation so that errors
// reaching the user say which state directory failed. Internal to worker/state.
#pragma once

#include <string_view>

#include "absl/status/status.h"
#include "rocksdb/status.h"

namespace eddy::state_internal {

absl::Status FromRocksStatus(const rocksdb::Status& s, std::string_view op, std::string_view path);

}  // namespace eddy::state_internal
