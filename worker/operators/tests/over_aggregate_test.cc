// OverAggregateOperator, with outputs worked out by hand from Flink's event-time OVER semantics:
// bounded RANGE (peers share values, rows leaving the range retract, MIN/MAX after the extreme
// leaves), bounded ROWS (peers differ, frames of n preceding rows, 0 preceding), unbounded RANGE
// and ROWS, COUNT(*)/COUNT(x) with NULLs, SUM, AVG, MIN, MAX (and, in the randomized comparison,
// FIRST_VALUE and LAST_VALUE), several partitions in a batch (each read once), rows out of order,
// late rows (the watermark for unbounded frames, the partition's last fired time for bounded ones),
// nothing emitted before the watermark, rows fired across several watermarks, the RANGE cleanup
// timer, state bounded by the frame (read back from the store), snapshot and restore, and a
// randomized comparison with a naive evaluation of the frames.
#include "worker/operators/over_aggregate.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/hash.h"
#include "common/expr/aggregate_signature.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/over_partition_state.h"
#include "worker/operators/testing/event_log.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

using ::eddy::testing::EventLog;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr RowKind kI = RowKind::kInsert;

// (p STRING, ts TIMESTAMP(3), v BIGINT)
const std::vector<DataType> kTypes = {DataType::String(), DataType::Timestamp(3),
                                      DataType::BigInt()};

std::vector<Value> Row(const std::string& p, int64_t ts, std::optional<int64_t> v) {
  return {Value::String(p), Value::Int(ts), v ? Value::Int(*v) : Value::Null()};
}

AggregateCall Agg(AggKind kind, int arg = 2) {
  AggregateCall c;
  c.kind = kind;
  if (kind != AggKind::kCountStar) {
    c.arg = arg;
    c.arg_type = kTypes[arg];
  }
  c.result_type = *AggResultType(kind, c.arg_type);
  return c;
}

// COUNT(*), SUM(v), MIN(v), MAX(v).
std::vector<AggregateCall> CountSumMinMax() {
  return {Agg(AggKind::kCountStar), Agg(AggKind::kSum), Agg(AggKind::kMin), Agg(AggKind::kMax)};
}
// COUNT(*), SUM(v).
std::vector<AggregateCall> CountSum() { return {Agg(AggKind::kCountStar), Agg(AggKind::kSum)}; }

// PARTITION BY p ORDER BY ts.
OverAggregateSpec Spec(OverFrame frame, int64_t preceding, std::vector<AggregateCall> calls) {
  OverAggregateSpec spec;
  spec.input_types = kTypes;
  spec.partition_keys = {0};
  spec.time_column = 1;
  spec.frame = frame;
  spec.preceding = preceding;
  spec.calls = std::move(calls);
  return spec;
}

// An operator and its output.
struct Over {
  std::unique_ptr<OverAggregateOperator> op;
  EventLog out;

  // Feeds one batch of +I rows and returns what it emitted.
  std::vector<std::string> Feed(const std::vector<std::vector<Value>>& rows) {
    ChangelogBatch b(kTypes);
    for (const auto& values : rows) b.AppendValues(values, kI);
    absl::Status s = op->Process(0, b);
    EXPECT_TRUE(s.ok()) << s;
    return out.Take();
  }
  std::vector<std::string> Watermark(int64_t millis, bool idle = false) {
    absl::Status s = op->ProcessWatermark(eddy::Watermark{millis, idle});
    EXPECT_TRUE(s.ok()) << s;
    return out.Take();
  }
  std::vector<std::string> Finish() {
    absl::Status s = op->Finish();
    EXPECT_TRUE(s.ok()) << s;
    return out.Take();
  }
};

// The events of one partition ("+I[a, ..." rows), in order.
std::vector<std::string> OfPartition(const std::vector<std::string>& events, const std::string& p) {
  std::vector<std::string> rows;
  for (const std::string& e : events) {
    if (e.rfind("+I[" + p + ",", 0) == 0) rows.push_back(e);
  }
  return rows;
}

class OverAggregateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = ::testing::TempDir() + "/eddy_over_aggregate_" + std::to_string(::getpid()) + "_" +
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

  // Creates and opens an operator (a fresh state id unless `state_id` is given).
  std::unique_ptr<Over> Make(OverAggregateSpec spec, size_t state_cache_bytes = 0,
                             KeyedStateBackend* backend = nullptr, uint32_t state_id = 0) {
    auto o = std::make_unique<Over>();
    auto op = OverAggregateOperator::Create(std::move(spec));
    EXPECT_TRUE(op.ok()) << op.status();
    if (!op.ok()) return nullptr;
    OperatorContext ctx;
    ctx.state_id = state_id != 0 ? state_id : ++next_state_id_;
    ctx.state = backend != nullptr ? backend : backend_.get();
    ctx.state_cache_bytes = state_cache_bytes;
    absl::Status opened = (*op)->Open(ctx);
    EXPECT_TRUE(opened.ok()) << opened;
    o->op = std::move(op).value();
    o->op->set_output(&o->out);
    return o;
  }

  // Keys of the operator's state in the store, after writing its cache back.
  uint64_t StoredKeys(Over& o, KeyedStateBackend* backend = nullptr) {
    EXPECT_TRUE(o.op->FlushState().ok());
    if (backend == nullptr) backend = backend_.get();
    absl::StatusOr<uint64_t> n = backend->CountKeys(o.op->state_table()->state_id());
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : 0;
  }

  // The state value of partition `p` as stored (after writing the cache back), decoded; nullopt
  // when the partition has none. `partitioned` false: the operator has no partition keys.
  std::optional<std::vector<int64_t>> StoredRowTimes(Over& o, const std::string& p,
                                                     bool partitioned = true) {
    EXPECT_TRUE(o.op->FlushState().ok());
    std::string bytes;
    if (partitioned) {
      auto key_encoder = KeyEncoder::Create({DataType::String()}, {0});
      EXPECT_TRUE(key_encoder.ok());
      ChangelogBatch b({DataType::String()});
      b.AppendValues({Value::String(p)}, kI);
      bytes = key_encoder->EncodeToString(b, 0);
    }
    std::string key;
    AppendStateKey(partitioned ? KeyGroupOf(bytes, kMaxParallelism) : 0,
                   o.op->state_table()->state_id(), bytes, &key);
    const std::vector<std::string_view> keys = {key};
    StateReadResult read;
    EXPECT_TRUE(backend_->MultiGet(keys, &read).ok());
    if (!read.found(0)) return std::nullopt;
    const std::string value(read.value(0));
    OverPartitionState state;
    absl::Status s = state.Decode(value);
    EXPECT_TRUE(s.ok()) << s;
    std::vector<int64_t> times;
    for (const OverRow& r : state.rows()) times.push_back(r.time);
    return times;
  }

  std::string dir_;
  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
};

