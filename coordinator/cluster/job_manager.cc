#include "coordinator/cluster/job_manager.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/base/logging.h"
#include "common/base/status_macros.h"
#include "common/rpc/status_convert.h"
#include "coordinator/checkpoint/savepoint_restore.h"
#include "coordinator/checkpoint/savepoint_store.h"

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

constexpr auto kTickInterval = std::chrono::milliseconds(50);
// How often FetchResults asks again for results that are not on their worker yet.
constexpr auto kSinkRetryInterval = std::chrono::milliseconds(50);
constexpr auto kSlotRetryInterval = std::chrono::seconds(1);
// How often finished jobs are checked against the retention.
constexpr auto kPruneInterval = std::chrono::seconds(1);

}  // namespace

JobManager::JobManager(WorkerRegistry* registry, JobStore* store, JobRetention retention)
    : registry_(registry), store_(store), retention_(retention) {
  ticker_ = std::thread([this] { TickLoop(); });
}

JobManager::~JobManager() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

bool JobManager::IsFinal(v1::JobStatus s) {
  return s == v1::JOB_STATUS_FINISHED || s == v1::JOB_STATUS_FAILED || s == v1::JOB_STATUS_CANCELED;
}

bool JobManager::IsFinal(v1::TaskState s) {
  return s == v1::TASK_STATE_FINISHED || s == v1::TASK_STATE_FAILED || s == v1::TASK_STATE_CANCELED;
}

v1::JobInfo JobManager::InfoLocked(const Job& job) {
  v1::JobInfo info = job.info;
  std::map<std::pair<int, int>, v1::OperatorMetrics> by_node;  // (task, node) -> sum
  std::set<std::pair<int, int>> without_watermark;             // a subtask of the node has none yet
  for (const auto& t : job.tasks) {
    for (const auto& m : t.operators) {
      const std::pair<int, int> key{t.task_index, m.node_id()};
      v1::OperatorMetrics& sum = by_node[key];
      sum.set_busy_ms(sum.busy_ms() + m.busy_ms());
      sum.set_idle_ms(sum.idle_ms() + m.idle_ms());
      sum.set_back_pressured_ms(sum.back_pressured_ms() + m.back_pressured_ms());
      if (!m.has_input_watermark_ms()) {
        without_watermark.insert(key);
      } else if (!sum.has_input_watermark_ms() ||
                 m.input_watermark_ms() < sum.input_watermark_ms()) {
        sum.set_input_watermark_ms(m.input_watermark_ms());
      }
      sum.set_node_id(m.node_id());
      sum.set_task_index(t.task_index);
      if (sum.description().empty()) sum.set_description(m.description());
      sum.set_rows_in(sum.rows_in() + m.rows_in());
      sum.set_rows_out(sum.rows_out() + m.rows_out());
      sum.set_late_rows_dropped(sum.late_rows_dropped() + m.late_rows_dropped());
      sum.set_state_bytes_in_memory(sum.state_bytes_in_memory() + m.state_bytes_in_memory());
      sum.set_state_bytes_in_store(sum.state_bytes_in_store() + m.state_bytes_in_store());
      sum.set_subtasks(sum.subtasks() + 1);
    }
  }
  for (auto& [id, m] : by_node) {
    if (without_watermark.count(id) > 0) m.clear_input_watermark_ms();
    *info.add_operators() = std::move(m);
  }
  info.set_attempt(job.attempt);
  int64_t completed = job.checkpoints_completed_before, failed = job.checkpoints_failed_before;
  if (job.checkpoints) {
    const CheckpointCoordinator::Stats stats = job.checkpoints->stats();
    completed += stats.completed;
    failed += stats.failed;
    if (stats.latest_completed_id) {
      info.set_last_checkpoint_id(*stats.latest_completed_id);
      info.set_last_checkpoint_duration_ms(stats.latest_duration.count());
      info.set_last_checkpoint_size_bytes(static_cast<int64_t>(stats.latest_size_bytes));
      info.set_last_checkpoint_new_bytes(static_cast<int64_t>(stats.latest_new_bytes));
    }
  }
  info.set_checkpoints_completed(completed);
  info.set_checkpoints_failed(failed);
  return info;
}

std::shared_ptr<CheckpointCoordinator> JobManager::MakeCheckpointCoordinator(
    const std::string& job_id, const Job& job, int64_t last_id) {
  if (!job.spec.checkpointing.enabled()) return nullptr;
  std::set<CheckpointCoordinator::SubtaskId> subtasks;
  for (const auto& t : job.tasks) subtasks.insert({t.task_index, t.subtask_index});
  const int attempt = job.attempt;
  CheckpointCoordinator::Callbacks cb;
  cb.trigger = [this, job_id, attempt](int64_t id, int64_t time_ms) {
    return TriggerOnWorkers(job_id, attempt, id, time_ms);
  };
  cb.trigger_stop = [this, job_id, attempt](int64_t id, int64_t time_ms, bool drain) {
    return TriggerOnWorkers(job_id, attempt, id, time_ms, true, drain);
  };
  // The coordinator outlives its callbacks' calls (they run on its own methods' stacks), so a
  // weak pointer lets them ask it about the stop savepoint.
  auto self = std::make_shared<std::weak_ptr<CheckpointCoordinator>>();
  cb.notify_complete = [this, job_id, attempt, self](int64_t id) {
    OnCheckpointCompleted(job_id, attempt, id, self->lock());
  };
  cb.notify_aborted = [this, job_id, attempt, self](int64_t id, const std::string& reason) {
    NotifyWorkers(job_id, attempt, id, false, reason);
    if (auto c = self->lock(); c && c->stop_savepoint_id() == id) {
      OnStopSavepointFailed(job_id, attempt, absl::StrCat("the savepoint failed: ", reason));
    }
  };
  const CheckpointConfig& config = job.spec.checkpointing;
  cb.initial_delay = [low = config.min_pause, high = std::max(config.min_pause, config.interval)] {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    return std::chrono::milliseconds(
        std::uniform_int_distribution<int64_t>(low.count(), high.count())(rng));
  };
  // Callbacks run without the checkpoint coordinator's lock, so FailAttempt may stop it.
  cb.fail_job = [this, job_id, attempt](const std::string& message) {
    FailAttempt(job_id, attempt, message);
  };
  auto coordinator = std::make_shared<CheckpointCoordinator>(
      job_id, attempt, job.spec.checkpointing, std::move(subtasks), job.store.get(), std::move(cb),
      last_id, job.checkpoint_stats);
  *self = coordinator;
  return coordinator;
}

