// The exchange as a worker serves it: ExchangeService on the WorkerService port, gates registered
// by DeployTasks, streams released by CancelJob.
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "common/types/type_proto.h"
#include "worker/exchange/remote_output_channel.h"
#include "worker/exchange/tests/exchange_test_util.h"
#include "worker/service/worker_server.h"

namespace eddy {
namespace {

using testing::SeqBatch;
using testing::TestTypes;

class WorkerExchangeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/worker_exchange_test_" + std::to_string(getpid());
    WorkerOptions o;
    o.coordinator_address = "127.0.0.1:1";  // no coordinator: registration just keeps retrying
    o.bind_host = "127.0.0.1";
    o.advertise_host = "127.0.0.1";
    o.data_dir = dir_;
    auto w = WorkerServer::Start(o);
    ASSERT_TRUE(w.ok()) << w.status();
    worker_ = std::move(*w);
  }
  void TearDown() override {
    worker_.reset();
    std::filesystem::remove_all(dir_);
  }

  ChannelTarget Target(const std::string& job) {
    ChannelTarget t;
    t.address = worker_->address();
    t.consumer = GateKey{job, 1, 0};
    t.num_channels = 1;
    t.producer = "test";
    return t;
  }

  std::string dir_;
  std::unique_ptr<WorkerServer> worker_;
};

TEST_F(WorkerExchangeTest, ADeployedConsumerTaskReceivesFromARemoteProducer) {
  v1::DeployTasksRequest req;
  auto* d = req.add_tasks();
  d->set_job_id("jw");
  d->set_task_index(1);
  v1::PlanNode* src = d->add_nodes();
  src->set_id(1);
  src->set_description("Exchange");
  SchemaToProto(Schema{{{"x", TestTypes()[0]}, {"s", TestTypes()[1]}}},
                src->mutable_output_schema());
  src->mutable_exchange_source()->set_num_channels(1);
  v1::PlanNode* sink = d->add_nodes();
  sink->set_id(2);
  sink->add_inputs(1);
  sink->set_description("Sink");
  sink->mutable_sink()->set_connector("blackhole");
  v1::DeployTasksResponse resp;
  ASSERT_TRUE(worker_->DeployTasks(nullptr, &req, &resp).ok());

  RemoteOutputChannel ch(Target("jw"), nullptr);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(ch.Send(SeqBatch(0, i * 1000, 1000)).ok());
  absl::Status s = ch.SendEndOfInput();
  ASSERT_TRUE(s.ok()) << s;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (worker_->RunningTasks() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(worker_->RunningTasks(), 0u);
}

TEST_F(WorkerExchangeTest, CancelJobReleasesAStreamWaitingForItsGate) {
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    v1::CancelJobRequest req;
    req.set_job_id("never-deployed");
    v1::CancelJobResponse resp;
    EXPECT_TRUE(worker_->CancelJob(nullptr, &req, &resp).ok());
  });
  RemoteOutputChannel ch(Target("never-deployed"), nullptr);
  auto start = std::chrono::steady_clock::now();
  absl::Status s = ch.Send(SeqBatch(0, 0, 10));
  canceller.join();
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled) << s;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

}  // namespace
}  // namespace eddy
