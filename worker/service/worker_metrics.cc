// WorkerServer::WriteMetrics: what a worker's /metrics shows (docs/metrics.md lists every name
// with Flink's equivalent): per operator subtask, per task, per exchange input gate, the state
// backend's shared memory and the process.
#include <chrono>

#include "absl/strings/str_cat.h"
#include "common/http/process_metrics.h"
#include "common/rpc/rpc_server_metrics.h"
#include "worker/service/worker_server.h"

namespace eddy {
namespace {

using Type = PrometheusWriter::Type;

// Operator names are plan digests; a label keeps their start.
constexpr size_t kMaxOperatorNameLength = 160;

void DeclareFamilies(PrometheusWriter* out) {
  out->Family("eddy_worker_slots", Type::kGauge, "Task slots this worker offers.");
  out->Family("eddy_worker_running_subtasks", Type::kGauge, "Subtasks running on this worker.");
  out->Family("eddy_operator_records_in_total", Type::kCounter, "Rows into the operator subtask.");
  out->Family("eddy_operator_records_out_total", Type::kCounter,
              "Rows out of the operator subtask.");
  out->Family("eddy_operator_records_in_per_second", Type::kGauge,
              "Rows into the operator subtask per second over the last minute.");
  out->Family("eddy_operator_records_out_per_second", Type::kGauge,
              "Rows out of the operator subtask per second over the last minute.");
  out->Family("eddy_operator_bytes_in_total", Type::kCounter,
              "In-memory bytes of the batches into the operator subtask.");
  out->Family("eddy_operator_bytes_out_total", Type::kCounter,
              "In-memory bytes of the batches out of the operator subtask.");
  out->Family("eddy_operator_late_records_dropped_total", Type::kCounter,
              "Rows dropped because their windows had already fired.");
  out->Family("eddy_operator_null_records_dropped_total", Type::kCounter,
              "Rows a sink dropped for a null in a NOT NULL column "
              "(table.exec.sink.not-null-enforcer = DROP).");
  out->Family("eddy_operator_current_input_watermark_ms", Type::kGauge,
              "Combined watermark of the operator's inputs, epoch milliseconds.");
  out->Family("eddy_operator_current_output_watermark_ms", Type::kGauge,
              "Last watermark the operator emitted, epoch milliseconds.");
  out->Family("eddy_operator_watermark_lag_ms", Type::kGauge,
              "Wall-clock time minus the operator's input watermark, milliseconds.");
  out->Family("eddy_operator_state_memory_bytes", Type::kGauge,
              "Keyed state the operator keeps in memory in front of RocksDB.");
  out->Family("eddy_operator_rocksdb_sst_bytes", Type::kGauge,
              "Size of the live SST files of the operator subtask's RocksDB store.");
  out->Family("eddy_operator_rocksdb_memtable_bytes", Type::kGauge,
              "Size of the memtables of the operator subtask's RocksDB store.");
  out->Family("eddy_operator_state_cache_hits_total", Type::kCounter,
              "Keyed state lookups answered from the operator's in-memory state cache.");
  out->Family("eddy_operator_state_cache_misses_total", Type::kCounter,
              "Keyed state lookups the state cache could not answer (read from RocksDB, or known "
              "absent).");
  out->Family("eddy_operator_state_cache_hit_ratio", Type::kGauge,
              "Hits over lookups of the operator's state cache since the subtask started.");
  out->Family("eddy_exchange_output_channels", Type::kGauge,
              "Output channels (consumer subtasks) of the subtask's exchange sink.");
  out->Family("eddy_exchange_output_credits_batches", Type::kGauge,
              "Batches the exchange sink may still send without waiting (free credit over its "
              "channels).");
  out->Family("eddy_exchange_output_channels_without_credit", Type::kGauge,
              "Output channels with no credit left: sending on them waits (back-pressure).");
  out->Family("eddy_exchange_output_queue_rows", Type::kGauge,
              "Rows partitioned by the exchange sink and not yet sent.");
  out->Family("eddy_task_busy_time_ms_total", Type::kCounter,
              "Time the subtask's thread worked (neither idle nor back-pressured), ms.");
  out->Family("eddy_task_idle_time_ms_total", Type::kCounter,
              "Time the subtask's thread waited for input, ms.");
  out->Family("eddy_task_back_pressured_time_ms_total", Type::kCounter,
              "Time the subtask's thread waited for exchange credit downstream, ms.");
  out->Family("eddy_task_checkpoint_alignment_time_ms", Type::kGauge,
              "How long the subtask's current barrier alignment has taken so far, else how long "
              "the last one took, ms.");
  out->Family("eddy_exchange_input_queue_batches", Type::kGauge,
              "Batches queued in the subtask's exchange input gate.");
  out->Family("eddy_exchange_input_credits_batches", Type::kGauge,
              "Batches the gate's producers may still send (free credit over its channels).");
  out->Family("eddy_exchange_input_channels", Type::kGauge,
              "Channels (producer subtasks) of the exchange input gate.");
  out->Family("eddy_rocksdb_block_cache_usage_bytes", Type::kGauge,
              "Bytes in the block cache shared by the worker's RocksDB stores.");
  out->Family("eddy_rocksdb_block_cache_capacity_bytes", Type::kGauge,
              "Capacity of the shared RocksDB block cache.");
  out->Family("eddy_rocksdb_write_buffer_usage_bytes", Type::kGauge,
              "Bytes in the memtables counted by the worker's shared write-buffer budget.");
  out->Family("eddy_state_stores", Type::kGauge, "Open keyed state stores on this worker.");
}

int64_t Millis(uint64_t nanos) { return static_cast<int64_t>(nanos / 1000000); }

void WriteTask(const TaskRuntimeMetrics& t, int64_t now_ms, PrometheusWriter* out) {
  const MetricLabels task_labels = {{"job_id", t.job_id},
                                    {"vertex", std::to_string(t.task_index)},
                                    {"subtask", std::to_string(t.subtask_index)},
                                    {"attempt", std::to_string(t.attempt)}};
  out->Sample("eddy_task_busy_time_ms_total", task_labels, Millis(t.busy_nanos));
  out->Sample("eddy_task_idle_time_ms_total", task_labels, Millis(t.idle_nanos));
  out->Sample("eddy_task_back_pressured_time_ms_total", task_labels,
              Millis(t.back_pressured_nanos));
  if (t.aligns) {
    out->Sample("eddy_task_checkpoint_alignment_time_ms", task_labels,
                static_cast<double>(t.alignment_nanos) / 1e6);
  }
  for (const NodeRuntimeMetrics& n : t.nodes) {
    MetricLabels labels = task_labels;
    labels.emplace_back("operator_id", std::to_string(n.node_id));
    labels.emplace_back("operator_name", n.description.substr(0, kMaxOperatorNameLength));
    out->Sample("eddy_operator_records_in_total", labels, n.rows_in);
    out->Sample("eddy_operator_records_out_total", labels, n.rows_out);
    out->Sample("eddy_operator_records_in_per_second", labels, n.rows_in_per_second);
    out->Sample("eddy_operator_records_out_per_second", labels, n.rows_out_per_second);
    out->Sample("eddy_operator_bytes_in_total", labels, n.bytes_in);
    out->Sample("eddy_operator_bytes_out_total", labels, n.bytes_out);
    out->Sample("eddy_operator_late_records_dropped_total", labels, n.late_rows_dropped);
    if (n.enforces_not_null) {
      out->Sample("eddy_operator_null_records_dropped_total", labels, n.null_rows_dropped);
    }
    if (n.input_watermark != kNoWatermark) {
      out->Sample("eddy_operator_current_input_watermark_ms", labels, n.input_watermark);
      out->Sample("eddy_operator_watermark_lag_ms", labels, now_ms - n.input_watermark);
    }
    if (n.output_watermark != kNoWatermark) {
      out->Sample("eddy_operator_current_output_watermark_ms", labels, n.output_watermark);
    }
    if (n.stateful) {
      out->Sample("eddy_operator_state_memory_bytes", labels, n.state_bytes_in_memory);
      out->Sample("eddy_operator_rocksdb_sst_bytes", labels, n.store_sst_bytes);
      out->Sample("eddy_operator_rocksdb_memtable_bytes", labels, n.store_memtable_bytes);
      out->Sample("eddy_operator_state_cache_hits_total", labels, n.state_cache_hits);
      out->Sample("eddy_operator_state_cache_misses_total", labels, n.state_cache_misses);
      if (const uint64_t lookups = n.state_cache_hits + n.state_cache_misses; lookups > 0) {
        out->Sample("eddy_operator_state_cache_hit_ratio", labels,
                    static_cast<double>(n.state_cache_hits) / static_cast<double>(lookups));
      }
    }
    if (n.exchange_output) {
      out->Sample("eddy_exchange_output_channels", labels, n.output_channels);
      out->Sample("eddy_exchange_output_credits_batches", labels, n.output_free_credits);
      out->Sample("eddy_exchange_output_channels_without_credit", labels,
                  n.output_channels_without_credit);
      out->Sample("eddy_exchange_output_queue_rows", labels, n.output_queued_rows);
    }
  }
}

}  // namespace

std::string WorkerServer::MetricsText() {
  PrometheusWriter out;
  DeclareFamilies(&out);
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  int running = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    TaskRuntimeMetrics t;
    for (const auto& task : tasks_) {
      if (task->done()) continue;
      ++running;
      task->RuntimeMetrics(&t);
      WriteTask(t, now_ms, &out);
    }
  }
  out.Sample("eddy_worker_slots", {}, options_.slots);
  out.Sample("eddy_worker_running_subtasks", {}, running);
  if (exchange_) {
    for (const auto& [key, gate] : exchange_->Gates()) {
      const MetricLabels labels = {{"job_id", key.job_id},
                                   {"vertex", std::to_string(key.task_index)},
                                   {"subtask", std::to_string(key.subtask_index)},
                                   {"input", std::to_string(key.input_index)}};
      const int64_t queued = static_cast<int64_t>(gate->buffered());
      const int64_t window = int64_t{gate->num_channels()} * gate->credits_per_channel();
      out.Sample("eddy_exchange_input_queue_batches", labels, queued);
      out.Sample("eddy_exchange_input_credits_batches", labels,
                 window > queued ? window - queued : 0);
      out.Sample("eddy_exchange_input_channels", labels, gate->num_channels());
    }
  }
  if (state_stores_) {
    const SharedStateResources& shared = *state_stores_->resources();
    out.Sample("eddy_rocksdb_block_cache_usage_bytes", {}, uint64_t{shared.BlockCacheUsage()});
    out.Sample("eddy_rocksdb_block_cache_capacity_bytes", {},
               uint64_t{shared.options().block_cache_bytes});
    out.Sample("eddy_rocksdb_write_buffer_usage_bytes", {}, uint64_t{shared.WriteBufferUsage()});
    out.Sample("eddy_state_stores", {}, uint64_t{state_stores_->size()});
  }
  WriteRpcServerMetrics(&out);
  WriteProcessMetrics(&out);
  return out.Finish();
}

}  // namespace eddy
