#include "coordinator/service/coordinator_server.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "common/base/logging.h"
#include "common/base/status_macros.h"
#include "common/rpc/message_limits.h"
#include "common/rpc/rpc_server_metrics.h"
#include "common/rpc/status_convert.h"
#include "coordinator/checkpoint/savepoint_store.h"
#include "coordinator/service/job_specs.h"

namespace eddy {

class CoordinatorServer::ClientServiceImpl final : public v1::ClientService::Service {
 public:
  explicit ClientServiceImpl(CoordinatorServer* server) : server_(server) {}

  grpc::Status ExecuteStatement(grpc::ServerContext*, const v1::ExecuteStatementRequest* req,
                                v1::ExecuteStatementResponse* resp) override {
    Session& session = server_->SessionFor(req->session_id());
    std::lock_guard<std::mutex> lock(session.mu);
    auto result = server_->executor_->Execute(session, req->statement());
    if (!result.ok()) {
      EDDY_LOG_INFO("statement failed: {}", std::string(result.status().message()));
      return ToGrpcStatus(result.status());
    }
    *resp = std::move(*result);
    return grpc::Status::OK;
  }

  grpc::Status GetJob(grpc::ServerContext*, const v1::GetJobRequest* req,
                      v1::JobInfo* resp) override {
    auto info = server_->jobs_->Get(req->job_id(), req->wait_timeout_ms());
    if (!info.ok()) return ToGrpcStatus(info.status());
    *resp = *info;
    return grpc::Status::OK;
  }

  grpc::Status CancelJob(grpc::ServerContext*, const v1::CancelJobClientRequest* req,
                         v1::CancelJobClientResponse* resp) override {
    if (!req->with_savepoint()) {
      if (req->drain()) {
        return ToGrpcStatus(absl::InvalidArgumentError("drain needs with_savepoint"));
      }
      return ToGrpcStatus(server_->jobs_->Cancel(req->job_id()));
    }
    std::string dir;
    if (!req->savepoint_dir().empty()) {
      auto local = LocalDirectoryOf(req->savepoint_dir(), "savepoint_dir");
      if (!local.ok()) return ToGrpcStatus(local.status());
      dir = *local;
    }
    auto path = server_->jobs_->StopWithSavepoint(req->job_id(), dir, req->drain());
    if (!path.ok()) return ToGrpcStatus(path.status());
    resp->set_savepoint_path(*path);
    return grpc::Status::OK;
  }

  grpc::Status ListJobs(grpc::ServerContext*, const v1::ListJobsRequest*,
                        v1::ListJobsResponse* resp) override {
    for (auto& j : server_->jobs_->List()) *resp->add_jobs() = j;
    return grpc::Status::OK;
  }

  grpc::Status ListWorkers(grpc::ServerContext*, const v1::ListWorkersRequest*,
                           v1::ListWorkersResponse* resp) override {
    for (auto& w : server_->registry_->Statuses()) *resp->add_workers() = std::move(w);
    return grpc::Status::OK;
  }

  grpc::Status FetchResults(grpc::ServerContext*, const v1::FetchResultsRequest* req,
                            v1::FetchResultsResponse* resp) override {
    const int wait_ms = std::clamp(req->max_wait_ms(), 0, 5000);
    return ToGrpcStatus(server_->jobs_->FetchResults(req->job_id(), wait_ms, resp));
  }

 private:
  CoordinatorServer* server_;
};

class CoordinatorServer::ClusterServiceImpl final : public v1::ClusterService::Service {
 public:
  explicit ClusterServiceImpl(CoordinatorServer* server) : server_(server) {}

  grpc::Status RegisterWorker(grpc::ServerContext*, const v1::RegisterWorkerRequest* req,
                              v1::RegisterWorkerResponse* resp) override {
    if (req->address().empty() || req->slots() <= 0) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "RegisterWorker needs an address and a positive slot count");
    }
    auto id = server_->registry_->Register(req->address(), req->slots(), req->instance_id());
    if (!id.ok()) return ToGrpcStatus(id.status());
    resp->set_worker_id(*id);
    resp->set_heartbeat_interval_ms(1000);
    return grpc::Status::OK;
  }

  grpc::Status Heartbeat(grpc::ServerContext*, const v1::HeartbeatRequest* req,
                         v1::HeartbeatResponse* resp) override {
    const bool known = server_->registry_->Heartbeat(req->worker_id(), req->running_size());
    resp->set_known(known);
    if (known) {
      for (v1::CancelJobRequest& cancel : server_->jobs_->OnHeartbeat(*req)) {
        EDDY_LOG_WARN("worker {} runs subtasks of job {} that must not run: cancelling them",
                      req->worker_id(), cancel.job_id());
        *resp->add_cancel() = std::move(cancel);
      }
    }
    return grpc::Status::OK;
  }

  grpc::Status ReportTaskState(grpc::ServerContext*, const v1::TaskStateReport* req,
                               v1::ReportTaskStateResponse*) override {
    server_->jobs_->OnTaskState(*req);
    return grpc::Status::OK;
  }

  grpc::Status AcknowledgeCheckpoint(grpc::ServerContext*,
                                     const v1::AcknowledgeCheckpointRequest* req,
                                     v1::AcknowledgeCheckpointResponse*) override {
    return ToGrpcStatus(server_->jobs_->OnAcknowledgeCheckpoint(*req));
  }

  grpc::Status DeclineCheckpoint(grpc::ServerContext*, const v1::DeclineCheckpointRequest* req,
                                 v1::DeclineCheckpointResponse*) override {
    server_->jobs_->OnDeclineCheckpoint(*req);
    return grpc::Status::OK;
  }

 private:
  CoordinatorServer* server_;
};

