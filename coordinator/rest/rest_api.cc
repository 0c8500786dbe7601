#include "coordinator/rest/rest_api.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/http/prometheus_writer.h"
#include "coordinator/rest/coordinator_metrics.h"
#include "coordinator/rest/dashboard_files.h"
#include "coordinator/rest/job_vertices.h"
#include "eddy/v1/rest.pb.h"
#include "google/protobuf/util/json_util.h"

namespace eddy {
namespace {

constexpr const char* kJson = "application/json; charset=utf-8";

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

HttpResponse JsonResponse(int status, const google::protobuf::Message& message) {
  HttpResponse r;
  r.status = status;
  r.content_type = kJson;
  r.body = ToJson(message);
  return r;
}

HttpResponse ErrorResponse(int status, const std::string& message) {
  v1::RestError e;
  e.add_errors(message);
  return JsonResponse(status, e);
}

int HttpStatusOf(const absl::Status& s) {
  switch (s.code()) {
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kInvalidArgument:
      return 400;
    case absl::StatusCode::kFailedPrecondition:
      return 409;
    default:
      return 500;
  }
}

bool IsRunning(v1::JobStatus s) {
  return s == v1::JOB_STATUS_CREATED || s == v1::JOB_STATUS_RUNNING ||
         s == v1::JOB_STATUS_RESTARTING;
}

int64_t Duration(const v1::JobInfo& job, int64_t now) {
  const int64_t end = job.end_time_ms() > 0 ? job.end_time_ms() : now;
  return std::max<int64_t>(0, end - job.start_time_ms());
}

HttpResponse StaticFile(std::string_view body, const char* content_type) {
  HttpResponse r;
  r.content_type = content_type;
  r.body = std::string(body);
  return r;
}

void RestCheckpointStatsOf(const CheckpointStats& s, int64_t now, v1::RestCheckpointStats* out) {
  out->set_id(s.id);
  out->set_status(CheckpointStats::StatusName(s.status));
  out->set_is_savepoint(s.savepoint);
  out->set_trigger_timestamp(s.trigger_time_ms);
  out->set_latest_ack_timestamp(s.latest_ack_time_ms);
  const int64_t end = s.end_time_ms > 0 ? s.end_time_ms : now;
  out->set_end_to_end_duration(std::max<int64_t>(0, end - s.trigger_time_ms));
  out->set_state_size(static_cast<int64_t>(s.state_size_bytes));
  out->set_checkpointed_size(static_cast<int64_t>(s.checkpointed_bytes));
  out->set_num_subtasks(s.num_subtasks);
  out->set_num_acknowledged_subtasks(s.num_acknowledged);
  out->set_alignment_duration_ms(static_cast<double>(s.max_alignment_ns) / 1e6);
  if (s.status == CheckpointStats::Status::kFailed) {
    out->set_failure_timestamp(s.end_time_ms);
    out->set_failure_message(s.failure);
  }
  out->set_attempt(s.attempt);
}

// Equal without revealing where a guess went wrong.
bool SameSecret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

std::string ToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(message, &out, options).ok()) return "{}";
  return out;
}

HttpResponse RestApi::Handle(const HttpRequest& request) {
  std::string path = request.path;
  if (absl::StartsWith(path, "/v1/")) path = path.substr(3);  // Flink's versioned prefix
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  std::vector<std::string> parts = absl::StrSplit(path.substr(1), '/');
  const bool get = request.method == "GET";
  if (parts.size() == 3 && parts[0] == "jobs" && parts[2] == "stop") {
    if (request.method != "POST") return ErrorResponse(405, "use POST to stop a job");
    return Stop(request, parts[1]);
  }
  if (!get) return ErrorResponse(405, absl::StrCat(request.method, " is not allowed on ", path));
  if (path == "/metrics") return Metrics();
  if (path == "/" || path == "/index.html") {
    return StaticFile(kDashboardIndexHtml, "text/html; charset=utf-8");
  }
  if (path == "/dashboard.js") {
    return StaticFile(kDashboardJs, "application/javascript; charset=utf-8");
  }
  if (path == "/dashboard.css") return StaticFile(kDashboardCss, "text/css; charset=utf-8");
  if (path == "/overview") return Overview();
  if (path == "/workers") return Workers();
  if (path == "/jobs" || path == "/jobs/overview") return Jobs();
  if (parts.size() == 2 && parts[0] == "jobs") return Job(parts[1]);
  if (parts.size() == 3 && parts[0] == "jobs") {
    if (parts[2] == "plan") return Plan(parts[1]);
    if (parts[2] == "checkpoints") return Checkpoints(parts[1]);
    if (parts[2] == "exceptions") return Exceptions(parts[1]);
  }
  return ErrorResponse(404, absl::StrCat("no such endpoint: ", request.path));
}

