// FIRST_VALUE, LAST_VALUE and LISTAGG, the aggregates whose result depends on arrival order, in
// every operator that runs aggregate calls: GroupAggregate over insert-only and retracting input
// (retracting the current first or last value falls back to the next one, retracting a middle
// LISTAGG value removes the earliest equal one), DISTINCT, state serialization (one row per
// batch), two-phase LISTAGG, window aggregates (in memory and in RocksDB), merging sessions and
// bounded and unbounded OVER frames. Every expected row is worked out by hand.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/accumulator.h"
#include "worker/operators/group_aggregate.h"
#include "worker/operators/local_group_aggregate.h"
#include "worker/operators/over_aggregate.h"
#include "worker/operators/session_window_aggregate.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/operators/testing/event_log.h"
#include "worker/operators/window_aggregate.h"
#include "worker/state/keyed_state_backend.h"

namespace eddy {
namespace {

using testing::CollectingOutput;
using testing::EventLog;

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

constexpr RowKind kI = RowKind::kInsert, kUB = RowKind::kUpdateBefore, kUA = RowKind::kUpdateAfter,
                  kD = RowKind::kDelete;

// Input of the group aggregates: (k STRING, v INT, s STRING).
const std::vector<DataType> kKvs = {DataType::String(), DataType::Int(), DataType::String()};

AggregateCall Call(AggKind kind, int arg, const DataType& arg_type, bool distinct = false) {
  AggregateCall c;
  c.kind = kind;
  c.arg = arg;
  c.arg_type = arg_type;
  c.result_type = *AggResultType(kind, arg_type);
  c.distinct = distinct;
  return c;
}
AggregateCall ListAgg(int arg, std::string separator, bool distinct = false) {
  AggregateCall c = Call(AggKind::kListAgg, arg, DataType::String(), distinct);
  c.separator = std::move(separator);
  return c;
}

Value Int(std::optional<int> v) { return v ? Value::Int(*v) : Value::Null(); }
Value Str(std::optional<std::string> s) { return s ? Value::String(*s) : Value::Null(); }

struct KvsRow {
  RowKind kind;
  std::optional<int> v;
  std::optional<std::string> s;
};

ChangelogBatch KvsBatch(const std::vector<KvsRow>& rows, const std::string& k = "a") {
  ChangelogBatch b(kKvs);
  for (const KvsRow& r : rows) b.AppendValues({Value::String(k), Int(r.v), Str(r.s)}, r.kind);
  return b;
}

class OrderedAggregatesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = ::testing::TempDir() + "/eddy_ordered_aggs_" + std::to_string(::getpid()) + "_" +
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

  void Open(Operator* op, Output* out, size_t state_cache_bytes = 0) {
    OperatorContext ctx;
    ctx.state_id = ++next_state_id_;
    ctx.state = backend_.get();
    ctx.state_cache_bytes = state_cache_bytes;
    ASSERT_TRUE(op->Open(ctx).ok());
    op->set_output(out);
  }

  // The changelog of GROUP BY k over `rows`, fed in one batch or one row per batch (so that every
  // row goes through the state's serialization).
  std::vector<std::string> GroupBy(const std::vector<AggregateCall>& calls, bool insert_only,
                                   const std::vector<KvsRow>& rows, bool row_per_batch) {
    GroupAggregateSpec spec;
    spec.input_types = kKvs;
    spec.group_keys = {0};
    spec.aggregates = calls;
    spec.input_insert_only = insert_only;
    auto op = GroupAggregateOperator::Create(spec);
    EXPECT_TRUE(op.ok()) << op.status();
    if (!op.ok()) return {};
    CollectingOutput out;
    Open(op->get(), &out);
    if (row_per_batch) {
      for (const KvsRow& r : rows) EXPECT_TRUE((*op)->Process(0, KvsBatch({r})).ok());
    } else {
      EXPECT_TRUE((*op)->Process(0, KvsBatch(rows)).ok());
    }
    return out.rows;
  }

