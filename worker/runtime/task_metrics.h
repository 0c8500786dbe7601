// What a running task reports to the worker's Prometheus endpoint: per node, rows and bytes in and
// out and their rates, watermarks, late rows, state sizes and state cache lookups, an exchange
// sink's output channels; per task, how its thread spent its time (busy, idle, back-pressured),
// as Flink's busyTimeMsPerSecond / idleTimeMsPerSecond / backPressuredTimeMsPerSecond as running
// totals, and its barrier alignment time. Counters are updated once per batch (or per watermark,
// per wait), never per row.
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
  // A table sink with NOT NULL columns (table.exec.sink.not-null-enforcer): the rows DROP left out.
  bool enforces_not_null = false;
  uint64_t null_rows_dropped = 0;
  int64_t input_watermark = kNoWatermark;  // combined over the node's inputs, epoch millis
  int64_t output_watermark = kNoWatermark;
  bool stateful = false;  // has a keyed state store
  uint64_t state_bytes_in_memory = 0;
  uint64_t store_sst_bytes = 0;
  uint64_t store_memtable_bytes = 0;
  // Lookups of keyed state answered by the operator's in-memory state cache, and those that were
  // not (read from RocksDB, or known absent): summed over the lookups of each batch.
  uint64_t state_cache_hits = 0;
  uint64_t state_cache_misses = 0;
  // Rows per second in and out over the last minute (ThroughputMeter).
  double rows_in_per_second = 0;
  double rows_out_per_second = 0;
  // An exchange sink (the node ships its input to the next task): its output channels.
  bool exchange_output = false;
  int output_channels = 0;
  int64_t output_free_credits = 0;
  int output_channels_without_credit = 0;
  uint64_t output_queued_rows = 0;
};

struct TaskRuntimeMetrics {
  std::string job_id;
  int attempt = 0;
  int task_index = 0;
  int subtask_index = 0;
  uint64_t busy_nanos = 0;
  uint64_t idle_nanos = 0;
  uint64_t back_pressured_nanos = 0;
  // The task reads exchange inputs and aligns their barriers: how long the current alignment has
  // taken so far, else the last one (Flink's checkpointAlignmentTime).
  bool aligns = false;
  int64_t alignment_nanos = 0;
  std::vector<NodeRuntimeMetrics> nodes;
};

}  // namespace eddy
