// A task's checkpoint end to end on one worker: barrier n through an exchange-fed GroupAggregate,
// the snapshot uploaded into a checkpoint directory (shared SSTs, per-checkpoint MANIFEST/CURRENT/
// OPTIONS) and acknowledged, then a fresh task of the next attempt restored from the
// acknowledgement, fed the rest of the input: its collect sink hands out again what nobody fetched
// before the checkpoint, then the rest, which together are the uninterrupted run's output.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <set>

#include "common/batch/batch_codec.h"
#include "common/types/type_proto.h"
#include "worker/connectors/result_buffers.h"
#include "worker/exchange/exchange_registry.h"
#include "worker/runtime/checkpoint_uploader.h"
#include "worker/runtime/task.h"
#include "worker/state/state_key.h"
#include "worker/state/testing/temp_state_backend.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

const Schema kInput{{{"x", DataType::BigInt()}}};

v1::TaskDeployment AggregateJob(const std::string& job, int attempt, const std::string& job_dir) {
  v1::TaskDeployment d;
  d.set_job_id(job);
  d.set_task_index(1);
  d.set_attempt(attempt);
  d.mutable_checkpointing()->set_enabled(true);
  d.mutable_checkpointing()->set_exactly_once(true);
  d.mutable_checkpointing()->set_job_dir(job_dir);
  v1::PlanNode* src = d.add_nodes();
  src->set_id(1);
  src->set_description("ExchangeSource");
  SchemaToProto(kInput, src->mutable_output_schema());
  src->mutable_exchange_source()->set_num_channels(1);
  v1::PlanNode* agg = d.add_nodes();
  agg->set_id(2);
  agg->add_inputs(1);
  agg->set_description("GroupAggregate");
  agg->set_state_id(3);
  SchemaToProto(
      Schema{{{"x", DataType::BigInt()}, {"cnt", DataType::BigInt().WithNullable(false)}}},
      agg->mutable_output_schema());
  agg->mutable_group_aggregate()->add_group_keys(0);
  agg->mutable_group_aggregate()->set_generate_update_before(true);
  auto* call = agg->mutable_group_aggregate()->add_calls();
  call->set_function("COUNT");
  call->set_count_star(true);
  call->set_arg(-1);
  TypeToProto(DataType::BigInt().WithNullable(false), call->mutable_result_type());
  v1::PlanNode* sink = d.add_nodes();
  sink->set_id(3);
  sink->add_inputs(2);
  sink->set_description("Collect");
  sink->mutable_sink()->set_connector("collect");
  return d;
}

ChangelogBatch Rows(int from, int to) {
  ChangelogBatch b(kInput.Types());
  for (int i = from; i < to; ++i) b.AppendValues({Value::Int(i % 7)}, RowKind::kInsert);
  return b;
}

class CheckpointRestoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(state_.status().ok()) << state_.status();
    job_dir_ = (fs::temp_directory_path() / ("eddy-ckpt-" + std::to_string(getpid()))).string();
    fs::remove_all(job_dir_);
    fs::create_directories(job_dir_);
  }
  void TearDown() override { fs::remove_all(job_dir_); }

  struct Running {
    std::unique_ptr<Task> task;
    std::shared_ptr<std::promise<v1::TaskState>> done;
    InputGate* gate = nullptr;
  };

  Running Start(const v1::TaskDeployment& d) {
    Running r;
    r.done = std::make_shared<std::promise<v1::TaskState>>();
    TaskEnvironment env;
    env.state_stores = state_.stores();
    env.exchange = &registry_;
    env.results = &results_;
    env.checkpoints = &uploader_;
    env.on_state = [done = r.done](const Task&, v1::TaskState s, const std::string& error) {
      EXPECT_NE(s, v1::TASK_STATE_FAILED) << error;
      if (s != v1::TASK_STATE_RUNNING) done->set_value(s);
    };
    auto task = Task::Create(d, std::move(env));
    EXPECT_TRUE(task.ok()) << task.status();
    r.task = std::move(*task);
    r.task->Start();
    auto gate = registry_.Await(GateKey{d.job_id(), 1, 0});
    EXPECT_TRUE(gate.ok()) << gate.status();
    r.gate = gate->get();
    EXPECT_TRUE(r.gate->Attach(0, 1, nullptr).ok());
    return r;
  }

  void Push(Running& r, ChangelogBatch b) {
    ASSERT_TRUE(r.gate->PushWait(0, std::move(b), nullptr).ok());
  }

  // Ends the input, waits for the task and returns what its collect sink hands out.
  std::vector<std::string> Finish(Running& r, const std::string& job, int attempt) {
    EXPECT_TRUE(r.gate->EndOfInput(0).ok());
    EXPECT_EQ(r.done->get_future().get(), v1::TASK_STATE_FINISHED);
    r.task->Join();
    std::vector<std::string> rows;
    v1::FetchResultChunksRequest req;
    req.set_job_id(job);
    req.set_attempt(attempt);
    req.set_max_wait_ms(100);
    for (bool end = false; !end;) {
      v1::FetchResultChunksResponse resp;
      absl::Status fetched = results_.Fetch(req, &resp);
      EXPECT_TRUE(fetched.ok()) << fetched;
      if (!fetched.ok()) break;
      for (const auto& msg : resp.chunks()) {
        auto b = DecodeBatch(msg);
        EXPECT_TRUE(b.ok());
        for (size_t i = 0; i < b->num_rows(); ++i) {
          rows.push_back(std::string(RowKindShortString(b->kind(i))) + FormatRow(*b, i));
        }
      }
      req.set_offset(resp.first_offset() + resp.chunks_size());
      end = resp.end();
    }
    return rows;
  }

  testing::TempStateBackend state_{"checkpoint_restore_test"};
  ExchangeRegistry registry_{std::chrono::milliseconds(5000)};
  ResultBuffers results_;
  std::mutex mu_;
  std::vector<v1::AcknowledgeCheckpointRequest> acks_;
  std::vector<v1::DeclineCheckpointRequest> declines_;
  CheckpointUploader uploader_{[this](const v1::AcknowledgeCheckpointRequest& r) {
                                 std::lock_guard<std::mutex> l(mu_);
                                 acks_.push_back(r);
                               },
                               [this](const v1::DeclineCheckpointRequest& r) {
                                 std::lock_guard<std::mutex> l(mu_);
                                 declines_.push_back(r);
                               }};
  std::string job_dir_;
};

