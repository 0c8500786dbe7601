#include "worker/exchange/exchange_sink.h"

#include <gtest/gtest.h>

#include "worker/exchange/tests/exchange_test_util.h"

namespace eddy {
namespace {

using testing::SeqBatch;
using testing::TestTypes;

class ExchangeSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int s = 0; s < 2; ++s) {
      gates_[s] = std::make_shared<InputGate>("g", 1, 8, TestTypes());
      auto reg = registry_.Register(GateKey{"j", 1, s}, gates_[s]);
      ASSERT_TRUE(reg.ok());
      regs_[s] = std::move(*reg);
    }
  }

  ExchangeSinkSpec Spec(int targets) {
    ExchangeSinkSpec spec;
    spec.partitioning = targets == 1 ? v1::ExchangeSink::FORWARD : v1::ExchangeSink::HASH;
    spec.hash_keys = {0};
    spec.input_types = TestTypes();
    for (int s = 0; s < targets; ++s) {
      ExchangeTargetSpec t;
      t.local = true;
      t.channel.consumer = GateKey{"j", 1, s};
      t.channel.num_channels = 1;
      spec.targets.push_back(t);
    }
    return spec;
  }

  // Batch sizes buffered in gate `s`, draining it.
  std::vector<size_t> Drain(int s, bool* ended = nullptr) {
    std::vector<size_t> sizes;
    ChangelogBatch b;
    while (true) {
      auto st = gates_[s]->Poll(&b);
      EXPECT_TRUE(st.ok()) << st.status();
      if (!st.ok() || *st != SourceState::kData) {
        if (ended) *ended = st.ok() && *st == SourceState::kEnd;
        return sizes;
      }
      sizes.push_back(b.num_rows());
    }
  }

  ExchangeRegistry registry_;
  std::shared_ptr<InputGate> gates_[2];
  std::unique_ptr<ExchangeRegistry::Registration> regs_[2];
};

TEST_F(ExchangeSinkTest, FlushesAtTheRowThresholdAndEverythingOnFinish) {
  ExchangeSinkSpec spec = Spec(1);
  spec.flush_rows = 100;
  spec.buffer_timeout = std::chrono::seconds(60);
  ExchangeSinkOperator sink(std::move(spec), &registry_);
  ASSERT_TRUE(sink.Open(OperatorContext{}).ok());
  ASSERT_TRUE(sink.Process(0, SeqBatch(0, 0, 250)).ok());
  EXPECT_EQ(Drain(0), (std::vector<size_t>{100, 100}));
  ASSERT_TRUE(sink.Process(0, SeqBatch(0, 250, 30)).ok());
  EXPECT_EQ(Drain(0), (std::vector<size_t>{}));
  ASSERT_TRUE(sink.Finish().ok());
  bool ended = false;
  EXPECT_EQ(Drain(0, &ended), (std::vector<size_t>{80}));
  EXPECT_TRUE(ended);
  EXPECT_EQ(sink.rows_sent(), 280u);
  ASSERT_TRUE(sink.Close().ok());
}