TEST_F(OverAggregateTest, CreateRejectsBadSpecs) {
  auto status = [](OverAggregateSpec spec) {
    return OverAggregateOperator::Create(std::move(spec)).status();
  };
  auto spec = [] { return Spec(OverFrame::kRange, 1000, CountSum()); };
  OverAggregateSpec s = spec();
  s.partition_keys = {3};
  EXPECT_THAT(status(s).message(),
              HasSubstr("OverAggregate: partition key column 3 out of range for an input with 3"));
  s = spec();
  s.time_column = -1;
  EXPECT_THAT(status(s).message(), HasSubstr("OverAggregate: time column -1 out of range"));
  s = spec();
  s.time_column = 2;
  EXPECT_THAT(status(s).message(),
              HasSubstr("OverAggregate: the time column 2 is BIGINT, not a TIMESTAMP(3) rowtime"));
  s = spec();
  s.input_types[1] = DataType::Timestamp(6);
  EXPECT_FALSE(status(s).ok());
  s = spec();
  s.preceding = -2;
  EXPECT_THAT(status(s).message(), HasSubstr("OverAggregate: preceding -2 is negative"));
  s = spec();
  s.calls[1].arg_type = DataType::Int();
  EXPECT_THAT(status(s).message(), HasSubstr("OverAggregate: Aggregate call 1 (SUM)"));
  s = spec();
  s.calls[1].result_type = DataType::Double();
  EXPECT_THAT(status(s).message(), HasSubstr("result type DOUBLE"));
  // Accepted: ROWS with 0 preceding (the current row only), RANGE 0 (the peers only), unbounded,
  // no partition keys, no calls, TIMESTAMP(0).
  for (auto [frame, preceding] : std::vector<std::pair<OverFrame, int64_t>>{
           {OverFrame::kRows, 0}, {OverFrame::kRange, 0}, {OverFrame::kRows, -1}}) {
    s = spec();
    s.frame = frame;
    s.preceding = preceding;
    EXPECT_TRUE(status(s).ok());
  }
  s = spec();
  s.partition_keys = {};
  s.calls = {};
  s.input_types[1] = DataType::Timestamp(0);
  EXPECT_TRUE(status(s).ok());
  auto op = OverAggregateOperator::Create(spec());
  ASSERT_TRUE(op.ok());
  EXPECT_THAT((*op)->output_types(),
              ElementsAre(kTypes[0], kTypes[1], kTypes[2], DataType::BigInt().WithNullable(false),
                          DataType::BigInt()));
}

TEST_F(OverAggregateTest, OpenNeedsAStateBackendAndProcessNeedsOpen) {
  auto op = OverAggregateOperator::Create(Spec(OverFrame::kRange, 1000, CountSum()));
  ASSERT_TRUE(op.ok());
  EXPECT_EQ((*op)->Process(0, ChangelogBatch(kTypes)).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*op)->ProcessWatermark(Watermark{1, false}).code(),
            absl::StatusCode::kFailedPrecondition);
  OperatorContext ctx;
  EXPECT_EQ((*op)->Open(ctx).code(), absl::StatusCode::kFailedPrecondition);
  ctx.state = backend_.get();
  ctx.max_parallelism = 0;
  EXPECT_FALSE((*op)->Open(ctx).ok());
}

TEST_F(OverAggregateTest, RejectsChangesNullTimesAndASecondInput) {
  auto o = Make(Spec(OverFrame::kRows, 2, CountSum()));
  ChangelogBatch b(kTypes);
  b.AppendValues(Row("a", 1000, 1), RowKind::kUpdateBefore);
  absl::Status s = o->op->Process(0, b);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("OverAggregate accepts insert-only input but received a -U"));
  ChangelogBatch nulls(kTypes);
  nulls.AppendValues({Value::String("a"), Value::Null(), Value::Int(1)}, kI);
  EXPECT_THAT(o->op->Process(0, nulls).message(),
              HasSubstr("OverAggregate: the time attribute (input column 1) is NULL"));
  EXPECT_FALSE(o->op->Process(1, ChangelogBatch(kTypes)).ok());
  EXPECT_EQ(StoredKeys(*o), 0u);
}

// RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW: the frame of a row at t is every row
// with a time in [t - 1000, t].
TEST_F(OverAggregateTest, RangeBoundedPeersShareValuesAndRowsLeavingTheRangeRetract) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto o = Make(Spec(OverFrame::kRange, 1000, CountSumMinMax()), cache);
    EXPECT_THAT(o->Feed({Row("a", 1000, 5), Row("a", 1500, 3), Row("a", 1500, 7), Row("a", 2000, 1),
                         Row("a", 2600, 4), Row("a", 3600, 2)}),
                IsEmpty());
    EXPECT_THAT(o->Watermark(999), ElementsAre("W999"));  // nothing is due yet
    // COUNT(*), SUM(v), MIN(v), MAX(v) appended.
    EXPECT_THAT(o->Watermark(1499), ElementsAre("+I[a, 1000, 5, 1, 5, 5, 5]", "W1499"));
    EXPECT_THAT(o->Watermark(2600),
                ElementsAre(
                    // Peers at 1500: the same values, over {5, 3, 7}.
                    "+I[a, 1500, 3, 3, 15, 3, 7]", "+I[a, 1500, 7, 3, 15, 3, 7]",
                    // [1000, 2000]: the row at 1000 is still in (2000 - 1000 is not > 1000).
                    "+I[a, 2000, 1, 4, 16, 1, 7]",
                    // [1600, 2600]: the rows at 1000 and 1500 left; MAX 7 left with them.
                    "+I[a, 2600, 4, 2, 5, 1, 4]", "W2600"));
    // The state keeps the rows later frames need (2000 and 2600) and the waiting one.
    EXPECT_EQ(StoredRowTimes(*o, "a"), (std::vector<int64_t>{2000, 2600, 3600}));
    // [2600, 3600]: MIN 1 left with the row at 2000.
    EXPECT_THAT(o->Finish(), ElementsAre("+I[a, 3600, 2, 2, 6, 2, 4]"));
    // Finish fired the cleanup timer (3600 + 1500 + 1) too.
    EXPECT_EQ(StoredKeys(*o), 0u);
    EXPECT_EQ(o->op->pending_timers(), 0u);
    EXPECT_EQ(o->op->late_rows_dropped(), 0u);
    EXPECT_EQ(o->op->rows_in(), 6u);
    EXPECT_EQ(o->op->rows_out(), 6u);
  }
}

