// SessionWindowAggregate: sessions split by the gap, merged by a bridging row, extended by rows
// inside or after them; firing on the watermark (rows before the watermark, state freed); late
// rows; NULL arguments; DISTINCT across a merge; restore from a snapshot. Every expected row is
// worked out by hand from the rows fed in. Timestamps print as millis (EventLog).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/session_window_aggregate.h"
#include "worker/operators/testing/event_log.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_resources.h"

namespace eddy {
namespace {

using ::testing::ElementsAre;
using testing::EventLog;
using ::testing::IsEmpty;

constexpr uint32_t kStateId = 7;
constexpr int64_t kGap = 10000;  // 10 s

AggregateCall Call(AggKind kind, int arg = -1, bool distinct = false) {
  AggregateCall c;
  c.kind = kind;
  c.arg = arg;
  if (arg >= 0) c.arg_type = DataType::BigInt();
  c.result_type = *AggResultType(kind, c.arg_type);
  c.distinct = distinct;
  return c;
}

// Input (k STRING, v BIGINT, ts TIMESTAMP(3)).
struct InputRow {
  std::string k;
  std::optional<int64_t> v;
  int64_t ts;
};

ChangelogBatch Rows(const std::vector<InputRow>& rows) {
  ChangelogBatch b({DataType::String(), DataType::BigInt(), DataType::Timestamp(3)});
  for (const InputRow& r : rows) {
    b.AppendValues({Value::String(r.k), r.v ? Value::Int(*r.v) : Value::Null(), Value::Int(r.ts)},
                   RowKind::kInsert);
  }
  return b;
}

class SessionWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = ::testing::TempDir() + "/eddy_session_" + std::to_string(::getpid()) + "_" +
           std::to_string(counter++);
    std::filesystem::remove_all(dir_);  // a store opens whatever it finds
    auto b = KeyedStateBackend::Open(dir_ + "/state");
    ASSERT_TRUE(b.ok()) << b.status();
    backend_ = std::move(b).value();
  }
  void TearDown() override {
    backend_.reset();
    std::filesystem::remove_all(dir_);
  }

  // SELECT k, COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v), AVG(v), window_start, window_end
  // ... SESSION(ts, 10 s) GROUP BY k (or the calls given).
  std::unique_ptr<SessionWindowAggregateOperator> Make(
      EventLog* out, std::vector<AggregateCall> calls = DefaultCalls(),
      KeyedStateBackend* backend = nullptr, size_t cache_bytes = 0, int subtask = 0,
      int parallelism = 1) {
    SessionWindowAggregateSpec spec;
    spec.input_types = {DataType::String(), DataType::BigInt(), DataType::Timestamp(3)};
    spec.group_keys = {0};
    spec.aggregates = std::move(calls);
    spec.time_column = 2;
    spec.gap_ms = kGap;
    auto op = SessionWindowAggregateOperator::Create(std::move(spec));
    EXPECT_TRUE(op.ok()) << op.status();
    OperatorContext ctx;
    ctx.state_id = kStateId;
    ctx.state = backend != nullptr ? backend : backend_.get();
    ctx.state_cache_bytes = cache_bytes;
    ctx.subtask_index = subtask;
    ctx.parallelism = parallelism;
    EXPECT_TRUE((*op)->Open(ctx).ok());
    (*op)->set_output(out);
    return std::move(op).value();
  }

  static std::vector<AggregateCall> DefaultCalls() {
    return {Call(AggKind::kCountStar), Call(AggKind::kCount, 1), Call(AggKind::kSum, 1),
            Call(AggKind::kMin, 1),    Call(AggKind::kMax, 1),   Call(AggKind::kAvg, 1)};
  }

  size_t StoredKeys() { return *backend_->CountKeys(kStateId); }

  std::string dir_;
  std::unique_ptr<KeyedStateBackend> backend_;
};

TEST_F(SessionWindowTest, TwoSessionsOfOneKeySplitByAGapFireOnTheWatermark) {
  EventLog out;
  auto op = Make(&out);
  // 1 s and 5 s are one session [1 s, 15 s); 30 s is 25 s after the last row: a new one.
  ASSERT_TRUE(op->Process(0, Rows({{"a", 1, 1000}, {"a", 2, 5000}, {"a", 3, 30000}})).ok());
  EXPECT_EQ(op->pending_sessions(), 2u);
  ASSERT_TRUE(op->ProcessWatermark({13998, false}).ok());  // nothing is due before end - 1
  EXPECT_THAT(out.Take(), ElementsAre("W13998"));
  ASSERT_TRUE(op->ProcessWatermark({14999, false}).ok());
  // COUNT(*) 2, COUNT(v) 2, SUM 3, MIN 1, MAX 2, AVG 3 / 2 = 1 (BIGINT), then the rows, then W.
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, 2, 2, 3, 1, 2, 1, 1000, 15000]", "W14999"));
  ASSERT_TRUE(op->ProcessWatermark({39999, false}).ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, 1, 1, 3, 3, 3, 3, 30000, 40000]", "W39999"));
  EXPECT_EQ(op->pending_sessions(), 0u);
}