HttpResponse RestApi::Overview() {
  v1::RestOverview o;
  for (const v1::WorkerStatus& w : workers_->Statuses()) {
    o.set_workers(o.workers() + 1);
    o.set_slots_total(o.slots_total() + w.slots());
    o.set_slots_available(o.slots_available() + w.free_slots());
  }
  for (const v1::JobInfo& job : jobs_->List()) {
    switch (job.status()) {
      case v1::JOB_STATUS_FINISHED:
        o.set_jobs_finished(o.jobs_finished() + 1);
        break;
      case v1::JOB_STATUS_CANCELED:
        o.set_jobs_cancelled(o.jobs_cancelled() + 1);
        break;
      case v1::JOB_STATUS_FAILED:
        o.set_jobs_failed(o.jobs_failed() + 1);
        break;
      case v1::JOB_STATUS_UNKNOWN:
      case v1::JOB_STATUS_CREATED:
      case v1::JOB_STATUS_RUNNING:
      case v1::JOB_STATUS_RESTARTING:
      case v1::JobStatus_INT_MIN_SENTINEL_DO_NOT_USE_:
      case v1::JobStatus_INT_MAX_SENTINEL_DO_NOT_USE_:
        o.set_jobs_running(o.jobs_running() + (IsRunning(job.status()) ? 1 : 0));
        break;
    }
  }
  return JsonResponse(200, o);
}

HttpResponse RestApi::Jobs() {
  v1::RestJobList list;
  const int64_t now = NowMs();
  for (const v1::JobInfo& job : jobs_->List()) {
    v1::RestJobSummary* s = list.add_jobs();
    s->set_jid(job.job_id());
    s->set_name(job.name());
    s->set_state(JobStateName(job.status()));
    s->set_start_time(job.start_time_ms());
    s->set_end_time(job.end_time_ms());
    s->set_duration(Duration(job, now));
    s->set_restarts(std::max(0, job.attempt() - 1));
  }
  return JsonResponse(200, list);
}

HttpResponse RestApi::Job(const std::string& job_id) {
  absl::StatusOr<v1::JobInfo> job = jobs_->Get(job_id);
  if (!job.ok())
    return ErrorResponse(HttpStatusOf(job.status()), std::string(job.status().message()));
  v1::RestJobDetails d;
  const int64_t now = NowMs();
  d.set_jid(job->job_id());
  d.set_name(job->name());
  d.set_state(JobStateName(job->status()));
  d.set_start_time(job->start_time_ms());
  d.set_end_time(job->end_time_ms());
  d.set_duration(Duration(*job, now));
  d.set_now(now);
  d.set_attempt(job->attempt());
  d.set_restarts(std::max(0, job->attempt() - 1));
  d.set_error(job->error());
  absl::StatusOr<v1::StoredJobSpec> spec = jobs_->StoredSpec(job_id);
  if (spec.ok()) {
    absl::StatusOr<JobTopology> topology = BuildJobTopology(*spec, &*job);
    if (topology.ok()) {
      for (v1::RestVertex& v : topology->vertices) *d.add_vertices() = std::move(v);
    }
  }
  return JsonResponse(200, d);
}

HttpResponse RestApi::Plan(const std::string& job_id) {
  absl::StatusOr<v1::StoredJobSpec> spec = jobs_->StoredSpec(job_id);
  if (!spec.ok()) {
    return ErrorResponse(HttpStatusOf(spec.status()), std::string(spec.status().message()));
  }
  absl::StatusOr<JobTopology> topology = BuildJobTopology(*spec, nullptr);
  if (!topology.ok()) {
    return ErrorResponse(500, absl::StrCat("cannot build the job graph of job '", job_id,
                                           "': ", topology.status().message()));
  }
  v1::RestJobPlan plan;
  plan.set_jid(job_id);
  plan.set_name(spec->name());
  plan.set_bounded(spec->bounded());
  plan.mutable_config()->insert(spec->config().begin(), spec->config().end());
  for (v1::RestVertex& v : topology->vertices) *plan.add_vertices() = std::move(v);
  for (v1::RestPlanNode& n : topology->nodes) *plan.add_nodes() = std::move(n);
  return JsonResponse(200, plan);
}