// ROWS BETWEEN 2 PRECEDING AND CURRENT ROW: the row and the 2 before it by (time, arrival).
TEST_F(OverAggregateTest, RowsBoundedGiveEqualTimesDifferentValues) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto o = Make(Spec(OverFrame::kRows, 2, CountSumMinMax()), cache);
    // Out of order within the batch: 1500 arrives last.
    EXPECT_THAT(o->Feed({Row("a", 1000, 5), Row("a", 2000, 3), Row("a", 2000, 8), Row("a", 2000, 1),
                         Row("a", 3000, 6), Row("a", 1500, 9)}),
                IsEmpty());
    EXPECT_THAT(o->Watermark(2000),
                ElementsAre("+I[a, 1000, 5, 1, 5, 5, 5]",   // {5}
                            "+I[a, 1500, 9, 2, 14, 5, 9]",  // {5, 9}
                            "+I[a, 2000, 3, 3, 17, 3, 9]",  // {5, 9, 3}
                            "+I[a, 2000, 8, 3, 20, 3, 9]",  // {9, 3, 8}
                            "+I[a, 2000, 1, 3, 12, 1, 8]",  // {3, 8, 1}: MAX 9 left
                            "W2000"));
    EXPECT_EQ(StoredRowTimes(*o, "a"), (std::vector<int64_t>{2000, 2000, 2000, 3000}));
    EXPECT_THAT(o->Watermark(3000), ElementsAre("+I[a, 3000, 6, 3, 15, 1, 8]", "W3000"));
    // The last 3 fired rows stay for the next frames.
    EXPECT_EQ(StoredRowTimes(*o, "a"), (std::vector<int64_t>{2000, 2000, 3000}));
    EXPECT_THAT(o->Feed({Row("a", 4000, 2)}), IsEmpty());
    // {1, 6, 2}: MAX 8 left.
    EXPECT_THAT(o->Watermark(4000), ElementsAre("+I[a, 4000, 2, 3, 9, 1, 6]", "W4000"));
    EXPECT_EQ(StoredRowTimes(*o, "a"), (std::vector<int64_t>{2000, 3000, 4000}));
    // Nothing expires in a ROWS frame: Finish leaves the state.
    EXPECT_THAT(o->Finish(), IsEmpty());
    EXPECT_EQ(StoredKeys(*o), 1u);
  }
}

// ROWS BETWEEN CURRENT ROW AND CURRENT ROW (0 preceding): each row alone.
TEST_F(OverAggregateTest, RowsWithZeroPrecedingAggregateTheCurrentRowOnly) {
  auto o = Make(Spec(OverFrame::kRows, 0, CountSumMinMax()));
  o->Feed({Row("a", 1000, 5), Row("a", 1000, 3), Row("a", 2000, 4)});
  EXPECT_THAT(o->Watermark(2000),
              ElementsAre("+I[a, 1000, 5, 1, 5, 5, 5]", "+I[a, 1000, 3, 1, 3, 3, 3]",
                          "+I[a, 2000, 4, 1, 4, 4, 4]", "W2000"));
  EXPECT_EQ(StoredRowTimes(*o, "a"), (std::vector<int64_t>{2000}));
}

// RANGE with 0 preceding: the frame is the row's peers.
TEST_F(OverAggregateTest, RangeWithZeroPrecedingAggregatesThePeers) {
  auto o = Make(Spec(OverFrame::kRange, 0, CountSumMinMax()));
  o->Feed({Row("a", 1000, 5), Row("a", 1000, 3), Row("a", 1001, 4)});
  EXPECT_THAT(o->Watermark(2000),
              ElementsAre("+I[a, 1000, 5, 2, 8, 3, 5]", "+I[a, 1000, 3, 2, 8, 3, 5]",
                          "+I[a, 1001, 4, 1, 4, 4, 4]", "W2000"));
}

// COUNT(*), SUM, AVG, MIN, MAX with an unbounded frame; rows arrive out of order across batches.
std::vector<AggregateCall> CountSumAvgMinMax() {
  return {Agg(AggKind::kCountStar), Agg(AggKind::kSum), Agg(AggKind::kAvg), Agg(AggKind::kMin),
          Agg(AggKind::kMax)};
}

TEST_F(OverAggregateTest, UnboundedRangeGivesPeersTheSameValues) {
  auto o = Make(Spec(OverFrame::kRange, kUnboundedPreceding, CountSumAvgMinMax()));
  EXPECT_THAT(o->Feed({Row("a", 3000, 8), Row("a", 1000, 4)}), IsEmpty());
  EXPECT_THAT(o->Feed({Row("a", 2000, 6), Row("a", 2000, 2)}), IsEmpty());
  EXPECT_THAT(
      o->Watermark(5000),
      ElementsAre("+I[a, 1000, 4, 1, 4, 4, 4, 4]", "+I[a, 2000, 6, 3, 12, 4, 2, 6]",
                  "+I[a, 2000, 2, 3, 12, 4, 2, 6]", "+I[a, 3000, 8, 4, 20, 5, 2, 8]", "W5000"));
  // Only the accumulators stay.
  EXPECT_EQ(StoredRowTimes(*o, "a"), std::vector<int64_t>{});
  // Late: at or before the watermark.
  EXPECT_THAT(o->Feed({Row("a", 5000, 1), Row("a", 4000, 1), Row("a", 5001, 10)}), IsEmpty());
  EXPECT_EQ(o->op->late_rows_dropped(), 2u);
  EXPECT_THAT(o->Watermark(6000), ElementsAre("+I[a, 5001, 10, 5, 30, 6, 2, 10]", "W6000"));
}