absl::Status JobManager::PersistLocked(const Job& job) {
  if (store_ == nullptr) return absl::OkStatus();
  v1::StoredJobStatus status;
  *status.mutable_info() = InfoLocked(job);
  if (job.store) status.set_checkpoint_dir(job.store->job_dir());
  absl::Status s = store_->UpdateStatus(job.info.job_id(), status);
  if (!s.ok()) EDDY_LOG_ERROR("job {}: {}", job.info.job_id(), std::string(s.message()));
  return s;
}

void JobManager::PruneLocked(int64_t now_ms) {
  std::vector<std::pair<int64_t, std::string>> finished;  // (end time, job id)
  for (const auto& [id, job] : jobs_) {
    if (IsFinal(job.info.status())) finished.push_back({job.info.end_time_ms(), id});
  }
  std::sort(finished.begin(), finished.end());
  const size_t capacity = static_cast<size_t>(std::max(0, retention_.max_capacity));
  const size_t excess = finished.size() > capacity ? finished.size() - capacity : 0;
  for (size_t i = 0; i < finished.size(); ++i) {
    const auto& [end_ms, id] = finished[i];
    const bool expired = now_ms - end_ms >= retention_.expiration.count();
    if (i >= excess && !expired) continue;
    Job& job = jobs_.at(id);
    // A client still fetching a query's last rows keeps it until it is done.
    if (job.results && job.results.use_count() > 1) continue;
    EDDY_LOG_INFO("job {} ({}) pruned: {}", id, job.info.name(),
                  expired ? "it ended longer ago than jobstore.expiration-time"
                          : "more finished jobs than jobstore.max-capacity");
    if (store_ != nullptr) {
      if (absl::Status s = store_->Remove(id); !s.ok()) {
        EDDY_LOG_WARN("job {}: {}", id, std::string(s.message()));
      }
    }
    jobs_.erase(id);
    std::erase(order_, id);
  }
}

absl::Status JobManager::Recover(const SpecFactory& make_spec) {
  if (store_ == nullptr) return absl::OkStatus();
  ASSIGN_OR_RETURN(std::vector<JobStore::StoredJob> stored, store_->Load());
  int redeployed = 0, listed = 0, failed = 0;
  std::lock_guard<std::mutex> lock(mu_);
  const Clock::time_point now = Clock::now();
  for (JobStore::StoredJob& s : stored) {
    Job& job = jobs_[s.job_id];
    order_.push_back(s.job_id);
    job.info = s.status.info();
    job.info.set_job_id(s.job_id);
    job.attempt = job.info.attempt();
    // Whatever of those attempts still runs somewhere must stop; the next one numbers on.
    job.attempts_over = job.attempt;
    job.checkpoints_completed_before = job.info.checkpoints_completed();
    job.checkpoints_failed_before = job.info.checkpoints_failed();
    if (!s.status.checkpoint_dir().empty()) {
      job.store = std::make_unique<CheckpointStore>(s.status.checkpoint_dir());
    }
    if (IsFinal(job.info.status())) {  // listed as it ended, final row counts included
      job.spec.name = job.info.name();
      ++listed;
      continue;
    }
    job.info.clear_operators();  // of an attempt that is over
    auto fail = [&](const std::string& why) {
      job.spec.name = job.info.name();
      EDDY_LOG_ERROR("job {} ({}): {}", s.job_id, job.info.name(), why);
      job.info.set_status(v1::JOB_STATUS_FAILED);
      job.info.set_error(why);
      job.info.set_end_time_ms(NowMs());
      (void)PersistLocked(job);
      ++failed;
    };
    if (s.spec.query()) {
      // Its client, fetching again, learns why there are no more rows.
      job.results = std::make_shared<QueryResults>(s.job_id, false);
      fail(
          "the coordinator restarted while the query ran: its rows went to a client that lost "
          "its connection with it");
      continue;
    }
    absl::StatusOr<JobSpec> spec = make_spec(s.spec);
    if (!spec.ok()) {
      fail(absl::StrCat("cannot be deployed again after a coordinator restart: ",
                        spec.status().message()));
      continue;
    }
    job.spec = *std::move(spec);
    job.spec.stored = s.spec;
    job.recovered = true;
    job.info.set_status(v1::JOB_STATUS_RESTARTING);
    job.info.set_last_failure("the coordinator restarted");
    job.restart_at = now + kRecoveryGrace;
    (void)PersistLocked(job);
    EDDY_LOG_INFO("job {} ({}) recovered: attempt {} was {}; deploying the next one{}", s.job_id,
                  job.info.name(), job.attempt,
                  v1::JobStatus_Name(s.status.info().status()).substr(strlen("JOB_STATUS_")),
                  job.store ? " from its latest completed checkpoint"
                            : " from the beginning: checkpointing is off");
    ++redeployed;
  }
  EDDY_LOG_INFO("job store {}: {} jobs to deploy again, {} finished, {} failed to recover",
                store_->path(), redeployed, listed, failed);
  PruneLocked(NowMs());
  return absl::OkStatus();
}

absl::StatusOr<std::string> JobManager::Submit(JobSpec spec) {
  spec.slots_needed = std::max(1, spec.slots_needed);
  const std::string job_id = NewJobId();
  std::unique_ptr<CheckpointStore> store;
  if (spec.checkpointing.enabled()) {
    store = std::make_unique<CheckpointStore>(absl::StrCat(spec.checkpointing.dir, "/", job_id));
    if (absl::Status s = store->Prepare(); !s.ok()) return s;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    Job& job = jobs_[job_id];
    job.info.set_job_id(job_id);
    job.info.set_name(spec.name);
    job.info.set_status(v1::JOB_STATUS_CREATED);
    job.info.set_start_time_ms(NowMs());
    job.spec = std::move(spec);
    job.store = std::move(store);
    if (job.spec.collects_results) {
      job.results = std::make_shared<QueryResults>(job_id, job.spec.checkpointing.enabled());
    }
    if (store_ != nullptr) {
      // Recorded before anything of it runs: a coordinator that restarts from here on finds it.
      v1::StoredJobStatus status;
      *status.mutable_info() = InfoLocked(job);
      if (job.store) status.set_checkpoint_dir(job.store->job_dir());
      if (absl::Status s = store_->Add(job_id, job.spec.stored, status); !s.ok()) {
        jobs_.erase(job_id);
        return s;
      }
    }
    order_.push_back(job_id);
  }
  absl::Status deployed = DeployAttempt(job_id, kSlotWait);
  if (!deployed.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return deployed;  // cancelled and pruned meanwhile
    Job& job = it->second;
    if (job.store) (void)job.store->DeleteAll();
    if (job.attempt == 0) {
      // No slots, or no subtasks could be built: nothing was deployed, and the client gets the
      // error instead of a job.
      jobs_.erase(job_id);
      std::erase(order_, job_id);
      if (store_ != nullptr) {
        if (absl::Status s = store_->Remove(job_id); !s.ok()) {
          EDDY_LOG_WARN("job {}: {}", job_id, std::string(s.message()));
        }
      }
    } else {
      FinishLocked(job, v1::JOB_STATUS_FAILED, std::string(deployed.message()));
    }
    return deployed;
  }
  return job_id;
}

