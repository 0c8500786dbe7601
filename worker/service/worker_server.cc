#include "worker/service/worker_server.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/base/host_port.h"
#include "common/base/logging.h"
#include "common/base/status_macros.h"
#include "common/rpc/message_limits.h"
#include "common/rpc/rpc_server_metrics.h"
#include "common/rpc/status_convert.h"
#include "common/udf/user_library.h"

namespace eddy {
namespace {

std::string LocalHostname() {
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "127.0.0.1";
  return buf;
}

constexpr auto kHeartbeatInterval = std::chrono::milliseconds(1000);
// Registration attempts back off from the first to the longest delay (doubling) while the
// coordinator does not answer, and start over once it did.
constexpr auto kRegisterRetry = std::chrono::milliseconds(500);
constexpr auto kRegisterRetryMax = std::chrono::milliseconds(2000);
constexpr auto kRegistrationWarningInterval = std::chrono::seconds(30);

// 16 random hex digits: this process's identity towards the coordinator.
std::string NewInstanceId() {
  std::random_device rd;
  const uint64_t v =
      (static_cast<uint64_t>(rd()) << 32) ^ rd() ^
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return absl::StrFormat("%016x", v);
}

}  // namespace

absl::StatusOr<std::unique_ptr<WorkerServer>> WorkerServer::Start(const WorkerOptions& options) {
  std::unique_ptr<WorkerServer> w(new WorkerServer(options));
  w->instance_id_ = NewInstanceId();
  if (options.slots <= 0) return absl::InvalidArgumentError("--slots must be positive");
  if (options.coordinator_address.empty()) {
    return absl::InvalidArgumentError(
        "a coordinator address is required (--coordinator HOST:PORT)");
  }
  std::error_code ec;
  std::filesystem::create_directories(options.data_dir, ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot create data dir '", options.data_dir, "': ", ec.message()));
  }
  // Removes the state of jobs of an earlier process with this data dir: it is never resumed.
  w->memory_.emplace(options.managed_memory_bytes.value_or(MemoryBudget::DefaultManagedBytes()),
                     options.slots);
  ASSIGN_OR_RETURN(
      w->state_stores_,
      StateStores::Open(
          options.data_dir + "/state",
          w->memory_->ApplyTo(StateBackendOptions{}, options.state_cache_bytes.value_or(1) > 0)));

  w->exchange_ = std::make_unique<ExchangeRegistry>(
      std::chrono::milliseconds(std::max(0, options.exchange_gate_wait_ms)));
  w->exchange_service_ = std::make_unique<ExchangeServiceImpl>(w->exchange_.get());

  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(absl::StrCat(options.bind_host, ":", options.port),
                           grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(w.get());
  builder.RegisterService(w->exchange_service_.get());
  ConfigureServerBuilder(&builder);
  AddRpcServerMetrics(&builder);
  w->server_ = builder.BuildAndStart();
  if (!w->server_ || port == 0) {
    return absl::UnavailableError(absl::StrCat("worker cannot listen on ", options.bind_host, ":",
                                               options.port, " (is the port in use?)"));
  }
  std::string host = options.advertise_host.empty() ? LocalHostname() : options.advertise_host;
  w->address_ = absl::StrCat(host, ":", port);
  // Several addresses (an active coordinator and standbys): the channel follows the one that
  // listens.
  ASSIGN_OR_RETURN(const std::string target, ChannelTarget(options.coordinator_address));
  auto channel = grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(),
                                           CoordinatorChannelArguments());
  w->coordinator_ = v1::ClusterService::NewStub(channel);
  w->coordinator_channel_ = channel;
  v1::ClusterService::Stub* stub = w->coordinator_.get();
  w->checkpoints_ = std::make_unique<CheckpointUploader>(
      [stub](const v1::AcknowledgeCheckpointRequest& req) {
        v1::AcknowledgeCheckpointResponse resp;
        grpc::ClientContext ctx;
        SetDeadline(&ctx, 10000);
        grpc::Status s = stub->AcknowledgeCheckpoint(&ctx, req, &resp);
        if (!s.ok()) {
          EDDY_LOG_WARN("acknowledging checkpoint {} of job {}: {}", req.checkpoint_id(),
                        req.job_id(), s.error_message());
        }
      },
      [stub](const v1::DeclineCheckpointRequest& req) {
        v1::DeclineCheckpointResponse resp;
        grpc::ClientContext ctx;
        SetDeadline(&ctx, 10000);
        grpc::Status s = stub->DeclineCheckpoint(&ctx, req, &resp);
        if (!s.ok()) {
          EDDY_LOG_WARN("declining checkpoint {} of job {}: {}", req.checkpoint_id(), req.job_id(),
                        s.error_message());
        }
      });
  w->control_thread_ = std::thread([raw = w.get()] { raw->ControlLoop(); });
  EDDY_LOG_INFO("worker serving on {} with {} slots, state in {}", w->address_, options.slots,
                options.data_dir);
  EDDY_LOG_INFO(
      "managed memory {} MiB: RocksDB block cache {} MiB, write buffers {} MiB, {} MiB of operator "
      "state per slot{}",
      w->memory_->managed_bytes() >> 20, w->memory_->block_cache_bytes() >> 20,
      w->memory_->write_buffer_bytes() >> 20, w->memory_->slot_state_bytes() >> 20,
      options.state_cache_bytes
          ? absl::StrCat(" (but ", *options.state_cache_bytes >> 20,
                         " MiB per stateful operator subtask, --state-cache-mb)")
          : std::string());
  return w;
}

WorkerServer::~WorkerServer() { Shutdown(); }

void WorkerServer::Shutdown() {
  // Streams still waiting for a gate would hold up the server's shutdown.
  if (exchange_) exchange_->Shutdown();
  {
    std::lock_guard<std::mutex> lock(mu_);
    shutdown_ = true;
    for (auto& t : tasks_) t->Cancel();
    cv_.notify_all();
  }
  if (control_thread_.joinable()) control_thread_.join();
  std::vector<std::unique_ptr<Task>> tasks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    tasks.swap(tasks_);
  }
  for (auto& t : tasks) t->Join();
  // Every job ends here with the worker.
  if (state_stores_) {
    absl::Status s = state_stores_->DropAll();
    if (!s.ok()) EDDY_LOG_WARN("dropping state: {}", s.ToString());
  }
  if (server_) {
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
    server_->Wait();
    server_.reset();
  }
}