TEST_F(CheckpointRestoreTest, RestoredAggregateContinuesTheUninterruptedRun) {
  // Uninterrupted: both halves; and the first half alone, which is the prefix before the barrier.
  Running full = Start(AggregateJob("full", 1, job_dir_));
  Push(full, Rows(0, 500));
  Push(full, Rows(500, 1300));
  const std::vector<std::string> want_all = Finish(full, "full", 1);
  Running first = Start(AggregateJob("first", 1, job_dir_));
  Push(first, Rows(0, 500));
  const std::vector<std::string> prefix = Finish(first, "first", 1);
  ASSERT_LT(prefix.size(), want_all.size());

  // Attempt 1 takes checkpoint 1 after the first half, then goes on and is lost.
  Running a1 = Start(AggregateJob("job", 1, job_dir_));
  Push(a1, Rows(0, 500));
  ASSERT_TRUE(a1.gate->PushBarrier(0, 1).ok());
  Push(a1, Rows(500, 600));
  for (int i = 0; i < 500 && acks_.empty() && declines_.empty(); ++i) {
    uploader_.WaitIdle();
    usleep(10000);
  }
  ASSERT_TRUE(declines_.empty()) << declines_[0].reason();
  ASSERT_EQ(acks_.size(), 1u);
  a1.task->Cancel();
  a1.task->Join();
  const v1::AcknowledgeCheckpointRequest ack = acks_[0];
  EXPECT_EQ(ack.attempt(), 1);
  EXPECT_EQ(ack.checkpoint_id(), 1);
  // The aggregate's store (state id 3) and the collect sink's results (node 3: handle id 4).
  ASSERT_EQ(ack.state().operators_size(), 2);
  const v1::OperatorStateHandle& h = ack.state().operators(0);
  EXPECT_EQ(h.state_id(), 3u);
  EXPECT_EQ(ack.state().operators(1).state_id(), 4u);
  EXPECT_TRUE(ack.state().operators(1).files().empty());
  EXPECT_FALSE(ack.state().operators(1).operator_state().empty());
  bool has_sst = false, has_manifest = false;
  for (const v1::StateFile& f : h.files()) {
    EXPECT_TRUE(fs::exists(fs::path(job_dir_) / f.path())) << f.path();
    EXPECT_EQ(fs::file_size(fs::path(job_dir_) / f.path()), f.size()) << f.path();
    if (f.path().rfind("shared/state-3-subtask-0-", 0) == 0) has_sst = true;
    if (f.path().rfind("chk-1/state-3-subtask-0-", 0) == 0 &&
        f.path().find("MANIFEST") != std::string::npos) {
      has_manifest = true;
    }
  }
  EXPECT_TRUE(has_sst);
  EXPECT_TRUE(has_manifest);
  uploader_.NotifyCheckpoint("job", 1, true);

  // Attempt 2 restores checkpoint 1 and gets the second half; nobody fetched attempt 1's results,
  // so its sink hands them out again first (its buffer replaces attempt 1's).
  v1::TaskDeployment d2 = AggregateJob("job", 2, job_dir_);
  *d2.mutable_checkpointing()->mutable_restore() = ack.state();
  d2.mutable_checkpointing()->set_restore_checkpoint_id(1);
  d2.mutable_checkpointing()->set_restore_job_dir(job_dir_);
  Running a2 = Start(d2);
  Push(a2, Rows(500, 1300));
  EXPECT_EQ(Finish(a2, "job", 2), want_all);
}

