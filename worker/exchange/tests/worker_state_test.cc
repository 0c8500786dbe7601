// Keyed state as a worker serves it: a stateful task's store lives under <data-dir>/state/<job id>
// while the job runs and is removed once the job has no task left on the worker; a new worker
// process removes what an earlier one left behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "common/types/type_proto.h"
#include "worker/exchange/remote_output_channel.h"
#include "worker/exchange/tests/exchange_test_util.h"
#include "worker/service/worker_server.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;
using testing::SeqBatch;
using testing::TestTypes;

WorkerOptions Options(const std::string& dir) {
  WorkerOptions o;
  o.coordinator_address = "127.0.0.1:1";  // no coordinator: registration just keeps retrying
  o.bind_host = "127.0.0.1";
  o.advertise_host = "127.0.0.1";
  o.data_dir = dir;
  return o;
}

// ExchangeSource -> GroupAggregate(COUNT(*) GROUP BY s, state id 7) -> blackhole.
v1::DeployTasksRequest CountJob(const std::string& job) {
  v1::DeployTasksRequest req;
  auto* d = req.add_tasks();
  d->set_job_id(job);
  d->set_task_index(1);
  d->set_max_parallelism(128);
  v1::PlanNode* src = d->add_nodes();
  src->set_id(1);
  src->set_description("Exchange");
  SchemaToProto(Schema{{{"x", TestTypes()[0]}, {"s", TestTypes()[1]}}},
                src->mutable_output_schema());
  src->mutable_exchange_source()->set_num_channels(1);
  v1::PlanNode* agg = d->add_nodes();
  agg->set_id(2);
  agg->add_inputs(1);
  agg->set_description("GroupAggregate(groupBy=[s])");
  agg->set_state_id(7);
  SchemaToProto(Schema{{{"s", TestTypes()[1]}, {"cnt", DataType::BigInt().WithNullable(false)}}},
                agg->mutable_output_schema());
  auto* g = agg->mutable_group_aggregate();
  g->add_group_keys(1);
  g->set_input_insert_only(true);
  auto* call = g->add_calls();
  call->set_function("COUNT");
  call->set_count_star(true);
  call->set_arg(-1);
  TypeToProto(DataType::BigInt().WithNullable(false), call->mutable_result_type());
  v1::PlanNode* sink = d->add_nodes();
  sink->set_id(3);
  sink->add_inputs(2);
  sink->set_description("Sink");
  sink->mutable_sink()->set_connector("blackhole");
  return req;
}

template <typename F>
bool WaitFor(F&& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

class WorkerStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/worker_state_test_" + std::to_string(getpid());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(WorkerStateTest, AJobsStoresLiveWhileItRunsAndGoWhenItEnds) {
  auto worker = WorkerServer::Start(Options(dir_));
  ASSERT_TRUE(worker.ok()) << worker.status();
  v1::DeployTasksResponse resp;
  auto req = CountJob("js");
  ASSERT_TRUE((*worker)->DeployTasks(nullptr, &req, &resp).ok());

  ChannelTarget t;
  t.address = (*worker)->address();
  t.consumer = GateKey{"js", 1, 0};
  t.num_channels = 1;
  t.producer = "test";
  RemoteOutputChannel ch(t, nullptr);
  ASSERT_TRUE(ch.Send(SeqBatch(0, 0, 1000)).ok());
  // The task opened its store in its job's directory, named by state id and subtask.
  const std::string store = dir_ + "/state/js/state-7-subtask-0";
  EXPECT_TRUE(WaitFor([&] { return fs::is_directory(store); })) << store;
  absl::Status s = ch.SendEndOfInput();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(WaitFor([&] { return (*worker)->RunningTasks() == 0; }));
  // The job has no task left here: its state goes with the next reaping.
  EXPECT_TRUE(WaitFor([&] { return !fs::exists(dir_ + "/state/js"); }));
  EXPECT_TRUE(fs::is_directory(dir_ + "/state"));
}

TEST_F(WorkerStateTest, ACancelledJobsStateIsDroppedToo) {
  auto worker = WorkerServer::Start(Options(dir_));
  ASSERT_TRUE(worker.ok()) << worker.status();
  v1::DeployTasksResponse resp;
  auto req = CountJob("jc");
  ASSERT_TRUE((*worker)->DeployTasks(nullptr, &req, &resp).ok());
  EXPECT_TRUE(WaitFor([&] { return fs::is_directory(dir_ + "/state/jc/state-7-subtask-0"); }));
  v1::CancelJobRequest cancel;
  cancel.set_job_id("jc");
  v1::CancelJobResponse cancelled;
  ASSERT_TRUE((*worker)->CancelJob(nullptr, &cancel, &cancelled).ok());
  EXPECT_TRUE(WaitFor([&] { return !fs::exists(dir_ + "/state/jc"); }));
}

TEST_F(WorkerStateTest, StartRemovesStateLeftByAnEarlierProcess) {
  fs::create_directories(dir_ + "/state/oldjob/state-3-subtask-0");
  std::ofstream(dir_ + "/state/oldjob/state-3-subtask-0/CURRENT") << "MANIFEST-000001\n";
  auto worker = WorkerServer::Start(Options(dir_));
  ASSERT_TRUE(worker.ok()) << worker.status();
  EXPECT_FALSE(fs::exists(dir_ + "/state/oldjob"));
  EXPECT_TRUE(fs::is_directory(dir_ + "/state"));
}

}  // namespace
}  // namespace eddy