absl::Status JobManager::DeployAttempt(const std::string& job_id,
                                       std::chrono::milliseconds slot_wait) {
  int slots_needed = 0;
  DeploymentBuilder build;
  CheckpointStore* store = nullptr;
  CheckpointConfig checkpointing;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return absl::NotFoundError(absl::StrCat("job ", job_id, " is gone"));
    Job& job = it->second;
    slots_needed = job.spec.slots_needed;
    build = job.spec.build;
    store = job.store.get();
    checkpointing = job.spec.checkpointing;
  }
  ASSIGN_OR_RETURN(std::vector<std::string> slots,
                   registry_->AllocateSlots(slots_needed, slot_wait));
  auto release = [&] {
    for (const auto& w : slots) registry_->ReleaseSlot(w);
  };
  std::vector<std::string> addresses;
  for (const auto& w : slots) addresses.push_back(registry_->AddressOf(w));
  auto built = build(job_id, slots, addresses);
  if (!built.ok()) {
    release();
    return built.status();
  }
  std::vector<v1::TaskDeployment> tasks = *std::move(built);
  // The latest checkpoint that verifies; those that do not are reported and skipped.
  std::optional<v1::CheckpointMetadata> restore;
  if (store != nullptr) {
    std::vector<std::string> skipped;
    restore = store->LatestValid(&skipped);
    for (const std::string& why : skipped) {
      EDDY_LOG_WARN("job {}: not restoring from a checkpoint that cannot be trusted: {}", job_id,
                    why);
    }
    if (!restore && !skipped.empty()) {
      // Starting over would repeat what the completed checkpoints already committed.
      release();
      return absl::DataLossError(absl::StrCat("no completed checkpoint can be trusted (",
                                              skipped.size(),
                                              " skipped); the newest: ", skipped.front()));
    }
  }
  // Without a checkpoint of its own yet, a job started from a savepoint restores the savepoint.
  int64_t savepoint_checkpoint_id = 0;
  std::string savepoint_dir;
  if (!restore && !checkpointing.savepoint_path.empty()) {
    absl::StatusOr<LoadedSavepoint> savepoint = LoadSavepoint(checkpointing.savepoint_path);
    absl::Status s = savepoint.status();
    if (s.ok()) s = AssignSavepointState(*savepoint, checkpointing.ignore_unclaimed_state, &tasks);
    if (!s.ok()) {
      release();
      return s;
    }
    savepoint_checkpoint_id = savepoint->metadata.checkpoint_id();
    savepoint_dir = savepoint->dir;
  }
  std::map<std::pair<int, int>, const v1::SubtaskStateHandle*> restored_state;
  if (restore) {
    for (const auto& s : restore->subtasks()) {
      restored_state[{s.task_index(), s.subtask_index()}] = &s;
    }
  }
  int attempt = 0;
  std::string name;
  std::map<std::string, v1::DeployTasksRequest> per_worker;
  std::shared_ptr<CheckpointCoordinator> checkpoints;
  bool recovered = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end() || IsFinal(it->second.info.status())) {  // cancelled meanwhile
      release();
      return absl::CancelledError(absl::StrCat("job ", job_id, " was cancelled"));
    }
    Job& job = it->second;
    attempt = ++job.attempt;
    // The attempt is recorded before any of its subtasks can run: a coordinator that restarts
    // from here on takes it (and those before it) for over, and numbers on above it.
    if (absl::Status s = PersistLocked(job); !s.ok()) {
      job.attempts_over = std::max(job.attempts_over, attempt);
      release();
      return s;
    }
    recovered = job.recovered;
    job.recovered = false;
    if (restore) job.info.set_last_checkpoint_id(restore->checkpoint_id());
    if (!savepoint_dir.empty()) job.info.set_restored_from_savepoint(savepoint_dir);
    job.operators = DescribeOperators(tasks);
    job.max_parallelism = tasks.empty() ? 0 : tasks.front().max_parallelism();
    name = job.spec.name;
    if (job.checkpoints) {
      const CheckpointCoordinator::Stats stats = job.checkpoints->stats();
      job.checkpoints_completed_before += stats.completed;
      job.checkpoints_failed_before += stats.failed;
    }
    job.slots = slots;
    job.slots_released = false;
    job.tasks.clear();
    for (auto& t : tasks) {
      if (t.subtask_index() < 0 || t.subtask_index() >= slots_needed) {
        ReleaseSlotsLocked(job);
        return absl::InternalError(absl::StrCat("subtask ", t.subtask_index(), " has no slot"));
      }
      t.set_job_id(job_id);
      t.set_attempt(attempt);
      if (store != nullptr) {
        v1::TaskCheckpointing* c = t.mutable_checkpointing();
        c->set_enabled(true);
        c->set_exactly_once(checkpointing.exactly_once);
        c->set_job_dir(store->job_dir());
        if (restore) {
          c->set_restore_checkpoint_id(restore->checkpoint_id());
          c->set_restore_job_dir(store->job_dir());
          auto it = restored_state.find({t.task_index(), t.subtask_index()});
          if (it != restored_state.end()) *c->mutable_restore() = *it->second;
        }
      }
      const std::string& worker = slots[t.subtask_index()];
      TaskSlot& slot = job.tasks.emplace_back();
      slot.task_index = t.task_index();
      slot.subtask_index = t.subtask_index();
      slot.worker_id = worker;
      for (const v1::PlanNode& node : t.nodes()) {
        slot.reads_source = slot.reads_source || node.has_values() || node.has_table_source();
      }
      *per_worker[worker].add_tasks() = t;
    }
    // Checkpoint ids number on from the restored checkpoint's (or savepoint's), as Flink's do.
    const int64_t last_id = restore ? restore->checkpoint_id()
                            : (job.checkpoints && job.checkpoints->stats().latest_completed_id)
                                ? *job.checkpoints->stats().latest_completed_id
                                : savepoint_checkpoint_id;
    if (!job.checkpoint_stats && job.spec.checkpointing.enabled()) {
      job.checkpoint_stats = std::make_shared<CheckpointStatsTracker>(checkpoint_history_size_);
    }
    job.checkpoints = MakeCheckpointCoordinator(job_id, job, last_id);
    checkpoints = job.checkpoints;
    job.restart_at.reset();
    job.waiting_for_slots_since.reset();
  }
  if (recovered && attempt > 1) {
    // The attempts a coordinator before this one deployed may still run anywhere (a worker that
    // has not heartbeated yet is told the same at its next heartbeat). Attempt 0 never ran.
    std::vector<std::string> everywhere;
    for (const WorkerInfo& w : registry_->Workers()) everywhere.push_back(w.id);
    CancelOnWorkers(job_id, attempt - 1, everywhere);
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
    const std::string address = registry_->AddressOf(worker);
    if (s.error_code() == grpc::StatusCode::UNAVAILABLE) {
      // Nothing listens there any more: the worker is gone, whether or not its heartbeats have
      // timed out yet, and the next attempt must not be placed on it.
      registry_->MarkLost(worker, absl::StrCat("deploying to it failed: ", s.error_message()));
    }
    if (!s.ok()) {
      failure = absl::Status(FromGrpcStatus(s).code(),
                             absl::StrCat("deploying job ", job_id, " to ", worker, " at ", address,
                                          ": ", s.error_message()));
      break;
    }
    deployed.push_back(worker);
  }
  if (!failure.ok()) {
    if (checkpoints) checkpoints->Stop("the attempt could not be deployed");
    CancelOnWorkers(job_id, attempt, deployed);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return failure;
    Job& job = it->second;
    job.attempts_over = std::max(job.attempts_over, attempt);
    ReleaseSlotsLocked(job);
    return failure;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it != jobs_.end() && !IsFinal(it->second.info.status()) && it->second.attempt == attempt) {
      it->second.info.set_status(v1::JOB_STATUS_RUNNING);
      (void)PersistLocked(it->second);
    }
  }
  cv_.notify_all();  // a fetch waiting for the restart
  std::string from;
  if (restore) {
    from = absl::StrCat(", restored from checkpoint ", restore->checkpoint_id());
  } else if (!savepoint_dir.empty()) {
    from = absl::StrCat(", restored from savepoint ", savepoint_dir);
  } else if (attempt > 1) {
    from = store != nullptr ? ", from the beginning: no completed checkpoint to restore"
                            : ", from the beginning: checkpointing is off";
  }
  EDDY_LOG_INFO("job {} ({}) attempt {} deployed: {} subtasks on {} slots{}", job_id, name, attempt,
                tasks.size(), slots_needed, from);
  return absl::OkStatus();
}