HttpResponse RestApi::Checkpoints(const std::string& job_id) {
  absl::StatusOr<v1::JobInfo> job = jobs_->Get(job_id);
  if (!job.ok())
    return ErrorResponse(HttpStatusOf(job.status()), std::string(job.status().message()));
  v1::RestCheckpoints c;
  c.set_completed(job->checkpoints_completed());
  c.set_failed(job->checkpoints_failed());
  c.set_latest_id(job->last_checkpoint_id());
  c.set_latest_duration_ms(job->last_checkpoint_duration_ms());
  c.set_latest_size_bytes(job->last_checkpoint_size_bytes());
  c.set_latest_new_bytes(job->last_checkpoint_new_bytes());
  if (std::shared_ptr<const CheckpointStatsTracker> stats = jobs_->CheckpointStatistics(job_id)) {
    const int64_t now = NowMs();
    if (std::optional<CheckpointStats> latest = stats->LatestCompleted()) {
      c.set_latest_completion_time(latest->end_time_ms);
      c.set_latest_age_ms(std::max<int64_t>(0, now - latest->end_time_ms));
      c.set_latest_alignment_duration_ms(static_cast<double>(latest->max_alignment_ns) / 1e6);
    }
    c.set_in_progress(stats->InProgress());
    for (const CheckpointStats& s : stats->History())
      RestCheckpointStatsOf(s, now, c.add_history());
  }
  return JsonResponse(200, c);
}

HttpResponse RestApi::Exceptions(const std::string& job_id) {
  absl::StatusOr<v1::JobInfo> job = jobs_->Get(job_id);
  if (!job.ok())
    return ErrorResponse(HttpStatusOf(job.status()), std::string(job.status().message()));
  v1::RestExceptions e;
  if (job->status() == v1::JOB_STATUS_FAILED) e.set_root_exception(job->error());
  e.set_last_failure(job->last_failure());
  e.set_restarts(std::max(0, job->attempt() - 1));
  return JsonResponse(200, e);
}

HttpResponse RestApi::Workers() {
  v1::RestWorkers w;
  for (v1::WorkerStatus& s : workers_->Statuses()) *w.add_workers() = std::move(s);
  return JsonResponse(200, w);
}

HttpResponse RestApi::Stop(const HttpRequest& request, const std::string& job_id) {
  if (options_.token.empty()) {
    return ErrorResponse(403,
                         "the REST API is read-only: start the coordinator with --rest-token to "
                         "allow stopping jobs");
  }
  const std::string auth = request.Header("authorization");
  const std::string bearer = "Bearer ";
  if (!absl::StartsWith(auth, bearer) || !SameSecret(auth.substr(bearer.size()), options_.token)) {
    HttpResponse r = ErrorResponse(401,
                                   "stopping a job needs 'Authorization: Bearer <token>' "
                                   "with the coordinator's --rest-token");
    r.headers["WWW-Authenticate"] = "Bearer";
    return r;
  }
  absl::Status s = jobs_->Cancel(job_id);
  if (!s.ok()) return ErrorResponse(HttpStatusOf(s), std::string(s.message()));
  v1::RestJobSummary accepted;
  accepted.set_jid(job_id);
  if (absl::StatusOr<v1::JobInfo> job = jobs_->Get(job_id); job.ok()) {
    accepted.set_name(job->name());
    accepted.set_state(JobStateName(job->status()));
    accepted.set_start_time(job->start_time_ms());
    accepted.set_end_time(job->end_time_ms());
    accepted.set_duration(Duration(*job, NowMs()));
    accepted.set_restarts(std::max(0, job->attempt() - 1));
  }
  return JsonResponse(202, accepted);
}

HttpResponse RestApi::Metrics() {
  HttpResponse r;
  r.content_type = PrometheusWriter::kContentType;
  r.body = CoordinatorMetricsText(*jobs_, *workers_);
  return r;
}

}  // namespace eddy
