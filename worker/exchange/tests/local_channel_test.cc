#include <gtest/gtest.h>

#include <thread>

#include "tests/util/eventually.h"
#include "worker/exchange/exchange_registry.h"
#include "worker/exchange/local_output_channel.h"
#include "worker/exchange/tests/exchange_test_util.h"

namespace eddy {
namespace {

using testing::SeqBatch;
using testing::TestTypes;

ChannelTarget Target(int channel, int num_channels) {
  ChannelTarget t;
  t.consumer = GateKey{"j", 1, 0};
  t.channel_index = channel;
  t.num_channels = num_channels;
  t.producer = "job j task 0 subtask " + std::to_string(channel);
  return t;
}

// Drains `gate` until end-of-input, checking that each channel's rows arrive in order.
void DrainInOrder(InputGate& gate, int num_channels, int64_t rows_per_channel) {
  std::vector<int64_t> next(num_channels, 0);
  ChangelogBatch b;
  int channel;
  while (true) {
    auto st = gate.Poll(&b, &channel);
    ASSERT_TRUE(st.ok()) << st.status();
    if (*st == SourceState::kEnd) break;
    if (*st == SourceState::kIdle) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      continue;
    }
    for (size_t r = 0; r < b.num_rows(); ++r) {
      ASSERT_EQ(b.column(0).Get<int64_t>(r), next[channel]++);
      ASSERT_EQ(b.column(1).GetString(r), "p" + std::to_string(channel));
    }
  }
  for (int c = 0; c < num_channels; ++c) EXPECT_EQ(next[c], rows_per_channel) << c;
}

TEST(LocalOutputChannelTest, DeliversEveryBatchInOrderThenEndOfInput) {
  ExchangeRegistry registry;
  auto gate = std::make_shared<InputGate>("g", 2, 2, TestTypes());
  auto reg = registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  std::vector<std::thread> producers;
  for (int p = 0; p < 2; ++p) {
    producers.emplace_back([&, p] {
      LocalOutputChannel ch(&registry, Target(p, 2), nullptr);
      for (int64_t i = 0; i < 100; ++i) ASSERT_TRUE(ch.Send(SeqBatch(p, i * 1000, 1000)).ok());
      ASSERT_TRUE(ch.SendEndOfInput().ok());
      ch.Close();
    });
  }
  DrainInOrder(*gate, 2, 100000);
  for (auto& t : producers) t.join();
}

TEST(LocalOutputChannelTest, AnEndAtTheStopArrivesMarked) {
  ExchangeRegistry registry;
  auto gate = std::make_shared<InputGate>("g", 1, 2, TestTypes());
  auto reg = registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  LocalOutputChannel ch(&registry, Target(0, 1), nullptr);
  ASSERT_TRUE(ch.SendEndOfInput(/*stopped=*/true).ok());
  EXPECT_EQ(testing::DrainEvents(*gate)[0], (std::vector<std::string>{"end at stop"}));
  ch.Close();
}

TEST(LocalOutputChannelTest, BarriersAndWatermarksKeepTheirPlaceAmongBatches) {
  ExchangeRegistry registry;
  auto gate = std::make_shared<InputGate>("g", 1, 2, TestTypes());
  auto reg = registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  std::thread producer([&] {
    LocalOutputChannel ch(&registry, Target(0, 1), nullptr);
    for (int64_t i = 0; i < 6; ++i) {
      ASSERT_TRUE(ch.Send(SeqBatch(0, i, 1)).ok());
      if (i % 2 == 1) {
        ASSERT_TRUE(ch.SendBarrier(i / 2 + 1).ok());
      }
      ASSERT_TRUE(ch.SendWatermark({i * 10, false}).ok());
    }
    ASSERT_TRUE(ch.SendEndOfInput().ok());
    EXPECT_FALSE(ch.SendBarrier(9).ok());  // nothing after end-of-input
    ch.Close();
  });
  auto events = testing::DrainEvents(*gate);
  producer.join();
  EXPECT_EQ(events[0],
            (std::vector<std::string>{"b0", "w0", "b1", "|1", "w10", "b2", "w20", "b3", "|2", "w30",
                                      "b4", "w40", "b5", "|3", "w50", "end"}));
}

TEST(LocalOutputChannelTest, WaitsForTheConsumerToRegister) {
  ExchangeRegistry registry;
  std::thread producer([&] {
    LocalOutputChannel ch(&registry, Target(0, 1), nullptr);
    ASSERT_TRUE(ch.Send(SeqBatch(0, 0, 10)).ok());
    ASSERT_TRUE(ch.SendEndOfInput().ok());
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto gate = std::make_shared<InputGate>("g", 1, 2, TestTypes());
  auto reg = registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  DrainInOrder(*gate, 1, 10);
  producer.join();
}

TEST(LocalOutputChannelTest, ASlowConsumerBlocksTheProducerAtTheCreditBound) {
  ExchangeRegistry registry;
  auto gate = std::make_shared<InputGate>("g", 1, 3, TestTypes());
  auto reg = registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  std::atomic<int> sent{0};
  std::thread producer([&] {
    LocalOutputChannel ch(&registry, Target(0, 1), nullptr);
    for (int64_t i = 0; i < 20; ++i) {
      ASSERT_TRUE(ch.Send(SeqBatch(0, i * 100, 100)).ok());
      ++sent;
    }
    ASSERT_TRUE(ch.SendEndOfInput().ok());
  });
  // The window fills, and then the producer stays blocked.
  ASSERT_TRUE(testing::Eventually([&] { return sent.load() == 3 && gate->buffered() == 3; }));
  EXPECT_TRUE(testing::HoldsFor([&] { return sent.load() == 3 && gate->buffered() == 3; },
                                std::chrono::milliseconds(100)));
  DrainInOrder(*gate, 1, 2000);
  producer.join();
}

TEST(LocalOutputChannelTest, CancellingUnblocksAWaitingSend) {
  ExchangeRegistry registry;
  auto gate = std::make_shared<InputGate>("g", 1, 1, TestTypes());
  auto reg = registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  std::atomic<bool> cancelled{false};
  LocalOutputChannel ch(&registry, Target(0, 1), &cancelled);
  ASSERT_TRUE(ch.Send(SeqBatch(0, 0, 1)).ok());
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancelled = true;
  });
  absl::Status s = ch.Send(SeqBatch(0, 1, 1));
  canceller.join();
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled) << s;
  // Closing without end-of-input fails the consumer instead of leaving it waiting.
  ch.Close();
  ChangelogBatch b;
  auto st = gate->Poll(&b);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.status().message().find("stopped before end-of-input"), std::string::npos)
      << st.status();
}

