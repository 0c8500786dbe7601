#include "worker/exchange/input_gate.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "worker/exchange/tests/exchange_test_util.h"

namespace eddy {
namespace {

using testing::DescribeEvent;
using testing::DrainEvents;
using testing::SeqBatch;
using testing::TestTypes;

SourceState PollState(InputGate& gate, ChangelogBatch* out = nullptr, int* channel = nullptr) {
  ChangelogBatch scratch;
  auto st = gate.Poll(out ? out : &scratch, channel);
  EXPECT_TRUE(st.ok()) << st.status();
  return st.ok() ? *st : SourceState::kIdle;
}

TEST(InputGateTest, EndsOnlyAfterEveryChannelEndedAndEveryBufferDrained) {
  InputGate gate("job j task 1 subtask 0", 3, 2, TestTypes());
  for (int c = 0; c < 3; ++c) ASSERT_TRUE(gate.Attach(c, 3, nullptr).ok());
  EXPECT_EQ(PollState(gate), SourceState::kIdle);
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 0, 10)).ok());
  ASSERT_TRUE(gate.EndOfInput(0).ok());
  ASSERT_TRUE(gate.EndOfInput(1).ok());
  ChangelogBatch b;
  int channel = -1;
  EXPECT_EQ(PollState(gate, &b, &channel), SourceState::kData);
  EXPECT_EQ(channel, 0);
  EXPECT_EQ(b.num_rows(), 10u);
  EXPECT_EQ(PollState(gate), SourceState::kIdle);  // channel 2 is still open
  ASSERT_TRUE(gate.Push(2, SeqBatch(2, 0, 5)).ok());
  ASSERT_TRUE(gate.EndOfInput(2).ok());
  EXPECT_EQ(PollState(gate, &b, &channel), SourceState::kData);  // drained before the end
  EXPECT_EQ(channel, 2);
  EXPECT_EQ(PollState(gate), SourceState::kEnd);
  EXPECT_EQ(PollState(gate), SourceState::kEnd);

  EXPECT_EQ(gate.EndOfInput(2).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(gate.Push(1, SeqBatch(1, 0, 1)).code(), absl::StatusCode::kInvalidArgument);
}

TEST(InputGateTest, BuffersAreBoundedByTheCreditWindow) {
  InputGate gate("g", 2, 2, TestTypes());
  ASSERT_TRUE(gate.Attach(0, 2, nullptr).ok());
  EXPECT_EQ(gate.TakeGrants(0, std::chrono::milliseconds(0), nullptr), 2);  // the whole window
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 0, 1)).ok());
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 1, 1)).ok());
  absl::Status over = gate.Push(0, SeqBatch(0, 2, 1));
  EXPECT_EQ(over.code(), absl::StatusCode::kResourceExhausted) << over;
  EXPECT_EQ(gate.buffered(), 2u);
  EXPECT_EQ(gate.TakeGrants(0, std::chrono::milliseconds(1), nullptr), 0);
  ChangelogBatch b;
  EXPECT_EQ(PollState(gate, &b), SourceState::kData);
  EXPECT_EQ(b.column(0).Get<int64_t>(0), 0);
  EXPECT_EQ(gate.TakeGrants(0, std::chrono::milliseconds(0), nullptr), 1);  // one per batch taken
  ASSERT_TRUE(gate.EndOfInput(0).ok());
  EXPECT_EQ(gate.TakeGrants(0, std::chrono::milliseconds(0), nullptr), -1);  // ended: no more
}

TEST(InputGateTest, PollIsRoundRobinOverChannels) {
  InputGate gate("g", 3, 4, TestTypes());
  for (int c = 0; c < 3; ++c) {
    for (int i = 0; i < 2; ++i) ASSERT_TRUE(gate.Push(c, SeqBatch(c, i, 1)).ok());
  }
  std::vector<int> order;
  ChangelogBatch b;
  int channel;
  while (PollState(gate, &b, &channel) == SourceState::kData) order.push_back(channel);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 0, 1, 2}));
}

