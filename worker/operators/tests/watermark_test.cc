// WatermarkCombiner (minimum over inputs, idle and ended inputs), window arithmetic, and the
// WatermarkAssigner operator (max of the expression per batch, idleness after the timeout).
#include "worker/operators/watermark.h"

#include <chrono>
#include <string>
#include <vector>

#include "common/expr/function_registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/source.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/operators/watermark_assigner.h"
#include "worker/operators/window_assigner.h"
#include "worker/operators/window_table_function.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

using ::testing::ElementsAre;

TEST(WatermarkCombinerTest, IsTheMinimumOverLiveInputsAndNeverGoesBack) {
  WatermarkCombiner c(2);
  EXPECT_FALSE(c.Update(0, {100, false}).has_value());  // input 1 still at the minimum
  auto w = c.Update(1, {50, false});
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 50);
  w = c.Update(1, {200, false});
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 100);
  EXPECT_FALSE(c.Update(1, {150, false}).has_value());  // an input never goes back either
  // An ended input stops holding the others back.
  c.Update(0, {120, false});
  w = c.EndInput(0);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 200);
}

TEST(WatermarkCombinerTest, IdleInputsAreLeftOut) {
  WatermarkCombiner c(2);
  c.Update(0, {100, false});
  c.Update(1, {10, false});
  EXPECT_EQ(c.current().millis, 10);
  auto w = c.Update(1, {10, true});  // input 1 idles: input 0 alone decides
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 100);
  EXPECT_FALSE(w->idle);
  w = c.Update(0, {100, true});  // all idle: idle, at the same time
  ASSERT_TRUE(w.has_value());
  EXPECT_TRUE(w->idle);
  EXPECT_EQ(w->millis, 100);
  // Input 1 comes back behind: active again, but the watermark does not go back.
  w = c.Update(1, {20, false});
  ASSERT_TRUE(w.has_value());
  EXPECT_FALSE(w->idle);
  EXPECT_EQ(w->millis, 100);
}

std::vector<int64_t> Ends(const WindowShape& w, int64_t ts) {
  std::vector<int64_t> ends;
  w.AssignEnds(ts, &ends);
  return ends;
}

TEST(WindowShapeTest, TumbleHopCumulate) {
  WindowShape tumble{WindowShape::Kind::kTumble, 10};
  EXPECT_THAT(Ends(tumble, 0), ElementsAre(10));
  EXPECT_THAT(Ends(tumble, 9), ElementsAre(10));
  EXPECT_THAT(Ends(tumble, 10), ElementsAre(20));
  EXPECT_THAT(Ends(tumble, -1), ElementsAre(0));  // before the epoch
  EXPECT_EQ(tumble.StartOf(20), 10);
  WindowShape offset{WindowShape::Kind::kTumble, 10, 0, 0, 3};
  EXPECT_THAT(Ends(offset, 2), ElementsAre(3));
  EXPECT_THAT(Ends(offset, 3), ElementsAre(13));

  WindowShape hop{WindowShape::Kind::kHop, 10, 5};
  EXPECT_THAT(Ends(hop, 7), ElementsAre(10, 15));
  EXPECT_THAT(Ends(hop, 5), ElementsAre(10, 15));
  EXPECT_THAT(Ends(hop, 4), ElementsAre(5, 10));
  EXPECT_EQ(hop.StartOf(15), 5);
  EXPECT_EQ(hop.MaxWindowsPerRow(), 2);

  WindowShape cumulate{WindowShape::Kind::kCumulate, 30, 0, 10};
  EXPECT_THAT(Ends(cumulate, 0), ElementsAre(10, 20, 30));
  EXPECT_THAT(Ends(cumulate, 15), ElementsAre(20, 30));
  EXPECT_THAT(Ends(cumulate, 29), ElementsAre(30));
  EXPECT_THAT(Ends(cumulate, 30), ElementsAre(40, 50, 60));
  EXPECT_EQ(cumulate.StartOf(20), 0);
  EXPECT_EQ(cumulate.StartOf(30), 0);
  EXPECT_EQ(cumulate.StartOf(40), 30);
}

ChangelogBatch Times(const std::vector<int64_t>& ts) {
  ChangelogBatch b({DataType::Timestamp(3)});
  for (int64_t t : ts) b.AppendValues({Value::Int(t)}, RowKind::kInsert);
  return b;
}

