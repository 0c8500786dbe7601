#include "coordinator/cluster/job_manager.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/base/logging.h"
#include "common/rpc/status_convert.h"

namespace eddy {
namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string NewJobId() {
  static std::mutex mu;
  static std::mt19937_64 rng(std::random_device{}());
  std::lock_guard<std::mutex> lock(mu);
  return absl::StrFormat("%016x%016x", rng(), rng());
}

}  // namespace

JobManager::JobManager(WorkerRegistry* registry) : registry_(registry) {}

bool JobManager::IsFinal(v1::JobStatus s) {
  return s == v1::JOB_STATUS_FINISHED || s == v1::JOB_STATUS_FAILED ||
         s == v1::JOB_STATUS_CANCELED;
}

bool JobManager::IsFinal(v1::TaskState s) {
  return s == v1::TASK_STATE_FINISHED || s == v1::TASK_STATE_FAILED ||
         s == v1::TASK_STATE_CANCELED;
}

v1::JobInfo JobManager::InfoLocked(const Job& job) {
  v1::JobInfo info = job.info;
  std::map<std::pair<int, int>, v1::OperatorMetrics> by_node;  // (task, node) -> sum
  for (const auto& t : job.tasks) {
    for (const auto& m : t.operators) {
      v1::OperatorMetrics& sum = by_node[{t.task_index, m.node_id()}];
      sum.set_node_id(m.node_id());
      sum.set_task_index(t.task_index);
      if (sum.description().empty()) sum.set_description(m.description());
      sum.set_rows_in(sum.rows_in() + m.rows_in());
      sum.set_rows_out(sum.rows_out() + m.rows_out());
      sum.set_late_rows_dropped(sum.late_rows_dropped() + m.late_rows_dropped());
      sum.set_subtasks(sum.subtasks() + 1);
    }
  }
  for (auto& [id, m] : by_node) *info.add_operators() = std::move(m);
  return info;
}

absl::StatusOr<std::string> JobManager::Submit(const std::string& name, int slots_needed,
                                               const DeploymentBuilder& build) {
  slots_needed = std::max(1, slots_needed);
  auto slots = registry_->AllocateSlots(slots_needed, kSlotWait);
  if (!slots.ok()) return slots.status();

  const std::string job_id = NewJobId();
  std::vector<std::string> addresses;
  for (const auto& w : *slots) addresses.push_back(registry_->AddressOf(w));
  auto built = build(job_id, *slots, addresses);
  if (!built.ok()) {
    for (const auto& w : *slots) registry_->ReleaseSlot(w);
    return built.status();
  }
  std::vector<v1::TaskDeployment> tasks = *std::move(built);
  for (const auto& t : tasks) {
    if (t.subtask_index() < 0 || t.subtask_index() >= slots_needed) {
      for (const auto& w : *slots) registry_->ReleaseSlot(w);
      return absl::InternalError(absl::StrCat("subtask ", t.subtask_index(), " has no slot"));
    }
  }
  std::map<std::string, v1::DeployTasksRequest> per_worker;
  {
    std::lock_guard<std::mutex> lock(mu_);
    Job& job = jobs_[job_id];
    job.info.set_job_id(job_id);
    job.info.set_name(name);
    job.info.set_status(v1::JOB_STATUS_CREATED);
    job.info.set_start_time_ms(NowMs());
    job.slots = *slots;
    for (auto& t : tasks) {
      t.set_job_id(job_id);
      const std::string& worker = (*slots)[t.subtask_index()];
      job.tasks.push_back({t.task_index(), t.subtask_index(), worker});
      *per_worker[worker].add_tasks() = t;
    }
    order_.push_back(job_id);
  }
  std::vector<std::string> deployed;
  absl::Status failure;
  for (auto& [worker, req] : per_worker) {
    auto stub = registry_->StubOf(worker);
    if (!stub) {
      failure = absl::UnavailableError(absl::StrCat("worker ", worker, " is gone"));
      break;
    }
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::DeployTasksResponse resp;
    grpc::Status s = stub->DeployTasks(&ctx, req, &resp);
    if (!s.ok()) {
      failure = absl::Status(FromGrpcStatus(s).code(),
                             absl::StrCat("deploying job ", job_id, " to ",
                                          registry_->AddressOf(worker), ": ", s.error_message()));
      break;
    }
    deployed.push_back(worker);
  }
  if (!failure.ok()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      FinishLocked(jobs_[job_id], v1::JOB_STATUS_FAILED, std::string(failure.message()));
    }
    CancelOnWorkers(job_id, deployed);
    return failure;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    Job& job = jobs_[job_id];
    if (job.info.status() == v1::JOB_STATUS_CREATED) job.info.set_status(v1::JOB_STATUS_RUNNING);
  }
  EDDY_LOG_INFO("job {} ({}) deployed: {} subtasks on {} slots", job_id, name, tasks.size(),
                slots_needed);
  return job_id;
}

