#include "worker/runtime/task.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/base/file_checksum.h"
#include "common/base/logging.h"
#include "common/base/status_macros.h"
#include "common/connectors/partition_commit_info.h"
#include "common/types/type_proto.h"
#include "worker/connectors/sink_not_null_enforcer.h"
#include "worker/exchange/back_pressure_clock.h"
#include "worker/exchange/exchange_sink.h"
#include "worker/exchange/input_alignment.h"
#include "worker/runtime/checkpoint_uploader.h"
#include "worker/runtime/operator_factory.h"
#include "worker/state/state_stores.h"

namespace eddy {
namespace {

// Operators get OnTick at least this often (exchange buffer timeouts rely on it).
constexpr auto kTickInterval = std::chrono::milliseconds(10);

// Distinguishes a store instance's files in the checkpoint directory from every other instance's.
std::string InstanceSuffix() {
  std::random_device rd;
  return absl::StrFormat("%08x%08x", rd(), rd());
}

bool IsConnectorSource(const v1::PlanNode& spec) {
  return spec.has_values() || spec.has_table_source();
}

// The columns a node emits: a sink that reports its partition commits emits the reports.
absl::StatusOr<Schema> EmittedSchema(const v1::PlanNode& spec) {
  if (spec.has_sink() && spec.sink().report_partition_commits()) {
    return PartitionCommitInfoSchema();
  }
  return SchemaFromProto(spec.output_schema());
}

}  // namespace

// Delivers an operator's or source's output to each downstream (node, input slot).
class Task::FanOut : public Output {
 public:
  FanOut(Task* task, Node* owner) : task_(task), owner_(owner) {}
  void AddTarget(size_t node, int slot) { targets_.push_back({node, slot}); }
  const std::vector<std::pair<size_t, int>>& targets() const { return targets_; }

  absl::Status Emit(const ChangelogBatch& batch) override;
  absl::Status EmitWatermark(const Watermark& watermark) override;

