// ProcessingTimeOperator: arriving rows take the clock as their time, the clock (never going back)
// drives the inner operator's watermark after every batch and tick, the input's watermarks go
// downstream untouched while the inner operator's are dropped, and a window aggregate under it
// fires by the clock. The clock is a test variable.
#include "worker/operators/processing_time_operator.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/testing/event_log.h"
#include "worker/operators/window_aggregate.h"
#include "worker/state/keyed_state_backend.h"

namespace eddy {
namespace {

using testing::EventLog;

using ::testing::ElementsAre;
using ::testing::IsEmpty;

const std::vector<DataType> kTypes = {DataType::String(), DataType::Timestamp(3)};

ChangelogBatch Rows(const std::vector<std::pair<std::string, int64_t>>& rows) {
  ChangelogBatch b(kTypes);
  for (const auto& [k, t] : rows)
    b.AppendValues({Value::String(k), Value::Int(t)}, RowKind::kInsert);
  return b;
}

// Records what reaches it, and emits each input batch and a watermark of its own.
class Recorder : public Operator {
 public:
  absl::Status Process(int input, const ChangelogBatch& batch) override {
    for (size_t r = 0; r < batch.num_rows(); ++r) {
      seen.push_back(absl::StrCat(input, ":", testing::Compact(FormatRow(batch, r))));
    }
    RETURN_IF_ERROR(Emit(batch));
    return EmitWatermark(Watermark{12345});
  }
  absl::Status ProcessWatermark(const Watermark& w) override {
    seen.push_back(absl::StrCat("W", w.millis));
    return absl::OkStatus();
  }
  std::vector<std::string> seen;
};

TEST(ProcessingTimeOperatorTest, StampsRowsWithTheClockAndDrivesTheInnerWatermarkByIt) {
  int64_t clock = 100;
  auto inner = std::make_unique<Recorder>();
  Recorder* recorder = inner.get();
  ProcessingTimeOperator op(std::move(inner), {1, -1}, [&] { return clock; });
  EventLog out;
  op.set_output(&out);
  ASSERT_TRUE(op.Open({}).ok());

  // Input 0's time column reads the clock; input 1 keeps its values. After each batch the inner
  // operator sees the watermark clock - 1, once per clock reading.
  ASSERT_TRUE(op.Process(0, Rows({{"a", 7}, {"b", 8}})).ok());
  clock = 105;
  ASSERT_TRUE(op.Process(1, Rows({{"c", 9}})).ok());
  EXPECT_THAT(recorder->seen,
              ElementsAre("0:+I[a, 100]", "0:+I[b, 100]", "W99", "1:+I[c, 9]", "W104"));
  // Rows go downstream; the inner operator's own watermarks do not.
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, 100]", "+I[b, 100]", "+I[c, 9]"));

  // A clock that goes back reads as the latest time so far; a tick advances the inner watermark
  // only when the clock moved.
  clock = 50;
  ASSERT_TRUE(op.Process(0, Rows({{"d", 1}})).ok());
  ASSERT_TRUE(op.OnTick(std::chrono::steady_clock::now()).ok());
  clock = 120;
  ASSERT_TRUE(op.OnTick(std::chrono::steady_clock::now()).ok());
  EXPECT_THAT(recorder->seen, ElementsAre("0:+I[a, 100]", "0:+I[b, 100]", "W99", "1:+I[c, 9]",
                                          "W104", "0:+I[d, 105]", "W119"));

  // The input's watermarks pass through to the output, not to the inner operator.
  out.Take();
  ASSERT_TRUE(op.ProcessWatermark(Watermark{42}).ok());
  EXPECT_THAT(out.Take(), ElementsAre("W42"));
  EXPECT_EQ(recorder->seen.back(), "W119");
  EXPECT_EQ(op.rows_in(), 4u);
  EXPECT_EQ(op.rows_out(), 4u);
}

TEST(ProcessingTimeOperatorTest, AWindowAggregateFiresWhenTheClockPassesTheWindowEnd) {
  static std::atomic<int> counter{0};
  const std::string path = ::testing::TempDir() + "/eddy_proctime_" + std::to_string(::getpid()) +
                           "_" + std::to_string(counter++) + "/state";
  std::filesystem::remove_all(path);
  auto backend = KeyedStateBackend::Open(path);
  ASSERT_TRUE(backend.ok()) << backend.status();

  // COUNT(*) per key over TUMBLE(ts, 1 s), ts the processing time.
  WindowAggregateSpec spec;
  spec.input_types = kTypes;
  spec.group_keys = {0};
  AggregateCall count;
  count.kind = AggKind::kCountStar;
  count.result_type = DataType::BigInt().WithNullable(false);
  spec.aggregates = {count};
  spec.window = {WindowShape::Kind::kTumble, 1000};
  spec.time_column = 1;
  auto window = WindowAggregateOperator::Create(std::move(spec));
  ASSERT_TRUE(window.ok()) << window.status();

  int64_t clock = 10'500;
  ProcessingTimeOperator op(std::move(window).value(), {1}, [&] { return clock; });
  EventLog out;
  op.set_output(&out);
  OperatorContext ctx;
  ctx.state_id = 3;
  ctx.state = backend->get();
  ASSERT_TRUE(op.Open(ctx).ok());

  // The rows' own times (far in the past) do not matter: they count in the window of the clock.
  ASSERT_TRUE(op.Process(0, Rows({{"a", 1}, {"b", 2}, {"a", 3}})).ok());
  clock = 10'999;
  ASSERT_TRUE(op.Process(0, Rows({{"a", 4}})).ok());
  ASSERT_TRUE(op.OnTick(std::chrono::steady_clock::now()).ok());
  EXPECT_THAT(out.Take(), IsEmpty());  // watermark 10998 < end - 1

  clock = 11'000;  // [10000, 11000) closes: its end - 1 is behind the clock
  ASSERT_TRUE(op.OnTick(std::chrono::steady_clock::now()).ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, 3, 10000, 11000]", "+I[b, 1, 10000, 11000]"));

  // A row now counts in the next window, which the end of input fires.
  ASSERT_TRUE(op.Process(0, Rows({{"b", 5}})).ok());
  ASSERT_TRUE(op.Finish().ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[b, 1, 11000, 12000]"));
  ASSERT_TRUE(op.Close().ok());
}

}  // namespace
}  // namespace eddy