void WorkerServer::Wait() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return shutdown_; });
}

void WorkerServer::RunningMetrics(v1::HeartbeatRequest* req) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& t : tasks_) {
    if (t->done()) continue;
    t->Metrics(req->add_running());
    t->SampleThroughput();
  }
}

size_t WorkerServer::RunningTasks() {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (auto& t : tasks_) n += t->done() ? 0 : 1;
  return n;
}

bool WorkerServer::Register() {
  v1::RegisterWorkerRequest req;
  req.set_address(address_);
  req.set_slots(options_.slots);
  req.set_instance_id(instance_id_);
  v1::RegisterWorkerResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx, 2000);
  grpc::Status s = coordinator_->RegisterWorker(&ctx, req, &resp);
  if (!s.ok()) {
    ++failed_registrations_;
    // The first failure, then one line every ~30 s: a worker waiting for its coordinator says so.
    const auto now = std::chrono::steady_clock::now();
    if (now - last_registration_warning_ >= kRegistrationWarningInterval) {
      EDDY_LOG_WARN("worker {} cannot register with the coordinator at {} ({} attempts so far): {}",
                    address_, options_.coordinator_address, failed_registrations_,
                    s.error_message());
      last_registration_warning_ = now;
    }
    return false;
  }
  failed_registrations_ = 0;
  last_registration_warning_ = {};
  std::lock_guard<std::mutex> lock(mu_);
  worker_id_ = resp.worker_id();
  EDDY_LOG_INFO("worker {} registered with coordinator {} as {}", address_,
                options_.coordinator_address, worker_id_);
  return true;
}

void WorkerServer::ControlLoop() {
  bool registered = false;
  std::unique_lock<std::mutex> lock(mu_);
  while (!shutdown_) {
    lock.unlock();
    if (!registered) {
      registered = Register();
    } else {
      v1::HeartbeatRequest req;
      req.set_worker_id(worker_id_);
      RunningMetrics(&req);
      v1::HeartbeatResponse resp;
      grpc::ClientContext ctx;
      SetDeadline(&ctx, 2000);
      grpc::Status s = coordinator_->Heartbeat(&ctx, req, &resp);
      if (s.error_code() == grpc::StatusCode::UNAVAILABLE) {
        // Nothing answers at the coordinator's address: it is gone or restarting. The subtasks
        // here run on; the worker registers again, with backoff, until a coordinator answers
        // (registering again with one that still knows it changes nothing).
        EDDY_LOG_WARN(
            "worker {}: the coordinator at {} does not answer ({}); registering again "
            "until it does",
            worker_id_, options_.coordinator_address, s.error_message());
        registered = false;
      }
      if (s.ok() && !resp.known()) {
        EDDY_LOG_WARN("worker {}: the coordinator at {} no longer knows it; registering again",
                      worker_id_, options_.coordinator_address);
        registered = false;
      }
      for (const v1::CancelJobRequest& cancel : resp.cancel()) {
        EDDY_LOG_WARN("cancelling the subtasks of job {}{}: the coordinator does not run them",
                      cancel.job_id(),
                      cancel.up_to_attempt() > 0
                          ? absl::StrCat(" up to attempt ", cancel.up_to_attempt())
                          : "");
        CancelJobHere(cancel.job_id(), cancel.up_to_attempt());
      }
    }
    ReapFinished();
    lock.lock();
    std::chrono::milliseconds wait = kHeartbeatInterval;
    if (!registered) {
      wait = kRegisterRetry;
      for (int i = 1; i < failed_registrations_ && wait < kRegisterRetryMax; ++i) wait *= 2;
      wait = std::min(wait, kRegisterRetryMax);
    }
    cv_.wait_for(lock, wait, [this] { return shutdown_; });
  }
}