TEST_F(OverAggregateTest, UnboundedRowsGivePeersDifferentValues) {
  auto o = Make(Spec(OverFrame::kRows, kUnboundedPreceding, CountSumAvgMinMax()));
  o->Feed({Row("a", 3000, 8), Row("a", 1000, 4)});
  o->Feed({Row("a", 2000, 6), Row("a", 2000, 2)});
  EXPECT_THAT(o->Watermark(2500),
              ElementsAre("+I[a, 1000, 4, 1, 4, 4, 4, 4]", "+I[a, 2000, 6, 2, 10, 5, 4, 6]",
                          "+I[a, 2000, 2, 3, 12, 4, 2, 6]", "W2500"));
  EXPECT_EQ(StoredRowTimes(*o, "a"), (std::vector<int64_t>{3000}));
  EXPECT_THAT(o->Feed({Row("a", 2500, 7), Row("a", 2600, 1)}), IsEmpty());
  EXPECT_EQ(o->op->late_rows_dropped(), 1u);
  EXPECT_THAT(o->Watermark(3000), ElementsAre("+I[a, 2600, 1, 4, 13, 3, 1, 6]",
                                              "+I[a, 3000, 8, 5, 21, 4, 1, 8]", "W3000"));
}

// Flink's unbounded functions set their timer at watermark + 1, but never below 0: rows before the
// epoch wait for a watermark >= 0.
TEST_F(OverAggregateTest, UnboundedRowsBeforeTheEpochWaitForAWatermarkOfZero) {
  auto o = Make(Spec(OverFrame::kRows, kUnboundedPreceding, CountSum()));
  o->Feed({Row("a", -500, 1)});
  EXPECT_THAT(o->Watermark(-100), ElementsAre("W-100"));
  const std::vector<std::string> fired = o->Watermark(0);
  ASSERT_EQ(fired.size(), 2u);
  EXPECT_THAT(fired[0], HasSubstr("23:59:59.500, 1, 1, 1]"));
  EXPECT_EQ(fired[1], "W0");
}

TEST_F(OverAggregateTest, CountOfAColumnSkipsNullsAsSumAvgMinAndMaxDo) {
  // ROWS 1 PRECEDING: COUNT(*), COUNT(v), SUM(v), AVG(v), MIN(v), MAX(v).
  std::vector<AggregateCall> calls = CountSumAvgMinMax();
  calls.insert(calls.begin() + 1, Agg(AggKind::kCount));
  auto o = Make(Spec(OverFrame::kRows, 1, calls));
  o->Feed({Row("a", 1000, std::nullopt), Row("a", 2000, 4), Row("a", 3000, std::nullopt),
           Row("a", 4000, std::nullopt), Row("a", 5000, 7), Row("a", 5000, 2)});
  EXPECT_THAT(o->Finish(),
              ElementsAre("+I[a, 1000, null, 1, 0, null, null, null, null]",  // {null}
                          "+I[a, 2000, 4, 2, 1, 4, 4, 4, 4]",                 // {null, 4}
                          "+I[a, 3000, null, 2, 1, 4, 4, 4, 4]",              // {4, null}
                          "+I[a, 4000, null, 2, 0, null, null, null, null]",  // {null, null}
                          "+I[a, 5000, 7, 2, 1, 7, 7, 7, 7]",                 // {null, 7}
                          "+I[a, 5000, 2, 2, 2, 9, 4, 2, 7]"));               // {7, 2}: AVG 9/2
}

// DISTINCT calls count a value once while any copy of it is in the frame.
TEST_F(OverAggregateTest, DistinctCallsInABoundedFrame) {
  AggregateCall count_distinct = Agg(AggKind::kCount);
  count_distinct.distinct = true;
  AggregateCall sum_distinct = Agg(AggKind::kSum);
  sum_distinct.distinct = true;
  auto o = Make(Spec(OverFrame::kRows, 2, {count_distinct, sum_distinct}));
  o->Feed({Row("a", 1000, 5), Row("a", 2000, 5), Row("a", 3000, 3), Row("a", 4000, 5),
           Row("a", 5000, 3), Row("a", 6000, 1)});
  EXPECT_THAT(o->Finish(), ElementsAre("+I[a, 1000, 5, 1, 5]",    // {5}
                                       "+I[a, 2000, 5, 1, 5]",    // {5, 5}
                                       "+I[a, 3000, 3, 2, 8]",    // {5, 5, 3}
                                       "+I[a, 4000, 5, 2, 8]",    // {5, 3, 5}
                                       "+I[a, 5000, 3, 2, 8]",    // {3, 5, 3}
                                       "+I[a, 6000, 1, 3, 9]"));  // {5, 3, 1}
}

TEST_F(OverAggregateTest, SeveralPartitionsInABatchAreEachReadOnce) {
  auto o = Make(Spec(OverFrame::kRange, 1000, CountSum()));
  const KeyedStateTable::Stats before = o->op->state_table()->stats();
  o->Feed({Row("a", 1000, 1), Row("b", 1000, 10), Row("a", 2000, 2), Row("b", 1500, 20),
           Row("b", 3000, 30), Row("a", 2500, 3)});
  const KeyedStateTable::Stats read = o->op->state_table()->stats();
  EXPECT_EQ(read.multiget_calls - before.multiget_calls, 1u);
  EXPECT_EQ(read.keys_read - before.keys_read, 2u);
  EXPECT_EQ(read.commits - before.commits, 1u);
  EXPECT_EQ(read.keys_written - before.keys_written, 2u);
  EXPECT_EQ(o->op->pending_timers(), 2u);
  const std::vector<std::string> fired = o->Watermark(5000);
  // One read and one write of both partitions for the watermark.
  const KeyedStateTable::Stats after = o->op->state_table()->stats();
  EXPECT_EQ(after.multiget_calls - read.multiget_calls, 1u);
  EXPECT_EQ(after.commits - read.commits, 1u);
  ASSERT_EQ(fired.size(), 7u);
  EXPECT_EQ(fired.back(), "W5000");
  EXPECT_THAT(OfPartition(fired, "a"), ElementsAre("+I[a, 1000, 1, 1, 1]", "+I[a, 2000, 2, 2, 3]",
                                                   // [1500, 2500]: the row at 1000 left.
                                                   "+I[a, 2500, 3, 2, 5]"));
  EXPECT_THAT(OfPartition(fired, "b"),
              ElementsAre("+I[b, 1000, 10, 1, 10]", "+I[b, 1500, 20, 2, 30]",
                          // [2000, 3000]: both earlier rows left.
                          "+I[b, 3000, 30, 1, 30]"));
  EXPECT_EQ(o->out.batches, 1);  // one output batch
}