TEST(WatermarkAssignerTest, EmitsTheHighestWatermarkAfterEachBatchAndIdlesAfterTheTimeout) {
  // WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
  auto wm =
      MakeCall("-", {MakeColumnRef(0, DataType::Timestamp(3)),
                     MakeLiteral(Value::Int(5000), DataType::Interval().WithNullable(false))});
  ASSERT_TRUE(wm.ok()) << wm.status();
  WatermarkAssignerOperator op(*wm, std::chrono::milliseconds(50));
  CollectingOutput out;
  op.set_output(&out);
  ASSERT_TRUE(op.Open(OperatorContext{}).ok());
  ASSERT_TRUE(op.Process(0, Times({10000, 30000, 20000})).ok());
  ASSERT_EQ(out.watermarks.size(), 1u);
  EXPECT_EQ(out.watermarks[0].millis, 25000);
  ASSERT_TRUE(op.Process(0, Times({12000})).ok());  // out of order: no new watermark
  EXPECT_EQ(out.watermarks.size(), 1u);
  EXPECT_EQ(out.row_count, 4u);

  auto now = std::chrono::steady_clock::now();
  ASSERT_TRUE(op.OnTick(now).ok());
  EXPECT_EQ(out.watermarks.size(), 1u);  // not idle yet
  ASSERT_TRUE(op.OnTick(now + std::chrono::milliseconds(100)).ok());
  ASSERT_EQ(out.watermarks.size(), 2u);
  EXPECT_TRUE(out.watermarks[1].idle);
  // Data again: active, with the same watermark.
  ASSERT_TRUE(op.Process(0, Times({1000})).ok());
  ASSERT_EQ(out.watermarks.size(), 3u);
  EXPECT_FALSE(out.watermarks[2].idle);
  EXPECT_EQ(out.watermarks[2].millis, 25000);
}

// A source of two splits, as the Kafka source reports them to the assigner.
class TwoSplits : public Source {
 public:
  absl::StatusOr<SourceState> Next(ChangelogBatch*) override { return SourceState::kIdle; }
  int num_splits() const override { return 2; }
  int batch_split() const override { return split; }
  bool split_finished(int s) const override { return s == 1 && finished; }
  int64_t split_idle_timeout_ms() const override { return 50; }
  int split = 0;
  bool finished = false;
};

TEST(WatermarkAssignerTest, KeepsAWatermarkPerSplitAndLeavesOutIdleAndFinishedSplits) {
  auto wm = MakeColumnRef(0, DataType::Timestamp(3));
  TwoSplits source;
  // The job's idle timeout (1 h) gives way to the table's (50 ms).
  WatermarkAssignerOperator op(wm, std::chrono::hours(1));
  CollectingOutput out;
  op.set_output(&out);
  OperatorContext ctx;
  ctx.source = &source;
  ASSERT_TRUE(op.Open(ctx).ok());
  source.split = 0;
  ASSERT_TRUE(op.Process(0, Times({30000})).ok());
  EXPECT_TRUE(out.watermarks.empty());  // split 1 has no rows yet: it holds event time back
  source.split = 1;
  ASSERT_TRUE(op.Process(0, Times({10000})).ok());
  ASSERT_EQ(out.watermarks.size(), 1u);
  EXPECT_EQ(out.watermarks[0].millis, 10000);  // the least of the splits
  source.split = 0;
  ASSERT_TRUE(op.Process(0, Times({40000})).ok());
  EXPECT_EQ(out.watermarks.size(), 1u);
  // A finished split no longer counts.
  source.finished = true;
  const auto now = std::chrono::steady_clock::now();
  ASSERT_TRUE(op.OnTick(now).ok());
  ASSERT_EQ(out.watermarks.size(), 2u);
  EXPECT_EQ(out.watermarks[1].millis, 40000);
  // Split 0 quiet for longer than the timeout: idle.
  ASSERT_TRUE(op.OnTick(now + std::chrono::seconds(1)).ok());
  ASSERT_EQ(out.watermarks.size(), 3u);
  EXPECT_TRUE(out.watermarks[2].idle);
  ASSERT_TRUE(op.Process(0, Times({50000})).ok());
  ASSERT_EQ(out.watermarks.size(), 4u);
  EXPECT_FALSE(out.watermarks[3].idle);
  EXPECT_EQ(out.watermarks[3].millis, 50000);
}

// The window TVF on its own: a row per window with the window columns; late rows are dropped.
TEST(WindowTableFunctionTest, RepeatsEachRowPerWindowAndDropsLateRows) {
  auto created = WindowTableFunctionOperator::Create({DataType::Timestamp(3)},
                                                     {WindowShape::Kind::kHop, 10, 5}, 0);
  ASSERT_TRUE(created.ok()) << created.status();
  WindowTableFunctionOperator& op = **created;
  CollectingOutput out;
  op.set_output(&out);
  ASSERT_TRUE(op.Process(0, Times({7})).ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[1970-01-01 00:00:00.007, 1970-01-01 00:00:00.000, "
                                    "1970-01-01 00:00:00.010, 1970-01-01 00:00:00.009]",
                                    "+I[1970-01-01 00:00:00.007, 1970-01-01 00:00:00.005, "
                                    "1970-01-01 00:00:00.015, 1970-01-01 00:00:00.014]"));
  out.rows.clear();
  ASSERT_TRUE(op.ProcessWatermark({9, false}).ok());
  ASSERT_TRUE(op.Process(0, Times({8, 1})).ok());  // 8: only [5, 15) is open; 1: late
  EXPECT_EQ(out.rows.size(), 1u);
  EXPECT_EQ(op.late_rows_dropped(), 1u);
}

}  // namespace
}  // namespace eddy