TEST_F(ExchangeSinkTest, FlushesAtTheByteThreshold) {
  ExchangeSinkSpec spec = Spec(1);
  spec.flush_bytes = 2000;  // ~ 14 bytes per row here
  ExchangeSinkOperator sink(std::move(spec), &registry_);
  ASSERT_TRUE(sink.Open(OperatorContext{}).ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(sink.Process(0, SeqBatch(0, i * 50, 50)).ok());
  std::vector<size_t> sizes = Drain(0);
  ASSERT_FALSE(sizes.empty());
  for (size_t n : sizes) EXPECT_LT(n, 200u);
  ASSERT_TRUE(sink.Close().ok());
}

TEST_F(ExchangeSinkTest, FlushesABufferOlderThanTheTimeoutOnTick) {
  ExchangeSinkSpec spec = Spec(2);
  spec.buffer_timeout = std::chrono::milliseconds(100);
  ExchangeSinkOperator sink(std::move(spec), &registry_);
  OperatorContext ctx;
  ASSERT_TRUE(sink.Open(ctx).ok());
  auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(sink.Process(0, SeqBatch(0, 0, 40)).ok());
  ASSERT_TRUE(sink.OnTick(start + std::chrono::milliseconds(10)).ok());
  EXPECT_EQ(gates_[0]->buffered() + gates_[1]->buffered(), 0u);
  ASSERT_TRUE(sink.OnTick(std::chrono::steady_clock::now() + std::chrono::milliseconds(150)).ok());
  size_t rows = 0;
  for (int s = 0; s < 2; ++s) {
    for (size_t n : Drain(s)) rows += n;
  }
  EXPECT_EQ(rows, 40u);
  ASSERT_TRUE(sink.Close().ok());
}

TEST_F(ExchangeSinkTest, ZeroTimeoutFlushesAfterEveryInputBatch) {
  ExchangeSinkSpec spec = Spec(1);
  spec.buffer_timeout = std::chrono::milliseconds(0);
  ExchangeSinkOperator sink(std::move(spec), &registry_);
  ASSERT_TRUE(sink.Open(OperatorContext{}).ok());
  ASSERT_TRUE(sink.Process(0, SeqBatch(0, 0, 3)).ok());
  ASSERT_TRUE(sink.Process(0, SeqBatch(0, 3, 4)).ok());
  EXPECT_EQ(Drain(0), (std::vector<size_t>{3, 4}));
  ASSERT_TRUE(sink.Close().ok());
}

TEST_F(ExchangeSinkTest, OutputStatsCountQueuedRowsAndTheFreeCreditOfEachChannel) {
  ExchangeSinkSpec spec = Spec(2);
  spec.flush_rows = 100;
  spec.buffer_timeout = std::chrono::seconds(60);
  ExchangeSinkOperator sink(std::move(spec), &registry_);
  ASSERT_TRUE(sink.Open(OperatorContext{}).ok());
  ExchangeSinkOperator::OutputStats s = sink.output_stats();
  EXPECT_EQ(s.channels, 2);
  EXPECT_EQ(s.free_credits, 0);  // not attached to their gates yet
  EXPECT_EQ(s.channels_without_credit, 2);
  EXPECT_EQ(s.queued_rows, 0u);
  // 250 rows over two targets: each buffer reached 100 rows at least once (a batch each), the
  // rest waits.
  ASSERT_TRUE(sink.Process(0, SeqBatch(0, 0, 250)).ok());
  s = sink.output_stats();
  const size_t queued = gates_[0]->buffered() + gates_[1]->buffered();
  EXPECT_GE(queued, 2u);
  EXPECT_EQ(s.free_credits, 2 * 8 - static_cast<int64_t>(queued));
  EXPECT_EQ(s.channels_without_credit, 0);
  EXPECT_EQ(s.queued_rows, 250 - sink.rows_sent());
  EXPECT_GT(s.queued_rows, 0u);
  Drain(0);
  Drain(1);
  EXPECT_EQ(sink.output_stats().free_credits, 2 * 8);
  ASSERT_TRUE(sink.Finish().ok());
  EXPECT_EQ(sink.output_stats().queued_rows, 0u);
  ASSERT_TRUE(sink.Close().ok());
}

TEST_F(ExchangeSinkTest, AChannelWhoseConsumerBufferIsFullHasNoCredit) {
  ExchangeSinkSpec spec = Spec(1);
  spec.flush_rows = 100;
  ExchangeSinkOperator sink(std::move(spec), &registry_);
  ASSERT_TRUE(sink.Open(OperatorContext{}).ok());
  for (int i = 0; i < 8; ++i) {  // the gate's eight credits, one batch each
    ASSERT_TRUE(sink.Process(0, SeqBatch(0, i * 100, 100)).ok());
  }
  ExchangeSinkOperator::OutputStats s = sink.output_stats();
  EXPECT_EQ(s.channels, 1);
  EXPECT_EQ(s.free_credits, 0);
  EXPECT_EQ(s.channels_without_credit, 1);
  EXPECT_EQ(s.queued_rows, 0u);
  EXPECT_EQ(Drain(0).size(), 8u);
  EXPECT_EQ(sink.output_stats().free_credits, 8);
  ASSERT_TRUE(sink.Close().ok());
}

TEST(ExchangeSinkSpecTest, ReadsThePlanNodeAndRejectsBadTargets) {
  v1::ExchangeSink proto;
  proto.set_partitioning(v1::ExchangeSink::HASH);
  proto.add_hash_keys(1);
  for (int s = 0; s < 2; ++s) {
    auto* t = proto.add_targets();
    t->set_address("host:1");
    t->set_job_id("j");
    t->set_task_index(3);
    t->set_subtask_index(s);
    t->set_channel_index(1);
    t->set_num_channels(4);
  }
  auto spec = ExchangeSinkSpecFromProto(proto, TestTypes(), "job j task 2 subtask 1");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->flush_rows, kDefaultExchangeFlushRows);
  EXPECT_EQ(spec->flush_bytes, kDefaultExchangeFlushBytes);
  EXPECT_EQ(spec->buffer_timeout, kDefaultExchangeBufferTimeout);
  EXPECT_EQ(spec->targets[1].channel.ToString(), "channel 1 of job j task 3 subtask 1 at host:1");
  proto.set_buffer_timeout_ms(0);
  EXPECT_EQ(ExchangeSinkSpecFromProto(proto, TestTypes(), "p")->buffer_timeout.count(), 0);

  proto.mutable_targets(1)->set_subtask_index(0);
  auto bad = ExchangeSinkSpecFromProto(proto, TestTypes(), "p");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("target 1 is subtask 0"), std::string::npos);
  proto.mutable_targets(1)->set_subtask_index(1);
  proto.set_hash_keys(0, 9);
  EXPECT_FALSE(ExchangeSinkSpecFromProto(proto, TestTypes(), "p").ok());
}

}  // namespace
}  // namespace eddy