// A bounded frame's late check is Flink's: a row is late when its time is at or before the last
// timer its partition fired (0 at first), not the watermark; a row behind the watermark but after
// that time waits for the next watermark.
TEST_F(OverAggregateTest, BoundedFramesJudgeLatenessByThePartitionsLastFiredTime) {
  auto o = Make(Spec(OverFrame::kRange, 1000, CountSum()));
  // Time 0 is at or before the initial last-fired time 0: late.
  EXPECT_THAT(o->Feed({Row("a", 0, 7), Row("a", 1000, 1), Row("a", 2000, 2)}), IsEmpty());
  EXPECT_EQ(o->op->late_rows_dropped(), 1u);
  EXPECT_THAT(o->Watermark(1500), ElementsAre("+I[a, 1000, 1, 1, 1]", "W1500"));
  // a fired 1000: rows at or before it are late; 1200 is behind the watermark but kept. b never
  // fired: its row at 1400 is kept.
  EXPECT_THAT(
      o->Feed({Row("a", 1000, 10), Row("a", 1200, 20), Row("a", 900, 5), Row("b", 1400, 100)}),
      IsEmpty());
  EXPECT_EQ(o->op->late_rows_dropped(), 3u);
  // The next watermark fires them, in time order: [200, 1200] holds the rows at 1000 and 1200.
  EXPECT_THAT(o->Watermark(1600),
              ElementsAre("+I[a, 1200, 20, 2, 21]", "+I[b, 1400, 100, 1, 100]", "W1600"));
  // [1000, 2000].
  EXPECT_THAT(o->Finish(), ElementsAre("+I[a, 2000, 2, 3, 23]"));
}

// Flink's RANGE function drops a partition's whole state when the watermark passes its cleanup
// time (the last row's time + 1.5 * preceding + 1, moved only by rows that need it): the rows, the
// accumulators and the last-fired time, so that a row arriving later starts from nothing.
TEST_F(OverAggregateTest, RangeCleanupTimerDropsThePartitionState) {
  auto o = Make(Spec(OverFrame::kRange, 1000, CountSum()));
  o->Feed({Row("a", 1000, 1)});
  EXPECT_THAT(o->Watermark(2500), ElementsAre("+I[a, 1000, 1, 1, 1]", "W2500"));
  EXPECT_EQ(StoredRowTimes(*o, "a"), (std::vector<int64_t>{1000}));
  EXPECT_EQ(o->op->pending_timers(), 1u);  // the cleanup timer at 2501
  EXPECT_THAT(o->Watermark(2501), ElementsAre("W2501"));
  EXPECT_EQ(StoredKeys(*o), 0u);
  EXPECT_EQ(o->op->pending_timers(), 0u);
  // The last-fired time is gone with the state: 1100 is not late any more.
  o->Feed({Row("a", 1100, 5)});
  EXPECT_EQ(o->op->late_rows_dropped(), 0u);
  EXPECT_THAT(o->Watermark(2600), ElementsAre("+I[a, 1100, 5, 1, 5]", "W2600"));
}

// A row moves the cleanup time only when it would come too early for it (before time + preceding +
// 1); earlier cleanup timers still fire (setting the last-fired time) but drop nothing.
TEST_F(OverAggregateTest, RangeCleanupTimeMovesWithLaterRows) {
  auto o = Make(Spec(OverFrame::kRange, 1000, CountSum()));
  o->Feed({Row("a", 1000, 1), Row("a", 1400, 2), Row("a", 2200, 3)});
  // Cleanup at 2501 (row 1000; row 1400 needs only 2401), then 3701 (row 2200 needs 3201).
  EXPECT_THAT(o->Watermark(2600), ElementsAre("+I[a, 1000, 1, 1, 1]", "+I[a, 1400, 2, 2, 3]",
                                              "+I[a, 2200, 3, 2, 5]", "W2600"));
  EXPECT_EQ(StoredRowTimes(*o, "a"), (std::vector<int64_t>{1400, 2200}));
  // The timer at 2501 fired after the row at 2200: the last-fired time is 2501, so 2450 is late.
  // 2800 is not, and moves the cleanup time to 4301.
  o->Feed({Row("a", 2450, 9), Row("a", 2800, 4)});
  EXPECT_EQ(o->op->late_rows_dropped(), 1u);
  // [1800, 2800]; the timer at 3701 drops nothing.
  EXPECT_THAT(o->Watermark(3701), ElementsAre("+I[a, 2800, 4, 2, 7]", "W3701"));
  EXPECT_EQ(StoredRowTimes(*o, "a"), (std::vector<int64_t>{2200, 2800}));
  EXPECT_THAT(o->Watermark(4300), ElementsAre("W4300"));
  EXPECT_EQ(StoredKeys(*o), 1u);
  EXPECT_THAT(o->Watermark(4301), ElementsAre("W4301"));
  EXPECT_EQ(StoredKeys(*o), 0u);
}

TEST_F(OverAggregateTest, WatermarksGoOnAfterTheirRowsAndIdleOnesFireNothing) {
  auto o = Make(Spec(OverFrame::kRows, kUnboundedPreceding, CountSum()));
  o->Feed({Row("a", 1000, 1)});
  EXPECT_THAT(o->Watermark(2000, /*idle=*/true), ElementsAre("W2000 idle"));
  EXPECT_THAT(o->Watermark(900), ElementsAre("W900"));
  EXPECT_THAT(o->Watermark(1000), ElementsAre("+I[a, 1000, 1, 1, 1]", "W1000"));
  EXPECT_THAT(o->Watermark(1000), ElementsAre("W1000"));  // no advance: nothing more
  EXPECT_EQ(o->op->current_watermark(), 1000);
}