std::vector<std::string> JobManager::FinishLocked(Job& job, v1::JobStatus status,
                                                  const std::string& error) {
  std::vector<std::string> to_cancel;
  if (IsFinal(job.info.status())) return to_cancel;
  job.info.set_status(status);
  job.info.set_error(error);
  job.info.set_end_time_ms(NowMs());
  if (!job.slots_released) {
    for (const auto& w : job.slots) registry_->ReleaseSlot(w);
    job.slots_released = true;
  }
  if (status != v1::JOB_STATUS_FINISHED) {
    std::set<std::string> workers;
    for (const auto& t : job.tasks) {
      if (t.state != v1::TASK_STATE_FINISHED && t.state != v1::TASK_STATE_FAILED &&
          t.state != v1::TASK_STATE_CANCELED) {
        workers.insert(t.worker_id);
      }
    }
    to_cancel.assign(workers.begin(), workers.end());
  }
  EDDY_LOG_INFO("job {} {}{}", job.info.job_id(), v1::JobStatus_Name(status),
                error.empty() ? "" : ": " + error);
  cv_.notify_all();
  return to_cancel;
}

absl::Status JobManager::FetchResults(const std::string& job_id, int wait_ms,
                                      v1::FetchResultsResponse* out) {
  std::string worker;
  v1::JobStatus status;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return absl::NotFoundError("job '" + job_id + "' not found");
    const Job& job = it->second;
    status = job.info.status();
    if (status == v1::JOB_STATUS_FAILED) {
      return absl::AbortedError("Job " + job_id + " failed: " + job.info.error());
    }
    if (status == v1::JOB_STATUS_CANCELED) {
      return absl::CancelledError("Job " + job_id + " was cancelled");
    }
    if (job.slots.empty()) return absl::FailedPreconditionError("job " + job_id + " has no slots");
    worker = job.slots[0];
  }
  auto stub = registry_->StubOf(worker);
  if (!stub) {
    return absl::UnavailableError("the worker holding the results of job " + job_id + " is gone");
  }
  grpc::ClientContext ctx;
  SetDeadline(&ctx, wait_ms + 10000);
  v1::FetchResultsRequest req;
  req.set_job_id(job_id);
  req.set_max_wait_ms(wait_ms);
  grpc::Status s = stub->FetchResults(&ctx, req, out);
  if (s.ok() && out->end()) {
    // The sink has handed over its last rows, but the job is finished (and its slots free) only
    // once every subtask reported: a client that runs its next query right after the end must
    // find the slots released.
    std::unique_lock<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return absl::NotFoundError("job '" + job_id + "' not found");
    if (!cv_.wait_for(lock, kFinalReportWait, [&] { return IsFinal(it->second.info.status()); })) {
      return absl::DeadlineExceededError(
          absl::StrCat("job ", job_id,
                       " delivered all its rows but its subtasks did not report finishing within ",
                       kFinalReportWait.count(), " ms"));
    }
    if (it->second.info.status() == v1::JOB_STATUS_FAILED) {
      return absl::AbortedError("Job " + job_id + " failed: " + it->second.info.error());
    }
    return absl::OkStatus();
  }
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
    // No buffer: the sink has not opened yet, or its end was already handed over.
    out->Clear();
    if (status == v1::JOB_STATUS_FINISHED) {
      out->set_end(true);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(wait_ms, 50)));
    }
    return absl::OkStatus();
  }
  if (!s.ok()) {
    return absl::UnavailableError("fetching the results of job " + job_id + " from " +
                                  registry_->AddressOf(worker) + ": " + s.error_message());
  }
  return absl::OkStatus();
}

