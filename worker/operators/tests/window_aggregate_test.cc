// WindowAggregate: windows fire when the watermark passes their end, late rows are dropped and
// counted, a fired window's state is gone from RocksDB, and RocksDB is read once per batch.
#include "worker/operators/window_aggregate.h"

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "common/expr/aggregate_signature.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_resources.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class WindowAggregateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    const std::string path = ::testing::TempDir() + "/eddy_window_" + std::to_string(::getpid()) +
                             "_" + std::to_string(counter++) + "/state";
    std::filesystem::remove_all(path);  // a store opens whatever it finds
    auto b = KeyedStateBackend::Open(path);
    ASSERT_TRUE(b.ok()) << b.status();
    backend_ = std::move(b).value();
  }

  // SELECT word, COUNT(*) ... GROUP BY word over TUMBLE(ts, size) (ts in ms).
  std::unique_ptr<WindowAggregateOperator> Make(WindowShape shape, CollectingOutput* out,
                                                size_t memory_budget = 0,
                                                KeyedStateBackend* backend = nullptr,
                                                bool with_listagg = false, WindowClock clock = {}) {
    WindowAggregateSpec spec;
    spec.input_types = {DataType::String(), DataType::Timestamp(3)};
    spec.group_keys = {0};
    AggregateCall count;
    count.kind = AggKind::kCountStar;
    count.result_type = DataType::BigInt().WithNullable(false);
    spec.aggregates = {count};
    if (with_listagg) {  // an accumulator without a native form (strings kept in memory)
      AggregateCall listagg;
      listagg.kind = AggKind::kListAgg;
      listagg.arg = 0;
      listagg.arg_type = DataType::String();
      listagg.result_type = *AggResultType(AggKind::kListAgg, DataType::String());
      spec.aggregates.push_back(listagg);
    }
    spec.window = shape;
    spec.time_column = 1;
    spec.clock = std::move(clock);
    auto op = WindowAggregateOperator::Create(std::move(spec));
    EXPECT_TRUE(op.ok()) << op.status();
    OperatorContext ctx;
    ctx.state_id = 7;
    ctx.state = backend != nullptr ? backend : backend_.get();
    ctx.state_cache_bytes = memory_budget;
    EXPECT_TRUE((*op)->Open(ctx).ok());
    (*op)->set_output(out);
    return std::move(op).value();
  }

  static ChangelogBatch Rows(const std::vector<std::pair<std::string, int64_t>>& rows) {
    ChangelogBatch b({DataType::String(), DataType::Timestamp(3)});
    for (const auto& [w, t] : rows)
      b.AppendValues({Value::String(w), Value::Int(t)}, RowKind::kInsert);
    return b;
  }

  std::unique_ptr<KeyedStateBackend> backend_;
};

TEST_F(WindowAggregateTest, FiresOnTheWatermarkDropsLateRowsAndCleansState) {
  CollectingOutput out;
  auto op = Make({WindowShape::Kind::kTumble, 1000}, &out);
  ASSERT_TRUE(op->Process(0, Rows({{"a", 100}, {"b", 200}, {"a", 900}, {"a", 1500}})).ok());
  EXPECT_THAT(out.rows, IsEmpty());
  EXPECT_EQ(op->pending_windows(), 2u);
  EXPECT_EQ(*backend_->CountKeys(7), 3u);  // (w0, a), (w0, b), (w1, a)

  // 998 < end - 1: nothing yet; 999 = end - 1: window [0, 1000) fires, in key order.
  ASSERT_TRUE(op->ProcessWatermark({998, false}).ok());
  EXPECT_THAT(out.rows, IsEmpty());
  ASSERT_TRUE(op->ProcessWatermark({999, false}).ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[a, 2, 1970-01-01 00:00:00.000, 1970-01-01 00:00:01.000]",
                                    "+I[b, 1, 1970-01-01 00:00:00.000, 1970-01-01 00:00:01.000]"));
  EXPECT_THAT(out.WatermarkMillis(), ElementsAre(998, 999));  // passed on after firing
  EXPECT_EQ(*backend_->CountKeys(7), 1u);                     // the fired window's state is gone

  // A row for the fired window is late: dropped and counted; one for the open window counts.
  ASSERT_TRUE(op->Process(0, Rows({{"a", 10}, {"c", 1999}})).ok());
  EXPECT_EQ(op->late_rows_dropped(), 1u);
  out.rows.clear();
  ASSERT_TRUE(op->Finish().ok());  // end of input fires the rest
  EXPECT_THAT(out.rows, ElementsAre("+I[a, 1, 1970-01-01 00:00:01.000, 1970-01-01 00:00:02.000]",
                                    "+I[c, 1, 1970-01-01 00:00:01.000, 1970-01-01 00:00:02.000]"));
  EXPECT_EQ(*backend_->CountKeys(7), 0u);
  EXPECT_EQ(op->pending_windows(), 0u);
}