// After many rows, a 1-second RANGE keeps only the rows within a second of the latest fired one
// (read back from the store); a ROWS frame keeps preceding + 1 rows, an unbounded one none.
TEST_F(OverAggregateTest, StateStaysBoundedByTheFrame) {
  struct Case {
    OverFrame frame;
    int64_t preceding;
    size_t stored_rows;
    int64_t last_count;
  };
  for (const Case& c : {Case{OverFrame::kRange, 1000, 101, 101}, Case{OverFrame::kRows, 5, 6, 6},
                        Case{OverFrame::kRows, kUnboundedPreceding, 0, 3000}}) {
    SCOPED_TRACE(c.stored_rows);
    OverAggregateSpec spec = Spec(c.frame, c.preceding, CountSum());
    spec.partition_keys = {};
    auto o = Make(std::move(spec), size_t{1} << 20);
    // 3000 rows 10 ms apart from 1000 ms on, a watermark after every 100.
    int64_t t = 1000;
    size_t emitted = 0;
    std::string last;
    for (int b = 0; b < 30; ++b) {
      std::vector<std::vector<Value>> rows;
      for (int i = 0; i < 100; ++i, t += 10) rows.push_back(Row("a", t, 1));
      o->Feed(rows);
      const std::vector<std::string> fired = o->Watermark(t - 10);
      emitted += fired.size() - 1;
      last = fired[fired.size() - 2];
      std::optional<std::vector<int64_t>> stored = StoredRowTimes(*o, "", false);
      ASSERT_TRUE(stored.has_value());
      if (b >= 2) {
        ASSERT_EQ(stored->size(), c.stored_rows);
        if (!stored->empty()) {
          EXPECT_EQ(stored->back(), t - 10);
        }
        if (c.frame == OverFrame::kRange) {
          EXPECT_EQ(stored->front(), t - 10 - 1000);
        }
      }
    }
    EXPECT_EQ(emitted, 3000u);
    EXPECT_EQ(last, absl::StrCat("+I[a, ", t - 10, ", 1, ", c.last_count, ", ", c.last_count, "]"));
    EXPECT_GT(o->op->state_bytes_in_memory(), 0u);
    EXPECT_LT(o->op->state_bytes_in_memory(), 64u * 1024);
  }
}

// A checkpoint (SnapshotState plus a snapshot of the store) after a watermark fired some rows: an
// operator restored from it fires exactly the rows the first had not fired, with the same frames
// (the fired rows still in them come from the store), and sees nothing of what came after.
TEST_F(OverAggregateTest, RestoredOperatorFiresExactlyTheRest) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto o = Make(Spec(OverFrame::kRange, 1000, CountSum()), cache);
    const uint32_t state_id = o->op->state_table()->state_id();
    o->Feed({Row("a", 1000, 1), Row("a", 2000, 2), Row("b", 1500, 10), Row("a", 3000, 3),
             Row("b", 4000, 40)});
    EXPECT_THAT(o->Watermark(2000), ElementsAre("+I[a, 1000, 1, 1, 1]", "+I[a, 2000, 2, 2, 3]",
                                                "+I[b, 1500, 10, 1, 10]", "W2000"));
    OperatorSnapshot snapshot;
    ASSERT_TRUE(o->op->SnapshotState(1, &snapshot).ok());
    EXPECT_THAT(o->out.Take(), IsEmpty());  // a snapshot emits nothing
    const std::string chk = absl::StrCat(dir_, "/chk-", cache);
    ASSERT_TRUE(backend_->Snapshot(chk).ok());

    // What follows the checkpoint, and what it must give (the same for both instances).
    const std::vector<std::vector<Value>> rest = {Row("a", 3500, 5), Row("b", 4500, 50)};
    const std::vector<std::string> expected = {"+I[a, 3000, 3, 2, 5]",    // [2000, 3000]
                                               "+I[a, 3500, 5, 2, 8]",    // [2500, 3500]
                                               "+I[b, 4000, 40, 1, 40]",  // [3000, 4000]
                                               "+I[b, 4500, 50, 2, 90]",  // [3500, 4500]
                                               "W5000"};
    EXPECT_THAT(o->Feed(rest), IsEmpty());
    EXPECT_THAT(o->Watermark(5000), ElementsAreArray(expected));

    auto restored = KeyedStateBackend::OpenFromSnapshot(
        chk, absl::StrCat(dir_, "/restored-", cache), std::make_shared<SharedStateResources>());
    ASSERT_TRUE(restored.ok()) << restored.status();
    auto again = Make(Spec(OverFrame::kRange, 1000, CountSum()), cache, restored->get(), state_id);
    ASSERT_TRUE(again->op->RestoreState(snapshot).ok());
    EXPECT_EQ(again->op->current_watermark(), 2000);
    EXPECT_EQ(again->op->pending_timers(), 2u);
    EXPECT_THAT(again->Feed(rest), IsEmpty());
    EXPECT_THAT(again->Watermark(5000), ElementsAreArray(expected));
    EXPECT_THAT(again->Finish(), IsEmpty());
    // A malformed snapshot is refused.
    OperatorSnapshot bad;
    bad.Put("timers", "\x01");
    EXPECT_FALSE(again->op->RestoreState(bad).ok());
    again.reset();
    restored->reset();
  }
}

// The same on one store: the first instance stops at the checkpoint, a fresh one restores on the
// same store and goes on; an unbounded frame's late check uses the restored watermark.
TEST_F(OverAggregateTest, FreshInstanceOnTheSameStoreGoesOnFromTheCheckpoint) {
  auto o = Make(Spec(OverFrame::kRows, kUnboundedPreceding, CountSum()), size_t{1} << 20);
  const uint32_t state_id = o->op->state_table()->state_id();
  o->Feed({Row("a", 1000, 1), Row("a", 2000, 2), Row("a", 3000, 3)});
  EXPECT_THAT(o->Watermark(2000),
              ElementsAre("+I[a, 1000, 1, 1, 1]", "+I[a, 2000, 2, 2, 3]", "W2000"));
  OperatorSnapshot snapshot;
  ASSERT_TRUE(o->op->SnapshotState(1, &snapshot).ok());
  ASSERT_TRUE(o->op->Close().ok());
  o.reset();

  auto again =
      Make(Spec(OverFrame::kRows, kUnboundedPreceding, CountSum()), 0, backend_.get(), state_id);
  ASSERT_TRUE(again->op->RestoreState(snapshot).ok());
  EXPECT_THAT(again->Feed({Row("a", 1500, 9), Row("a", 2500, 4)}), IsEmpty());
  EXPECT_EQ(again->op->late_rows_dropped(), 1u);  // 1500 <= the restored watermark 2000
  EXPECT_THAT(again->Watermark(3000),
              ElementsAre("+I[a, 2500, 4, 3, 7]", "+I[a, 3000, 3, 4, 10]", "W3000"));
}

// --- State retention (table.exec.state.ttl) on an injected clock.

