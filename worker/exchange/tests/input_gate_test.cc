#include "worker/exchange/input_gate.h"

#include <gtest/gtest.h>

#include <thread>

#include "worker/exchange/tests/exchange_test_util.h"

namespace eddy {
namespace {

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

// A watermark takes effect after the batches its producer sent before it; the gate's watermark is
// the minimum over its channels, and an ended channel stops holding it back once drained.
TEST(InputGateTest, WatermarksFollowTheirChannelsBatchesAndTakeTheMinimum) {
  InputGate gate("job j task 1 subtask 0", 2, 4, TestTypes());
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 0, 3)).ok());
  ASSERT_TRUE(gate.PushWatermark(0, {100, false}).ok());
  ASSERT_TRUE(gate.PushWatermark(1, {50, false}).ok());  // empty channel: applies now
  EXPECT_FALSE(gate.TakeWatermark().has_value());        // channel 0 is still at the minimum
  ChangelogBatch b;
  int channel = -1;
  ASSERT_EQ(PollState(gate, &b, &channel), SourceState::kData);
  EXPECT_EQ(channel, 0);
  auto w = gate.TakeWatermark();  // channel 0's batch was taken: its watermark applies
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 50);
  ASSERT_TRUE(gate.PushWatermark(1, {300, false}).ok());
  w = gate.TakeWatermark();
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 100);
  // Channel 0 ends with a batch still buffered: it holds the watermark until drained.
  ASSERT_TRUE(gate.Push(0, SeqBatch(0, 3, 1)).ok());
  ASSERT_TRUE(gate.EndOfInput(0).ok());
  EXPECT_FALSE(gate.TakeWatermark().has_value());
  ASSERT_EQ(PollState(gate, &b), SourceState::kData);
  w = gate.TakeWatermark();
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 300);
  EXPECT_FALSE(gate.PushWatermark(0, {400, false}).ok());  // after end-of-input
}

}  // namespace
}  // namespace eddy
