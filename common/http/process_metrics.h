// This process's CPU time, resident memory and threads (from /proc/self), as Prometheus' standard
// process_* metrics, for every eddy process's /metrics.
#pragma once

#include "common/http/prometheus_writer.h"

namespace eddy {

struct ProcessStats {
  double cpu_seconds = 0;  // user + system
  int64_t resident_bytes = 0;
  int64_t virtual_bytes = 0;
  int threads = 0;
  int open_fds = 0;
  double start_time_seconds = 0;  // since the epoch
};

// Zeros where /proc cannot be read.
ProcessStats ReadProcessStats();
void WriteProcessMetrics(PrometheusWriter* out);

}  // namespace eddy
