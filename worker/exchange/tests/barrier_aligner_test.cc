// Barrier alignment: barriers from several channels in every order, a newer barrier during an
// alignment, end-of-input during an alignment, aborts, and at-least-once counting; then the same
// through an ExchangeSource over a real gate, where a blocked channel is not read.
#include "worker/exchange/barrier_aligner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <thread>

#include "worker/exchange/exchange_registry.h"
#include "worker/exchange/exchange_source.h"
#include "worker/exchange/input_alignment.h"

namespace eddy {
namespace {

using Kind = BarrierSignal::Kind;

struct Harness {
  explicit Harness(int n, bool exactly_once = true)
      : blocked(n, false), aligner(n, exactly_once, [this](int c, bool b) { blocked[c] = b; }) {}
  std::vector<bool> blocked;
  std::deque<BarrierSignal> signals;
  BarrierAligner aligner;
};

TEST(BarrierAligner, CompletesInEveryOrderAndBlocksUntilThen) {
  std::vector<int> order = {0, 1, 2};
  do {
    Harness h(3);
    for (size_t k = 0; k < order.size(); ++k) {
      h.aligner.OnBarrier(order[k], 5, &h.signals);
      if (k + 1 < order.size()) {
        EXPECT_TRUE(h.signals.empty());
        for (size_t j = 0; j <= k; ++j) EXPECT_TRUE(h.blocked[order[j]]);
        EXPECT_FALSE(h.blocked[order[k + 1]]);
      }
    }
    ASSERT_EQ(h.signals.size(), 1u);
    EXPECT_EQ(h.signals[0].kind, Kind::kCheckpoint);
    EXPECT_EQ(h.signals[0].checkpoint_id, 5);
    EXPECT_EQ(h.blocked, std::vector<bool>(3, false));
    EXPECT_EQ(h.aligner.pending(), 0);
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(BarrierAligner, OneChannelCompletesAtOnce) {
  Harness h(1);
  h.aligner.OnBarrier(0, 1, &h.signals);
  ASSERT_EQ(h.signals.size(), 1u);
  EXPECT_FALSE(h.blocked[0]);
}

TEST(BarrierAligner, NewerBarrierAbortsThePendingOne) {
  Harness h(3);
  h.aligner.OnBarrier(0, 1, &h.signals);
  h.aligner.OnBarrier(1, 2, &h.signals);  // channel 1 never saw 1 complete: 1 is lost here
  ASSERT_EQ(h.signals.size(), 1u);
  EXPECT_EQ(h.signals[0].kind, Kind::kAbort);
  EXPECT_EQ(h.signals[0].checkpoint_id, 1);
  h.signals.clear();
  EXPECT_FALSE(h.blocked[0]);
  EXPECT_TRUE(h.blocked[1]);
  EXPECT_EQ(h.aligner.pending(), 2);
  // Channel 2's stale barrier 1 is ignored; its barrier 2 and channel 0's complete 2.
  h.aligner.OnBarrier(2, 1, &h.signals);
  EXPECT_TRUE(h.signals.empty());
  EXPECT_FALSE(h.blocked[2]);
  h.aligner.OnBarrier(2, 2, &h.signals);
  h.aligner.OnBarrier(0, 2, &h.signals);
  ASSERT_EQ(h.signals.size(), 1u);
  EXPECT_EQ(h.signals[0].kind, Kind::kCheckpoint);
  EXPECT_EQ(h.signals[0].checkpoint_id, 2);
}

TEST(BarrierAligner, EndOfInputCountsAsAligned) {
  Harness h(3);
  h.aligner.OnBarrier(0, 4, &h.signals);
  h.aligner.OnEndOfInput(1, &h.signals);
  EXPECT_TRUE(h.signals.empty());
  h.aligner.OnEndOfInput(2, &h.signals);
  ASSERT_EQ(h.signals.size(), 1u);
  EXPECT_EQ(h.signals[0].kind, Kind::kCheckpoint);
  EXPECT_FALSE(h.blocked[0]);
  h.signals.clear();
  // Later checkpoints need only the live channel.
  h.aligner.OnBarrier(0, 5, &h.signals);
  ASSERT_EQ(h.signals.size(), 1u);
  EXPECT_EQ(h.signals[0].checkpoint_id, 5);
}

TEST(BarrierAligner, AbortReleasesThePendingAlignment) {
  Harness h(2);
  h.aligner.OnBarrier(0, 3, &h.signals);
  EXPECT_TRUE(h.blocked[0]);
  h.aligner.Abort(3);
  EXPECT_FALSE(h.blocked[0]);
  EXPECT_EQ(h.aligner.pending(), 0);
  h.aligner.OnBarrier(1, 3, &h.signals);  // late barrier of the aborted checkpoint
  EXPECT_TRUE(h.signals.empty());
  EXPECT_FALSE(h.blocked[1]);
}

TEST(BarrierAligner, AtLeastOnceCountsWithoutBlocking) {
  Harness h(2, /*exactly_once=*/false);
  h.aligner.OnBarrier(1, 7, &h.signals);
  EXPECT_FALSE(h.blocked[1]);
  EXPECT_TRUE(h.signals.empty());
  h.aligner.OnBarrier(0, 7, &h.signals);
  ASSERT_EQ(h.signals.size(), 1u);
  EXPECT_EQ(h.signals[0].kind, Kind::kCheckpoint);
}

ChangelogBatch OneRow(int64_t v) {
  ChangelogBatch b({DataType::BigInt()});
  b.mutable_column(0).AppendValue(Value::Int(v));
  b.mutable_kinds().push_back(RowKind::kInsert);
  return b;
}

// Events a source hands the driver: row values, "cp<n>", "abort<n>", "end".
std::vector<std::string> DrainSource(ExchangeSource& src) {
  std::vector<std::string> out;
  ChangelogBatch b;
  for (int guard = 0; guard < 100; ++guard) {
    auto st = src.Next(&b);
    EXPECT_TRUE(st.ok()) << st.status();
    if (!st.ok() || *st == SourceState::kIdle) break;
    if (*st == SourceState::kEnd) {
      out.push_back("end");
      break;
    }
    for (size_t r = 0; r < b.num_rows(); ++r) {
      out.push_back(std::to_string(b.column(0).Get<int64_t>(r)));
    }
    src.TakeWatermark();
    while (auto s = src.TakeBarrier()) {
      out.push_back((s->kind == Kind::kCheckpoint ? "cp" : "abort") +
                    std::to_string(s->checkpoint_id));
    }
  }
  return out;
}

// InputAlignment times each alignment from its first barrier to its last (Flink's
// checkpointAlignmentTime), over the channels of every gate.
TEST(InputAlignmentTime, FromTheFirstBarrierToTheLastOverEveryGate) {
  InputAlignment alignment;
  alignment.AddGate(std::make_shared<InputGate>("left", 1, 2, std::vector<DataType>{}));
  alignment.AddGate(std::make_shared<InputGate>("right", 1, 2, std::vector<DataType>{}));
  alignment.Start(true);
  auto steady_ns = [] {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  EXPECT_EQ(alignment.AlignmentNanos(steady_ns()), 0);  // none yet
  alignment.OnBarrier(0, 3);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  // Under way: the time so far.
  EXPECT_GE(alignment.AlignmentNanos(steady_ns()), 20000000);
  EXPECT_EQ(alignment.AlignmentNanosOf(3), 0);
  alignment.OnBarrier(1, 3);
  ASSERT_TRUE(alignment.has_signal());
  EXPECT_EQ(alignment.TakeSignal()->kind, Kind::kCheckpoint);
  const int64_t took = alignment.AlignmentNanosOf(3);
  EXPECT_GE(took, 20000000);
  EXPECT_LT(took, 5000000000);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(alignment.AlignmentNanos(steady_ns()), took);  // done: the last one's
  EXPECT_EQ(alignment.AlignmentNanosOf(2), 0);

  // An aborted alignment is not timed; the next one starts afresh.
  alignment.OnBarrier(1, 4);
  alignment.Abort(4);
  const int64_t now = steady_ns();
  EXPECT_EQ(alignment.AlignmentNanos(now), took);
  alignment.OnBarrier(0, 5);
  alignment.OnEndOfInput(1);  // the other channel ended: aligned at once
  ASSERT_TRUE(alignment.has_signal());
  EXPECT_EQ(alignment.TakeSignal()->checkpoint_id, 5);
  EXPECT_LT(alignment.AlignmentNanosOf(5), took);
}

TEST(ExchangeSourceAlignment, BlockedChannelIsNotReadUntilAligned) {
  ExchangeRegistry registry(std::chrono::milliseconds(0));
  auto src = ExchangeSource::Create(&registry, GateKey{"j", 1, 0}, 2, 4, {DataType::BigInt()});
  ASSERT_TRUE(src.ok());
  OperatorContext ctx;
  ASSERT_TRUE((*src)->Open(ctx).ok());
  InputGate* gate = (*src)->gate();
  // Channel 0: 1, barrier 1, 2.  Channel 1: 10, 11, barrier 1, 12, end.
  ASSERT_TRUE(gate->Push(0, OneRow(1)).ok());
  ASSERT_TRUE(gate->PushBarrier(0, 1).ok());
  ASSERT_TRUE(gate->Push(0, OneRow(2)).ok());
  ASSERT_TRUE(gate->Push(1, OneRow(10)).ok());
  ASSERT_TRUE(gate->Push(1, OneRow(11)).ok());
  ASSERT_TRUE(gate->PushBarrier(1, 1).ok());
  ASSERT_TRUE(gate->Push(1, OneRow(12)).ok());
  ASSERT_TRUE(gate->EndOfInput(1).ok());
  // Row 2 follows the checkpoint although channel 0 comes first in every round.
  EXPECT_EQ(DrainSource(**src), (std::vector<std::string>{"1", "10", "11", "cp1", "2", "12"}));
  ASSERT_TRUE(gate->EndOfInput(0).ok());
  EXPECT_EQ(DrainSource(**src), (std::vector<std::string>{"end"}));
}

TEST(ExchangeSourceAlignment, EndOfInputDuringAlignmentCompletesIt) {
  ExchangeRegistry registry(std::chrono::milliseconds(0));
  auto src = ExchangeSource::Create(&registry, GateKey{"j", 1, 0}, 2, 4, {DataType::BigInt()});
  ASSERT_TRUE(src.ok());
  OperatorContext ctx;
  ASSERT_TRUE((*src)->Open(ctx).ok());
  InputGate* gate = (*src)->gate();
  ASSERT_TRUE(gate->PushBarrier(0, 3).ok());
  ASSERT_TRUE(gate->Push(0, OneRow(1)).ok());
  ASSERT_TRUE(gate->Push(1, OneRow(10)).ok());
  ASSERT_TRUE(gate->EndOfInput(1).ok());
  ASSERT_TRUE(gate->EndOfInput(0).ok());
  EXPECT_EQ(DrainSource(**src), (std::vector<std::string>{"10", "cp3", "1", "end"}));
}

}  // namespace
}  // namespace eddy