void JobManager::ReleaseSlotsLocked(Job& job) {
  if (job.slots_released) return;
  for (const auto& w : job.slots) registry_->ReleaseSlot(w);
  job.slots_released = true;
}

std::vector<std::string> JobManager::LiveWorkersLocked(const Job& job) {
  std::set<std::string> workers;
  for (const auto& t : job.tasks) {
    if (!IsFinal(t.state)) workers.insert(t.worker_id);
  }
  return {workers.begin(), workers.end()};
}

std::vector<std::string> JobManager::FinishLocked(Job& job, v1::JobStatus status,
                                                  const std::string& error_in) {
  std::vector<std::string> to_cancel;
  if (IsFinal(job.info.status())) return to_cancel;
  std::string error = error_in;
  if (job.spec.on_end) {
    absl::Status ended = job.spec.on_end(job.info.job_id(), status == v1::JOB_STATUS_FINISHED);
    if (!ended.ok() && status == v1::JOB_STATUS_FINISHED) {
      status = v1::JOB_STATUS_FAILED;
      error = std::string(ended.message());
    }
  }
  job.info.set_status(status);
  job.info.set_error(error);
  job.info.set_end_time_ms(NowMs());
  job.restart_at.reset();
  ReleaseSlotsLocked(job);
  if (status != v1::JOB_STATUS_FINISHED) to_cancel = LiveWorkersLocked(job);
  // The job's checkpoint coordinator is not ticked again, and acknowledgements for a job that is
  // not running are ignored, so its pending checkpoints end with it.
  // The final status is recorded first: a coordinator that dies before its checkpoints are gone
  // must not take the job for unfinished and run it again from the beginning.
  const bool recorded = PersistLocked(job).ok();
  // A job that finished or was cancelled needs its checkpoints no more; a failed job keeps its
  // latest, for inspection (and so does one whose end could not be recorded).
  if (job.store && status != v1::JOB_STATUS_FAILED && recorded) {
    if (absl::Status s = job.store->DeleteAll(); !s.ok()) {
      EDDY_LOG_WARN("job {}: {}", job.info.job_id(), std::string(s.message()));
    }
  }
  EDDY_LOG_INFO("job {} {}{}", job.info.job_id(), v1::JobStatus_Name(status),
                error.empty() ? "" : ": " + error);
  cv_.notify_all();
  return to_cancel;
}

void JobManager::FailAttempt(const std::string& job_id, int attempt, const std::string& reason) {
  std::shared_ptr<CheckpointCoordinator> checkpoints;
  std::vector<std::string> to_cancel;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return;
    Job& job = it->second;
    if (job.attempt != attempt || IsFinal(job.info.status()) ||
        job.info.status() == v1::JOB_STATUS_RESTARTING) {
      return;
    }
    job.info.set_last_failure(reason);
    if (job.stop && !job.stop->written.empty() && !job.stop->done) {
      // A subtask failed while ending after the savepoint: the savepoint is whole, the stop is not.
      job.stop->done = true;
      job.stop->result = absl::AbortedError(
          absl::StrCat("the savepoint ", job.stop->written, " of job ", job_id,
                       " was written, but the job failed while stopping: ", reason));
      cv_.notify_all();
    }
    RestartDecision decision;
    if (job.spec.restart) decision = job.spec.restart->OnFailure(Clock::now());
    if (!decision.restart) {
      const std::string why = job.spec.restart
                                  ? absl::StrCat(reason, " (not restarted: ", decision.why_not, ")")
                                  : reason;
      to_cancel = FinishLocked(job, v1::JOB_STATUS_FAILED, why);
    } else {
      checkpoints = job.checkpoints;
      to_cancel = LiveWorkersLocked(job);
      ReleaseSlotsLocked(job);
      job.info.set_status(v1::JOB_STATUS_RESTARTING);
      job.attempts_over = std::max(job.attempts_over, attempt);
      job.restart_at = Clock::now() + decision.delay;
      EDDY_LOG_WARN("job {} attempt {} failed, restarting in {} ms: {}", job_id, attempt,
                    decision.delay.count(), reason);
      (void)PersistLocked(job);
      cv_.notify_all();
    }
  }
  if (checkpoints) checkpoints->Stop("the attempt failed");
  CancelOnWorkers(job_id, attempt, to_cancel);
}