  std::string dir_;
  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
};

TEST_F(OrderedAggregatesTest, InsertOnlyGroupsKeepTheFirstAndLastNonNullValueAndJoinTheStrings) {
  const std::vector<AggregateCall> calls = {
      Call(AggKind::kFirstValue, 1, DataType::Int()), Call(AggKind::kLastValue, 1, DataType::Int()),
      Call(AggKind::kFirstValue, 2, DataType::String()), ListAgg(2, ";")};
  const std::vector<KvsRow> rows = {
      {kI, {}, {}}, {kI, 3, "x"}, {kI, 1, {}}, {kI, {}, "y"}, {kI, 5, "x"}};
  for (bool row_per_batch : {false, true}) {
    EXPECT_THAT(GroupBy(calls, /*insert_only=*/true, rows, row_per_batch),
                ElementsAre("+I[a, null, null, null, null]", "-U[a, null, null, null, null]",
                            "+U[a, 3, 3, x, x]", "-U[a, 3, 3, x, x]", "+U[a, 3, 1, x, x]",
                            "-U[a, 3, 1, x, x]", "+U[a, 3, 1, x, x;y]", "-U[a, 3, 1, x, x;y]",
                            "+U[a, 3, 5, x, x;y;x]"))
        << "row per batch: " << row_per_batch;
  }
}

TEST_F(OrderedAggregatesTest, RetractionsFallBackToTheNextValueInArrivalOrder) {
  const std::vector<AggregateCall> calls = {Call(AggKind::kFirstValue, 1, DataType::Int()),
                                            Call(AggKind::kLastValue, 1, DataType::Int()),
                                            ListAgg(2, ";")};
  const std::vector<KvsRow> rows = {
      {kI, 1, "p"},  {kI, 2, "q"}, {kI, 3, "r"}, {kI, 1, "q"},  // v 1 2 3 1, s p q r q
      {kI, {}, {}},                                             // changes no value: nothing out
      {kUB, 3, "r"},                                            // a middle value of both
      {kUA, 4, "r"},                                            // v 1 2 1 4, s p q q r
      {kD, 4, "r"},                                             // the current last value
      {kD, 1, "p"},   // the current first value: the earliest 1 goes, v 2 1
      {kD, 2, "q"},   // the earliest q goes: s q
      {kD, {}, {}},   // values unchanged
      {kD, 1, "q"}};  // the last row: the group is gone
  for (bool row_per_batch : {false, true}) {
    EXPECT_THAT(GroupBy(calls, /*insert_only=*/false, rows, row_per_batch),
                ElementsAre("+I[a, 1, 1, p]", "-U[a, 1, 1, p]", "+U[a, 1, 2, p;q]",
                            "-U[a, 1, 2, p;q]", "+U[a, 1, 3, p;q;r]", "-U[a, 1, 3, p;q;r]",
                            "+U[a, 1, 1, p;q;r;q]", "-U[a, 1, 1, p;q;r;q]", "+U[a, 1, 1, p;q;q]",
                            "-U[a, 1, 1, p;q;q]", "+U[a, 1, 4, p;q;q;r]", "-U[a, 1, 4, p;q;q;r]",
                            "+U[a, 1, 1, p;q;q]", "-U[a, 1, 1, p;q;q]", "+U[a, 2, 1, q;q]",
                            "-U[a, 2, 1, q;q]", "+U[a, 1, 1, q]", "-D[a, 1, 1, q]"))
        << "row per batch: " << row_per_batch;
  }
}

TEST_F(OrderedAggregatesTest, RetractingEveryValueLeavesNullsWhileRowsRemain) {
  const std::vector<AggregateCall> calls = {Call(AggKind::kLastValue, 2, DataType::String()),
                                            ListAgg(2, "")};
  EXPECT_THAT(GroupBy(calls, /*insert_only=*/false,
                      {{kI, {}, "x"}, {kI, {}, "y"}, {kI, 1, {}}, {kD, {}, "y"}, {kD, {}, "x"}},
                      /*row_per_batch=*/true),
              ElementsAre("+I[a, x, x]", "-U[a, x, x]", "+U[a, y, xy]", "-U[a, y, xy]",
                          "+U[a, x, x]", "-U[a, x, x]", "+U[a, null, null]"));
}

TEST_F(OrderedAggregatesTest, DistinctListAggJoinsEachValueOnceUntilItsLastCopyGoes) {
  const std::vector<AggregateCall> calls = {ListAgg(2, ";", /*distinct=*/true)};
  EXPECT_THAT(GroupBy(calls, /*insert_only=*/false,
                      {{kI, {}, "p"},
                       {kI, {}, "q"},
                       {kI, {}, "p"},
                       {kD, {}, "p"},
                       {kD, {}, "q"},
                       {kD, {}, "p"},
                       {kI, {}, "r"}},
                      /*row_per_batch=*/true),
              ElementsAre("+I[a, p]", "-U[a, p]", "+U[a, p;q]", "-U[a, p;q]", "+U[a, p]",
                          "-D[a, p]", "+I[a, r]"));
}

TEST_F(OrderedAggregatesTest, DoublesAreEqualOnlyWhenTheirBitsAre) {
  // -0.0 and 0.0 are different values, as Flink's binary comparison has them.
  GroupAggregateSpec spec;
  spec.input_types = {DataType::String(), DataType::Double()};
  spec.group_keys = {0};
  spec.aggregates = {Call(AggKind::kFirstValue, 1, DataType::Double())};
  auto op = GroupAggregateOperator::Create(spec);
  ASSERT_TRUE(op.ok()) << op.status();
  CollectingOutput out;
  Open(op->get(), &out);
  ChangelogBatch b(spec.input_types);
  b.AppendValues({Value::String("a"), Value::Double(-0.0)}, kI);
  b.AppendValues({Value::String("a"), Value::Double(0.0)}, kI);
  b.AppendValues({Value::String("a"), Value::Double(0.0)}, kD);  // not the first value
  ASSERT_TRUE((*op)->Process(0, b).ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[a, -0.0]"));
}

TEST_F(OrderedAggregatesTest, MergingTakesTheOtherGroupsValuesAsLater) {
  // Sessions merge accumulators: FIRST_VALUE keeps its own, LAST_VALUE takes the other's, LISTAGG
  // appends; a DISTINCT LISTAGG appends the other's new values in the other's arrival order.
  const std::vector<AggregateCall> calls = {Call(AggKind::kFirstValue, 1, DataType::Int()),
                                            Call(AggKind::kLastValue, 1, DataType::Int()),
                                            ListAgg(2, ";"), ListAgg(2, ";", /*distinct=*/true)};
  for (bool retractions : {false, true}) {
    auto f = AggregateFunctions::Create(calls, kKvs, retractions);
    ASSERT_TRUE(f.ok()) << f.status();
    const ChangelogBatch first = KvsBatch({{kI, 5, "p"}, {kI, 6, "q"}});
    const ChangelogBatch second = KvsBatch({{kI, 7, "z"}, {kI, {}, "q"}, {kI, 8, "c"}});
    GroupAccumulators a, b;
    f->Reset(&a);
    f->Reset(&b);
    for (size_t r = 0; r < first.num_rows(); ++r) f->Update(&a, first, r, true);
    for (size_t r = 0; r < second.num_rows(); ++r) f->Update(&b, second, r, true);
    f->MergeAccumulators(&a, b);
    // Through the state's encoding.
    std::string bytes;
    f->Serialize(a, &bytes);
    GroupAccumulators decoded;
    ASSERT_TRUE(f->Deserialize(bytes, &decoded).ok());
    std::vector<AggValue> v;
    f->GetValues(decoded, &v);
    EXPECT_EQ(decoded.row_count, 5);
    EXPECT_EQ(v[0].i, 5);
    EXPECT_EQ(v[1].i, 8);
    EXPECT_EQ(v[2].s, "p;q;z;q;c");
    EXPECT_EQ(v[3].s, "p;q;z;c");  // in value order it would be p;q;c;z
    EXPECT_FALSE(f->Deserialize(bytes.substr(0, bytes.size() - 1), &decoded).ok());
  }
}

// Two phases: the local aggregate sends each mini-batch's joined values, the global one joins
// them in arrival order, as one phase does. FIRST_VALUE and LAST_VALUE have no partial form.
TEST_F(OrderedAggregatesTest, TwoPhaseListAggJoinsTheMiniBatchesPartials) {
  const std::vector<AggregateCall> calls = {ListAgg(2, ";")};
  LocalGroupAggregateSpec local;
  local.input_types = kKvs;
  local.group_keys = {0};
  local.aggregates = calls;
  local.mini_batch_size = 3;
  auto local_op = LocalGroupAggregateOperator::Create(local);
  ASSERT_TRUE(local_op.ok()) << local_op.status();
  EXPECT_EQ((*local_op)->output_types()[1].ToString(), "STRING");

  GroupAggregateSpec global;
  global.input_types = (*local_op)->output_types();
  global.group_keys = {0};
  global.aggregates = calls;
  global.aggregates[0].arg = 1;
  global.input_insert_only = true;
  global.merge_partials = true;
  auto global_op = GroupAggregateOperator::Create(global);
  ASSERT_TRUE(global_op.ok()) << global_op.status();
  CollectingOutput global_out;
  CollectingOutput partials(global_op->get());
  Open(global_op->get(), &global_out);
  (*local_op)->set_output(&partials);

  // Mini-batches [x, NULL, y] [NULL, z, w] [NULL]: the last one has no value.
  ChangelogBatch in(kKvs);
  for (const auto& [k, s] : std::vector<std::pair<std::string, std::optional<std::string>>>{
           {"a", "x"}, {"a", {}}, {"b", "y"}, {"b", {}}, {"a", "z"}, {"a", "w"}, {"a", {}}}) {
    in.AppendValues({Value::String(k), Value::Int(1), Str(s)}, kI);
  }
  ASSERT_TRUE((*local_op)->Process(0, in).ok());
  ASSERT_TRUE((*local_op)->Finish().ok());
  EXPECT_THAT(partials.rows,
              ElementsAre("+I[a, x]", "+I[b, y]", "+I[b, null]", "+I[a, z;w]", "+I[a, null]"));
  EXPECT_THAT(global_out.rows, ElementsAre("+I[a, x]", "+I[b, y]", "-U[a, x]", "+U[a, x;z;w]"));

  local.aggregates = {Call(AggKind::kFirstValue, 1, DataType::Int())};
  EXPECT_EQ(LocalGroupAggregateOperator::Create(local).status().code(),
            absl::StatusCode::kInvalidArgument);
  local.aggregates = calls;
  local.input_insert_only = false;  // LISTAGG over retractions keeps every value: no partial
  EXPECT_EQ(LocalGroupAggregateOperator::Create(local).status().code(),
            absl::StatusCode::kInvalidArgument);
  global.aggregates = {Call(AggKind::kLastValue, 1, DataType::Int())};
  global.input_types = {DataType::String(), DataType::Int()};
  EXPECT_EQ(GroupAggregateOperator::Create(global).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Window input: (k STRING, ts TIMESTAMP(3), s STRING).
const std::vector<DataType> kWindowInput = {DataType::String(), DataType::Timestamp(3),
                                            DataType::String()};

ChangelogBatch WindowRows(
    const std::vector<std::tuple<std::string, int64_t, std::optional<std::string>>>& rows) {
  ChangelogBatch b(kWindowInput);
  for (const auto& [k, t, s] : rows) b.AppendValues({Value::String(k), Value::Int(t), Str(s)}, kI);
  return b;
}

std::vector<AggregateCall> FirstLastListAggOfS() {
  return {Call(AggKind::kFirstValue, 2, DataType::String()),
          Call(AggKind::kLastValue, 2, DataType::String()), ListAgg(2, ";")};
}

TEST_F(OrderedAggregatesTest, TumblingWindowsInMemoryAndInRocksDb) {
  for (size_t budget : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(budget);
    WindowAggregateSpec spec;
    spec.input_types = kWindowInput;
    spec.group_keys = {0};
    spec.aggregates = FirstLastListAggOfS();
    spec.window = {WindowShape::Kind::kTumble, 1000};
    spec.time_column = 1;
    auto op = WindowAggregateOperator::Create(spec);
    ASSERT_TRUE(op.ok()) << op.status();
    EventLog out;
    Open(op->get(), &out, budget);
    // Rows out of time order: arrival order counts, not time.
    ASSERT_TRUE(
        (*op)->Process(0, WindowRows({{"a", 500, "x"}, {"b", 200, {}}, {"a", 100, "y"}})).ok());
    ASSERT_TRUE(
        (*op)->Process(0, WindowRows({{"a", 1200, "z"}, {"a", 300, {}}, {"a", 900, "w"}})).ok());
    ASSERT_TRUE((*op)->Finish().ok());
    EXPECT_THAT(out.Take(),
                ElementsAre("+I[a, x, w, x;y;w, 0, 1000]", "+I[b, null, null, null, 0, 1000]",
                            "+I[a, z, z, z, 1000, 2000]"));
  }
}

// The strings LISTAGG joins count toward the in-memory windows' budget: a window that outgrows it
// moves to RocksDB, where a window with COUNT(*) alone stays in memory.
TEST_F(OrderedAggregatesTest, JoinedStringsCountTowardTheWindowMemoryBudget) {
  for (bool listagg : {false, true}) {
    SCOPED_TRACE(listagg);
    WindowAggregateSpec spec;
    spec.input_types = kWindowInput;
    spec.group_keys = {0};
    AggregateCall count;
    count.kind = AggKind::kCountStar;
    count.result_type = DataType::BigInt().WithNullable(false);
    spec.aggregates = {count};
    if (listagg) spec.aggregates.push_back(ListAgg(2, ";"));
    spec.window = {WindowShape::Kind::kTumble, 1000};
    spec.time_column = 1;
    auto op = WindowAggregateOperator::Create(spec);
    ASSERT_TRUE(op.ok()) << op.status();
    EventLog out;
    Open(op->get(), &out, /*state_cache_bytes=*/4096);
    ChangelogBatch b(kWindowInput);
    for (int i = 0; i < 100; ++i) {
      b.AppendValues({Value::String("a"), Value::Int(100), Value::String(std::string(100, 'x'))},
                     kI);
    }
    ASSERT_TRUE((*op)->Process(0, b).ok());
    EXPECT_EQ((*op)->memory_windows(), listagg ? 0u : 1u);
    ASSERT_TRUE((*op)->Finish().ok());
    std::string joined;
    for (int i = 0; i < 100; ++i) joined += (i > 0 ? ";" : "") + std::string(100, 'x');
    EXPECT_THAT(out.Take(), ElementsAre(listagg ? "+I[a, 100, " + joined + ", 0, 1000]"
                                                : std::string("+I[a, 100, 0, 1000]")));
  }
}

TEST_F(OrderedAggregatesTest, MergedSessionsKeepTheEarlierSessionsValuesFirst) {
  std::vector<AggregateCall> calls = FirstLastListAggOfS();
  calls.push_back(ListAgg(2, ";", /*distinct=*/true));
  SessionWindowAggregateSpec spec;
  spec.input_types = kWindowInput;
  spec.group_keys = {0};
  spec.aggregates = calls;
  spec.time_column = 1;
  spec.gap_ms = 10000;
  auto op = SessionWindowAggregateOperator::Create(spec);
  ASSERT_TRUE(op.ok()) << op.status();
  EventLog out;
  Open(op->get(), &out);
  // [0, 10 s) with p; [20 s, 32 s) with z, c, q; then a NULL at 10 s bridges them. (By value the
  // distinct values would be p;c;q;z.)
  ASSERT_TRUE(
      (*op)->Process(0, WindowRows({{"a", 0, "p"}, {"a", 20000, "z"}, {"a", 22000, "c"}})).ok());
  ASSERT_TRUE((*op)->Process(0, WindowRows({{"a", 21000, "q"}})).ok());
  ASSERT_TRUE((*op)->Process(0, WindowRows({{"a", 10000, {}}})).ok());
  ASSERT_TRUE((*op)->Finish().ok());
  EXPECT_THAT(out.Take(), ElementsAre("+I[a, p, q, p;z;c;q, p;z;c;q, 0, 32000]"));
}

TEST_F(OrderedAggregatesTest, OverFramesInTimeOrder) {
  auto run = [&](OverFrame frame, int64_t preceding) {
    OverAggregateSpec spec;
    spec.input_types = kWindowInput;
    spec.partition_keys = {0};
    spec.time_column = 1;
    spec.frame = frame;
    spec.preceding = preceding;
    spec.calls = FirstLastListAggOfS();
    auto op = OverAggregateOperator::Create(spec);
    EXPECT_TRUE(op.ok()) << op.status();
    if (!op.ok()) return std::vector<std::string>{};
    EventLog out;
    Open(op->get(), &out);
    // Rows arrive out of order; the frames follow time.
    EXPECT_TRUE((*op)->Process(0, WindowRows({{"a", 3, "y"}, {"a", 1, "x"}, {"a", 2, {}}})).ok());
    EXPECT_TRUE((*op)->Process(0, WindowRows({{"a", 4, "z"}})).ok());
    EXPECT_TRUE((*op)->Finish().ok());
    return out.Take();
  };
  // ROWS 1 PRECEDING: {x} {x, NULL} {NULL, y} {y, z}; x leaves the frame at 3.
  EXPECT_THAT(run(OverFrame::kRows, 1),
              ElementsAre("+I[a, 1, x, x, x, x]", "+I[a, 2, null, x, x, x]", "+I[a, 3, y, y, y, y]",
                          "+I[a, 4, z, y, z, y;z]"));
  // UNBOUNDED: one value kept per call, never retracted.
  EXPECT_THAT(run(OverFrame::kRange, kUnboundedPreceding),
              ElementsAre("+I[a, 1, x, x, x, x]", "+I[a, 2, null, x, x, x]",
                          "+I[a, 3, y, x, y, x;y]", "+I[a, 4, z, x, z, x;y;z]"));
}

}  // namespace
}  // namespace eddy