TEST(LocalOutputChannelTest, AFailedProducerFailsItsConsumerWithTheCause) {
  ExchangeRegistry registry;
  auto gate = std::make_shared<InputGate>("g", 1, 1, TestTypes());
  auto reg = registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  LocalOutputChannel ch(&registry, Target(0, 1), nullptr);
  ASSERT_TRUE(ch.Send(SeqBatch(0, 0, 1)).ok());
  ch.Abort(absl::UnavailableError("worker-7 at 10.0.0.7:1 was lost"));
  ch.Close();  // idempotent: the cause stays
  ChangelogBatch b;
  absl::StatusOr<SourceState> st = gate->Poll(&b);
  while (st.ok()) st = gate->Poll(&b);
  EXPECT_NE(st.status().message().find("producer job j task 0 subtask 0 failed: worker-7 at "
                                       "10.0.0.7:1 was lost"),
            std::string::npos)
      << st.status();
}

TEST(ExchangeRegistryTest, AwaitTimesOutForAGateThatNeverComes) {
  ExchangeRegistry registry(std::chrono::milliseconds(100));
  auto start = std::chrono::steady_clock::now();
  auto gate = registry.Await(GateKey{"j", 3, 1});
  ASSERT_FALSE(gate.ok());
  EXPECT_EQ(gate.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(gate.status().message().find("no exchange input gate for job j task 3 subtask 1"),
            std::string::npos)
      << gate.status();
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100));
}

TEST(ExchangeRegistryTest, CancellingTheJobReleasesWaiters) {
  ExchangeRegistry registry;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    registry.CancelJob("j");
  });
  auto start = std::chrono::steady_clock::now();
  auto gate = registry.Await(GateKey{"j", 1, 0});
  canceller.join();
  EXPECT_EQ(gate.status().code(), absl::StatusCode::kCancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(registry.Await(GateKey{"j", 2, 0}).status().code(), absl::StatusCode::kCancelled);
}

TEST(ExchangeRegistryTest, RegistrationIsUniqueAndEndsWithItsHandle) {
  ExchangeRegistry registry(std::chrono::milliseconds(10));
  auto gate = std::make_shared<InputGate>("g", 1, 1, TestTypes());
  {
    auto reg = registry.Register(GateKey{"j", 1, 0}, gate);
    ASSERT_TRUE(reg.ok());
    EXPECT_EQ(registry.Register(GateKey{"j", 1, 0}, gate).status().code(),
              absl::StatusCode::kAlreadyExists);
    EXPECT_TRUE(registry.Await(GateKey{"j", 1, 0}).ok());
  }
  EXPECT_EQ(registry.size(), 0u);
  EXPECT_EQ(registry.Await(GateKey{"j", 1, 0}).status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace eddy