absl::Status JobManager::FetchResults(const std::string& job_id, int wait_ms,
                                      v1::FetchResultsResponse* out) {
  std::shared_ptr<QueryResults> results;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return absl::NotFoundError("job '" + job_id + "' not found");
    results = it->second.results;
    if (!results) {
      return absl::FailedPreconditionError(
          absl::StrCat("job ", job_id, " is not a query: it has no rows to fetch"));
    }
  }
  std::lock_guard<std::mutex> turn(results->fetching);
  ResultRelay& relay = results->relay;
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(std::max(0, wait_ms));
  bool tried = false;  // fetched (or waited) once: done at the deadline
  while (true) {
    v1::JobStatus status;
    int attempt = 0;
    std::string worker;
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
      attempt = job.attempt;
      if (!job.slots.empty()) worker = job.slots[0];
    }
    relay.FollowAttempt(attempt);
    if (status == v1::JOB_STATUS_FINISHED) relay.JobFinished();
    if (relay.at_end() || relay.HasFullResponse()) break;
    // Rows to hand over: fetch once more first (without waiting), which drains the worker's
    // buffer and learns of newer checkpoints.
    if (relay.HasDeliverable() && (tried || relay.sink_ended())) break;
    const Clock::time_point now = Clock::now();
    if (tried && now >= deadline) break;
    tried = true;
    if (status == v1::JOB_STATUS_RESTARTING || worker.empty()) {
      (void)WaitForJobChange(job_id, status, attempt, deadline);  // no attempt to fetch from
      continue;
    }
    if (relay.sink_ended()) {
      // Every row of the attempt is here, but the job is finished (and its slots free) only once
      // every subtask reported: a client that runs its next query right after the end must find
      // the slots released, and with checkpointing the rows after the last checkpoint are final
      // only then.
      if (!WaitForJobChange(job_id, status, attempt, now + kFinalReportWait)) {
        return absl::DeadlineExceededError(absl::StrCat(
            "job ", job_id,
            " delivered all its rows but its subtasks did not report finishing within ",
            kFinalReportWait.count(), " ms"));
      }
      continue;
    }
    const int fetch_wait =
        relay.HasDeliverable()
            ? 0
            : static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::max(deadline - now, Clock::duration(0)))
                                   .count());
    const std::string address = registry_->AddressOf(worker);
    grpc::Status s(grpc::StatusCode::UNAVAILABLE, "the worker is gone");
    if (auto stub = registry_->StubOf(worker)) {
      grpc::ClientContext ctx;
      SetDeadline(&ctx, fetch_wait + 10000);
      v1::FetchResultChunksResponse response;
      s = stub->FetchResults(&ctx, relay.NextRequest(fetch_wait), &response);
      if (s.ok()) {
        RETURN_IF_ERROR(relay.Accept(std::move(response)));
        continue;
      }
    }
    const std::string failure =
        absl::StrCat("fetching the results of job ", job_id, " attempt ", attempt, " from ", worker,
                     " at ", address, ": ", s.error_message());
    if (s.error_code() == grpc::StatusCode::NOT_FOUND && status != v1::JOB_STATUS_FINISHED) {
      // The attempt's sink has not published its results yet.
      (void)WaitForJobChange(job_id, status, attempt, std::min(deadline, now + kSinkRetryInterval));
      continue;
    }
    if (s.error_code() == grpc::StatusCode::NOT_FOUND ||
        s.error_code() == grpc::StatusCode::OUT_OF_RANGE) {
      return absl::DataLossError(failure);  // gone before they were all fetched, or out of step
    }
    // Without checkpoints the query cannot go on without the rows on that worker. (ABORTED, not
    // UNAVAILABLE, which the client takes for the coordinator being unreachable.)
    if (!relay.exactly_once()) return absl::AbortedError(failure);
    // The worker is failing, or runs a newer attempt already: the job restarts (the fetch goes on
    // with the next attempt) or fails.
    EDDY_LOG_DEBUG("{}; waiting for the job to restart or fail", failure);
    (void)WaitForJobChange(job_id, status, attempt, std::min(deadline, now + kSinkRetryInterval));
  }
  relay.Deliver(out);
  return absl::OkStatus();
}

bool JobManager::WaitForJobChange(const std::string& job_id, v1::JobStatus status, int attempt,
                                  Clock::time_point until) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_until(lock, until, [&] {
    auto it = jobs_.find(job_id);  // pruned: changed too
    return stopping_ || it == jobs_.end() || it->second.info.status() != status ||
           it->second.attempt != attempt;
  });
}

void JobManager::CancelOnWorkers(const std::string& job_id, int up_to_attempt,
                                 const std::vector<std::string>& workers) {
  for (const auto& w : workers) {
    auto stub = registry_->StubOf(w);
    if (!stub) continue;
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 3000);
    v1::CancelJobRequest req;
    req.set_job_id(job_id);
    req.set_up_to_attempt(up_to_attempt);
    v1::CancelJobResponse resp;
    grpc::Status s = stub->CancelJob(&ctx, req, &resp);
    if (!s.ok()) EDDY_LOG_WARN("cancelling job {} on {}: {}", job_id, w, s.error_message());
  }
}

absl::Status JobManager::TriggerOnWorkers(const std::string& job_id, int attempt,
                                          int64_t checkpoint_id, int64_t trigger_time_ms,
                                          bool stop_sources, bool drain) {
  std::vector<std::string> workers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end() || it->second.attempt != attempt) {
      return absl::CancelledError("the attempt is over");
    }
    // Every worker of the attempt: a source subtask that already finished acknowledges too.
    std::set<std::string> unique(it->second.slots.begin(), it->second.slots.end());
    workers.assign(unique.begin(), unique.end());
  }
  for (const auto& w : workers) {
    auto stub = registry_->StubOf(w);
    if (!stub) return absl::UnavailableError(absl::StrCat("worker ", w, " is gone"));
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 5000);
    v1::TriggerCheckpointRequest req;
    req.set_job_id(job_id);
    req.set_attempt(attempt);
    req.set_checkpoint_id(checkpoint_id);
    req.set_trigger_time_ms(trigger_time_ms);
    req.set_stop_sources(stop_sources);
    req.set_drain(drain);
    v1::TriggerCheckpointResponse resp;
    grpc::Status s = stub->TriggerCheckpoint(&ctx, req, &resp);
    if (s.error_code() == grpc::StatusCode::UNAVAILABLE) {
      // Nothing listens there any more: the worker is lost (which fails this attempt, naming
      // it), whether or not its heartbeats have timed out yet.
      registry_->MarkLost(w, "a checkpoint trigger could not reach it");
    }
    if (!s.ok() && s.error_code() != grpc::StatusCode::NOT_FOUND) {  // NOT_FOUND: none there
      return absl::UnavailableError(
          absl::StrCat("worker ", w, " at ", registry_->AddressOf(w), ": ", s.error_message()));
    }
  }
  return absl::OkStatus();
}

