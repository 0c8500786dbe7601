#include "worker/runtime/task.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include "common/base/allowed_paths.h"
#include "common/batch/batch_codec.h"
#include "common/types/type_proto.h"
#include "worker/runtime/checkpoint_uploader.h"
#include "worker/state/testing/temp_state_backend.h"

namespace eddy {
namespace {

v1::PlanNode ValuesNode(int id, int rows) {
  v1::PlanNode n;
  n.set_id(id);
  n.set_description("Values");
  SchemaToProto(Schema{{{"x", DataType::BigInt()}}}, n.mutable_output_schema());
  ChangelogBatch b({DataType::BigInt()});
  for (int i = 0; i < rows; ++i) b.AppendValues({Value::Int(i % 3)}, RowKind::kInsert);
  EncodeBatch(b, n.mutable_values()->add_batches());
  return n;
}

v1::PlanNode AggNode(int id, int input) {
  v1::PlanNode n;
  n.set_id(id);
  n.add_inputs(input);
  n.set_description("GroupAggregate");
  n.set_state_id(id + 1);
  SchemaToProto(
      Schema{{{"x", DataType::BigInt()}, {"cnt", DataType::BigInt().WithNullable(false)}}},
      n.mutable_output_schema());
  auto* agg = n.mutable_group_aggregate();
  agg->add_group_keys(0);
  auto* call = agg->add_calls();
  call->set_function("COUNT");
  call->set_count_star(true);
  call->set_arg(-1);
  TypeToProto(DataType::BigInt().WithNullable(false), call->mutable_result_type());
  return n;
}

v1::PlanNode SinkNode(int id, std::vector<int> inputs) {
  v1::PlanNode n;
  n.set_id(id);
  for (int i : inputs) n.add_inputs(i);
  n.set_description("Sink");
  n.mutable_sink()->set_connector("blackhole");
  return n;
}

class TaskTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(state_.status().ok()) << state_.status(); }
  TaskEnvironment Env(std::promise<std::pair<v1::TaskState, std::string>>* done) {
    TaskEnvironment env;
    env.state_stores = state_.stores();
    env.on_state = [done](const Task&, v1::TaskState s, const std::string& error) {
      if (s != v1::TASK_STATE_RUNNING) done->set_value({s, error});
    };
    return env;
  }
  // Creates and starts the task, waits for its final state and joins it.
  std::pair<v1::TaskState, std::string> RunToEnd(const v1::TaskDeployment& d) {
    std::promise<std::pair<v1::TaskState, std::string>> done;
    auto task = Task::Create(d, Env(&done));
    EXPECT_TRUE(task.ok()) << task.status();
    if (!task.ok()) return {v1::TASK_STATE_UNKNOWN, std::string(task.status().message())};
    (*task)->Start();
    auto fut = done.get_future();
    EXPECT_EQ(fut.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    auto result = fut.get();
    (*task)->Join();
    return result;
  }
  testing::TempStateBackend state_{"task_test"};
};

TEST_F(TaskTest, BoundedDagFinishesAfterEndOfInputReachesEverySink) {
  v1::TaskDeployment d;
  d.set_job_id("j");
  *d.add_nodes() = ValuesNode(1, 3000);
  *d.add_nodes() = ValuesNode(2, 10);
  *d.add_nodes() = AggNode(3, 1);
  *d.add_nodes() = SinkNode(4, {3});
  v1::PlanNode u;
  u.set_id(5);
  u.add_inputs(1);
  u.add_inputs(2);
  u.mutable_union_all();
  SchemaToProto(Schema{{{"x", DataType::BigInt()}}}, u.mutable_output_schema());
  *d.add_nodes() = u;
  *d.add_nodes() = SinkNode(6, {5});
  auto [state, error] = RunToEnd(d);
  EXPECT_EQ(state, v1::TASK_STATE_FINISHED) << error;
  // The 3000 VALUES rows arrive as one batch: the aggregate reads its 3 keys with one MultiGet.
  auto store = state_.stores()->Acquire("j", 4, 0);  // the aggregate's store: state id 4
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ((*store)->stats().multiget_calls, 1u);
  EXPECT_EQ((*store)->stats().keys_read, 3u);
}

// Checkpoint triggers that race with the end of a source task: each one the task accepts is
// acknowledged exactly once, by a snapshot while the sources run or with the final positions when
// it came after the driver last looked (a short window, which some of the rounds hit); once the
// final positions are recorded the task refuses triggers and the caller acknowledges with
// FinalSourceState().
TEST_F(TaskTest, EveryCheckpointTriggerASourceTaskAcceptsIsAcknowledgedAcrossItsEnd) {
  const std::string job_dir =
      (std::filesystem::temp_directory_path() / ("eddy-task-trigger-" + std::to_string(getpid())))
          .string();
  std::filesystem::create_directories(job_dir);
  std::mutex mu;
  std::multiset<int64_t> acked;
  CheckpointUploader uploader(
      [&](const v1::AcknowledgeCheckpointRequest& r) {
        std::lock_guard<std::mutex> l(mu);
        acked.insert(r.checkpoint_id());
      },
      [&](const v1::DeclineCheckpointRequest& r) {
        ADD_FAILURE() << "declined " << r.checkpoint_id() << ": " << r.reason();
      });
  for (int round = 0; round < 20; ++round) {
    v1::TaskDeployment d;
    d.set_job_id("trigger-" + std::to_string(round));
    d.set_attempt(1);
    d.mutable_checkpointing()->set_enabled(true);
    d.mutable_checkpointing()->set_exactly_once(true);
    d.mutable_checkpointing()->set_job_dir(job_dir);
    v1::PlanNode values = ValuesNode(1, 1000);
    for (int b = 0; b < 100; ++b) {
      *values.mutable_values()->add_batches() = values.values().batches(0);
    }
    *d.add_nodes() = values;
    *d.add_nodes() = SinkNode(2, {1});
    std::promise<std::pair<v1::TaskState, std::string>> done;
    TaskEnvironment env = Env(&done);
    env.checkpoints = &uploader;
    auto task = Task::Create(d, std::move(env));
    ASSERT_TRUE(task.ok()) << task.status();
    {
      std::lock_guard<std::mutex> l(mu);
      acked.clear();
    }
    std::set<int64_t> accepted;
    int64_t id = 0;
    (*task)->Start();
    while (!(*task)->done()) {
      ++id;
      if ((*task)->TriggerCheckpoint(id)) accepted.insert(id);
      // Not faster than the task takes them: each accepted one is a snapshot.
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    EXPECT_EQ(done.get_future().get().first, v1::TASK_STATE_FINISHED);
    (*task)->Join();
    // Finished: the final positions are recorded, so a trigger is refused (and answered by the
    // caller with them).
    EXPECT_FALSE((*task)->TriggerCheckpoint(id + 1));
    EXPECT_EQ((*task)->FinalSourceState().operators_size(), 1);
    uploader.WaitIdle();
    std::lock_guard<std::mutex> l(mu);
    for (int64_t a : accepted)
      EXPECT_EQ(acked.count(a), 1u) << "round " << round << ", trigger " << a;
    EXPECT_EQ(acked.size(), accepted.size()) << "round " << round;
  }
  std::filesystem::remove_all(job_dir);
}

// A two-input Join node gets its left rows as input 0 and its right rows as input 1, whichever
// source runs first: 30 left rows on 3 keys, one right row per key, 30 joined rows.
TEST_F(TaskTest, AJoinGetsItsTwoInputsInOrder) {
  v1::TaskDeployment d;
  d.set_job_id("join");
  *d.add_nodes() = ValuesNode(1, 30);
  *d.add_nodes() = ValuesNode(2, 3);
  v1::PlanNode join;
  join.set_id(3);
  join.add_inputs(1);
  join.add_inputs(2);
  join.set_description("Join");
  join.set_state_id(4);
  SchemaToProto(Schema{{{"x", DataType::BigInt()}, {"x0", DataType::BigInt()}}},
                join.mutable_output_schema());
  join.mutable_join()->set_type(v1::Join::INNER);
  join.mutable_join()->add_left_keys(0);
  join.mutable_join()->add_right_keys(0);
  *d.add_nodes() = join;
  *d.add_nodes() = SinkNode(5, {3});
  std::promise<std::pair<v1::TaskState, std::string>> done;
  auto task = Task::Create(d, Env(&done));
  ASSERT_TRUE(task.ok()) << task.status();
  (*task)->Start();
  auto fut = done.get_future();
  ASSERT_EQ(fut.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  auto [state, error] = fut.get();
  (*task)->Join();
  EXPECT_EQ(state, v1::TASK_STATE_FINISHED) << error;
  google::protobuf::RepeatedPtrField<v1::OperatorMetrics> metrics;
  (*task)->OperatorMetrics(&metrics);
  bool seen = false;
  for (const auto& m : metrics) {
    if (m.node_id() != 3) continue;
    seen = true;
    EXPECT_EQ(m.rows_in(), 33);
    EXPECT_EQ(m.rows_out(), 30);
  }
  EXPECT_TRUE(seen);
}

TEST_F(TaskTest, StateOutlivesTheTaskUntilTheJobIsDropped) {
  v1::TaskDeployment d;
  d.set_job_id("j2");
  d.set_subtask_index(0);
  *d.add_nodes() = ValuesNode(1, 3000);
  *d.add_nodes() = AggNode(2, 1);
  *d.add_nodes() = SinkNode(3, {2});
  auto [state, error] = RunToEnd(d);
  ASSERT_EQ(state, v1::TASK_STATE_FINISHED) << error;
  // Closed and gone, yet its state id's store still holds the 3 groups (flushed or not, the
  // store is the one the worker keeps).
  EXPECT_EQ(state_.stores()->size(), 1u);
  const std::string dir = state_.stores()->StoreDir("j2", 3, 0);
  EXPECT_TRUE(std::filesystem::is_directory(dir)) << dir;
  ASSERT_TRUE(state_.stores()->DropJob("j2").ok());
  EXPECT_FALSE(std::filesystem::exists(state_.stores()->JobDir("j2")));
}

TEST_F(TaskTest, AStatefulNodeWithoutAStateIdIsAnError) {
  v1::TaskDeployment d;
  d.set_job_id("j");
  *d.add_nodes() = ValuesNode(1, 1);
  v1::PlanNode agg = AggNode(2, 1);
  agg.clear_state_id();
  *d.add_nodes() = agg;
  std::promise<std::pair<v1::TaskState, std::string>> done;
  auto task = Task::Create(d, Env(&done));
  ASSERT_FALSE(task.ok());
  EXPECT_NE(task.status().message().find("no state id"), std::string::npos) << task.status();
}

TEST_F(TaskTest, MalformedDeploymentsAreErrorsNamingTheNode) {
  v1::TaskDeployment d;
  *d.add_nodes() = SinkNode(4, {9});
  std::promise<std::pair<v1::TaskState, std::string>> done;
  auto task = Task::Create(d, Env(&done));
  ASSERT_FALSE(task.ok());
  EXPECT_NE(task.status().message().find("node 4 reads node 9"), std::string::npos);

  v1::TaskDeployment bad_agg;
  *bad_agg.add_nodes() = ValuesNode(1, 1);
  v1::PlanNode agg = AggNode(2, 1);
  agg.mutable_group_aggregate()->set_group_keys(0, 7);
  *bad_agg.add_nodes() = agg;
  auto t2 = Task::Create(bad_agg, Env(&done));
  ASSERT_FALSE(t2.ok());
  EXPECT_NE(t2.status().message().find("plan node 2 (GroupAggregate): group key column 7"),
            std::string::npos)
      << t2.status();
}

TEST_F(TaskTest, AggregatePlannedForInsertOnlyInputRejectsARetraction) {
  // The plan's input_insert_only reaches the operator: a -D then fails the task instead of being
  // folded into a MIN/MAX that kept no multiset.
  v1::TaskDeployment d;
  d.set_job_id("j");
  v1::PlanNode values = ValuesNode(1, 0);
  ChangelogBatch b({DataType::BigInt()});
  b.AppendValues({Value::Int(1)}, RowKind::kInsert);
  b.AppendValues({Value::Int(1)}, RowKind::kDelete);
  values.mutable_values()->clear_batches();
  EncodeBatch(b, values.mutable_values()->add_batches());
  *d.add_nodes() = values;
  v1::PlanNode agg = AggNode(2, 1);
  agg.mutable_group_aggregate()->set_input_insert_only(true);
  *d.add_nodes() = agg;
  *d.add_nodes() = SinkNode(3, {2});
  auto [state, error] = RunToEnd(d);
  EXPECT_EQ(state, v1::TASK_STATE_FAILED);
  EXPECT_NE(error.find("planned for insert-only input"), std::string::npos) << error;
}

// A new, empty directory for one test's files: <tmp>/eddy-task-<name>-<pid>.
std::filesystem::path FreshScratchDir(const std::string& name) {
  const std::filesystem::path root = std::filesystem::temp_directory_path() /
                                     ("eddy-task-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root);
  return root;
}

// Adds to `d` a filesystem sink (node 2, fed by node 1) of a table partitioned by its first
// column x, writing csv under `out` and reporting its partitions, and its partition committer
// (node 3) with a success-file policy and the given commit delay (none when empty).
void AddPartitionedSinkAndCommitter(const Schema& schema, const std::string& out,
                                    const std::string& delay, v1::TaskDeployment* d) {
  v1::PlanNode sink;
  sink.set_id(2);
  sink.add_inputs(1);
  sink.set_description("Sink");
  SchemaToProto(schema, sink.mutable_output_schema());
  auto* spec = sink.mutable_sink();
  spec->set_table_name("t");
  spec->set_connector("filesystem");
  (*spec->mutable_options())["path"] = out;
  (*spec->mutable_options())["format"] = "csv";
  (*spec->mutable_options())["sink.partition-commit.policy.kind"] = "success-file";
  if (!delay.empty()) (*spec->mutable_options())["sink.partition-commit.delay"] = delay;
  spec->add_partition_keys(0);
  spec->set_report_partition_commits(true);
  *d->add_nodes() = sink;
  v1::PlanNode committer;
  committer.set_id(3);
  committer.add_inputs(2);
  committer.set_description("PartitionCommitter");
  committer.mutable_partition_committer()->set_table_name("t");
  *committer.mutable_partition_committer()->mutable_options() = spec->options();
  committer.mutable_partition_committer()->add_partition_columns("x");
  *d->add_nodes() = committer;
}

// A sink with output to commit after its input ended (a filesystem sink reporting to its
// partition committer, chained here) ends its output only once its last checkpoint completed: the
// committer gets the last report before its end of input, so the partition is committed only after
// the sink published its part.
TEST_F(TaskTest, ASinkWithOutputToCommitEndsItsOutputOnlyOnceItCommitted) {
  namespace fs = std::filesystem;
  const fs::path root = FreshScratchDir("committer");
  const std::vector<std::string> allowed = {*CanonicalFilesystemPath(root.string())};
  const std::string out = allowed[0] + "/out";
  v1::TaskDeployment d;
  d.set_job_id("j");
  d.set_attempt(1);
  d.mutable_checkpointing()->set_enabled(true);
  d.mutable_checkpointing()->set_exactly_once(true);
  d.mutable_checkpointing()->set_job_dir((root / "checkpoints").string());
  *d.add_nodes() = ValuesNode(1, 10);
  AddPartitionedSinkAndCommitter(Schema{{{"x", DataType::BigInt()}}}, out, /*delay=*/"", &d);

  std::promise<std::pair<v1::TaskState, std::string>> done;
  TaskEnvironment env = Env(&done);
  env.filesystem_allowed_dirs = &allowed;
  auto task = Task::Create(d, std::move(env));
  ASSERT_TRUE(task.ok()) << task.status();
  (*task)->Start();
  // The input ends and the sink's last parts wait, pending, for a checkpoint.
  const fs::path partition = fs::path(out) / "x=0";
  auto pending = [&] {
    std::error_code ec;
    for (const auto& f : fs::directory_iterator(partition, ec)) {
      if (f.path().filename().string().find(".pending.") != std::string::npos) return true;
    }
    return false;
  };
  for (int i = 0; i < 1000 && !pending(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(pending());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE((*task)->done());
  EXPECT_FALSE(fs::exists(partition / "_SUCCESS"));
  ASSERT_TRUE((*task)->TriggerCheckpoint(1));
  (*task)->NotifyCheckpoint(1, /*completed=*/true);
  auto fut = done.get_future();
  ASSERT_EQ(fut.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(fut.get().first, v1::TASK_STATE_FINISHED);
  (*task)->Join();
  EXPECT_TRUE(fs::exists(partition / "_SUCCESS"));
  EXPECT_FALSE(pending());
  fs::remove_all(root);
}

// STOP JOB ... WITH SAVEPOINT: after the stop savepoint's barrier the sources produce nothing, and
// once the task committed the savepoint they end at the stop: the task finishes by itself, and its
// operators end without Finish (which would make the committer commit every pending partition).
// The sink's report of the partitions the savepoint published reaches the committer first, so
// with no delay they are committed, and with an hour's delay they stay pending.
TEST_F(TaskTest, AfterTheStopSavepointCompletesTheTaskEndsAtTheStopWithoutFinishing) {
  namespace fs = std::filesystem;
  for (const std::string delay : {"0 s", "1 h"}) {
    SCOPED_TRACE(delay);
    const fs::path root = FreshScratchDir("stop");
    const std::vector<std::string> allowed = {*CanonicalFilesystemPath(root.string())};
    const std::string out = allowed[0] + "/out";
    const Schema schema{{{"x", DataType::BigInt()}}};
    v1::TaskDeployment d;
    d.set_job_id("j");
    d.set_attempt(1);
    d.mutable_checkpointing()->set_enabled(true);
    d.mutable_checkpointing()->set_exactly_once(true);
    d.mutable_checkpointing()->set_job_dir((root / "checkpoints").string());
    v1::PlanNode src;
    src.set_id(1);
    src.set_description("datagen");
    SchemaToProto(schema, src.mutable_output_schema());
    v1::TableSource* gen = src.mutable_table_source();
    gen->set_connector("datagen");
    gen->set_table_name("gen");
    (*gen->mutable_options())["rows-per-second"] = "1000";
    (*gen->mutable_options())["fields.x.min"] = "0";
    (*gen->mutable_options())["fields.x.max"] = "1";
    SchemaToProto(schema, gen->mutable_table_schema());
    gen->add_columns(0);
    *d.add_nodes() = src;
    AddPartitionedSinkAndCommitter(schema, out, delay, &d);

    std::promise<std::pair<v1::TaskState, std::string>> done;
    TaskEnvironment env = Env(&done);
    env.filesystem_allowed_dirs = &allowed;
    auto task = Task::Create(d, std::move(env));
    ASSERT_TRUE(task.ok()) << task.status();
    (*task)->Start();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // rows in both partitions
    ASSERT_TRUE((*task)->TriggerCheckpoint(1, /*stop_sources=*/true));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_FALSE((*task)->done());  // it waits for the savepoint's completion
    (*task)->NotifyCheckpoint(1, /*completed=*/true);
    auto fut = done.get_future();
    ASSERT_EQ(fut.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    EXPECT_EQ(fut.get().first, v1::TASK_STATE_FINISHED);
    (*task)->Join();
    for (const std::string partition : {"x=0", "x=1"}) {
      bool published = false;
      std::error_code ec;
      for (const auto& f : fs::directory_iterator(fs::path(out) / partition, ec)) {
        published = published || f.path().filename().string().rfind("part-", 0) == 0;
      }
      EXPECT_TRUE(published) << partition;
      EXPECT_EQ(fs::exists(fs::path(out) / partition / "_SUCCESS"), delay == "0 s") << partition;
    }
    fs::remove_all(root);
  }
}

}  // namespace
}  // namespace eddy