 private:
  Task* task_;
  Node* owner_;
  std::vector<std::pair<size_t, int>> targets_;
};

namespace {

// Counters written only by the task thread and read by the heartbeat: no read-modify-write needed.
void AddRows(std::atomic<uint64_t>& counter, size_t n) {
  counter.store(counter.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

int64_t SteadyNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

struct Task::Node {
  v1::PlanNode spec;
  std::unique_ptr<Source> source;
  std::unique_ptr<Operator> op;
  std::unique_ptr<FanOut> out;
  int inputs_total = 0;
  int inputs_ended = 0;
  WatermarkCombiner watermarks;  // over the node's inputs
  bool source_ended = false;
  // When state_id != 0, after Open; atomic: metrics read it from the heartbeat thread.
  std::atomic<KeyedStateBackend*> store{nullptr};
  std::string store_name;  // in checkpoint paths: unique per store instance
  std::atomic<uint64_t> rows_in{0};
  std::atomic<uint64_t> rows_out{0};
  std::atomic<uint64_t> bytes_in{0};
  std::atomic<uint64_t> bytes_out{0};
  std::atomic<int64_t> watermark_in{kNoWatermark};         // what ProcessWatermark last got
  std::atomic<int64_t> watermark_out{kNoWatermark};        // what the node last emitted
  ExchangeSinkOperator* exchange_sink = nullptr;           // op, when it ships to the next task
  const SinkNotNullEnforcer* not_null_enforcer = nullptr;  // op, for a sink with NOT NULL columns
  // Finished with output still to commit (a sink reporting its partition commits): its consumers
  // learn of its end once it has none (EndDeferredInputs).
  bool end_deferred = false;
  // An input ended because the job stops after a savepoint; with every input ended, `end_deferred`
  // until the task handled the savepoint's completion (the node is live till then, so that it
  // still commits it), then EndAtStop.
  bool input_ended_at_stop = false;
};

absl::Status Task::FanOut::Emit(const ChangelogBatch& batch) {
  const size_t bytes = batch.ByteSize();
  AddRows(owner_->rows_out, batch.num_rows());
  AddRows(owner_->bytes_out, bytes);
  for (const auto& [node, slot] : targets_) {
    Node& target = *task_->nodes_[node];
    AddRows(target.rows_in, batch.num_rows());
    AddRows(target.bytes_in, bytes);
    RETURN_IF_ERROR(target.op->Process(slot, batch));
  }
  return absl::OkStatus();
}

absl::Status Task::FanOut::EmitWatermark(const Watermark& watermark) {
  if (!watermark.idle) owner_->watermark_out.store(watermark.millis, std::memory_order_relaxed);
  for (const auto& [node, slot] : targets_) {
    Node& target = *task_->nodes_[node];
    if (std::optional<Watermark> w = target.watermarks.Update(slot, watermark)) {
      if (!w->idle) target.watermark_in.store(w->millis, std::memory_order_relaxed);
      RETURN_IF_ERROR(target.op->ProcessWatermark(*w));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Task>> Task::Create(const v1::TaskDeployment& d,
                                                   TaskEnvironment env) {
  std::unique_ptr<Task> task(new Task());
  task->job_id_ = d.job_id();
  task->task_index_ = d.task_index();
  task->subtask_index_ = d.subtask_index();
  task->parallelism_ = std::max(1, d.parallelism());
  task->max_parallelism_ = d.max_parallelism() > 0 ? d.max_parallelism() : kMaxParallelism;
  task->env_ = std::move(env);
  task->attempt_ = d.attempt();
  task->state_key_ =
      d.attempt() > 0 ? absl::StrCat(d.job_id(), "-attempt-", d.attempt()) : d.job_id();
  task->checkpointing_ = d.checkpointing();
  if (task->checkpointing_.has_restore()) {
    for (const auto& h : task->checkpointing_.restore().operators()) {
      task->restore_.emplace(h.state_id(), &h);
    }
  }

  std::map<int, size_t> index_of;  // plan node id -> position
  // One barrier alignment across the task's exchange inputs (a join stage has two).
  auto alignment = std::make_shared<InputAlignment>();
  task->alignment_ = alignment;
  for (const auto& spec : d.nodes()) {
    auto node = std::make_unique<Node>();
    node->spec = spec;
    node->out = std::make_unique<FanOut>(task.get(), node.get());
    std::vector<std::vector<DataType>> input_types;
    for (int in : spec.inputs()) {
      auto it = index_of.find(in);
      if (it == index_of.end()) {
        return absl::InvalidArgumentError(absl::StrCat("task ", d.task_index(), ": node ",
                                                       spec.id(), " reads node ", in,
                                                       " which is not defined before it"));
      }
      ASSIGN_OR_RETURN(Schema s, EmittedSchema(task->nodes_[it->second]->spec));
      input_types.push_back(s.Types());
    }
    NodeBuildContext build_ctx;
    build_ctx.job_id = d.job_id();
    build_ctx.task_index = d.task_index();
    build_ctx.subtask_index = d.subtask_index();
    build_ctx.attempt = d.attempt();
    build_ctx.exchange = task->env_.exchange;
    build_ctx.results = task->env_.results;
    build_ctx.filesystem_allowed_dirs = task->env_.filesystem_allowed_dirs;
    build_ctx.coordinator = task->env_.coordinator;
    build_ctx.worker = task->env_.worker;
    build_ctx.alignment = alignment;
    ASSIGN_OR_RETURN(BuiltNode built, BuildNode(spec, input_types, build_ctx));
    node->source = std::move(built.source);
    node->op = std::move(built.op);
    node->exchange_sink = dynamic_cast<ExchangeSinkOperator*>(node->op.get());
    node->not_null_enforcer = dynamic_cast<const SinkNotNullEnforcer*>(node->op.get());
    node->inputs_total = spec.inputs_size();
    if (IsConnectorSource(spec)) task->triggerable_ = true;
    node->watermarks.Resize(spec.inputs_size());
    if (node->op) node->op->set_output(node->out.get());
    size_t pos = task->nodes_.size();
    for (int slot = 0; slot < spec.inputs_size(); ++slot) {
      task->nodes_[index_of[spec.inputs(slot)]]->out->AddTarget(pos, slot);
    }
    if (!index_of.emplace(spec.id(), pos).second) {
      return absl::InvalidArgumentError(absl::StrCat("duplicate plan node id ", spec.id()));
    }
    task->nodes_.push_back(std::move(node));
  }
  return task;
}

Task::~Task() {
  Cancel();
  Join();
  // Before mu_/cv_ go: an exchange gate may still call Wake() until its source is destroyed.
  nodes_.clear();
}

void Task::Start() {
  thread_ = std::thread([this] { Run(); });
}

void Task::Cancel() {
  cancelled_ = true;
  std::lock_guard<std::mutex> lock(mu_);
  cv_.notify_all();
}

void Task::Join() {
  if (thread_.joinable()) thread_.join();
}

void Task::Metrics(v1::TaskMetrics* out) const {
  out->set_job_id(job_id_);
  out->set_attempt(attempt_);
  out->set_task_index(task_index_);
  out->set_subtask_index(subtask_index_);
  OperatorMetrics(out->mutable_operators());
}

void Task::OperatorMetrics(google::protobuf::RepeatedPtrField<v1::OperatorMetrics>* out) const {
  out->Clear();
  TaskRuntimeMetrics times;
  TimeMetrics(&times);
  for (const auto& node : nodes_) {
    v1::OperatorMetrics* m = out->Add();
    m->set_busy_ms(static_cast<int64_t>(times.busy_nanos / 1000000));
    m->set_idle_ms(static_cast<int64_t>(times.idle_nanos / 1000000));
    m->set_back_pressured_ms(static_cast<int64_t>(times.back_pressured_nanos / 1000000));
    if (const int64_t w = node->watermark_in.load(std::memory_order_relaxed); w != kNoWatermark) {
      m->set_input_watermark_ms(w);
    }
    m->set_node_id(node->spec.id());
    m->set_task_index(task_index_);
    m->set_description(node->spec.description());
    m->set_rows_in(static_cast<int64_t>(node->rows_in.load(std::memory_order_relaxed)));
    m->set_rows_out(static_cast<int64_t>(node->rows_out.load(std::memory_order_relaxed)));
    m->set_subtasks(1);
    if (node->op) {
      m->set_late_rows_dropped(static_cast<int64_t>(node->op->late_rows_dropped()));
      m->set_state_bytes_in_memory(static_cast<int64_t>(node->op->state_bytes_in_memory()));
    }
    if (KeyedStateBackend* store = node->store.load(); store != nullptr) {
      m->set_state_bytes_in_store(static_cast<int64_t>(store->ApproximateSizeBytes()));
    }
  }
}

void Task::TimeMetrics(TaskRuntimeMetrics* out) const {
  const int64_t start = run_start_ns_.load();
  if (start != 0) {
    const int64_t end = run_end_ns_.load();
    const int64_t now = end != 0 ? end : SteadyNanos();
    uint64_t idle = idle_ns_.load();
    if (const int64_t since = idle_since_ns_.load(); since != 0 && end == 0 && now > since) {
      idle += static_cast<uint64_t>(now - since);
    }
    const uint64_t back_pressured = back_pressured_ns_.load();
    const uint64_t total = static_cast<uint64_t>(std::max<int64_t>(0, now - start));
    out->idle_nanos = idle;
    out->back_pressured_nanos = back_pressured;
    out->busy_nanos = total > idle + back_pressured ? total - idle - back_pressured : 0;
  }
}

std::vector<uint64_t> Task::ThroughputCounters() const {
  std::vector<uint64_t> counters;
  counters.reserve(2 * nodes_.size());
  for (const auto& node : nodes_) {
    counters.push_back(node->rows_in.load(std::memory_order_relaxed));
    counters.push_back(node->rows_out.load(std::memory_order_relaxed));
  }
  return counters;
}

void Task::SampleThroughput() { throughput_.Sample(SteadyNanos(), ThroughputCounters()); }

void Task::RuntimeMetrics(TaskRuntimeMetrics* out) {
  out->job_id = job_id_;
  out->attempt = attempt_;
  out->task_index = task_index_;
  out->subtask_index = subtask_index_;
  TimeMetrics(out);
  const int64_t now = SteadyNanos();
  out->aligns = alignment_ != nullptr && alignment_->started();
  out->alignment_nanos = out->aligns ? alignment_->AlignmentNanos(now) : 0;
  std::vector<double> rates;
  throughput_.Rates(now, ThroughputCounters(), &rates);
  out->nodes.clear();
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const auto& node = nodes_[i];
    NodeRuntimeMetrics& m = out->nodes.emplace_back();
    m.rows_in_per_second = rates[2 * i];
    m.rows_out_per_second = rates[2 * i + 1];
    if (node->exchange_sink != nullptr) {
      const ExchangeSinkOperator::OutputStats s = node->exchange_sink->output_stats();
      m.exchange_output = true;
      m.output_channels = s.channels;
      m.output_free_credits = s.free_credits;
      m.output_channels_without_credit = s.channels_without_credit;
      m.output_queued_rows = s.queued_rows;
    }
    m.node_id = node->spec.id();
    m.description = node->spec.description();
    m.rows_in = node->rows_in.load(std::memory_order_relaxed);
    m.rows_out = node->rows_out.load(std::memory_order_relaxed);
    m.bytes_in = node->bytes_in.load(std::memory_order_relaxed);
    m.bytes_out = node->bytes_out.load(std::memory_order_relaxed);
    m.input_watermark = node->watermark_in.load(std::memory_order_relaxed);
    m.output_watermark = node->watermark_out.load(std::memory_order_relaxed);
    if (node->op) {
      m.late_rows_dropped = node->op->late_rows_dropped();
      if (node->not_null_enforcer != nullptr) {
        m.enforces_not_null = true;
        m.null_rows_dropped = node->not_null_enforcer->null_rows_dropped();
      }
      m.state_bytes_in_memory = node->op->state_bytes_in_memory();
    }
    if (KeyedStateBackend* store = node->store.load(); store != nullptr) {
      m.stateful = true;
      m.store_sst_bytes = store->SstFilesBytes();
      m.store_memtable_bytes = store->MemTableBytes();
      m.state_cache_hits = store->cache_hits();
      m.state_cache_misses = store->cache_misses();
    }
  }
}

void Task::Run() {
  run_start_ns_ = SteadyNanos();
  SampleThroughput();  // every counter is 0 yet: the rates count from here
  t_back_pressured_nanos = &back_pressured_ns_;
  if (env_.on_state) env_.on_state(*this, v1::TASK_STATE_RUNNING, "");
  absl::Status status = OpenAll();
  if (status.ok()) status = Drive();
  if (status.ok() && !cancelled_) status = AwaitFinalCheckpoint();
  if (status.ok() && !cancelled_ && triggerable_) {
    // A checkpoint triggered after the end acknowledges these final positions.
    v1::SubtaskStateHandle final_state;
    final_state.set_task_index(task_index_);
    final_state.set_subtask_index(subtask_index_);
    for (auto& node : nodes_) {
      if (!node->source || !IsConnectorSource(node->spec)) continue;
      OperatorSnapshot snapshot;
      if (!node->source->SnapshotState(0, &snapshot).ok() || snapshot.empty()) continue;
      v1::OperatorStateHandle* h = final_state.add_operators();
      h->set_state_id(HandleId(*node));
      h->set_operator_state(snapshot.Encode());
    }
    std::deque<int64_t> unanswered;
    {
      std::lock_guard<std::mutex> lock(mu_);
      final_state_ = final_state;
      final_state_recorded_ = true;
      unanswered.swap(triggers_);
    }
    // Triggers that came after the driver last looked: the final positions answer them, as the
    // worker answers every later one (an unanswered trigger would keep its checkpoint pending
    // until it times out, and the job's final checkpoint behind it).
    if (env_.checkpoints != nullptr) {
      for (int64_t id : unanswered) {
        if (id <= last_checkpoint_) continue;  // already taken (a repeated trigger)
        SubtaskSnapshot snapshot;
        snapshot.job_id = job_id_;
        snapshot.attempt = attempt_;
        snapshot.checkpoint_id = id;
        snapshot.state = final_state;
        env_.checkpoints->Submit(std::move(snapshot));
      }
    }
  }
  if (!status.ok() && !cancelled_) {
    for (auto& node : nodes_) {
      if (node->op) node->op->Abort(status);
    }
  }
  if (status.ok() && cancelled_) {
    // A checkpoint whose completion was told before the cancel still commits its output: STOP
    // JOB ... WITH SAVEPOINT cancels the subtasks right after its savepoint completed.
    absl::Status committed = HandleCheckpointRequests(/*completions_only=*/true);
    if (!committed.ok()) {
      EDDY_LOG_WARN("job {} task {}.{}: committing after the cancel: {}", job_id_, task_index_,
                    subtask_index_, committed.ToString());
    }
  }
  CloseAll();
  t_back_pressured_nanos = nullptr;
  run_end_ns_ = SteadyNanos();
  finished_ = status.ok() && !cancelled_;
  done_ = true;
  if (!env_.on_state) return;
  if (cancelled_) {
    env_.on_state(*this, v1::TASK_STATE_CANCELED, "");
  } else if (!status.ok()) {
    EDDY_LOG_WARN("job {} task {}.{} failed: {}", job_id_, task_index_, subtask_index_,
                  status.ToString());
    env_.on_state(*this, v1::TASK_STATE_FAILED, std::string(status.message()));
  } else {
    env_.on_state(*this, v1::TASK_STATE_FINISHED, "");
  }
}

uint32_t Task::HandleId(const Node& node) {
  return node.spec.state_id() != 0 ? node.spec.state_id()
                                   : static_cast<uint32_t>(node.spec.id() + 1);
}

bool Task::Live(const Node& node) const {
  if (node.source) return !node.source_ended;
  return node.inputs_ended < node.inputs_total || (node.end_deferred && node.input_ended_at_stop);
}

absl::Status Task::CopyRestoreFiles(const v1::OperatorStateHandle& handle,
                                    const std::string& local) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::remove_all(local, ec);
  fs::create_directories(local, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create '", local, "': ", ec.message()));
  const fs::path from_dir(checkpointing_.restore_job_dir());
  for (const v1::StateFile& f : handle.files()) {
    const fs::path from = from_dir / f.path();
    const fs::path to = fs::path(local) / from.filename();
    fs::copy_file(from, to, ec);
    std::string wrong = ec ? ec.message() : "";
    if (!ec) {
      // The copy is what the store opens: it must hold the bytes the checkpoint recorded.
      absl::StatusOr<FileChecksum> sum = ChecksumFile(to.string());
      if (!sum.ok()) {
        wrong = std::string(sum.status().message());
      } else if (sum->size != f.size() || sum->crc32 != f.crc32()) {
        wrong = absl::StrCat("its ", sum->size, " bytes fail the checksum recorded for ", f.size());
      }
    }
    if (!wrong.empty()) {
      fs::remove_all(local, ec);
      return absl::DataLossError(absl::StrCat("cannot restore state file '", from.string(),
                                              "' of checkpoint ",
                                              checkpointing_.restore_checkpoint_id(), ": ", wrong));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<KeyedStateBackend*> Task::OpenStore(Node& node) {
  const uint32_t state_id = node.spec.state_id();
  node.store_name =
      absl::StrCat("state-", state_id, "-subtask-", subtask_index_, "-", InstanceSuffix());
  std::vector<const v1::OperatorStateHandle*> handles;
  for (auto [it, end] = restore_.equal_range(HandleId(node)); it != end; ++it) {
    if (!it->second->files().empty()) handles.push_back(it->second);
  }
  if (handles.empty()) return env_.state_stores->Acquire(state_key_, state_id, subtask_index_);
  if (handles.size() > 1 || checkpointing_.restore_parallelism() > 0) {
    return OpenRescaledStore(node, handles);
  }
  // The checkpoint's files, side by side as rocksdb::Checkpoint wrote them, then opened as the
  // store (SSTs hard-linked into it).
  namespace fs = std::filesystem;
  const fs::path local =
      fs::path(env_.state_stores->JobDir(state_key_)) / absl::StrCat("restore-", node.store_name);
  RETURN_IF_ERROR(CopyRestoreFiles(*handles.front(), local.string()));
  auto store =
      env_.state_stores->AcquireFromSnapshot(state_key_, state_id, subtask_index_, local.string());
  std::error_code ec;
  fs::remove_all(local, ec);
  if (store.ok() && env_.checkpoints != nullptr &&
      checkpointing_.restore_job_dir() == checkpointing_.job_dir()) {
    // Its SSTs are in this job's checkpoint directory already: later checkpoints reference them.
    env_.checkpoints->SeedStore(job_id_, node.store_name,
                                {handles.front()->files().begin(), handles.front()->files().end()});
  }
  return store;
}

absl::StatusOr<KeyedStateBackend*> Task::OpenRescaledStore(
    Node& node, const std::vector<const v1::OperatorStateHandle*>& handles) {
  namespace fs = std::filesystem;
  const uint32_t state_id = node.spec.state_id();
  ASSIGN_OR_RETURN(KeyedStateBackend * store,
                   env_.state_stores->Acquire(state_key_, state_id, subtask_index_));
  // This subtask's key groups (key group g belongs to subtask g * parallelism / max_parallelism).
  const int first = (subtask_index_ * max_parallelism_ + parallelism_ - 1) / parallelism_;
  const int last = ((subtask_index_ + 1) * max_parallelism_ + parallelism_ - 1) / parallelism_ - 1;
  const fs::path base = fs::path(env_.state_stores->JobDir(state_key_));
  constexpr size_t kKeysPerWrite = 4096;
  uint64_t keys = 0;
  for (size_t h = 0; h < handles.size(); ++h) {
    const fs::path local = base / absl::StrCat("restore-", node.store_name, "-", h);
    const fs::path opened = base / absl::StrCat("rescale-", node.store_name, "-", h);
    RETURN_IF_ERROR(CopyRestoreFiles(*handles[h], local.string()));
    absl::Status status;
    {
      auto old = KeyedStateBackend::OpenFromSnapshot(local.string(), opened.string(),
                                                     env_.state_stores->resources());
      status = old.status();
      StateWriteBatch batch;
      std::string prefix;
      for (int g = first; status.ok() && g <= last; ++g) {
        prefix.clear();
        prefix.push_back(static_cast<char>((g >> 8) & 0xff));
        prefix.push_back(static_cast<char>(g & 0xff));
        status = (*old)->ScanPrefix(prefix, [&](std::string_view key, std::string_view value) {
          batch.Put(key, value);
          ++keys;
          if (batch.count() >= kKeysPerWrite) return store->Write(&batch);
          return absl::OkStatus();
        });
      }
      if (status.ok() && batch.count() > 0) status = store->Write(&batch);
    }
    std::error_code ec;
    fs::remove_all(local, ec);
    fs::remove_all(opened, ec);
    if (!status.ok()) {
      return absl::Status(status.code(), absl::StrCat("redistributing the state of checkpoint ",
                                                      checkpointing_.restore_checkpoint_id(),
                                                      " (taken at "
                                                      "parallelism ",
                                                      checkpointing_.restore_parallelism(),
                                                      "): ", status.message()));
    }
  }
  EDDY_LOG_INFO(
      "job {} task {}.{}: {} keys of key groups {}-{} restored from {} subtasks' state "
      "taken at parallelism {}",
      job_id_, task_index_, subtask_index_, keys, first, last, handles.size(),
      checkpointing_.restore_parallelism());
  return store;
}

absl::Status Task::OpenAll() {
  const Source* task_source = nullptr;
  for (auto& node : nodes_) {
    if (node->source && task_source == nullptr) task_source = node->source.get();
  }
  for (auto& node : nodes_) {
    OperatorContext ctx;
    ctx.source = task_source;
    ctx.job_id = job_id_;
    ctx.state_id = node->spec.state_id();
    ctx.subtask_index = subtask_index_;
    ctx.parallelism = parallelism_;
    ctx.max_parallelism = max_parallelism_;
    if (ctx.state_id != 0) {
      if (env_.state_stores == nullptr) {
        return absl::FailedPreconditionError(absl::StrCat(
            node->spec.description(), ": keyed state but the worker has no state stores"));
      }
      // The worker owns the store until the job ends here, so state outlives this task's Close.
      auto store = OpenStore(*node);
      if (!store.ok()) {
        return absl::Status(store.status().code(),
                            absl::StrCat(node->spec.description(), ": ", store.status().message()));
      }
      ctx.state = node->store = *store;
    }
    ctx.exactly_once = !checkpointing_.enabled() || checkpointing_.exactly_once();
    ctx.checkpointing = checkpointing_.enabled();
    ctx.attempt = attempt_;
    ctx.state_cache_bytes = env_.state_cache_bytes;
    ctx.cancelled = &cancelled_;
    ctx.wakeup = [this] { Wake(); };
    absl::Status s = node->source ? node->source->Open(ctx) : node->op->Open(ctx);
    if (s.ok()) {
      // Operator state: one handle, or at a rescale one per old subtask whose key groups overlap
      // this subtask's (only keyed operators whose timers and bookkeeping name their key groups;
      // the coordinator refuses any other at another parallelism).
      std::vector<OperatorSnapshot> snapshots;
      // Another node's id + 1 may equal a keyed operator's state id: the state is the keyed one's.
      const bool claimed_by_keyed =
          node->spec.state_id() == 0 &&
          std::any_of(nodes_.begin(), nodes_.end(),
                      [&](const auto& other) { return other->spec.state_id() == HandleId(*node); });
      for (auto [it, end] = restore_.equal_range(HandleId(*node));
           s.ok() && !claimed_by_keyed && it != end; ++it) {
        if (it->second->operator_state().empty()) continue;
        auto snapshot = OperatorSnapshot::Decode(it->second->operator_state());
        s = snapshot.status();
        if (s.ok()) snapshots.push_back(*std::move(snapshot));
      }
      const bool rescaled = node->spec.state_id() != 0 && checkpointing_.restore_parallelism() > 0;
      if (s.ok() && !snapshots.empty()) {
        if (node->source) {
          s = node->source->RestoreState(snapshots.front());
        } else if (rescaled || snapshots.size() > 1) {
          s = node->op->RestoreRescaledState(snapshots);
        } else {
          s = node->op->RestoreState(snapshots.front());
        }
      }
    }
    if (!s.ok()) {
      return absl::Status(s.code(), absl::StrCat(node->spec.description(), ": ", s.message()));
    }
  }
  return absl::OkStatus();
}

void Task::CloseAll() {
  for (auto& node : nodes_) {
    absl::Status s = node->source ? node->source->Close() : node->op->Close();
    if (!s.ok()) EDDY_LOG_WARN("closing {}: {}", node->spec.description(), s.ToString());
  }
}

absl::Status Task::EndInputOf(size_t n, int input, bool at_stop) {
  Node& node = *nodes_[n];
  if (at_stop) node.input_ended_at_stop = true;
  if (++node.inputs_ended < node.inputs_total) {
    // The other inputs no longer wait for this one.
    if (std::optional<Watermark> w = node.watermarks.EndInput(input)) {
      if (!w->idle) node.watermark_in.store(w->millis, std::memory_order_relaxed);
      RETURN_IF_ERROR(node.op->ProcessWatermark(*w));
    }
    return absl::OkStatus();
  }
  if (node.input_ended_at_stop) {
    if (LastCheckpointCompleted()) return EndAtStop(n);
    // The savepoint's completion is still to come: the operator commits it first (a sink reports
    // its partitions then, before its consumers learn of its end).
    node.end_deferred = true;
    ++deferred_ends_;
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(node.op->Finish());
  if (node.op->HasUncommittedOutput() && !node.out->targets().empty()) {
    // What the sink emits once its output is committed must reach its consumers before their end.
    node.end_deferred = true;
    ++deferred_ends_;
    return absl::OkStatus();
  }
  for (const auto& [target, slot] : node.out->targets()) RETURN_IF_ERROR(EndInputOf(target, slot));
  return absl::OkStatus();
}

absl::Status Task::EndDeferredInputs() {
  for (size_t n = 0; deferred_ends_ > 0 && n < nodes_.size(); ++n) {
    Node& node = *nodes_[n];
    if (!node.end_deferred) continue;
    if (node.input_ended_at_stop ? !LastCheckpointCompleted() : node.op->HasUncommittedOutput()) {
      continue;
    }
    node.end_deferred = false;
    --deferred_ends_;
    if (node.input_ended_at_stop) {
      RETURN_IF_ERROR(EndAtStop(n));
      continue;
    }
    for (const auto& [target, slot] : node.out->targets()) {
      RETURN_IF_ERROR(EndInputOf(target, slot));
    }
  }
  return absl::OkStatus();
}

absl::Status Task::EndAtStop(size_t n) {
  Node& node = *nodes_[n];
  absl::Status s = node.op->EndAtStop();
  if (!s.ok()) {
    return absl::Status(s.code(), absl::StrCat(node.spec.description(), ": ", s.message()));
  }
  for (const auto& [target, slot] : node.out->targets()) {
    RETURN_IF_ERROR(EndInputOf(target, slot, /*at_stop=*/true));
  }
  return absl::OkStatus();
}

void Task::Wake() {
  std::lock_guard<std::mutex> lock(mu_);
  wakeup_ = true;
  cv_.notify_all();
}

absl::Status Task::TickAll(std::chrono::steady_clock::time_point now) {
  for (auto& node : nodes_) {
    // Finished operators get no more ticks.
    if (node->op && node->inputs_ended < node->inputs_total) {
      RETURN_IF_ERROR(node->op->OnTick(now));
    }
  }
  return absl::OkStatus();
}

bool Task::TriggerCheckpoint(int64_t checkpoint_id, bool stop_sources, bool drain) {
  std::lock_guard<std::mutex> lock(mu_);
  if (final_state_recorded_) return false;
  triggers_.push_back(checkpoint_id);
  if (stop_sources) {
    requested_stop_at_ = checkpoint_id;
    requested_drain_ = drain;
  }
  wakeup_ = true;
  cv_.notify_all();
  return true;
}

void Task::NotifyCheckpoint(int64_t checkpoint_id, bool completed) {
  std::lock_guard<std::mutex> lock(mu_);
  notifications_.emplace_back(checkpoint_id, completed);
  wakeup_ = true;
  cv_.notify_all();
}

v1::SubtaskStateHandle Task::FinalSourceState() const {
  std::lock_guard<std::mutex> lock(mu_);
  return final_state_;
}

absl::Status Task::HandleCheckpointRequests(bool completions_only) {
  std::deque<int64_t> triggers;
  std::deque<std::pair<int64_t, bool>> notifications;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (triggers_.empty() && notifications_.empty()) return absl::OkStatus();
    triggers.swap(triggers_);
    notifications.swap(notifications_);
    if (requested_stop_at_ != 0 && triggerable_) {
      stop_at_ = requested_stop_at_;
      drain_ = requested_drain_;
    }
  }
  for (int64_t id : triggers) {
    if (completions_only) break;
    if (triggerable_ || awaiting_final_checkpoint_) {
      RETURN_IF_ERROR(PerformCheckpoint(id));
    } else {
      // Its barrier comes in-band; only if the inputs end first does the task take it directly.
      latest_direct_trigger_ = std::max(latest_direct_trigger_, id);
    }
  }
  for (const auto& [id, completed] : notifications) {
    if (completed) last_completed_ = std::max(last_completed_, id);
    for (auto& node : nodes_) {
      if (!completed) {
        if (node->source && !completions_only) node->source->AbortCheckpoint(id);
        continue;
      }
      if (!Live(*node) && !(node->op && node->op->HasUncommittedOutput())) continue;
      absl::Status s = node->source ? node->source->NotifyCheckpointComplete(id)
                                    : node->op->NotifyCheckpointComplete(id);
      if (!s.ok()) {
        return absl::Status(s.code(), absl::StrCat(node->spec.description(), ": ", s.message()));
      }
    }
  }
  return absl::OkStatus();
}

void Task::Decline(int64_t checkpoint_id, std::string reason) {
  if (env_.checkpoints == nullptr) return;
  SubtaskSnapshot snapshot;
  snapshot.job_id = job_id_;
  snapshot.attempt = attempt_;
  snapshot.checkpoint_id = checkpoint_id;
  snapshot.state.set_task_index(task_index_);
  snapshot.state.set_subtask_index(subtask_index_);
  snapshot.decline_reason = std::move(reason);
  env_.checkpoints->Submit(std::move(snapshot));
}

absl::Status Task::PerformCheckpoint(int64_t n) {
  if (n <= last_checkpoint_) return absl::OkStatus();  // a repeated trigger
  last_checkpoint_ = n;
  if (n == stop_at_ && drain_) {
    // Event time ends before the savepoint's barrier: every window and timer fires first.
    for (auto& node : nodes_) {
      if (node->source && Live(*node)) {
        RETURN_IF_ERROR(node->out->EmitWatermark(Watermark{kMaxWatermark, false}));
      }
    }
  }
  // Everything buffered for this epoch goes out first, so that the barrier follows it.
  for (auto& node : nodes_) {
    if (node->op && Live(*node)) RETURN_IF_ERROR(node->op->PrepareSnapshotPreBarrier(n));
  }
  SubtaskSnapshot snapshot;
  snapshot.job_id = job_id_;
  snapshot.attempt = attempt_;
  snapshot.checkpoint_id = n;
  snapshot.job_dir = checkpointing_.job_dir();
  snapshot.alignment_ns = alignment_ ? alignment_->AlignmentNanosOf(n) : 0;
  snapshot.state.set_task_index(task_index_);
  snapshot.state.set_subtask_index(subtask_index_);
  std::string& reason = snapshot.decline_reason;
  if (!checkpointing_.enabled() || checkpointing_.job_dir().empty()) {
    reason = "checkpointing is not enabled for this subtask";
  }
  namespace fs = std::filesystem;
  for (auto& node_ptr : nodes_) {
    Node& node = *node_ptr;
    if (!reason.empty()) break;
    // A finished operator emitted everything (the source it depends on restores past its end),
    // except what a finished sink has yet to commit.
    if (!Live(node) && !(node.source && IsConnectorSource(node.spec)) &&
        !(node.op && node.op->HasUncommittedOutput())) {
      continue;
    }
    OperatorSnapshot os;
    absl::Status s =
        node.source ? node.source->SnapshotState(n, &os) : node.op->SnapshotState(n, &os);
    if (s.ok() && node.store != nullptr && env_.state_stores != nullptr) {
      if (snapshot.local_root.empty()) {
        snapshot.local_root =
            (fs::path(env_.state_stores->JobDir(state_key_)) /
             absl::StrCat("chk-", n, "-task-", task_index_, "-subtask-", subtask_index_))
                .string();
        std::error_code ec;
        fs::remove_all(snapshot.local_root, ec);
      }
      const std::string dir = (fs::path(snapshot.local_root) / node.store_name).string();
      s = node.store.load()->Snapshot(dir);
      if (s.ok()) {
        snapshot.stores.push_back(
            {static_cast<size_t>(snapshot.state.operators_size()), node.store_name, dir});
      }
    }
    if (!s.ok()) {
      reason = absl::StrCat(node.spec.description(), ": ", s.message());
      break;
    }
    if (node.store == nullptr && os.empty()) continue;
    v1::OperatorStateHandle* h = snapshot.state.add_operators();
    h->set_state_id(HandleId(node));
    if (!os.empty()) h->set_operator_state(os.Encode());
  }
  // Downstream aligns on this barrier whether or not this subtask's snapshot worked.
  for (auto& node : nodes_) {
    if (node->op && Live(*node)) RETURN_IF_ERROR(node->op->ForwardBarrier(n));
  }
  if (!reason.empty()) snapshot.stores.clear();
  // Stopped with a savepoint: nothing after its barrier may reach a sink.
  if (n == stop_at_) sources_stopped_ = true;
  if (env_.checkpoints != nullptr) {
    env_.checkpoints->Submit(std::move(snapshot));
  } else if (!snapshot.local_root.empty()) {
    std::error_code ec;
    fs::remove_all(snapshot.local_root, ec);
  }
  return absl::OkStatus();
}

bool Task::HasUncommittedOutput() const {
  for (const auto& node : nodes_) {
    if (node->op && node->op->HasUncommittedOutput()) return true;
  }
  return false;
}

absl::Status Task::AwaitFinalCheckpoint() {
  RETURN_IF_ERROR(EndDeferredInputs());
  // (An end at the stop may wait for the savepoint's completion, with nothing left to commit.)
  if (!HasUncommittedOutput() && deferred_ends_ == 0) return absl::OkStatus();
  awaiting_final_checkpoint_ = true;
  // A checkpoint triggered after the sources ended sends no barrier: this task takes it directly.
  if (latest_direct_trigger_ > last_checkpoint_) {
    RETURN_IF_ERROR(PerformCheckpoint(latest_direct_trigger_));
  }
  while (!cancelled_) {
    RETURN_IF_ERROR(HandleCheckpointRequests());
    RETURN_IF_ERROR(EndDeferredInputs());
    if (!HasUncommittedOutput() && deferred_ends_ == 0) break;
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::milliseconds(100),
                 [this] { return cancelled_.load() || wakeup_; });
    wakeup_ = false;
  }
  return absl::OkStatus();
}

absl::Status Task::Drive() {
  std::vector<size_t> sources;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i]->source) sources.push_back(i);
  }
  size_t active = sources.size();
  ChangelogBatch batch;
  auto next_tick = std::chrono::steady_clock::now() + kTickInterval;
  while (active > 0 && !cancelled_) {
    RETURN_IF_ERROR(HandleCheckpointRequests());
    if (sources_stopped_ && last_completed_ >= stop_at_) {
      // The stop savepoint completed and this task committed it: the connector sources end at the
      // stop, and with them the operators they feed, without an end of input.
      for (size_t i : sources) {
        Node& node = *nodes_[i];
        if (node.source_ended || !IsConnectorSource(node.spec)) continue;
        node.source_ended = true;
        --active;
        for (const auto& [target, slot] : node.out->targets()) {
          RETURN_IF_ERROR(EndInputOf(target, slot, /*at_stop=*/true));
        }
      }
    }
    RETURN_IF_ERROR(EndDeferredInputs());
    if (active == 0) break;
    bool produced = false;
    auto wait = std::chrono::microseconds(100000);
    for (size_t i : sources) {
      Node& node = *nodes_[i];
      // After the stop savepoint's barrier, only exchange inputs (their end) are read.
      if (node.source_ended || (sources_stopped_ && IsConnectorSource(node.spec))) continue;
      ASSIGN_OR_RETURN(SourceState st, node.source->Next(&batch));
      switch (st) {
        case SourceState::kData:
          produced = true;
          if (!batch.empty()) RETURN_IF_ERROR(node.out->Emit(batch));
          if (auto w = node.source->TakeWatermark()) RETURN_IF_ERROR(node.out->EmitWatermark(*w));
          while (std::optional<BarrierSignal> b = node.source->TakeBarrier()) {
            if (b->kind == BarrierSignal::Kind::kCheckpoint) {
              RETURN_IF_ERROR(PerformCheckpoint(b->checkpoint_id));
            } else {
              Decline(b->checkpoint_id, "a barrier of a newer checkpoint overtook it");
            }
          }
          break;
        case SourceState::kIdle:
          if (auto w = node.source->TakeWatermark()) RETURN_IF_ERROR(node.out->EmitWatermark(*w));
          wait = std::min(wait, node.source->idle_wait());
          break;
        case SourceState::kEnd:
          node.source_ended = true;
          --active;
          for (const auto& [target, slot] : node.out->targets()) {
            RETURN_IF_ERROR(EndInputOf(target, slot, node.source->ended_at_stop()));
          }
          break;
      }
      if (cancelled_) break;
    }
    auto now = std::chrono::steady_clock::now();
    if (now >= next_tick && active > 0 && !cancelled_ && !sources_stopped_) {
      RETURN_IF_ERROR(TickAll(now));
      next_tick = now + kTickInterval;
    }
    if (!produced && active > 0 && !cancelled_) {
      wait = std::min(wait, std::chrono::duration_cast<std::chrono::microseconds>(next_tick - now));
      const int64_t idle_since = SteadyNanos();
      idle_since_ns_ = idle_since;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait_for(lock, wait, [this] { return cancelled_.load() || wakeup_; });
        wakeup_ = false;
      }
      idle_ns_.fetch_add(static_cast<uint64_t>(SteadyNanos() - idle_since),
                         std::memory_order_relaxed);
      idle_since_ns_ = 0;
    }
  }
  return absl::OkStatus();
}

}  // namespace eddy
