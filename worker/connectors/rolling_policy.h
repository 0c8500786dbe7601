// When the filesystem sink closes its current part file and starts the next one, from Flink's
// `sink.rolling-policy.*` table options: a part rolls once it holds more than `file-size` bytes,
// once it is `rollover-interval` old, or once nothing was written to it for `inactivity-interval`
// (the time conditions are checked every `check-interval`). With checkpointing a part also rolls at
// every checkpoint, so that each completed checkpoint publishes the rows before it.
#pragma once

#include <chrono>
#include <cstdint>

#include "common/connectors/filesystem_connector.h"

namespace eddy {

struct RollingPolicy {
  using Clock = std::chrono::steady_clock;

  int64_t file_size_bytes = int64_t{128} << 20;
  std::chrono::milliseconds rollover_interval = std::chrono::minutes(30);
  std::chrono::milliseconds inactivity_interval = std::chrono::minutes(30);
  std::chrono::milliseconds check_interval = std::chrono::minutes(1);

  // The table's sink.rolling-policy.* options (their defaults are Flink's).
  static RollingPolicy FromOptions(const FilesystemOptions& options);

  bool ShouldRollOnSize(int64_t part_bytes) const { return part_bytes > file_size_bytes; }
  bool ShouldRollOnTime(Clock::time_point created, Clock::time_point last_write,
                        Clock::time_point now) const {
    return now - created >= rollover_interval || now - last_write >= inactivity_interval;
  }
};

}  // namespace eddy