// A savepoint restored at another parallelism: the state of one subtask is handed to two, each
// of which keeps exactly the keys of its own key groups (key group = hash % 128, subtask =
// key group * 2 / 128), so every key lands in one subtask, the one the hash exchange feeds.
TEST_F(CheckpointRestoreTest, StateTakenAtOneSubtaskIsSplitByKeyGroupOverTwo) {
  Running a1 = Start(AggregateJob("rescale", 1, job_dir_));
  ChangelogBatch rows(kInput.Types());
  for (int i = 0; i < 1000; ++i) rows.AppendValues({Value::Int(i % 50)}, RowKind::kInsert);
  Push(a1, std::move(rows));
  ASSERT_TRUE(a1.gate->PushBarrier(0, 1).ok());
  for (int i = 0; i < 500 && acks_.empty() && declines_.empty(); ++i) {
    uploader_.WaitIdle();
    usleep(10000);
  }
  ASSERT_EQ(acks_.size(), 1u);
  a1.task->Cancel();
  a1.task->Join();
  v1::SubtaskStateHandle state = acks_[0].state();
  state.mutable_operators()->DeleteSubrange(1, state.operators_size() - 1);  // the store only

  std::vector<Running> subtasks;
  for (int i = 0; i < 2; ++i) {
    v1::TaskDeployment d = AggregateJob("rescale", 2, job_dir_);
    d.set_subtask_index(i);
    d.set_parallelism(2);
    d.mutable_nodes(2)->mutable_sink()->set_connector("blackhole");
    *d.mutable_checkpointing()->mutable_restore() = state;
    d.mutable_checkpointing()->set_restore_checkpoint_id(1);
    d.mutable_checkpointing()->set_restore_job_dir(job_dir_);
    d.mutable_checkpointing()->set_restore_parallelism(1);
    Running r;
    r.done = std::make_shared<std::promise<v1::TaskState>>();
    TaskEnvironment env;
    env.state_stores = state_.stores();
    env.exchange = &registry_;
    env.results = &results_;
    env.checkpoints = &uploader_;
    env.on_state = [done = r.done](const Task&, v1::TaskState s, const std::string& error) {
      EXPECT_NE(s, v1::TASK_STATE_FAILED) << error;
      if (s != v1::TASK_STATE_RUNNING) done->set_value(s);
    };
    auto task = Task::Create(d, std::move(env));
    ASSERT_TRUE(task.ok()) << task.status();
    r.task = std::move(*task);
    r.task->Start();
    auto gate = registry_.Await(GateKey{"rescale", 1, i});
    ASSERT_TRUE(gate.ok()) << gate.status();
    r.gate = gate->get();
    ASSERT_TRUE(r.gate->Attach(0, 1, nullptr).ok());
    subtasks.push_back(std::move(r));
  }
  for (Running& r : subtasks) {
    ASSERT_TRUE(r.gate->EndOfInput(0).ok());
    EXPECT_EQ(r.done->get_future().get(), v1::TASK_STATE_FINISHED);
    r.task->Join();
  }
  std::set<std::string> keys;
  for (int i = 0; i < 2; ++i) {
    auto store = state_.stores()->Acquire("rescale-attempt-2", 3, i);
    ASSERT_TRUE(store.ok()) << store.status();
    ASSERT_TRUE((*store)
                    ->ScanPrefix("",
                                 [&](std::string_view key, std::string_view) {
                                   const int group = KeyGroupOfStateKey(key);
                                   EXPECT_EQ(group * 2 / 128, i) << "key group " << group;
                                   EXPECT_TRUE(keys.insert(std::string(key)).second);
                                   return absl::OkStatus();
                                 })
                    .ok());
  }
  auto whole = state_.stores()->Acquire("rescale-attempt-1", 3, 0);
  ASSERT_TRUE(whole.ok());
  auto count = (*whole)->CountKeys(3);
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(keys.size(), *count);
  EXPECT_GE(keys.size(), 50u);
}

}  // namespace
}  // namespace eddy