void WorkerServer::ReapFinished() {
  std::vector<std::unique_ptr<Task>> finished;
  std::set<std::string> ended_jobs;  // state keys: one per job attempt
  std::set<std::string> ended_job_ids;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = tasks_.begin(); it != tasks_.end();) {
      if ((*it)->done()) {
        ended_jobs.insert((*it)->state_key());
        ended_job_ids.insert((*it)->job_id());
        if ((*it)->finished() && (*it)->triggerable()) {
          ended_sources_[(*it)->job_id()].emplace_back((*it)->attempt(), (*it)->FinalSourceState());
        }
        finished.push_back(std::move(*it));
        it = tasks_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& t : finished) t->Join();
  if (ended_jobs.empty()) return;
  // Finished, cancelled or failed alike: a job without tasks here needs its state no more. Under
  // mu_, so that no task of the job can be deployed (and open a store) while it is dropped.
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& t : tasks_) {
    ended_jobs.erase(t->state_key());
    ended_job_ids.erase(t->job_id());
  }
  for (const std::string& job : ended_jobs) {
    absl::Status s = state_stores_->DropJob(job);
    if (!s.ok()) EDDY_LOG_WARN("dropping state of job {}: {}", job, s.ToString());
  }
  for (const std::string& job : ended_job_ids) checkpoints_->DropJob(job);
}

void WorkerServer::Report(const v1::TaskStateReport& report) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    v1::ReportTaskStateResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 5000);
    grpc::Status s = coordinator_->ReportTaskState(&ctx, report, &resp);
    if (s.ok()) return;
    EDDY_LOG_WARN("reporting task state to coordinator failed: {}", s.error_message());
  }
}

grpc::Status WorkerServer::DeployTasks(grpc::ServerContext*, const v1::DeployTasksRequest* req,
                                       v1::DeployTasksResponse*) {
  // The user-function libraries the plans call, shipped with them: loaded before any node is built.
  for (const auto& d : req->tasks()) {
    for (const auto& lib : d.user_libraries()) {
      if (UserLibraries::Global().Library(lib.digest()) != nullptr) continue;
      auto digest =
          UserLibraries::Global().Load(std::make_shared<const std::string>(lib.content()),
                                       lib.name(), UserLibraries::JobDirectory(d.job_id()));
      if (!digest.ok()) return ToGrpcStatus(digest.status());
      if (*digest != lib.digest()) {
        return ToGrpcStatus(absl::DataLossError(absl::StrCat(
            "User function library '", lib.name(), "' arrived with another digest than sent")));
      }
    }
  }
  std::vector<std::unique_ptr<Task>> created;
  // A slot holds one subtask index of every stage of a job; its state share is divided over the
  // stateful operators of all of them.
  std::map<std::pair<std::string, int>, int> stateful_in_slot;
  for (const auto& d : req->tasks()) {
    for (const auto& n : d.nodes()) {
      if (n.state_id() != 0) ++stateful_in_slot[{d.job_id(), d.subtask_index()}];
    }
  }
  for (const auto& d : req->tasks()) {
    TaskEnvironment env;
    env.state_stores = state_stores_.get();
    env.state_cache_bytes = options_.state_cache_bytes.value_or(
        memory_->OperatorStateBytes(stateful_in_slot[{d.job_id(), d.subtask_index()}]));
    env.exchange = exchange_.get();
    env.results = &results_;
    env.filesystem_allowed_dirs = &options_.filesystem_allowed_dirs;
    env.coordinator = coordinator_channel_;
    env.checkpoints = checkpoints_.get();
    {
      std::lock_guard<std::mutex> lock(mu_);
      env.worker = absl::StrCat(worker_id_.empty() ? "an unregistered worker" : worker_id_, " at ",
                                address_);
    }
    v1::TaskStateReport base;
    base.set_job_id(d.job_id());
    base.set_task_index(d.task_index());
    base.set_subtask_index(d.subtask_index());
    base.set_attempt(d.attempt());
    env.on_state = [this, base](const Task& task, v1::TaskState state, const std::string& error) {
      v1::TaskStateReport r = base;
      r.set_state(state);
      r.set_error(error);
      task.OperatorMetrics(r.mutable_operators());
      {
        std::lock_guard<std::mutex> lock(mu_);
        r.set_worker_id(worker_id_);
      }
      Report(r);
    };
    auto task = Task::Create(d, std::move(env));
    if (!task.ok()) return ToGrpcStatus(task.status());  // nothing started: all or nothing
    created.push_back(std::move(*task));
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (shutdown_) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "worker is shutting down");
  for (auto& t : created) {
    t->Start();
    tasks_.push_back(std::move(t));
  }
  return grpc::Status::OK;
}

