// TemporalSortOperator: rows leave in (time, secondary keys, arrival) order once the watermark
// passes them, late rows are dropped and counted, emitted rows leave the store, the watermark and
// arrival sequence survive a snapshot, and bad input is refused.
#include "worker/operators/temporal_sort.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/operator_snapshot.h"
#include "worker/operators/testing/event_log.h"
#include "worker/state/testing/temp_state_backend.h"

namespace eddy {
namespace {

using testing::EventLog;

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// (id BIGINT, v BIGINT, ts TIMESTAMP(3)) ORDER BY ts, v DESC.
const std::vector<DataType> kTypes = {DataType::BigInt(), DataType::BigInt(),
                                      DataType::Timestamp(3)};

ChangelogBatch Rows(const std::vector<std::vector<int64_t>>& rows,
                    RowKind kind = RowKind::kInsert) {
  ChangelogBatch b(kTypes);
  for (const auto& r : rows)
    b.AppendValues({Value::Int(r[0]), Value::Int(r[1]), Value::Int(r[2])}, kind);
  return b;
}

class TemporalSortTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(store_.status().ok()) << store_.status(); }

  std::unique_ptr<TemporalSortOperator> Make(EventLog* out, uint32_t state_id = 5) {
    TemporalSortSpec spec;
    spec.input_types = kTypes;
    spec.time_column = 2;
    spec.secondary = {SortKeyField{.column = 1, .descending = true, .nulls_first = false}};
    auto op = TemporalSortOperator::Create(std::move(spec));
    EXPECT_TRUE(op.ok()) << op.status();
    OperatorContext ctx;
    ctx.state_id = state_id;
    ctx.state = store_.get();
    EXPECT_TRUE((*op)->Open(ctx).ok());
    (*op)->set_output(out);
    return std::move(op).value();
  }

  uint64_t StoredRows(uint32_t state_id = 5) { return *store_->CountKeys(state_id); }

  testing::TempStateBackend store_{"eddy_temporal_sort"};
};

TEST_F(TemporalSortTest, EmitsInTimeSecondaryAndArrivalOrderAsTheWatermarkPasses) {
  EventLog out;
  auto op = Make(&out);
  ASSERT_TRUE(op->Process(0, Rows({{1, 10, 500}, {2, 20, 100}, {3, 30, 500}, {4, 30, 500}})).ok());
  ASSERT_TRUE(op->Process(0, Rows({{5, 50, 300}, {6, 60, 900}})).ok());
  EXPECT_THAT(out.Take(), IsEmpty());
  EXPECT_EQ(StoredRows(), 6u);

  // Up to 499: the rows at 100 and 300. At 500: v DESC, then arrival (3 before 4).
  ASSERT_TRUE(op->ProcessWatermark({499, false}).ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[2, 20, 100]", "+I[5, 50, 300]", "W499"));
  ASSERT_TRUE(op->ProcessWatermark({500, false}).ok());
  EXPECT_THAT(out.Take(),
              ElementsAre("+I[3, 30, 500]", "+I[4, 30, 500]", "+I[1, 10, 500]", "W500"));
  EXPECT_EQ(StoredRows(), 1u);  // emitted rows leave the store

  // A row at or below the watermark is late: dropped and counted.
  ASSERT_TRUE(op->Process(0, Rows({{7, 70, 500}, {8, 80, 450}, {9, 90, 700}})).ok());
  EXPECT_EQ(op->late_rows_dropped(), 2u);
  ASSERT_TRUE(op->ProcessWatermark({600, false}).ok());  // nothing due
  EXPECT_THAT(out.Take(), ElementsAre("W600"));
  ASSERT_TRUE(op->Finish().ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[9, 90, 700]", "+I[6, 60, 900]"));
  EXPECT_EQ(StoredRows(), 0u);
}

TEST_F(TemporalSortTest, ARestoredOperatorKeepsItsWatermarkAndOrdersNewRowsAfterStoredOnes) {
  EventLog out;
  auto op = Make(&out);
  ASSERT_TRUE(op->Process(0, Rows({{1, 5, 200}, {2, 5, 300}})).ok());
  ASSERT_TRUE(op->ProcessWatermark({100, false}).ok());
  OperatorSnapshot snapshot;
  ASSERT_TRUE(op->SnapshotState(1, &snapshot).ok());

  // The store stays (the runtime restores it); a new operator takes the snapshot back.
  EventLog restored_out;
  auto restored = Make(&restored_out);
  ASSERT_TRUE(restored->RestoreState(snapshot).ok());
  ASSERT_TRUE(restored->Process(0, Rows({{3, 5, 100}, {4, 5, 200}})).ok());
  EXPECT_EQ(restored->late_rows_dropped(), 1u);  // 100 <= the restored watermark
  ASSERT_TRUE(restored->ProcessWatermark({250, false}).ok());
  // Equal time and key: the row stored before the snapshot arrived first.
  EXPECT_THAT(restored_out.Take(), ElementsAre("+I[1, 5, 200]", "+I[4, 5, 200]", "W250"));

  OperatorSnapshot empty;
  EXPECT_FALSE(restored->RestoreState(empty).ok());
}

TEST_F(TemporalSortTest, RefusesBadSpecsUpdatesAndNullTimes) {
  TemporalSortSpec spec;
  spec.input_types = kTypes;
  spec.time_column = 1;
  auto bad = TemporalSortOperator::Create(spec);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), ::testing::HasSubstr("not a TIMESTAMP(3)"));
  spec.time_column = 7;
  EXPECT_FALSE(TemporalSortOperator::Create(spec).ok());
  spec.time_column = 2;
  spec.secondary = {SortKeyField{.column = 9}};
  EXPECT_FALSE(TemporalSortOperator::Create(spec).ok());

  EventLog out;
  auto op = Make(&out);
  absl::Status update = op->Process(0, Rows({{1, 1, 1}}, RowKind::kUpdateAfter));
  EXPECT_THAT(std::string(update.message()), ::testing::HasSubstr("must be append-only"));
  ChangelogBatch null_time(kTypes);
  null_time.AppendValues({Value::Int(1), Value::Int(1), Value::Null()}, RowKind::kInsert);
  EXPECT_FALSE(op->Process(0, null_time).ok());
}

}  // namespace
}  // namespace eddy