class OverAggregateRetentionTest : public OverAggregateTest {
 protected:
  void SetUp() override {
    OverAggregateTest::SetUp();
    StateBackendOptions options;
    options.now_ms = [this] { return now_ms_.load(); };
    auto b = KeyedStateBackend::Open(dir_ + "/clocked", options);
    ASSERT_TRUE(b.ok()) << b.status();
    clocked_ = std::move(b).value();
  }
  void TearDown() override {
    clocked_.reset();
    OverAggregateTest::TearDown();
  }
  std::unique_ptr<Over> MakeWithTtl(OverFrame frame, int64_t preceding, int64_t ttl_ms,
                                    uint32_t state_id = 0) {
    OverAggregateSpec spec = Spec(frame, preceding, CountSum());
    spec.state_ttl_ms = ttl_ms;
    return Make(std::move(spec), 0, clocked_.get(), state_id);
  }
  void Tick(Over& o) {
    absl::Status s = o.op->OnTick(std::chrono::steady_clock::now());
    EXPECT_TRUE(s.ok()) << s;
  }
  // Keys of the operator's state in the clocked store.
  uint64_t Keys(Over& o) { return StoredKeys(o, clocked_.get()); }

  std::atomic<int64_t> now_ms_{1000000};
  std::unique_ptr<KeyedStateBackend> clocked_;
};

// Flink's cleanup timer: at now + 1.5 T after a row or a firing (moved only when it would come
// before now + T); a partition without waiting rows is then dropped, last-fired time included.
TEST_F(OverAggregateRetentionTest, IdlePartitionsAreDroppedAndStartOver) {
  auto o = MakeWithTtl(OverFrame::kRows, 1, 1000);
  o->Feed({Row("a", 1000, 1), Row("a", 2000, 2)});  // a's timer at 1001500
  EXPECT_THAT(o->Watermark(2000),
              ElementsAre("+I[a, 1000, 1, 1, 1]", "+I[a, 2000, 2, 2, 3]", "W2000"));
  EXPECT_EQ(o->op->retention_timers(), 1u);
  now_ms_ += 1499;
  Tick(*o);
  EXPECT_EQ(Keys(*o), 1u);
  o->Feed({Row("b", 3000, 5)});  // b's timer at 1002999
  EXPECT_THAT(o->Watermark(3000), ElementsAre("+I[b, 3000, 5, 1, 5]", "W3000"));
  now_ms_ += 1;
  Tick(*o);
  EXPECT_EQ(Keys(*o), 1u);  // a is gone, b stays
  EXPECT_EQ(o->op->retention_timers(), 1u);
  // a forgot its last-fired time (2000): a row at 1500 is not late, and its frame is new.
  o->Feed({Row("a", 1500, 7)});
  EXPECT_EQ(o->op->late_rows_dropped(), 0u);
  EXPECT_THAT(o->Watermark(3100), ElementsAre("+I[a, 1500, 7, 1, 7]", "W3100"));
}

TEST_F(OverAggregateRetentionTest, PartitionsWithWaitingRowsAreKept) {
  auto o = MakeWithTtl(OverFrame::kRows, kUnboundedPreceding, 1000);
  o->Feed({Row("c", 5000, 1)});
  now_ms_ += 2000;
  Tick(*o);  // the timer fired, but a row waits for the watermark: it moves to now + 1500
  EXPECT_EQ(Keys(*o), 1u);
  EXPECT_EQ(o->op->retention_timers(), 1u);
  EXPECT_THAT(o->Watermark(5000), ElementsAre("+I[c, 5000, 1, 1, 1]", "W5000"));
  now_ms_ += 1500;
  Tick(*o);
  EXPECT_EQ(Keys(*o), 0u);
  EXPECT_EQ(o->op->retention_timers(), 0u);
}

// Flink registers the cleanup timer before its late check: a late row keeps its partition alive.
// The retention timers are part of a checkpoint.
TEST_F(OverAggregateRetentionTest, LateRowsRefreshTheTimerWhichSurvivesARestore) {
  auto o = MakeWithTtl(OverFrame::kRows, kUnboundedPreceding, 1000);
  const uint32_t state_id = o->op->state_table()->state_id();
  o->Feed({Row("a", 1000, 1)});  // timer at 1001500
  EXPECT_THAT(o->Watermark(1000), ElementsAre("+I[a, 1000, 1, 1, 1]", "W1000"));
  now_ms_ += 600;
  o->Feed({Row("a", 900, 9)});  // late; 1000600 + 1000 > 1001500: the timer moves to 1002100
  EXPECT_EQ(o->op->late_rows_dropped(), 1u);
  OperatorSnapshot snapshot;
  ASSERT_TRUE(o->op->SnapshotState(1, &snapshot).ok());
  ASSERT_TRUE(o->op->Close().ok());
  o = MakeWithTtl(OverFrame::kRows, kUnboundedPreceding, 1000, state_id);
  ASSERT_TRUE(o->op->RestoreState(snapshot).ok());
  EXPECT_EQ(o->op->retention_timers(), 1u);
  now_ms_ = 1001500;
  Tick(*o);
  EXPECT_EQ(Keys(*o), 1u);
  now_ms_ = 1002100;
  Tick(*o);
  EXPECT_EQ(Keys(*o), 0u);
  // The accumulators went with it.
  o->Feed({Row("a", 2000, 3)});
  EXPECT_THAT(o->Watermark(2000), ElementsAre("+I[a, 2000, 3, 1, 3]", "W2000"));
}

// Flink's bounded RANGE function has no retention: its own cleanup timer bounds the state.
TEST_F(OverAggregateRetentionTest, BoundedRangeIgnoresTheTtl) {
  auto o = MakeWithTtl(OverFrame::kRange, 1000, 1000);
  o->Feed({Row("a", 1000, 1)});
  EXPECT_THAT(o->Watermark(1000), ElementsAre("+I[a, 1000, 1, 1, 1]", "W1000"));
  EXPECT_EQ(o->op->retention_timers(), 0u);
  now_ms_ += 100000;
  Tick(*o);
  EXPECT_EQ(Keys(*o), 1u);
  EXPECT_FALSE(OverAggregateOperator::Create([] {
                 OverAggregateSpec spec = Spec(OverFrame::kRows, 1, CountSum());
                 spec.state_ttl_ms = -1;
                 return spec;
               }())
                   .ok());
}

// --- Randomized: rows that are never late, several partitions, random batches, watermarks and a
// checkpoint/restore in the middle, against a naive evaluation of every row's frame.

struct ModelRow {
  std::string p;
  int64_t time;
  std::optional<int64_t> v;
  int64_t seq;  // arrival order
};