void WorkerServer::CancelJobHere(const std::string& job_id, int up_to_attempt) {
  // Only a whole job's cancel may close its exchange gates: an older attempt's subtasks end on
  // their own once cancelled. Results go with their attempt (a newer attempt's are kept).
  if (up_to_attempt == 0) exchange_->CancelJob(job_id);
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& t : tasks_) {
      if (t->job_id() == job_id && (up_to_attempt == 0 || t->attempt() <= up_to_attempt)) {
        t->Cancel();
      }
    }
    ended_sources_.erase(job_id);
  }
  results_.Drop(job_id, up_to_attempt);
}

grpc::Status WorkerServer::CancelJob(grpc::ServerContext*, const v1::CancelJobRequest* req,
                                     v1::CancelJobResponse*) {
  CancelJobHere(req->job_id(), req->up_to_attempt());
  return grpc::Status::OK;
}

grpc::Status WorkerServer::TriggerCheckpoint(grpc::ServerContext*,
                                             const v1::TriggerCheckpointRequest* req,
                                             v1::TriggerCheckpointResponse*) {
  std::vector<v1::SubtaskStateHandle> ended;
  {
    std::lock_guard<std::mutex> lock(mu_);
    bool known = false;
    int current = 0;
    for (const auto& t : tasks_) {
      if (t->job_id() != req->job_id()) continue;
      known = true;
      current = std::max(current, t->attempt());
    }
    auto it = ended_sources_.find(req->job_id());
    if (it != ended_sources_.end()) {
      known = true;
      for (const auto& [attempt, state] : it->second) current = std::max(current, attempt);
    }
    if (!known) {
      return grpc::Status(grpc::StatusCode::NOT_FOUND,
                          absl::StrCat("job ", req->job_id(), " has no subtasks on this worker"));
    }
    if (req->attempt() != current) {
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          absl::StrCat("checkpoint ", req->checkpoint_id(), " of job ",
                                       req->job_id(), " is for attempt ", req->attempt(),
                                       ", but attempt ", current, " runs on this worker"));
    }
    for (auto& t : tasks_) {
      if (t->job_id() != req->job_id() || t->attempt() != current) continue;
      if (!t->done()) {
        // Tasks behind an exchange act on it only once their inputs ended (a final checkpoint).
        if (!t->TriggerCheckpoint(req->checkpoint_id(), req->stop_sources(), req->drain())) {
          ended.push_back(t->FinalSourceState());
        }
      } else if (t->finished() && t->triggerable()) {
        ended.push_back(t->FinalSourceState());
      }
    }
    if (it != ended_sources_.end()) {
      for (const auto& [attempt, state] : it->second) {
        if (attempt == current) ended.push_back(state);
      }
    }
  }
  for (v1::SubtaskStateHandle& state : ended) {
    SubtaskSnapshot snapshot;
    snapshot.job_id = req->job_id();
    snapshot.attempt = req->attempt();
    snapshot.checkpoint_id = req->checkpoint_id();
    snapshot.state = std::move(state);
    checkpoints_->Submit(std::move(snapshot));
  }
  return grpc::Status::OK;
}

grpc::Status WorkerServer::NotifyCheckpoint(grpc::ServerContext*,
                                            const v1::NotifyCheckpointRequest* req,
                                            v1::NotifyCheckpointResponse*) {
  checkpoints_->NotifyCheckpoint(req->job_id(), req->checkpoint_id(), req->completed());
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& t : tasks_) {
    if (t->job_id() == req->job_id() && t->attempt() == req->attempt() && !t->done()) {
      t->NotifyCheckpoint(req->checkpoint_id(), req->completed());
    }
  }
  return grpc::Status::OK;
}

grpc::Status WorkerServer::FetchResults(grpc::ServerContext*,
                                        const v1::FetchResultChunksRequest* req,
                                        v1::FetchResultChunksResponse* resp) {
  v1::FetchResultChunksRequest bounded = *req;
  bounded.set_max_wait_ms(std::clamp(req->max_wait_ms(), 0, 5000));
  return ToGrpcStatus(results_.Fetch(bounded, resp));
}

}  // namespace eddy