TEST_F(SessionWindowTest, RowsExactlyAGapApartShareASession) {
  // [1 s, 11 s) and [11 s, 21 s) touch, and touching windows merge, as in Flink.
  EventLog out;
  auto op = Make(&out);
  ASSERT_TRUE(op->Process(0, Rows({{"a", 1, 1000}, {"a", 2, 11000}})).ok());
  ASSERT_TRUE(op->Finish().ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, 2, 2, 3, 1, 2, 1, 1000, 21000]"));
}

TEST_F(SessionWindowTest, ALateArrivingRowBridgesTwoSessionsIntoOne) {
  EventLog out;
  auto op = Make(&out);
  // [0, 10 s) with 5, and [20 s, 30 s) with 1.
  ASSERT_TRUE(op->Process(0, Rows({{"a", 5, 0}, {"a", 1, 20000}})).ok());
  EXPECT_EQ(op->pending_sessions(), 2u);
  // 10 s brings [10 s, 20 s), which touches both: one session [0, 30 s) with 5, 7, 1.
  ASSERT_TRUE(op->Process(0, Rows({{"a", 7, 10000}})).ok());
  EXPECT_EQ(op->pending_sessions(), 1u);
  EXPECT_EQ(StoredKeys(), 1u);
  ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());  // the first session's timer moved
  EXPECT_THAT(out.Take(), ElementsAre("W9999"));
  ASSERT_TRUE(op->ProcessWatermark({29999, false}).ok());
  // COUNT 3, SUM 13, MIN 1, MAX 7, AVG 13 / 3 = 4.
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, 3, 3, 13, 1, 7, 4, 0, 30000]", "W29999"));
  EXPECT_EQ(StoredKeys(), 0u);
}

TEST_F(SessionWindowTest, SeveralKeysInOneBatchFireInEndOrder) {
  EventLog out;
  auto op = Make(&out);
  ASSERT_TRUE(
      op->Process(
            0,
            Rows(
                {{"a", 1, 1000}, {"b", 2, 2000}, {"a", 3, 3000}, {"c", 4, 40000}, {"b", 5, 20000}}))
          .ok());
  // a: [1 s, 13 s) {1, 3}; b: [2 s, 12 s) {2} and [20 s, 30 s) {5}; c: [40 s, 50 s) {4}.
  EXPECT_EQ(op->pending_sessions(), 4u);
  EXPECT_EQ(StoredKeys(), 3u);  // one value per key
  ASSERT_TRUE(op->ProcessWatermark({29999, false}).ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[b, 1, 1, 2, 2, 2, 2, 2000, 12000]",
                                      "+I[a, 2, 2, 4, 1, 3, 2, 1000, 13000]",
                                      "+I[b, 1, 1, 5, 5, 5, 5, 20000, 30000]", "W29999"));
  EXPECT_EQ(StoredKeys(), 1u);  // only c holds a session
  ASSERT_TRUE(op->Finish().ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[c, 1, 1, 4, 4, 4, 4, 40000, 50000]"));
  EXPECT_EQ(StoredKeys(), 0u);
}

TEST_F(SessionWindowTest, ARowInsideOrAfterASessionExtendsIt) {
  EventLog out;
  auto op = Make(&out);
  ASSERT_TRUE(op->Process(0, Rows({{"a", 1, 1000}})).ok());   // [1 s, 11 s)
  ASSERT_TRUE(op->Process(0, Rows({{"a", 2, 5000}})).ok());   // inside: [1 s, 15 s)
  ASSERT_TRUE(op->Process(0, Rows({{"a", 4, 14000}})).ok());  // inside: [1 s, 24 s)
  EXPECT_EQ(op->pending_sessions(), 1u);
  ASSERT_TRUE(op->ProcessWatermark({10999, false}).ok());
  ASSERT_TRUE(op->ProcessWatermark({14999, false}).ok());
  ASSERT_TRUE(op->ProcessWatermark({23998, false}).ok());
  EXPECT_THAT(out.Take(), ElementsAre("W10999", "W14999", "W23998"));
  ASSERT_TRUE(op->ProcessWatermark({23999, false}).ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, 3, 3, 7, 1, 4, 2, 1000, 24000]", "W23999"));
}