void JobManager::NotifyWorkers(const std::string& job_id, int attempt, int64_t checkpoint_id,
                               bool completed, const std::string& reason) {
  std::vector<std::string> workers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end() || it->second.attempt != attempt) return;
    workers = LiveWorkersLocked(it->second);
  }
  for (const auto& w : workers) {
    auto stub = registry_->StubOf(w);
    if (!stub) continue;
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 5000);
    v1::NotifyCheckpointRequest req;
    req.set_job_id(job_id);
    req.set_attempt(attempt);
    req.set_checkpoint_id(checkpoint_id);
    req.set_completed(completed);
    req.set_reason(reason);
    v1::NotifyCheckpointResponse resp;
    grpc::Status s = stub->NotifyCheckpoint(&ctx, req, &resp);
    if (!s.ok()) {
      EDDY_LOG_WARN("job {}: telling {} about checkpoint {}: {}", job_id, w, checkpoint_id,
                    s.error_message());
    }
  }
}

absl::Status JobManager::OnAcknowledgeCheckpoint(const v1::AcknowledgeCheckpointRequest& request) {
  std::shared_ptr<CheckpointCoordinator> checkpoints;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(request.job_id());
    if (it == jobs_.end()) {
      return absl::NotFoundError(absl::StrCat("job '", request.job_id(), "' not found"));
    }
    // An older attempt's, or one that arrives after the job stopped running: ignored.
    if (it->second.attempt != request.attempt() ||
        it->second.info.status() != v1::JOB_STATUS_RUNNING) {
      return absl::OkStatus();
    }
    checkpoints = it->second.checkpoints;
  }
  if (!checkpoints) {
    return absl::FailedPreconditionError(
        absl::StrCat("job ", request.job_id(), " does not take checkpoints"));
  }
  return checkpoints->Acknowledge(request.checkpoint_id(), request.state(), Clock::now(),
                                  request.alignment_duration_ns());
}

void JobManager::OnDeclineCheckpoint(const v1::DeclineCheckpointRequest& request) {
  std::shared_ptr<CheckpointCoordinator> checkpoints;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(request.job_id());
    if (it == jobs_.end() || it->second.attempt != request.attempt()) return;
    checkpoints = it->second.checkpoints;
  }
  if (checkpoints) {
    checkpoints->Decline(request.checkpoint_id(), {request.task_index(), request.subtask_index()},
                         request.reason(), request.storage_full());
  }
}

void JobManager::OnTaskState(const v1::TaskStateReport& report) {
  std::vector<std::string> to_cancel;
  int attempt = 0;
  bool failed = false;
  std::shared_ptr<CheckpointCoordinator> finished_for;  // tell it a subtask finished
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(report.job_id());
    if (it == jobs_.end()) return;
    Job& job = it->second;
    if (report.attempt() != job.attempt) return;  // a late report of an earlier attempt
    attempt = job.attempt;
    bool all_finished = true;
    for (auto& t : job.tasks) {
      if (t.task_index == report.task_index() && t.subtask_index == report.subtask_index()) {
        t.state = report.state();
        if (report.operators_size() > 0) t.operators = report.operators();
        if (t.state == v1::TASK_STATE_FINISHED && !t.reads_source) finished_for = job.checkpoints;
      }
      all_finished = all_finished && t.state == v1::TASK_STATE_FINISHED;
    }
    if (report.state() == v1::TASK_STATE_FAILED) {
      failed = true;
    } else if (all_finished && job.stop && !job.stop->written.empty()) {
      // Stopped with a savepoint: every subtask committed it and ended.
      EndStoppedJobLocked(job);
    } else if (all_finished && job.stop && job.stop->write_failed) {
      // Ended at the stop, but the savepoint could not be written: the attempt fails instead
      // (OnStopSavepointFailed).
    } else if (all_finished && (job.info.status() == v1::JOB_STATUS_RUNNING ||
                                job.info.status() == v1::JOB_STATUS_CREATED)) {
      // CREATED: a short job can finish before its deployment call has even returned.
      FinishLocked(job, v1::JOB_STATUS_FINISHED, "");
    }
  }
  if (finished_for) finished_for->OnSubtaskFinished({report.task_index(), report.subtask_index()});
  if (failed) FailAttempt(report.job_id(), attempt, report.error());
}

std::vector<v1::CancelJobRequest> JobManager::OnHeartbeat(const v1::HeartbeatRequest& heartbeat) {
  std::map<std::string, int> to_cancel;  // job -> cancel its attempts up to this one (0: all)
  std::vector<std::pair<std::string, std::pair<int, std::string>>> lost;  // job, (attempt, why)
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::set<std::tuple<std::string, int, int>> listed;
    for (const auto& running : heartbeat.running()) {
      auto it = jobs_.find(running.job_id());
      // A job this coordinator never saw (it restarted since), one that failed or was cancelled,
      // or an attempt that is over: its subtasks must not run on. A finished job's subtasks may
      // trail their final report.
      if (it == jobs_.end() || (IsFinal(it->second.info.status()) &&
                                it->second.info.status() != v1::JOB_STATUS_FINISHED)) {
        to_cancel[running.job_id()] = 0;
        continue;
      }
      // An attempt that is over: an older one, or the current one while the job waits to restart.
      // Never the attempt being deployed (the job is still RESTARTING then).
      const Job& job = it->second;
      if (running.attempt() < job.attempt || running.attempt() <= job.attempts_over) {
        const int up_to = std::max(job.attempts_over, job.attempt - 1);
        if (to_cancel.count(running.job_id()) == 0) to_cancel[running.job_id()] = up_to;
        continue;
      }
      listed.insert({running.job_id(), running.task_index(), running.subtask_index()});
      for (auto& t : it->second.tasks) {
        // A heartbeat may trail the subtask's final report: final counts are never overwritten.
        if (t.task_index == running.task_index() && t.subtask_index == running.subtask_index() &&
            t.worker_id == heartbeat.worker_id() && !IsFinal(t.state)) {
          t.operators = running.operators();
        }
      }
    }
    // A subtask the coordinator thinks runs here but that the worker no longer lists, heartbeat
    // after heartbeat, ended without a final report reaching the coordinator.
    for (auto& [id, job] : jobs_) {
      if (job.info.status() != v1::JOB_STATUS_RUNNING) continue;
      for (auto& t : job.tasks) {
        if (t.worker_id != heartbeat.worker_id() || IsFinal(t.state)) continue;
        if (listed.count({id, t.task_index, t.subtask_index}) > 0) {
          t.missed_heartbeats = 0;
        } else if (++t.missed_heartbeats >= kMissedHeartbeatsForLostTask) {
          lost.push_back(
              {id,
               {job.attempt, absl::StrCat("task ", t.task_index, " subtask ", t.subtask_index,
                                          " on ", t.worker_id, " ended without a final report")}});
          t.missed_heartbeats = 0;
        }
      }
    }
  }
  for (const auto& [job_id, attempt_and_why] : lost) {
    FailAttempt(job_id, attempt_and_why.first, attempt_and_why.second);
  }
  std::vector<v1::CancelJobRequest> cancels;
  for (const auto& [job_id, up_to] : to_cancel) {
    v1::CancelJobRequest& c = cancels.emplace_back();
    c.set_job_id(job_id);
    c.set_up_to_attempt(up_to);
  }
  return cancels;
}