TEST(InputGateTest, RejectsBadChannelsAndBadBatches) {
  InputGate gate("job j task 1 subtask 0", 2, 2, TestTypes());
  EXPECT_EQ(gate.Attach(0, 3, nullptr).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(gate.Attach(2, 2, nullptr).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(gate.Attach(0, 2, nullptr).ok());
  EXPECT_EQ(gate.Attach(0, 2, nullptr).code(), absl::StatusCode::kFailedPrecondition);
  ChangelogBatch wrong({DataType::String()});
  wrong.AppendValues({Value::String("x")}, RowKind::kInsert);
  absl::Status s = gate.Push(0, std::move(wrong));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("job j task 1 subtask 0, channel 0: batch has columns (STRING)"),
            std::string::npos)
      << s;
}

TEST(InputGateTest, AFailedChannelFailsTheConsumer) {
  InputGate gate("g", 2, 2, TestTypes());
  ASSERT_TRUE(gate.Push(1, SeqBatch(1, 0, 1)).ok());
  gate.Fail(1, absl::UnavailableError("producer went away"));
  ChangelogBatch b;
  auto st = gate.Poll(&b);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.status().message(), "producer went away");
}

TEST(InputGateTest, LocalPushWaitsForRoomAndHonoursCancelAndClose) {
  InputGate gate("g", 1, 1, TestTypes());
  ASSERT_TRUE(gate.PushWait(0, SeqBatch(0, 0, 1), nullptr).ok());
  std::atomic<bool> cancelled{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancelled = true;
  });
  absl::Status s = gate.PushWait(0, SeqBatch(0, 1, 1), &cancelled);
  canceller.join();
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled) << s;

  std::thread consumer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ChangelogBatch b;
    ASSERT_TRUE(gate.Poll(&b).ok());
  });
  EXPECT_TRUE(gate.PushWait(0, SeqBatch(0, 1, 1), nullptr).ok());  // room after the poll
  consumer.join();

  bool aborted_stream = false;
  ASSERT_TRUE(gate.Attach(0, 1, [&] { aborted_stream = true; }).ok());
  std::thread closer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    gate.Close();
  });
  s = gate.PushWait(0, SeqBatch(0, 2, 1), nullptr);
  closer.join();
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted) << s;
  EXPECT_TRUE(aborted_stream);
  EXPECT_EQ(gate.buffered(), 0u);
  EXPECT_EQ(gate.TakeGrants(0, std::chrono::milliseconds(0), nullptr), -1);
}

// A watermark takes effect when Poll reaches it in its channel, after the batches its producer sent
// before it; the gate's watermark is the minimum over its channels, and an ended channel stops
// holding it back once its end-of-input is taken.
TEST(InputGateTest, WatermarksFollowTheirChannelsBatchesAndTakeTheMinimum) {
  InputGate gate("job j task 1 subtask 0", 2, 4, TestTypes());
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 0, 3)).ok());
  ASSERT_TRUE(gate.PushWatermark(0, {100, false}).ok());
  ASSERT_TRUE(gate.PushWatermark(1, {50, false}).ok());
  EXPECT_FALSE(gate.TakeWatermark().has_value());  // nothing polled yet
  ChangelogBatch b;
  int channel = -1;
  ASSERT_EQ(PollState(gate, &b, &channel), SourceState::kData);
  EXPECT_EQ(channel, 0);
  EXPECT_EQ(b.num_rows(), 3u);
  EXPECT_FALSE(gate.TakeWatermark().has_value());
  // Channel 1's watermark (50) alone does not move the gate: channel 0 has none yet (round-robin
  // reaches channel 1 first), then channel 0's 100 makes the minimum 50.
  ASSERT_EQ(PollState(gate, &b, &channel), SourceState::kData);
  EXPECT_TRUE(b.empty());
  auto w = gate.TakeWatermark();
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 50);
  ASSERT_TRUE(gate.PushWatermark(1, {300, false}).ok());
  ASSERT_EQ(PollState(gate, &b), SourceState::kData);
  EXPECT_TRUE(b.empty());
  w = gate.TakeWatermark();
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 100);
  // Channel 0 ends with a batch still queued: it holds the watermark until its end is taken.
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 3, 1)).ok());
  ASSERT_TRUE(gate.EndOfInput(0).ok());
  EXPECT_FALSE(gate.TakeWatermark().has_value());
  ASSERT_EQ(PollState(gate, &b), SourceState::kData);
  EXPECT_EQ(b.num_rows(), 1u);
  EXPECT_FALSE(gate.TakeWatermark().has_value());
  ASSERT_EQ(PollState(gate, &b), SourceState::kData);  // channel 0's end-of-input
  EXPECT_TRUE(b.empty());
  w = gate.TakeWatermark();
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 300);
  EXPECT_FALSE(gate.PushWatermark(0, {400, false}).ok());  // after end-of-input
}