void JobManager::CancelOnWorkers(const std::string& job_id,
                                 const std::vector<std::string>& workers) {
  for (const auto& w : workers) {
    auto stub = registry_->StubOf(w);
    if (!stub) continue;
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 3000);
    v1::CancelJobRequest req;
    req.set_job_id(job_id);
    v1::CancelJobResponse resp;
    grpc::Status s = stub->CancelJob(&ctx, req, &resp);
    if (!s.ok()) EDDY_LOG_WARN("cancelling job {} on {}: {}", job_id, w, s.error_message());
  }
}

void JobManager::OnTaskState(const v1::TaskStateReport& report) {
  std::vector<std::string> to_cancel;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(report.job_id());
    if (it == jobs_.end()) return;
    Job& job = it->second;
    bool all_finished = true;
    for (auto& t : job.tasks) {
      if (t.task_index == report.task_index() && t.subtask_index == report.subtask_index()) {
        t.state = report.state();
        if (report.operators_size() > 0) t.operators = report.operators();
      }
      all_finished = all_finished && t.state == v1::TASK_STATE_FINISHED;
    }
    if (report.state() == v1::TASK_STATE_FAILED) {
      to_cancel = FinishLocked(job, v1::JOB_STATUS_FAILED, report.error());
    } else if (all_finished) {
      FinishLocked(job, v1::JOB_STATUS_FINISHED, "");
    } else if (report.state() == v1::TASK_STATE_RUNNING &&
               job.info.status() == v1::JOB_STATUS_CREATED) {
      job.info.set_status(v1::JOB_STATUS_RUNNING);
    }
  }
  CancelOnWorkers(report.job_id(), to_cancel);
}

std::vector<std::string> JobManager::OnHeartbeat(const v1::HeartbeatRequest& heartbeat) {
  std::lock_guard<std::mutex> lock(mu_);
  std::set<std::string> to_cancel;
  for (const auto& running : heartbeat.running()) {
    auto it = jobs_.find(running.job_id());
    // A job this coordinator never saw (it restarted since), or one that failed or was cancelled:
    // its subtasks must not run on. A finished job's subtasks may trail their final report.
    if (it == jobs_.end() || (IsFinal(it->second.info.status()) &&
                              it->second.info.status() != v1::JOB_STATUS_FINISHED)) {
      to_cancel.insert(running.job_id());
      continue;
    }
    for (auto& t : it->second.tasks) {
      // A heartbeat may trail the subtask's final report: final counts are never overwritten.
      if (t.task_index == running.task_index() && t.subtask_index == running.subtask_index() &&
          t.worker_id == heartbeat.worker_id() && !IsFinal(t.state)) {
        t.operators = running.operators();
      }
    }
  }
  return {to_cancel.begin(), to_cancel.end()};
}

void JobManager::OnWorkerLost(const std::string& worker_id, const std::string& address) {
  std::vector<std::pair<std::string, std::vector<std::string>>> cancels;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [id, job] : jobs_) {
      if (IsFinal(job.info.status())) continue;
      bool affected = false;
      for (const auto& t : job.tasks) affected = affected || t.worker_id == worker_id;
      if (!affected) continue;
      cancels.push_back({id, FinishLocked(job, v1::JOB_STATUS_FAILED,
                                          absl::StrCat("worker ", worker_id, " at ", address,
                                                       " was lost (no heartbeat)"))});
    }
  }
  for (const auto& [id, workers] : cancels) CancelOnWorkers(id, workers);
}

absl::Status JobManager::Cancel(const std::string& job_id) {
  std::vector<std::string> to_cancel;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return absl::NotFoundError(absl::StrCat("job '", job_id, "' not found"));
    if (IsFinal(it->second.info.status())) return absl::OkStatus();
    to_cancel = FinishLocked(it->second, v1::JOB_STATUS_CANCELED, "");
  }
  CancelOnWorkers(job_id, to_cancel);
  return absl::OkStatus();
}

absl::StatusOr<v1::JobInfo> JobManager::Get(const std::string& job_id, int64_t wait_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end()) return absl::NotFoundError(absl::StrCat("job '", job_id, "' not found"));
  if (wait_ms > 0) {
    cv_.wait_for(lock, std::chrono::milliseconds(wait_ms),
                 [&] { return IsFinal(it->second.info.status()); });
  }
  return InfoLocked(it->second);
}

std::vector<v1::JobInfo> JobManager::List() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<v1::JobInfo> out;
  for (const auto& id : order_) out.push_back(InfoLocked(jobs_[id]));
  return out;
}

}  // namespace eddy