// "+I[p, time, v, COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v), FIRST_VALUE(v), LAST_VALUE(v)]" of
// `rows[i]` over `frame` (in (time, arrival) order).
std::string Expected(const ModelRow& r, const std::vector<const ModelRow*>& frame) {
  int64_t count = 0, sum = 0;
  std::optional<int64_t> min, max, first, last;
  for (const ModelRow* f : frame) {
    if (!f->v) continue;
    ++count;
    sum += *f->v;
    min = min ? std::min(*min, *f->v) : *f->v;
    max = max ? std::max(*max, *f->v) : *f->v;
    if (!first) first = f->v;
    last = f->v;
  }
  auto str = [](std::optional<int64_t> x) { return x ? std::to_string(*x) : std::string("null"); };
  return absl::StrCat("+I[", r.p, ", ", r.time, ", ", str(r.v), ", ", frame.size(), ", ", count,
                      ", ", count > 0 ? std::to_string(sum) : "null", ", ", str(min), ", ",
                      str(max), ", ", str(first), ", ", str(last), "]");
}

// Every row of one partition with its naive frame, in (time, arrival) order.
std::vector<std::string> NaiveOutput(std::vector<ModelRow> rows, OverFrame frame,
                                     int64_t preceding) {
  std::stable_sort(rows.begin(), rows.end(),
                   [](const ModelRow& a, const ModelRow& b) { return a.time < b.time; });
  std::vector<std::string> out;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<const ModelRow*> in_frame;
    for (size_t j = 0; j < rows.size(); ++j) {
      bool in = false;
      if (frame == OverFrame::kRows) {
        in = j <= i && (preceding < 0 || i - j <= static_cast<size_t>(preceding));
      } else {
        in = rows[j].time <= rows[i].time &&
             (preceding < 0 || rows[i].time - rows[j].time <= preceding);
      }
      if (in) in_frame.push_back(&rows[j]);
    }
    out.push_back(Expected(rows[i], in_frame));
  }
  return out;
}

TEST_F(OverAggregateTest, RandomRunsAgainstNaiveFrames) {
  struct Case {
    OverFrame frame;
    int64_t preceding;
  };
  const std::vector<Case> cases = {{OverFrame::kRange, 300}, {OverFrame::kRange, 0},
                                   {OverFrame::kRows, 3},    {OverFrame::kRows, 0},
                                   {OverFrame::kRange, -1},  {OverFrame::kRows, -1}};
  std::vector<AggregateCall> calls = {Agg(AggKind::kCountStar), Agg(AggKind::kCount),
                                      Agg(AggKind::kSum),       Agg(AggKind::kMin),
                                      Agg(AggKind::kMax),       Agg(AggKind::kFirstValue),
                                      Agg(AggKind::kLastValue)};
  int run = 0;
  for (const Case& c : cases) {
    for (int seed = 1; seed <= 4; ++seed, ++run) {
      SCOPED_TRACE(absl::StrCat("preceding ", c.preceding, " rows ", c.frame == OverFrame::kRows,
                                " seed ", seed));
      std::mt19937 rng(static_cast<uint32_t>(seed * 7919 + run));
      const size_t cache = seed % 2 == 0 ? size_t{1} << 16 : 0;
      auto o = Make(Spec(c.frame, c.preceding, calls), cache);
      const uint32_t state_id = o->op->state_table()->state_id();
      std::unique_ptr<KeyedStateBackend> restored;
      std::map<std::string, std::vector<ModelRow>> model;
      std::vector<std::string> events;
      int64_t watermark = 500, seq = 0, late = 0;
      const int steps = 60;
      const int checkpoint_at = 10 + static_cast<int>(rng() % 40);
      for (const std::string& e : o->Watermark(watermark)) events.push_back(e);
      for (int step = 0; step < steps; ++step) {
        std::vector<std::vector<Value>> batch;
        const int n = static_cast<int>(rng() % 12);
        for (int i = 0; i < n; ++i) {
          ModelRow r;
          r.p = std::string(1, static_cast<char>('a' + rng() % 3));
          r.v = rng() % 5 == 0 ? std::nullopt : std::optional<int64_t>(rng() % 100);
          r.seq = seq++;
          // Unbounded frames also get late rows (at or before the watermark), which are dropped.
          if (c.preceding < 0 && rng() % 6 == 0) {
            r.time = watermark - static_cast<int64_t>(rng() % 200);
            ++late;
          } else {
            r.time = watermark + 1 + static_cast<int64_t>(rng() % 400);
            model[r.p].push_back(r);
          }
          batch.push_back(Row(r.p, r.time, r.v));
        }
        for (const std::string& e : o->Feed(batch)) events.push_back(e);
        if (rng() % 3 == 0) {
          watermark += static_cast<int64_t>(rng() % 300);
          for (const std::string& e : o->Watermark(watermark)) events.push_back(e);
        }
        if (step == checkpoint_at) {
          // Checkpoint, then go on with an operator restored from it (the first one is dropped).
          OperatorSnapshot snapshot;
          ASSERT_TRUE(o->op->SnapshotState(step, &snapshot).ok());
          const std::string chk = absl::StrCat(dir_, "/chk-", run);
          ASSERT_TRUE(backend_->Snapshot(chk).ok());
          auto opened = KeyedStateBackend::OpenFromSnapshot(
              chk, absl::StrCat(dir_, "/restored-", run), std::make_shared<SharedStateResources>());
          ASSERT_TRUE(opened.ok()) << opened.status();
          const uint64_t late_before = o->op->late_rows_dropped();
          late -= static_cast<int64_t>(late_before);
          o = Make(Spec(c.frame, c.preceding, calls), cache, opened->get(), state_id);
          restored = std::move(opened).value();
          ASSERT_TRUE(o->op->RestoreState(snapshot).ok());
        }
      }
      for (const std::string& e : o->Finish()) events.push_back(e);
      EXPECT_EQ(static_cast<int64_t>(o->op->late_rows_dropped()), late);
      for (const auto& [p, rows] : model) {
        SCOPED_TRACE(p);
        std::vector<std::string> got;
        for (const std::string& e : OfPartition(events, p)) got.push_back(e);
        EXPECT_EQ(got, NaiveOutput(rows, c.frame, c.preceding));
      }
      o.reset();
      restored.reset();
    }
  }
}

}  // namespace
}  // namespace eddy