void JobManager::OnWorkerLost(const std::string& worker_id, const std::string& address,
                              const std::string& why) {
  std::vector<std::pair<std::string, int>> affected;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [id, job] : jobs_) {
      if (job.info.status() != v1::JOB_STATUS_RUNNING) continue;
      bool uses = false;
      for (const auto& t : job.tasks)
        uses = uses || (t.worker_id == worker_id && !IsFinal(t.state));
      if (uses) affected.push_back({id, job.attempt});
    }
  }
  for (const auto& [id, attempt] : affected) {
    FailAttempt(id, attempt,
                absl::StrCat("worker ", worker_id, " at ", address, " was lost (", why, ")"));
  }
}

absl::Status JobManager::Cancel(const std::string& job_id) {
  std::vector<std::string> to_cancel;
  int attempt = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return absl::NotFoundError(absl::StrCat("job '", job_id, "' not found"));
    if (IsFinal(it->second.info.status())) return absl::OkStatus();
    attempt = it->second.attempt;
    to_cancel = FinishLocked(it->second, v1::JOB_STATUS_CANCELED, "");
  }
  CancelOnWorkers(job_id, attempt, to_cancel);
  return absl::OkStatus();
}

absl::StatusOr<std::string> JobManager::StopWithSavepoint(const std::string& job_id,
                                                          const std::string& savepoints_dir,
                                                          bool drain) {
  std::shared_ptr<CheckpointCoordinator> checkpoints;
  int attempt = 0;
  std::chrono::milliseconds timeout{0};
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return absl::NotFoundError(absl::StrCat("job '", job_id, "' not found"));
    Job& job = it->second;
    const std::string status = v1::JobStatus_Name(job.info.status()).substr(strlen("JOB_STATUS_"));
    if (job.info.status() != v1::JOB_STATUS_RUNNING) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot stop job ", job_id, " with a savepoint: it is ", status, ", not RUNNING"));
    }
    if (!job.checkpoints) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot stop job ", job_id,
          " with a savepoint: it runs without checkpointing (a savepoint is taken as a "
          "checkpoint: SET 'execution.checkpointing.interval' before submitting the job)"));
    }
    if (job.stop) {
      return absl::FailedPreconditionError(
          absl::StrCat("job ", job_id, " is already stopping with a savepoint"));
    }
    std::string dir =
        savepoints_dir.empty() ? job.spec.checkpointing.savepoints_dir : savepoints_dir;
    if (dir.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot stop job ", job_id,
                       " with a savepoint: no savepoint directory is configured (SET "
                       "'state.savepoints.dir' = '/path')"));
    }
    // Checked before the sources stop: a directory that cannot be written fails nothing.
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot create the savepoint directory '", dir, "': ", ec.message()));
    }
    attempt = job.attempt;
    job.stop.emplace();
    job.stop->attempt = attempt;
    job.stop->dir = dir;
    job.stop->drain = drain;
    job.stop->result = absl::UnknownError("pending");
    checkpoints = job.checkpoints;
    timeout = job.spec.checkpointing.timeout;
  }
  // A failed trigger aborts the savepoint, which ends the stop (OnStopSavepointFailed); one that
  // was never sent (the attempt's checkpoints stopped meanwhile) ends it here.
  absl::StatusOr<int64_t> triggered = checkpoints->TriggerStopSavepoint(drain);
  std::unique_lock<std::mutex> lock(mu_);
  if (!triggered.ok() && checkpoints->stop_savepoint_id() == 0) {
    auto it = jobs_.find(job_id);
    if (it != jobs_.end()) it->second.stop.reset();
    return absl::Status(triggered.status().code(),
                        absl::StrCat("cannot stop job ", job_id,
                                     " with a savepoint: ", triggered.status().message()));
  }
  const bool ended = cv_.wait_for(lock, timeout + std::chrono::seconds(30), [&] {
    auto it = jobs_.find(job_id);
    return stopping_ || it == jobs_.end() || !it->second.stop || it->second.stop->done ||
           (IsFinal(it->second.info.status()) && it->second.info.savepoint_path().empty());
  });
  auto it = jobs_.find(job_id);
  if (it == jobs_.end() || !it->second.stop) {
    return absl::AbortedError(absl::StrCat("job ", job_id, " ended before its savepoint"));
  }
  Job& job = it->second;
  if (!job.stop->done && !job.stop->written.empty() && job.attempt == attempt) {
    // The savepoint is written but a subtask has not ended: its subtasks are cancelled, which
    // still commits the savepoint (a task handles the completions it was told of before it ends).
    EDDY_LOG_WARN("job {}: not every subtask ended after the stop savepoint; cancelling them",
                  job_id);
    std::vector<std::string> to_cancel = LiveWorkersLocked(job);
    EndStoppedJobLocked(job);
    absl::StatusOr<std::string> result = job.stop->result;
    job.stop.reset();
    lock.unlock();
    CancelOnWorkers(job_id, attempt, to_cancel);
    return result;
  }
  absl::StatusOr<std::string> result = job.stop->result;
  if (!job.stop->done) {
    result = absl::AbortedError(absl::StrCat(
        "job ", job_id, ended ? " ended (" : " did not stop within the checkpoint timeout (",
        v1::JobStatus_Name(job.info.status()).substr(strlen("JOB_STATUS_")),
        ") before its savepoint completed"));
  }
  job.stop.reset();
  return result;
}