TEST(InputGateTest, EachChannelsEventsComeOutInTheOrderTheyWentIn) {
  InputGate gate("g", 2, 4, TestTypes());
  // Channel 0: batch, barrier 1, watermark, batch, barrier 2, end. Channel 1: barrier 1 first.
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 0, 1)).ok());
  ASSERT_TRUE(gate.PushBarrier(0, 1).ok());
  ASSERT_TRUE(gate.PushBarrier(1, 1).ok());
  ASSERT_TRUE(gate.PushWatermark(0, {10, false}).ok());
  ASSERT_TRUE(gate.Push(1, SeqBatch(1, 100, 1)).ok());
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 1, 1)).ok());
  ASSERT_TRUE(gate.PushBarrier(0, 2).ok());
  ASSERT_TRUE(gate.EndOfInput(0).ok());
  ASSERT_TRUE(gate.PushWatermark(1, {20, false}).ok());
  ASSERT_TRUE(gate.PushBarrier(1, 2).ok());
  ASSERT_TRUE(gate.EndOfInput(1).ok());
  EXPECT_EQ(gate.buffered(), 3u);  // batches
  EXPECT_EQ(gate.queued_events(), 11u);
  auto events = DrainEvents(gate);
  EXPECT_EQ(events[0], (std::vector<std::string>{"b0", "|1", "w10", "b1", "|2", "end"}));
  EXPECT_EQ(events[1], (std::vector<std::string>{"|1", "b100", "w20", "|2", "end"}));
  ChannelEvent e;
  EXPECT_EQ(*gate.PollEvent(&e), SourceState::kEnd);
}

TEST(InputGateTest, OnlyAWatermarkRightBehindAnotherIsReplaced) {
  InputGate gate("g", 1, 4, TestTypes());
  ASSERT_TRUE(gate.PushWatermark(0, {1, false}).ok());
  ASSERT_TRUE(gate.PushWatermark(0, {2, false}).ok());  // replaces 1
  ASSERT_TRUE(gate.PushBarrier(0, 7).ok());
  ASSERT_TRUE(gate.PushWatermark(0, {3, false}).ok());  // a barrier in between: kept apart
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 0, 1)).ok());
  ASSERT_TRUE(gate.PushWatermark(0, {4, false}).ok());
  ASSERT_TRUE(gate.PushWatermark(0, {5, false}).ok());  // replaces 4
  ASSERT_TRUE(gate.EndOfInput(0).ok());
  EXPECT_EQ(DrainEvents(gate)[0], (std::vector<std::string>{"w2", "|7", "w3", "b0", "w5", "end"}));
}