// A cascading window aggregation: a 1-second window aggregate grouped by window_time too feeds a
// 2-second one keyed on that window_time. Each fired window's rows (window_time = end - 1) go out
// before the watermark that fired it, so the next window takes them all and drops none as late.
TEST_F(WindowAggregateTest, WindowTimeFeedsAnotherWindowBeforeItsWatermark) {
  WindowAggregateSpec second;
  second.input_types = {DataType::String(), DataType::BigInt().WithNullable(false),
                        DataType::Timestamp(3).WithNullable(false),
                        DataType::Timestamp(3).WithNullable(false),
                        DataType::Timestamp(3).WithNullable(false)};
  second.group_keys = {0};
  AggregateCall sum;
  sum.kind = AggKind::kSum;
  sum.arg = 1;
  sum.arg_type = DataType::BigInt().WithNullable(false);
  sum.result_type = *AggResultType(AggKind::kSum, sum.arg_type);
  second.aggregates = {sum};
  second.window = {WindowShape::Kind::kTumble, 2000};
  second.time_column = 4;  // the first aggregate's window_time
  auto outer = WindowAggregateOperator::Create(std::move(second));
  ASSERT_TRUE(outer.ok()) << outer.status();
  OperatorContext ctx;
  ctx.state_id = 8;
  ctx.state = backend_.get();
  ASSERT_TRUE((*outer)->Open(ctx).ok());
  CollectingOutput out;
  (*outer)->set_output(&out);

  WindowAggregateSpec first;
  first.input_types = {DataType::String(), DataType::Timestamp(3)};
  first.group_keys = {0};
  AggregateCall count;
  count.kind = AggKind::kCountStar;
  count.result_type = DataType::BigInt().WithNullable(false);
  first.aggregates = {count};
  first.window = {WindowShape::Kind::kTumble, 1000};
  first.time_column = 1;
  first.window_time = true;
  auto inner = WindowAggregateOperator::Create(std::move(first));
  ASSERT_TRUE(inner.ok()) << inner.status();
  EXPECT_EQ((*inner)->output_types().size(), 5u);
  ctx.state_id = 7;
  ASSERT_TRUE((*inner)->Open(ctx).ok());
  CollectingOutput between(outer->get());  // records the first's rows, passes them on
  (*inner)->set_output(&between);

  ASSERT_TRUE((*inner)->Process(0, Rows({{"a", 100}, {"b", 200}, {"a", 1100}, {"a", 1900}})).ok());
  ASSERT_TRUE((*inner)->ProcessWatermark({999, false}).ok());
  EXPECT_THAT(between.rows,
              ElementsAre("+I[a, 1, 1970-01-01 00:00:00.000, 1970-01-01 00:00:01.000, "
                          "1970-01-01 00:00:00.999]",
                          "+I[b, 1, 1970-01-01 00:00:00.000, 1970-01-01 00:00:01.000, "
                          "1970-01-01 00:00:00.999]"));
  EXPECT_THAT(out.rows, IsEmpty());
  // 1999 fires [1000, 2000) of the first and, after its rows, [0, 2000) of the second.
  ASSERT_TRUE((*inner)->ProcessWatermark({1999, false}).ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[a, 3, 1970-01-01 00:00:00.000, 1970-01-01 00:00:02.000]",
                                    "+I[b, 1, 1970-01-01 00:00:00.000, 1970-01-01 00:00:02.000]"));
  EXPECT_EQ((*outer)->late_rows_dropped(), 0u);
  EXPECT_THAT(out.WatermarkMillis(), ElementsAre(999, 1999));

  // Two windows fired by one watermark go out in one batch, each row with its own window_time.
  between.rows.clear();
  out.rows.clear();
  ASSERT_TRUE((*inner)->Process(0, Rows({{"c", 2100}, {"c", 3100}, {"c", 3200}})).ok());
  ASSERT_TRUE((*inner)->ProcessWatermark({3999, false}).ok());
  EXPECT_THAT(between.rows,
              ElementsAre("+I[c, 1, 1970-01-01 00:00:02.000, 1970-01-01 00:00:03.000, "
                          "1970-01-01 00:00:02.999]",
                          "+I[c, 2, 1970-01-01 00:00:03.000, 1970-01-01 00:00:04.000, "
                          "1970-01-01 00:00:03.999]"));
  EXPECT_THAT(out.rows, ElementsAre("+I[c, 3, 1970-01-01 00:00:02.000, 1970-01-01 00:00:04.000]"));
}