absl::StatusOr<std::unique_ptr<CoordinatorServer>> CoordinatorServer::Start(
    const CoordinatorOptions& options) {
  std::unique_ptr<CoordinatorServer> c(new CoordinatorServer());
  c->options_ = options;
  std::error_code ec;
  std::filesystem::create_directories(options.data_dir, ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot create data dir '", options.data_dir, "': ", ec.message()));
  }
  // One active coordinator per data directory; a standby waits here until it is the one.
  ASSIGN_OR_RETURN(LeaderLock lock, LeaderLock::Acquire(options.data_dir, options.standby));
  c->leader_lock_.emplace(std::move(lock));
  // Permanent tables, views and databases live in <data-dir>/catalog, and so do the jobs.
  ASSIGN_OR_RETURN(std::unique_ptr<CatalogStore> store,
                   CatalogStore::Open(options.data_dir + "/catalog"));
  c->job_store_ = std::make_unique<JobStore>(store->db(), store->path());
  RETURN_IF_ERROR(c->catalog_.AttachStore(std::move(store)));
  c->catalog_.SetFilesystemAllowedDirs(options.filesystem_allowed_dirs);
  c->registry_ =
      std::make_unique<WorkerRegistry>(std::chrono::milliseconds(options.heartbeat_timeout_ms));
  c->jobs_ =
      std::make_unique<JobManager>(c->registry_.get(), c->job_store_.get(), options.job_retention);
  c->jobs_->set_checkpoint_history_size(options.checkpoint_history_size);
  c->registry_->SetLostListener(
      [jobs = c->jobs_.get()](const std::string& id, const std::string& address,
                              const std::string& why) { jobs->OnWorkerLost(id, address, why); });
  SubmitOptions submit;
  submit.filesystem_allowed_dirs = options.filesystem_allowed_dirs;
  submit.checkpoints_dir =
      options.checkpoints_dir.empty() ? options.data_dir + "/checkpoints" : options.checkpoints_dir;
  c->executor_ =
      std::make_unique<StatementExecutor>(c->jobs_.get(), c->registry_.get(), std::move(submit));
  // The jobs of the coordinator before this one: listed again, the unfinished ones deployed anew.
  RETURN_IF_ERROR(c->jobs_->Recover(JobSpecFrom));
  c->client_service_ = std::make_unique<ClientServiceImpl>(c.get());
  c->cluster_service_ = std::make_unique<ClusterServiceImpl>(c.get());
  c->stream_relay_service_ = std::make_unique<StreamRelayService>(
      [raw = c.get()](const std::string& id) -> Session& { return raw->SessionFor(id); },
      [raw = c.get()](const std::string& job) -> std::string {
        auto info = raw->jobs_->Get(job);
        if (!info.ok()) return "";
        const v1::JobStatus s = info->status();
        if (!JobManager::IsFinal(s)) return "";
        std::string why = v1::JobStatus_Name(s).substr(std::string("JOB_STATUS_").size());
        if (!info->error().empty()) absl::StrAppend(&why, ": ", info->error());
        return why;
      });

  grpc::ServerBuilder builder;
  builder.AddListeningPort(absl::StrCat(options.bind_host, ":", options.port),
                           grpc::InsecureServerCredentials(), &c->port_);
  ConfigureServerBuilder(&builder);
  AddRpcServerMetrics(&builder);
  builder.RegisterService(c->client_service_.get());
  builder.RegisterService(c->cluster_service_.get());
  builder.RegisterService(c->stream_relay_service_.get());
  c->server_ = builder.BuildAndStart();
  if (!c->server_ || c->port_ == 0) {
    return absl::UnavailableError(absl::StrCat("coordinator cannot listen on ", options.bind_host,
                                               ":", options.port, " (is the port in use?)"));
  }
  c->heartbeat_thread_ = std::thread([raw = c.get()] { raw->HeartbeatLoop(); });
  EDDY_LOG_INFO("coordinator serving on port {}, data in {}", c->port_, options.data_dir);
  return c;
}

CoordinatorServer::~CoordinatorServer() { Shutdown(); }

void CoordinatorServer::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (shutdown_ && !heartbeat_thread_.joinable() && !server_) return;
    shutdown_ = true;
    cv_.notify_all();
  }
  if (heartbeat_thread_.joinable()) heartbeat_thread_.join();
  if (server_) {
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
    server_->Wait();
    server_.reset();
  }
}

Session& CoordinatorServer::SessionFor(const std::string& id) {
  std::lock_guard<std::mutex> lock(sessions_mu_);
  auto& s = sessions_[id];
  if (!s) s = std::make_unique<Session>(&catalog_);
  return *s;
}

void CoordinatorServer::HeartbeatLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!shutdown_) {
    cv_.wait_for(lock, std::chrono::milliseconds(500), [this] { return shutdown_; });
    if (shutdown_) break;
    lock.unlock();
    registry_->CheckHeartbeats();
    lock.lock();
  }
}

}  // namespace eddy
