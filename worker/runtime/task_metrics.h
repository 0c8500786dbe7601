// What a running task reports to the worker's Prometheus endpoint: per node, rows and bytes in and
// out, watermarks, late rows and state sizes; per task, how its thread spent its time (busy,
// idle, back-pressured), as Flink's busyTimeMsPerSecond / idleTimeMsPerSecond /
// backPressuredTimeMsPerSecond as running totals. Counters are updated once per batch (or per
// watermark, per wait), never per row.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace eddy {

// No watermark yet.
inline constexpr int64_t kNoWatermark = std::numeric_limits<int64_t>::min();

struct NodeRuntimeMetrics {
  int node_id = 0;
  std::string description;  // the node's plan digest
  uint64_t rows_in = 0;
  uint64_t rows_out = 0;
  uint64_t bytes_in = 0;  // in-memory size of the batches (ChangelogBatch::ByteSize)
  uint64_t bytes_out = 0;
  uint64_t late_rows_dropped = 0;
  int64_t input_watermark = kNoWatermark;  // combined over the node's inputs, epoch millis
  int64_t output_watermark = kNoWatermark;
  bool stateful = false;  // has a keyed state store
  uint64_t state_bytes_in_memory = 0;
  uint64_t store_sst_bytes = 0;
  uint64_t store_memtable_bytes = 0;
};

struct TaskRuntimeMetrics {
  std::string job_id;
  int attempt = 0;
  int task_index = 0;
  int subtask_index = 0;
  uint64_t busy_nanos = 0;
  uint64_t idle_nanos = 0;
  uint64_t back_pressured_nanos = 0;
  std::vector<NodeRuntimeMetrics> nodes;
};

}  // namespace eddy