// Windows counted in America/Los_Angeles' wall clock: where its clocks turn back (2021-11-07 02:00
// PDT becomes 01:00 PST, at 09:00 UTC) the window from 01:00 to 02:00 takes both passes of that
// hour, and a watermark in the first pass neither fires it nor makes the second pass late.
TEST_F(WindowAggregateTest, AWindowInTheHourAZoneRepeatsTakesBothPasses) {
  if (!std::filesystem::exists("/usr/share/zoneinfo/America/Los_Angeles")) {
    GTEST_SKIP() << "no zone files";
  }
  absl::StatusOr<WindowClock> clock = WindowClock::ForZone("America/Los_Angeles");
  ASSERT_TRUE(clock.ok()) << clock.status();
  constexpr int64_t kHour = 3600 * 1000;
  const int64_t nov7_utc = 1636243200000;  // 2021-11-07 00:00 UTC
  CollectingOutput out;
  auto op = Make({WindowShape::Kind::kTumble, kHour}, &out, 0, nullptr, false, *clock);
  ASSERT_TRUE(op->Process(0, Rows({{"a", nov7_utc + 8 * kHour + kHour / 2}})).ok());  // 01:30 PDT
  ASSERT_TRUE(op->ProcessWatermark({nov7_utc + 9 * kHour - 1, false}).ok());  // 01:59:59.999 PDT
  EXPECT_THAT(out.rows, IsEmpty());
  ASSERT_TRUE(op->Process(0, Rows({{"a", nov7_utc + 9 * kHour + kHour / 2}})).ok());  // 01:30 PST
  EXPECT_EQ(op->late_rows_dropped(), 0u);
  ASSERT_TRUE(op->ProcessWatermark({nov7_utc + 10 * kHour - 1, false}).ok());  // 01:59:59.999 PST
  EXPECT_THAT(out.rows, ElementsAre("+I[a, 2, 2021-11-07 01:00:00.000, 2021-11-07 02:00:00.000]"));
}

// A checkpoint of the operator (its recorded index and watermark) plus a snapshot of its store is
// all its state: a new instance restored from them fires exactly what the old one would have, with
// windows that were in memory at the checkpoint included and rows after it excluded.
TEST_F(WindowAggregateTest, RestoresFromASnapshotOfItsStoreAndItsRecordedState) {
  for (size_t budget : {size_t{0}, size_t{1} << 20}) {  // windows in RocksDB, or in memory
    SCOPED_TRACE(budget);
    SetUp();
    CollectingOutput out;
    auto op = Make({WindowShape::Kind::kTumble, 1000}, &out, budget);
    ASSERT_TRUE(op->Process(0, Rows({{"a", 100}, {"b", 200}, {"a", 1500}, {"b", 2500}})).ok());
    ASSERT_TRUE(op->ProcessWatermark({999, false}).ok());  // fires [0, 1000)
    ASSERT_EQ(out.rows.size(), 2u);
    OperatorSnapshot snapshot;
    ASSERT_TRUE(op->SnapshotState(1, &snapshot).ok());
    EXPECT_EQ(op->memory_windows(), 0u);  // everything is in the store now
    const std::string dir = ::testing::TempDir() + "/eddy_window_chk_" +
                            std::to_string(::getpid()) + "_" + std::to_string(budget);
    std::filesystem::remove_all(dir);
    ASSERT_TRUE(backend_->Snapshot(dir + "/chk-1").ok());
    // After the checkpoint: a row the restored instance must not see.
    ASSERT_TRUE(op->Process(0, Rows({{"c", 1600}})).ok());

    auto restored = KeyedStateBackend::OpenFromSnapshot(dir + "/chk-1", dir + "/restored",
                                                        std::make_shared<SharedStateResources>());
    ASSERT_TRUE(restored.ok()) << restored.status();
    CollectingOutput again;
    auto op2 = Make({WindowShape::Kind::kTumble, 1000}, &again, budget, restored->get());
    ASSERT_TRUE(op2->RestoreState(snapshot).ok());
    EXPECT_EQ(op2->pending_windows(), 2u);
    ASSERT_TRUE(op2->Process(0, Rows({{"late", 10}})).ok());  // its window fired before
    EXPECT_EQ(op2->late_rows_dropped(), 1u);
    ASSERT_TRUE(op2->Finish().ok());
    EXPECT_THAT(again.rows,
                ElementsAre("+I[a, 1, 1970-01-01 00:00:01.000, 1970-01-01 00:00:02.000]",
                            "+I[b, 1, 1970-01-01 00:00:02.000, 1970-01-01 00:00:03.000]"));
    EXPECT_EQ(*(*restored)->CountKeys(7), 0u);
    op2.reset();
    restored->reset();
    std::filesystem::remove_all(dir);
  }
}

