#include "worker/connectors/rolling_policy.h"

namespace eddy {

RollingPolicy RollingPolicy::FromOptions(const FilesystemOptions& options) {
  RollingPolicy p;
  p.file_size_bytes = options.file_size_bytes;
  p.rollover_interval = std::chrono::milliseconds(options.rollover_interval_ms);
  p.inactivity_interval = std::chrono::milliseconds(options.inactivity_interval_ms);
  p.check_interval = std::chrono::milliseconds(options.check_interval_ms);
  return p;
}

}  // namespace eddy