TEST(InputGateTest, BarriersUseNoCreditAndMustGrow) {
  InputGate gate("g", 1, 1, TestTypes());
  ASSERT_TRUE(gate.Attach(0, 1, nullptr).ok());
  EXPECT_EQ(gate.TakeGrants(0, std::chrono::milliseconds(0), nullptr), 1);
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 0, 1)).ok());
  // The credit window is full, yet a barrier and a watermark still get in behind the batch.
  ASSERT_TRUE(gate.PushBarrier(0, 1).ok());
  ASSERT_TRUE(gate.PushWatermark(0, {5, false}).ok());
  EXPECT_EQ(gate.Push(0, SeqBatch(0, 1, 1)).code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(gate.PushBarrier(0, 1).code(), absl::StatusCode::kInvalidArgument);  // not growing
  ChangelogBatch b;
  ASSERT_EQ(PollState(gate, &b), SourceState::kData);
  EXPECT_EQ(gate.TakeGrants(0, std::chrono::milliseconds(0), nullptr), 1);  // the batch's credit
  ASSERT_TRUE(gate.EndOfInput(0).ok());
  EXPECT_EQ(gate.PushBarrier(0, 2).code(), absl::StatusCode::kInvalidArgument);  // after the end
}

TEST(InputGateTest, PollWithoutBarrierAlignmentRejectsABarrier) {
  InputGate gate("g", 1, 2, TestTypes());
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 0, 1)).ok());
  ASSERT_TRUE(gate.PushBarrier(0, 3).ok());
  ChangelogBatch b;
  ASSERT_EQ(PollState(gate, &b), SourceState::kData);
  auto st = gate.Poll(&b);
  EXPECT_EQ(st.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(st.status().message().find("barrier 3"), std::string::npos) << st.status();
}

// Credit flow with mixed events from a local producer: the producer blocks on batches only, and
// the consumer sees every event in order.
TEST(InputGateTest, LocalProducerWithMixedEventsKeepsOrderUnderBackpressure) {
  InputGate gate("g", 1, 2, TestTypes());
  constexpr int kBatches = 50;
  std::thread producer([&] {
    for (int i = 0; i < kBatches; ++i) {
      ASSERT_TRUE(gate.PushWait(0, SeqBatch(0, i, 1), nullptr).ok());
      ASSERT_TRUE(gate.PushWatermark(0, {i, false}).ok());
      if (i % 10 == 9) {
        ASSERT_TRUE(gate.PushBarrier(0, i / 10 + 1).ok());
      }
    }
    ASSERT_TRUE(gate.EndOfInput(0).ok());
  });
  std::vector<std::string> want;
  for (int i = 0; i < kBatches; ++i) {
    want.push_back("b" + std::to_string(i));
    want.push_back("w" + std::to_string(i));
    if (i % 10 == 9) want.push_back("|" + std::to_string(i / 10 + 1));
  }
  want.push_back("end");
  std::vector<std::string> got;
  ChannelEvent e;
  while (got.size() < want.size()) {
    auto st = gate.PollEvent(&e);
    ASSERT_TRUE(st.ok()) << st.status();
    if (*st == SourceState::kData) {
      got.push_back(DescribeEvent(e));
      EXPECT_LE(gate.buffered(), 2u);
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
  producer.join();
  // Each watermark follows a batch, so none was merged into a later one.
  EXPECT_EQ(got, want);
}

TEST(InputGateAttempt, RefusesAProducerOfAnotherAttempt) {
  InputGate gate("job j task 1 subtask 0", 2, 4, {DataType::BigInt()});
  gate.set_attempt(2);
  absl::Status old = gate.Attach(0, 2, 1, nullptr);
  EXPECT_EQ(old.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(old.message().find("attempt 1"), std::string::npos) << old;
  EXPECT_TRUE(gate.Attach(0, 2, 2, nullptr).ok());
  EXPECT_TRUE(gate.Attach(1, 2, 0, nullptr).ok());  // unchecked
}

}  // namespace
}  // namespace eddy
