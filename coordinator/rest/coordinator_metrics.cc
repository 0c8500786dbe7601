#include "coordinator/rest/coordinator_metrics.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>

#include "common/http/process_metrics.h"
#include "common/http/prometheus_writer.h"
#include "common/rpc/rpc_server_metrics.h"
#include "coordinator/rest/job_vertices.h"

namespace eddy {
namespace {

using Type = PrometheusWriter::Type;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void DeclareFamilies(PrometheusWriter* out) {
  out->Family("eddy_coordinator_workers", Type::kGauge, "Registered workers.");
  out->Family("eddy_coordinator_slots_total", Type::kGauge, "Task slots of every worker.");
  out->Family("eddy_coordinator_slots_available", Type::kGauge, "Task slots not in use.");
  out->Family("eddy_coordinator_jobs", Type::kGauge, "Listed jobs by status.");
  out->Family("eddy_job_uptime_seconds", Type::kGauge,
              "Time since the job started (to its end once it ended), seconds.");
  out->Family("eddy_job_restarts_total", Type::kCounter, "Restarts of the job.");
  out->Family("eddy_job_checkpoints_completed_total", Type::kCounter,
              "Checkpoints the job completed.");
  out->Family("eddy_job_checkpoints_failed_total", Type::kCounter, "Checkpoints that failed.");
  out->Family("eddy_job_last_checkpoint_id", Type::kGauge, "The latest completed checkpoint.");
  out->Family("eddy_job_last_checkpoint_duration_ms", Type::kGauge,
              "Trigger to completion of the latest completed checkpoint, ms.");
  out->Family("eddy_job_last_checkpoint_size_bytes", Type::kGauge,
              "Size of every file the latest completed checkpoint references.");
  out->Family("eddy_job_last_checkpoint_new_bytes", Type::kGauge,
              "What the latest completed checkpoint added over the one before it, bytes.");
  out->Family("eddy_job_checkpoints_in_progress", Type::kGauge,
              "Checkpoints triggered and not yet completed or failed.");
  out->Family("eddy_job_last_checkpoint_age_ms", Type::kGauge,
              "Time since the latest completed checkpoint completed, ms.");
  out->Family("eddy_job_last_checkpoint_alignment_ms", Type::kGauge,
              "The longest barrier alignment of a subtask in the latest completed checkpoint, ms.");
  out->Family("eddy_job_operator_records_in_total", Type::kCounter,
              "Rows into the operator, summed over its subtasks (as of the last heartbeat).");
  out->Family("eddy_job_operator_records_out_total", Type::kCounter,
              "Rows out of the operator, summed over its subtasks (as of the last heartbeat).");
  out->Family("eddy_job_operator_late_records_dropped_total", Type::kCounter,
              "Late rows the operator dropped, summed over its subtasks.");
}

}  // namespace

std::string CoordinatorMetricsText(JobManager& jobs, WorkerRegistry& workers) {
  PrometheusWriter out;
  DeclareFamilies(&out);
  int slots = 0, free_slots = 0, count = 0;
  for (const v1::WorkerStatus& w : workers.Statuses()) {
    ++count;
    slots += w.slots();
    free_slots += w.free_slots();
  }
  out.Sample("eddy_coordinator_workers", {}, count);
  out.Sample("eddy_coordinator_slots_total", {}, slots);
  out.Sample("eddy_coordinator_slots_available", {}, free_slots);

  const std::vector<v1::JobInfo> listed = jobs.List();
  std::map<std::string, int> by_status;
  for (v1::JobStatus s :
       {v1::JOB_STATUS_CREATED, v1::JOB_STATUS_RUNNING, v1::JOB_STATUS_RESTARTING,
        v1::JOB_STATUS_FINISHED, v1::JOB_STATUS_FAILED, v1::JOB_STATUS_CANCELED}) {
    by_status[JobStateName(s)] = 0;
  }
  const int64_t now = NowMs();
  for (const v1::JobInfo& job : listed) {
    ++by_status[JobStateName(job.status())];
    const MetricLabels labels = {{"job_id", job.job_id()}, {"job_name", job.name()}};
    const int64_t end = job.end_time_ms() > 0 ? job.end_time_ms() : now;
    out.Sample("eddy_job_uptime_seconds", labels,
               static_cast<double>(std::max<int64_t>(0, end - job.start_time_ms())) / 1000.0);
    out.Sample("eddy_job_restarts_total", labels, std::max(0, job.attempt() - 1));
    out.Sample("eddy_job_checkpoints_completed_total", labels, job.checkpoints_completed());
    out.Sample("eddy_job_checkpoints_failed_total", labels, job.checkpoints_failed());
    out.Sample("eddy_job_last_checkpoint_duration_ms", labels, job.last_checkpoint_duration_ms());
    out.Sample("eddy_job_last_checkpoint_size_bytes", labels, job.last_checkpoint_size_bytes());
    out.Sample("eddy_job_last_checkpoint_new_bytes", labels, job.last_checkpoint_new_bytes());
    // The id, age and alignment of one read of the statistics (the job info, read before them,
    // may not have the checkpoint that completed in between yet).
    int64_t last_id = job.last_checkpoint_id();
    if (std::shared_ptr<const CheckpointStatsTracker> stats =
            jobs.CheckpointStatistics(job.job_id())) {
      out.Sample("eddy_job_checkpoints_in_progress", labels, stats->InProgress());
      if (std::optional<CheckpointStats> latest = stats->LatestCompleted()) {
        last_id = std::max(last_id, latest->id);
        out.Sample("eddy_job_last_checkpoint_age_ms", labels,
                   std::max<int64_t>(0, now - latest->end_time_ms));
        out.Sample("eddy_job_last_checkpoint_alignment_ms", labels,
                   static_cast<double>(latest->max_alignment_ns) / 1e6);
      }
    }
    out.Sample("eddy_job_last_checkpoint_id", labels, last_id);
    for (const v1::OperatorMetrics& m : job.operators()) {
      MetricLabels op = labels;
      op.emplace_back("vertex", std::to_string(m.task_index()));
      op.emplace_back("operator_id", std::to_string(m.node_id()));
      op.emplace_back("operator_name", m.description().substr(0, 160));
      out.Sample("eddy_job_operator_records_in_total", op, m.rows_in());
      out.Sample("eddy_job_operator_records_out_total", op, m.rows_out());
      out.Sample("eddy_job_operator_late_records_dropped_total", op, m.late_rows_dropped());
    }
  }
  for (const auto& [status, n] : by_status) {
    out.Sample("eddy_coordinator_jobs", {{"status", status}}, n);
  }
  WriteRpcServerMetrics(&out);
  WriteProcessMetrics(&out);
  return out.Finish();
}

}  // namespace eddy