TEST_F(WindowAggregateTest, RejectsARecordedStateItCannotRead) {
  CollectingOutput out;
  auto op = Make({WindowShape::Kind::kTumble, 1000}, &out);
  OperatorSnapshot bad;
  bad.Put("watermark", "short");
  EXPECT_EQ(op->RestoreState(bad).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(WindowAggregateTest, ReadsStateOncePerBatchAndHopsIntoEveryWindow) {
  CollectingOutput out;
  auto op = Make({WindowShape::Kind::kHop, 1000, 500}, &out);
  const auto before = backend_->stats();
  // 6 rows, 2 keys, each row in 2 windows: 3 windows x 2 keys, one MultiGet, one write.
  ASSERT_TRUE(
      op->Process(0,
                  Rows({{"a", 100}, {"b", 600}, {"a", 700}, {"b", 1100}, {"a", 1200}, {"a", 1300}}))
          .ok());
  const auto after = backend_->stats();
  EXPECT_EQ(after.multiget_calls - before.multiget_calls, 1u);
  EXPECT_EQ(after.write_batches - before.write_batches, 1u);
  ASSERT_TRUE(op->Finish().ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[a, 1, 1969-12-31 23:59:59.500, 1970-01-01 00:00:00.500]",
                                    "+I[a, 2, 1970-01-01 00:00:00.000, 1970-01-01 00:00:01.000]",
                                    "+I[b, 1, 1970-01-01 00:00:00.000, 1970-01-01 00:00:01.000]",
                                    "+I[a, 3, 1970-01-01 00:00:00.500, 1970-01-01 00:00:01.500]",
                                    "+I[b, 2, 1970-01-01 00:00:00.500, 1970-01-01 00:00:01.500]",
                                    "+I[a, 2, 1970-01-01 00:00:01.000, 1970-01-01 00:00:02.000]",
                                    "+I[b, 1, 1970-01-01 00:00:01.000, 1970-01-01 00:00:02.000]"));
}

// With a memory budget, open windows fold and fire in memory (RocksDB untouched); a small budget
// moves the latest windows to RocksDB. Every budget gives the same rows in the same order.
TEST_F(WindowAggregateTest, MemoryBudgetKeepsOpenWindowsOutOfRocksDbWithTheSameResult) {
  for (bool with_listagg : {false, true}) {
    SCOPED_TRACE(with_listagg ? "COUNT(*), LISTAGG(word)" : "COUNT(*)");
    std::vector<std::pair<std::string, int64_t>> rows;
    for (int i = 0; i < 3000; ++i) rows.push_back({"k" + std::to_string(i % 37), i * 7});
    auto run = [&](size_t budget, uint64_t* writes, size_t* max_memory_windows) {
      CollectingOutput out;
      auto op = Make({WindowShape::Kind::kHop, 1000, 250}, &out, budget, nullptr, with_listagg);
      const auto before = backend_->stats();
      *max_memory_windows = 0;
      for (size_t begin = 0; begin < rows.size(); begin += 500) {
        std::vector<std::pair<std::string, int64_t>> part(
            rows.begin() + begin, rows.begin() + std::min(rows.size(), begin + 500));
        EXPECT_TRUE(op->Process(0, Rows(part)).ok());
        *max_memory_windows = std::max(*max_memory_windows, op->memory_windows());
        EXPECT_TRUE(op->ProcessWatermark({part.back().second - 2000, false}).ok());
      }
      EXPECT_TRUE(op->Finish().ok());
      *writes = backend_->stats().keys_written - before.keys_written;
      EXPECT_EQ(op->pending_windows(), 0u);
      EXPECT_EQ(op->memory_bytes(), 0u);
      return out.rows;
    };
    uint64_t writes_rocksdb = 0, writes_memory = 0, writes_small = 0;
    size_t windows_rocksdb = 0, windows_memory = 0, windows_small = 0;
    const std::vector<std::string> in_rocksdb = run(0, &writes_rocksdb, &windows_rocksdb);
    const std::vector<std::string> in_memory = run(64 << 20, &writes_memory, &windows_memory);
    const std::vector<std::string> small = run(40000, &writes_small, &windows_small);
    ASSERT_FALSE(in_rocksdb.empty());
    EXPECT_EQ(in_memory, in_rocksdb);
    EXPECT_EQ(small, in_rocksdb);
    EXPECT_EQ(windows_rocksdb, 0u);
    EXPECT_GT(windows_memory, 0u);
    EXPECT_EQ(writes_memory, 0u);  // everything fired from memory
    EXPECT_GT(writes_rocksdb, 0u);
    EXPECT_GT(writes_small, 0u);              // some windows spilled...
    EXPECT_LT(writes_small, writes_rocksdb);  // ...not all
  }
}

}  // namespace
}  // namespace eddy