TEST_F(SessionWindowTest, DropsAndCountsRowsWhoseMergedSessionIsLate) {
  EventLog out;
  auto op = Make(&out);
  ASSERT_TRUE(op->Process(0, Rows({{"a", 1, 20000}})).ok());  // [20 s, 30 s)
  ASSERT_TRUE(op->ProcessWatermark({20000, false}).ok());
  ASSERT_TRUE(op->Process(0, Rows({
                                 {"c", 9, 1000},   // [1 s, 11 s): late, nothing to merge with
                                 {"a", 9, 5000},   // [5 s, 15 s): late, misses [20 s, 30 s)
                                 {"a", 2, 10000},  // [10 s, 20 s): late alone, but it touches
                                                   // [20 s, 30 s): kept, now [10 s, 30 s)
                                 {"b", 3, 15000},  // [15 s, 25 s): not late
                             }))
                  .ok());
  EXPECT_EQ(op->late_rows_dropped(), 2u);
  EXPECT_EQ(op->pending_sessions(), 2u);
  EXPECT_EQ(StoredKeys(), 2u);  // nothing kept for c
  ASSERT_TRUE(op->Finish().ok());
  EXPECT_THAT(out.Take(), ElementsAre("W20000", "+I[b, 1, 1, 3, 3, 3, 3, 15000, 25000]",
                                      "+I[a, 2, 2, 3, 1, 2, 1, 10000, 30000]"));
  EXPECT_EQ(op->late_rows_dropped(), 2u);
}

TEST_F(SessionWindowTest, FiringFreesTheSessionsState) {
  EventLog out;
  auto op = Make(&out);
  ASSERT_TRUE(op->Process(0, Rows({{"a", 1, 1000}, {"a", 2, 50000}, {"b", 3, 2000}})).ok());
  EXPECT_EQ(StoredKeys(), 2u);
  EXPECT_GT(op->state_bytes_in_memory(), 0u);              // three timers
  ASSERT_TRUE(op->ProcessWatermark({11999, false}).ok());  // a's first session and b's
  EXPECT_EQ(out.Take().size(), 3u);
  EXPECT_EQ(StoredKeys(), 1u);  // a keeps [50 s, 60 s); b is gone
  EXPECT_EQ(op->pending_sessions(), 1u);
  ASSERT_TRUE(op->ProcessWatermark({59999, false}).ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, 1, 1, 2, 2, 2, 2, 50000, 60000]", "W59999"));
  EXPECT_EQ(StoredKeys(), 0u);
  EXPECT_EQ(op->pending_sessions(), 0u);
  EXPECT_EQ(op->state_bytes_in_memory(), 0u);
}

TEST_F(SessionWindowTest, NullArgumentsCountOnlyInCountStarAlsoAcrossAMerge) {
  EventLog out;
  auto op = Make(&out);
  ASSERT_TRUE(op->Process(0, Rows({{"a", std::nullopt, 1000},
                                   {"a", 4, 2000},
                                   {"b", std::nullopt, 3000},
                                   {"c", std::nullopt, 0},
                                   {"c", 6, 20000}}))
                  .ok());
  // c: [0, 10 s) holds only a NULL; [20 s, 30 s) holds 6; a NULL at 10 s bridges them.
  ASSERT_TRUE(op->Process(0, Rows({{"c", std::nullopt, 10000}})).ok());
  ASSERT_TRUE(op->Finish().ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, 2, 1, 4, 4, 4, 4, 1000, 12000]",
                                      "+I[b, 1, 0, null, null, null, null, 3000, 13000]",
                                      "+I[c, 3, 1, 6, 6, 6, 6, 0, 30000]"));
}

TEST_F(SessionWindowTest, DistinctValuesCountOnceAcrossAMerge) {
  EventLog out;
  auto op = Make(&out, {Call(AggKind::kCount, 1, /*distinct=*/true),
                        Call(AggKind::kSum, 1, /*distinct=*/true)});
  // [0, 10 s) {1}, [20 s, 30 s) {1, 2}; the row at 10 s (2) bridges them: {1, 2}.
  ASSERT_TRUE(op->Process(0, Rows({{"a", 1, 0}, {"a", 1, 20000}, {"a", 2, 21000}})).ok());
  ASSERT_TRUE(op->Process(0, Rows({{"a", 2, 10000}})).ok());
  ASSERT_TRUE(op->Finish().ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, 2, 3, 0, 31000]"));
}