void JobManager::OnCheckpointCompleted(const std::string& job_id, int attempt,
                                       int64_t checkpoint_id,
                                       const std::shared_ptr<CheckpointCoordinator>& checkpoints) {
  if (!checkpoints || checkpoints->stop_savepoint_id() != checkpoint_id) {
    NotifyWorkers(job_id, attempt, checkpoint_id, true, "");
    return;
  }
  std::string dir;
  CheckpointStore* store = nullptr;
  std::vector<v1::OperatorStateDescriptor> operators;
  int max_parallelism = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end() || it->second.attempt != attempt || !it->second.stop ||
        !it->second.store) {
      return;
    }
    dir = it->second.stop->dir;
    store = it->second.store.get();
    operators = it->second.operators;
    max_parallelism = it->second.max_parallelism;
  }
  // The job's checkpoint directory lives as long as the job, which cannot end meanwhile: its
  // sources stopped and a stop is under way (a cancel leaves the directory until it ends).
  absl::StatusOr<std::string> path;
  {
    absl::StatusOr<v1::CheckpointMetadata> metadata = store->ReadMetadata(checkpoint_id);
    path = metadata.ok() ? WriteSavepoint(*store, *metadata, operators, max_parallelism, dir)
                         : absl::StatusOr<std::string>(metadata.status());
  }
  {
    // Recorded before the subtasks learn of the completion: they may all end at once after it.
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end() || it->second.attempt != attempt || !it->second.stop) return;
    Job& job = it->second;
    if (path.ok()) {
      EDDY_LOG_INFO("job {} ({}): savepoint {} written to {}; its subtasks end", job_id,
                    job.info.name(), checkpoint_id, *path);
      // Each subtask commits the savepoint and then ends: the job finishes once every one did
      // (OnTaskState), or when StopWithSavepoint gives up waiting.
      job.stop->written = *path;
    } else {
      job.stop->write_failed = true;  // subtasks that end meanwhile do not finish the job
    }
    cv_.notify_all();
  }
  // The checkpoint completed either way: its output is committed, whatever becomes of the job.
  NotifyWorkers(job_id, attempt, checkpoint_id, true, "");
  if (!path.ok()) {
    OnStopSavepointFailed(
        job_id, attempt,
        absl::StrCat("the savepoint could not be written: ", path.status().message()));
  }
}

void JobManager::EndStoppedJobLocked(Job& job) {
  if (!job.stop || job.stop->written.empty() || job.stop->done) return;
  job.info.set_savepoint_path(job.stop->written);
  FinishLocked(job, v1::JOB_STATUS_FINISHED, "");
  job.stop->done = true;
  job.stop->result = job.stop->written;
  cv_.notify_all();
}

void JobManager::OnStopSavepointFailed(const std::string& job_id, int attempt,
                                       const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end() || it->second.attempt != attempt) return;
    Job& job = it->second;
    if (job.stop && !job.stop->done) {
      job.stop->done = true;
      job.stop->result = absl::AbortedError(absl::StrCat(
          "stopping job ", job_id, " with a savepoint failed: ", why,
          job.spec.restart ? "; the job restarts from its latest checkpoint" : "; the job fails"));
    }
    cv_.notify_all();
  }
  // Its sources stopped after the barrier: the attempt cannot go on.
  FailAttempt(job_id, attempt, absl::StrCat("stopping with a savepoint failed: ", why));
}

void JobManager::TickLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    cv_.wait_for(lock, kTickInterval, [this] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    Tick(Clock::now());
    lock.lock();
  }
}

void JobManager::Tick(Clock::time_point now) {
  std::vector<std::shared_ptr<CheckpointCoordinator>> checkpoints;
  std::vector<std::string> restarts;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (now >= next_prune_) {
      PruneLocked(NowMs());
      next_prune_ = now + kPruneInterval;
    }
    for (auto& [id, job] : jobs_) {
      if (job.info.status() == v1::JOB_STATUS_RUNNING && job.checkpoints) {
        checkpoints.push_back(job.checkpoints);
      } else if (job.info.status() == v1::JOB_STATUS_RESTARTING && job.restart_at &&
                 now >= *job.restart_at) {
        restarts.push_back(id);
      }
    }
  }
  for (auto& c : checkpoints) c->Tick(now);
  for (const std::string& id : restarts) {
    absl::Status s = DeployAttempt(id, std::chrono::milliseconds(0));
    if (s.ok()) continue;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end() || IsFinal(it->second.info.status())) continue;
    Job& job = it->second;
    if (absl::IsResourceExhausted(s)) {
      // Not enough free slots yet (a lost worker may come back): try again for a while.
      if (!job.waiting_for_slots_since) job.waiting_for_slots_since = now;
      if (now - *job.waiting_for_slots_since < kRestartSlotWait) {
        job.restart_at = now + kSlotRetryInterval;
        continue;
      }
    }
    // A restart that could not be deployed is one more failure for the restart strategy, unless
    // its checkpoints cannot be trusted: trying again cannot help.
    const std::string reason = absl::StrCat("restarting failed: ", s.message());
    job.info.set_last_failure(reason);
    if (absl::IsDataLoss(s)) {
      EDDY_LOG_ERROR("job {}: {}", id, reason);
      FinishLocked(job, v1::JOB_STATUS_FAILED, reason);
      continue;
    }
    RestartDecision decision =
        job.spec.restart ? job.spec.restart->OnFailure(now) : RestartDecision{};
    if (decision.restart) {
      job.restart_at = now + decision.delay;
      EDDY_LOG_WARN("job {}: {}; trying again in {} ms", id, reason, decision.delay.count());
      continue;
    }
    FinishLocked(job, v1::JOB_STATUS_FAILED,
                 absl::StrCat(reason, " (not restarted: ", decision.why_not, ")"));
  }
}

absl::StatusOr<v1::JobInfo> JobManager::Get(const std::string& job_id, int64_t wait_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end()) return absl::NotFoundError(absl::StrCat("job '", job_id, "' not found"));
  if (wait_ms > 0) {
    cv_.wait_for(lock, std::chrono::milliseconds(wait_ms), [&] {
      it = jobs_.find(job_id);
      return it == jobs_.end() || IsFinal(it->second.info.status());
    });
    if (it == jobs_.end()) {
      return absl::NotFoundError(absl::StrCat("job '", job_id, "' not found"));
    }
  }
  return InfoLocked(it->second);
}

std::vector<v1::JobInfo> JobManager::List() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<v1::JobInfo> out;
  for (const auto& id : order_) out.push_back(InfoLocked(jobs_[id]));
  return out;
}

std::shared_ptr<const CheckpointStatsTracker> JobManager::CheckpointStatistics(
    const std::string& job_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = jobs_.find(job_id);
  return it == jobs_.end() ? nullptr : it->second.checkpoint_stats;
}

absl::StatusOr<v1::StoredJobSpec> JobManager::StoredSpec(const std::string& job_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end()) return absl::NotFoundError(absl::StrCat("job '", job_id, "' not found"));
  return it->second.spec.stored;
}

}  // namespace eddy