// The recorded timers and watermark plus a snapshot of the store are the whole state: a fresh
// instance fires exactly the sessions the first had not fired, and merges into them.
TEST_F(SessionWindowTest, ARestoredInstanceFiresExactlyTheSessionsNotFired) {
  for (size_t cache_bytes : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache_bytes);
    TearDown();
    SetUp();
    EventLog out;
    auto op = Make(&out, DefaultCalls(), nullptr, cache_bytes);
    ASSERT_TRUE(
        op->Process(0, Rows({{"a", 1, 1000}, {"b", 2, 2000}, {"a", 3, 30000}, {"c", 4, 25000}}))
            .ok());
    ASSERT_TRUE(op->ProcessWatermark({11999, false}).ok());  // a [1 s, 11 s), b [2 s, 12 s)
    EXPECT_THAT(out.Take(), ElementsAre("+I[a, 1, 1, 1, 1, 1, 1, 1000, 11000]",
                                        "+I[b, 1, 1, 2, 2, 2, 2, 2000, 12000]", "W11999"));
    OperatorSnapshot snapshot;
    ASSERT_TRUE(op->SnapshotState(1, &snapshot).ok());
    ASSERT_TRUE(backend_->Snapshot(dir_ + "/chk-1").ok());
    ASSERT_TRUE(op->Process(0, Rows({{"a", 100, 32000}})).ok());  // after the checkpoint

    auto restored = KeyedStateBackend::OpenFromSnapshot(dir_ + "/chk-1", dir_ + "/restored",
                                                        std::make_shared<SharedStateResources>());
    ASSERT_TRUE(restored.ok()) << restored.status();
    EventLog again;
    auto op2 = Make(&again, DefaultCalls(), restored->get(), cache_bytes);
    ASSERT_TRUE(op2->RestoreState(snapshot).ok());
    EXPECT_EQ(op2->pending_sessions(), 2u);  // a [30 s, 40 s), c [25 s, 35 s)
    // Late: its session [1 s, 11 s) would have fired at the restored watermark.
    ASSERT_TRUE(op2->Process(0, Rows({{"d", 9, 1000}})).ok());
    EXPECT_EQ(op2->late_rows_dropped(), 1u);
    // c at 33 s joins [25 s, 35 s): [25 s, 43 s), its timer moved from 35 s to 43 s.
    ASSERT_TRUE(op2->Process(0, Rows({{"c", 8, 33000}})).ok());
    ASSERT_TRUE(op2->ProcessWatermark({39999, false}).ok());
    EXPECT_THAT(again.Take(), ElementsAre("+I[a, 1, 1, 3, 3, 3, 3, 30000, 40000]", "W39999"));
    ASSERT_TRUE(op2->Finish().ok());
    EXPECT_THAT(again.Take(), ElementsAre("+I[c, 2, 2, 12, 4, 8, 6, 25000, 43000]"));
    OperatorSnapshot after;  // writes the cached deletes to the store
    ASSERT_TRUE(op2->SnapshotState(2, &after).ok());
    EXPECT_EQ(*(*restored)->CountKeys(kStateId), 0u);
    op2.reset();
    restored->reset();
  }
}

// At another parallelism each subtask keeps the pending sessions of its own key groups only: two
// subtasks restored from one snapshot fire every pending session exactly once between them, as
// the snapshotted instance would have, and restart from the recorded watermark.
TEST_F(SessionWindowTest, ASnapshotSplitOverTwoSubtasksFiresEachPendingSessionOnce) {
  EventLog out;
  auto op = Make(&out);
  std::vector<InputRow> rows;
  for (int key = 0; key < 40; ++key) {
    rows.push_back({"k" + std::to_string(key), key, 1000 + key});
    rows.push_back({"k" + std::to_string(key), 100 + key, 20000 + key});
  }
  ASSERT_TRUE(op->Process(0, Rows(rows)).ok());
  ASSERT_TRUE(op->ProcessWatermark({15000, false}).ok());  // the first session of every key
  out.Take();
  OperatorSnapshot snapshot;
  ASSERT_TRUE(op->SnapshotState(1, &snapshot).ok());
  ASSERT_TRUE(backend_->Snapshot(dir_ + "/chk-1").ok());
  ASSERT_TRUE(op->Finish().ok());
  std::vector<std::string> expected = out.Take();
  ASSERT_EQ(expected.size(), 40u);

  std::vector<std::string> fired;
  for (int subtask = 0; subtask < 2; ++subtask) {
    auto restored = KeyedStateBackend::OpenFromSnapshot(
        dir_ + "/chk-1", dir_ + "/restored-" + std::to_string(subtask),
        std::make_shared<SharedStateResources>());
    ASSERT_TRUE(restored.ok()) << restored.status();
    EventLog again;
    auto part = Make(&again, DefaultCalls(), restored->get(), 0, subtask, 2);
    ASSERT_TRUE(part->RestoreRescaledState(std::span<const OperatorSnapshot>(&snapshot, 1)).ok());
    EXPECT_GT(part->pending_sessions(), 0u);
    EXPECT_LT(part->pending_sessions(), 40u);
    // Late at the restored watermark (its session would have ended at 11 s).
    ASSERT_TRUE(part->Process(0, Rows({{"late", 1, 1000}})).ok());
    EXPECT_EQ(part->late_rows_dropped(), 1u);
    ASSERT_TRUE(part->Finish().ok());
    for (std::string& line : again.Take()) fired.push_back(std::move(line));
    part.reset();
    restored->reset();
  }
  std::sort(fired.begin(), fired.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(fired, expected);
}

// Restored from the snapshots of two subtasks, an instance restarts from the smaller of their
// watermarks: a row the subtask that was ahead would have dropped as late is taken.
TEST_F(SessionWindowTest, MergedSnapshotsRestartFromTheSmallestWatermark) {
  EventLog out;
  auto ahead = Make(&out);
  ASSERT_TRUE(ahead->ProcessWatermark({30000, false}).ok());
  OperatorSnapshot first;
  ASSERT_TRUE(ahead->SnapshotState(1, &first).ok());
  ASSERT_TRUE(ahead->ProcessWatermark({40000, false}).ok());
  OperatorSnapshot second;
  ASSERT_TRUE(ahead->SnapshotState(2, &second).ok());
  out.Take();
  ahead.reset();
  auto merged = Make(&out);
  const std::vector<OperatorSnapshot> both = {second, first};
  ASSERT_TRUE(merged->RestoreRescaledState(both).ok());
  ASSERT_TRUE(merged->Process(0, Rows({{"a", 1, 25000}})).ok());  // late after 40 s, not 30 s
  EXPECT_EQ(merged->late_rows_dropped(), 0u);
  ASSERT_TRUE(merged->Process(0, Rows({{"b", 1, 15000}})).ok());
  EXPECT_EQ(merged->late_rows_dropped(), 1u);
}

TEST_F(SessionWindowTest, RejectsARecordedStateItCannotRead) {
  EventLog out;
  auto op = Make(&out);
  OperatorSnapshot empty;
  EXPECT_FALSE(op->RestoreState(empty).ok());
  OperatorSnapshot bad;
  bad.PutInt64("watermark", 5);
  bad.Put("session_timers", std::string("\x02\xff", 2));
  EXPECT_FALSE(op->RestoreState(bad).ok());
}

TEST_F(SessionWindowTest, RejectsRetractionsAndNullTimes) {
  EventLog out;
  auto op = Make(&out);
  ChangelogBatch retract({DataType::String(), DataType::BigInt(), DataType::Timestamp(3)});
  retract.AppendValues({Value::String("a"), Value::Int(1), Value::Int(5)}, RowKind::kDelete);
  EXPECT_EQ(op->Process(0, retract).code(), absl::StatusCode::kInvalidArgument);
  ChangelogBatch null_time({DataType::String(), DataType::BigInt(), DataType::Timestamp(3)});
  null_time.AppendValues({Value::String("a"), Value::Int(1), Value::Null()}, RowKind::kInsert);
  EXPECT_EQ(op->Process(0, null_time).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(SessionWindowTest, CreateChecksTheGapAndTheTimeColumn) {
  SessionWindowAggregateSpec spec;
  spec.input_types = {DataType::String(), DataType::BigInt(), DataType::Timestamp(3)};
  spec.group_keys = {0};
  spec.aggregates = {Call(AggKind::kCountStar)};
  spec.time_column = 2;
  spec.gap_ms = 0;
  EXPECT_FALSE(SessionWindowAggregateOperator::Create(spec).ok());
  spec.gap_ms = 10;
  spec.time_column = 1;  // BIGINT
  EXPECT_FALSE(SessionWindowAggregateOperator::Create(spec).ok());
  spec.time_column = 2;
  EXPECT_TRUE(SessionWindowAggregateOperator::Create(spec).ok());
}

}  // namespace
}  // namespace eddy
