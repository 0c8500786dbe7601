// IntervalJoinOperator: exact outputs of every join type for rows inside and outside the bounds in
// both arrival orders, padded rows exactly when the watermark passes their bound, rows that arrive
// expired or late, NULL keys, duplicates, the held-back output watermark, state bounded by the
// watermark, snapshot/restore of state and timers, and a randomized comparison with a model of
// the operator's semantics (per step: output multiset, rows and timers in state).
#include "worker/operators/interval_join.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/hash.h"
#include "common/expr/function_registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/interval_join_records.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/operators/testing/event_log.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

using ::eddy::testing::EventLog;

using testing::CollectingOutput;

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

constexpr RowKind kI = RowKind::kInsert;

Value Int(int64_t v) { return Value::Int(v); }
Value Str(std::string s) { return Value::String(std::move(s)); }
Value Null() { return Value::Null(); }

// Left (k INT, lt TIMESTAMP(3), a STRING), right (k INT, rt TIMESTAMP(3), b BIGINT), joined on k
// with lower <= lt - rt <= upper.
IntervalJoinSpec Spec(StreamingJoinType type, int64_t lower, int64_t upper) {
  IntervalJoinSpec spec;
  spec.type = type;
  spec.left_types = {DataType::Int(), DataType::Timestamp(3), DataType::String()};
  spec.right_types = {DataType::Int(), DataType::Timestamp(3), DataType::BigInt()};
  spec.left_keys = {0};
  spec.right_keys = {0};
  spec.left_time = 1;
  spec.right_time = 1;
  spec.lower_bound_ms = lower;
  spec.upper_bound_ms = upper;
  return spec;
}

ExprPtr Call(const char* f, std::vector<ExprPtr> args) {
  auto e = MakeCall(f, std::move(args));
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? *e : nullptr;
}

// An operator, its output, and its inputs' types.
struct Join {
  std::unique_ptr<IntervalJoinOperator> op;
  EventLog out;
  std::vector<DataType> types[2];

  // Feeds one batch of rows to an input and returns what it emitted.
  std::vector<std::string> Left(const std::vector<std::vector<Value>>& rows) {
    return Feed(0, rows);
  }
  std::vector<std::string> Right(const std::vector<std::vector<Value>>& rows) {
    return Feed(1, rows);
  }
  std::vector<std::string> Feed(int input, const std::vector<std::vector<Value>>& rows) {
    ChangelogBatch b(types[input]);
    for (const auto& values : rows) b.AppendValues(values, kI);
    absl::Status s = op->Process(input, b);
    EXPECT_TRUE(s.ok()) << s;
    return out.Take();
  }
  // Advances the input watermark and returns what was emitted.
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

class IntervalJoinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = ::testing::TempDir() + "/eddy_interval_join_" + std::to_string(::getpid()) + "_" +
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
  std::unique_ptr<Join> Make(IntervalJoinSpec spec, size_t state_cache_bytes = 0,
                             KeyedStateBackend* backend = nullptr, uint32_t state_id = 0) {
    auto j = std::make_unique<Join>();
    j->types[0] = spec.left_types;
    j->types[1] = spec.right_types;
    auto op = IntervalJoinOperator::Create(std::move(spec));
    EXPECT_TRUE(op.ok()) << op.status();
    if (!op.ok()) return nullptr;
    OperatorContext ctx;
    ctx.state_id = state_id != 0 ? state_id : ++next_state_id_;
    ctx.state = backend != nullptr ? backend : backend_.get();
    ctx.state_cache_bytes = state_cache_bytes;
    absl::Status opened = (*op)->Open(ctx);
    EXPECT_TRUE(opened.ok()) << opened;
    j->op = std::move(op).value();
    j->op->set_output(&j->out);
    return j;
  }

  // Keys of the operator's state in the store, after writing its cache back.
  uint64_t StoredKeys(Join& j) {
    EXPECT_TRUE(j.op->FlushState().ok());
    absl::StatusOr<uint64_t> n = backend_->CountKeys(j.op->state_table()->state_id());
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : 0;
  }

  std::string dir_;
  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
};

TEST_F(IntervalJoinTest, CreateRejectsBadSpecs) {
  auto status = [](IntervalJoinSpec spec) {
    return IntervalJoinOperator::Create(std::move(spec)).status();
  };
  auto spec = [] { return Spec(StreamingJoinType::kInner, -10, 5); };
  IntervalJoinSpec s = spec();
  s.type = StreamingJoinType::kSemi;
  EXPECT_THAT(status(s).message(), HasSubstr("IntervalJoin: a SEMI join is not supported"));
  s.type = StreamingJoinType::kAnti;
  EXPECT_FALSE(status(s).ok());
  s = spec();
  s.right_keys = {};
  EXPECT_FALSE(status(s).ok());  // key counts differ
  s = spec();
  s.left_keys = {3};
  EXPECT_FALSE(status(s).ok());  // out of range
  s = spec();
  s.right_keys = {2};
  EXPECT_THAT(status(s).message(), HasSubstr("key 0 is INT on the left but BIGINT"));
  s = spec();
  s.left_time = 3;
  EXPECT_THAT(status(s).message(), HasSubstr("the left time column 3 is out of range"));
  s = spec();
  s.right_time = 2;
  EXPECT_THAT(status(s).message(), HasSubstr("the right time column 2 is BIGINT"));
  s = spec();
  s.left_types[1] = DataType::Timestamp(6);
  EXPECT_FALSE(status(s).ok());
  s = spec();
  s.left_types[1] = DataType::Timestamp(0);
  EXPECT_TRUE(status(s).ok());  // TIMESTAMP(0) holds millis as well
  s = spec();
  s.lower_bound_ms = 6;
  EXPECT_THAT(status(s).message(), HasSubstr("lower bound 6 ms is above the upper bound 5 ms"));
  s = spec();
  s.condition = MakeColumnRef(5, DataType::BigInt());
  EXPECT_THAT(status(s).message(), HasSubstr("not BOOLEAN"));
  s = spec();
  s.condition = MakeColumnRef(6, DataType::Boolean());
  EXPECT_FALSE(status(s).ok());  // no such column
  s = spec();
  s.lower_bound_ms = s.upper_bound_ms = 0;
  EXPECT_TRUE(status(s).ok());
}

TEST_F(IntervalJoinTest, OutputTypesPadTheOuterJoinsOtherSide) {
  auto types = [](StreamingJoinType t) {
    IntervalJoinSpec spec = Spec(t, 0, 0);
    for (DataType& d : spec.left_types) d = d.WithNullable(false);
    for (DataType& d : spec.right_types) d = d.WithNullable(false);
    auto op = IntervalJoinOperator::Create(spec);
    EXPECT_TRUE(op.ok());
    std::string s;
    for (const DataType& d : (*op)->output_types()) absl::StrAppend(&s, d.nullable ? "n" : "-");
    return s;
  };
  EXPECT_EQ(types(StreamingJoinType::kInner), "------");
  EXPECT_EQ(types(StreamingJoinType::kLeftOuter), "---nnn");
  EXPECT_EQ(types(StreamingJoinType::kRightOuter), "nnn---");
  EXPECT_EQ(types(StreamingJoinType::kFullOuter), "nnnnnn");
}

// lower -10, upper 5: a left row at l joins right rows at r in [l - 5, l + 10].
TEST_F(IntervalJoinTest, InnerJoinsRowsWithinTheBoundsInBothArrivalOrders) {
  auto j = Make(Spec(StreamingJoinType::kInner, -10, 5));
  // Left first.
  EXPECT_THAT(j->Left({{Int(1), Int(100), Str("a")}}), IsEmpty());
  EXPECT_THAT(j->Right({{Int(1), Int(94), Int(1)},
                        {Int(1), Int(95), Int(2)},
                        {Int(1), Int(110), Int(3)},
                        {Int(1), Int(111), Int(4)},
                        {Int(2), Int(100), Int(5)}}),
              ElementsAre("+I[1, 100, a, 1, 95, 2]", "+I[1, 100, a, 1, 110, 3]"));
  // Right first: the right rows above are in state now; a new left row joins those in its bounds.
  EXPECT_THAT(j->Left({{Int(1), Int(105), Str("b")}, {Int(2), Int(90), Str("c")}}),
              ElementsAre("+I[1, 105, b, 1, 110, 3]", "+I[1, 105, b, 1, 111, 4]",
                          "+I[2, 90, c, 2, 100, 5]"));
  EXPECT_THAT(j->Left({{Int(1), Int(83), Str("d")}, {Int(1), Int(117), Str("e")}}), IsEmpty());
  // Bounds are inclusive on both ends.
  EXPECT_THAT(j->Left({{Int(1), Int(116), Str("f")}}), ElementsAre("+I[1, 116, f, 1, 111, 4]"));
  EXPECT_THAT(j->Left({{Int(1), Int(84), Str("g")}}), ElementsAre("+I[1, 84, g, 1, 94, 1]"));
  EXPECT_EQ(j->op->late_rows_dropped(), 0u);
  EXPECT_EQ(j->op->stored_rows(), 12u);  // 5 right and 7 left rows: no watermark yet
}

// Positive and negative bounds: lower 3, upper 7 (the right row 3 to 7 ms earlier) and lower -7,
// upper -3 (later).
TEST_F(IntervalJoinTest, BoundsOfOneSign) {
  auto earlier = Make(Spec(StreamingJoinType::kInner, 3, 7));
  earlier->Right({{Int(1), Int(100), Int(1)}});
  EXPECT_THAT(earlier->Left({{Int(1), Int(102), Str("a")},
                             {Int(1), Int(103), Str("b")},
                             {Int(1), Int(107), Str("c")},
                             {Int(1), Int(108), Str("d")},
                             {Int(1), Int(97), Str("e")}}),
              ElementsAre("+I[1, 103, b, 1, 100, 1]", "+I[1, 107, c, 1, 100, 1]"));
  auto later = Make(Spec(StreamingJoinType::kInner, -7, -3));
  later->Right({{Int(1), Int(100), Int(1)}});
  EXPECT_THAT(later->Left({{Int(1), Int(92), Str("a")},
                           {Int(1), Int(93), Str("b")},
                           {Int(1), Int(97), Str("c")},
                           {Int(1), Int(98), Str("d")},
                           {Int(1), Int(103), Str("e")}}),
              ElementsAre("+I[1, 93, b, 1, 100, 1]", "+I[1, 97, c, 1, 100, 1]"));
}

TEST_F(IntervalJoinTest, ResidualCondition) {
  // ... AND CHAR_LENGTH(l.a) < r.b
  IntervalJoinSpec spec = Spec(StreamingJoinType::kLeftOuter, -10, 10);
  spec.condition = Call("<", {Call("CHAR_LENGTH", {MakeColumnRef(2, DataType::String())}),
                              MakeColumnRef(5, DataType::BigInt())});
  auto j = Make(spec);
  EXPECT_THAT(j->Right({{Int(1), Int(100), Int(2)},
                        {Int(1), Int(100), Int(5)},
                        {Int(1), Int(100), Null()},
                        {Int(1), Int(200), Int(9)}}),
              IsEmpty());
  EXPECT_THAT(j->Left({{Int(1), Int(100), Str("abc")}, {Int(1), Int(101), Str("a")}}),
              ElementsAre("+I[1, 100, abc, 1, 100, 5]", "+I[1, 101, a, 1, 100, 2]",
                          "+I[1, 101, a, 1, 100, 5]"));
  // No candidate satisfies the condition: the left row waits for a later right row, and is
  // padded when none came.
  EXPECT_THAT(j->Left({{Int(1), Int(102), Str("abcdef")}}), IsEmpty());
  EXPECT_THAT(j->Watermark(111), ElementsAre("W101"));
  EXPECT_THAT(j->Watermark(112), ElementsAre("+I[1, 102, abcdef, null, null, null]", "W102"));
}

TEST_F(IntervalJoinTest, ConditionOverManyPairsIsEvaluatedInChunks) {
  // More candidate pairs than one chunk holds: 300 left rows x 100 right rows of one key.
  IntervalJoinSpec spec = Spec(StreamingJoinType::kInner, -1000, 1000);
  spec.right_types[2] = DataType::BigInt();
  spec.left_types[2] = DataType::BigInt();
  spec.condition =
      Call("<", {MakeColumnRef(2, DataType::BigInt()), MakeColumnRef(5, DataType::BigInt())});
  auto j = Make(spec);
  std::vector<std::vector<Value>> right;
  for (int i = 0; i < 100; ++i) right.push_back({Int(7), Int(500 + i), Int(i)});
  j->Right(right);
  std::vector<std::vector<Value>> left;
  for (int i = 0; i < 300; ++i) left.push_back({Int(7), Int(500), Int(i)});
  std::vector<std::string> out = j->Left(left);
  size_t expected = 0;
  for (int l = 0; l < 300; ++l) expected += l < 100 ? 99 - l : 0;
  EXPECT_EQ(out.size(), expected);
  EXPECT_EQ(out.front(), "+I[7, 500, 0, 7, 501, 1]");
  EXPECT_EQ(out.back(), "+I[7, 500, 98, 7, 599, 99]");
}

// A left row at l expires once the watermark reaches l - lower, a right row at r once it reaches
// r + upper: then it leaves the state, padded first when it is on an outer side and never
// matched. Not a millisecond before.
TEST_F(IntervalJoinTest, OuterRowsArePaddedExactlyWhenTheWatermarkPassesTheirBound) {
  for (StreamingJoinType type : {StreamingJoinType::kLeftOuter, StreamingJoinType::kRightOuter,
                                 StreamingJoinType::kFullOuter, StreamingJoinType::kInner}) {
    SCOPED_TRACE(StreamingJoinTypeName(type));
    const bool left_outer =
        type == StreamingJoinType::kLeftOuter || type == StreamingJoinType::kFullOuter;
    const bool right_outer =
        type == StreamingJoinType::kRightOuter || type == StreamingJoinType::kFullOuter;
    auto j = Make(Spec(type, -10, 5));                                      // delay max(10, 5) = 10
    j->Left({{Int(1), Int(100), Str("a")}, {Int(2), Int(100), Str("b")}});  // expire at 110
    EXPECT_THAT(j->Right({{Int(2), Int(98), Int(20)}, {Int(3), Int(101), Int(30)}}),  // 103, 106
                ElementsAre("+I[2, 100, b, 2, 98, 20]"));
    EXPECT_EQ(j->op->stored_rows(), 4u);
    EXPECT_EQ(j->op->pending_timers(), 4u);  // L1, L2, R2, R3
    EXPECT_EQ(StoredKeys(*j), 4u);

    EXPECT_THAT(j->Watermark(102), ElementsAre("W92"));
    // The matched right row leaves silently.
    EXPECT_THAT(j->Watermark(103), ElementsAre("W93"));
    EXPECT_EQ(j->op->stored_rows(), 3u);
    EXPECT_THAT(j->Watermark(105), ElementsAre("W95"));
    std::vector<std::string> at106;
    if (right_outer) at106.push_back("+I[null, null, null, 3, 101, 30]");
    at106.push_back("W96");
    EXPECT_EQ(j->Watermark(106), at106);
    EXPECT_EQ(j->op->stored_rows(), 2u);
    EXPECT_THAT(j->Watermark(109), ElementsAre("W99"));
    std::vector<std::string> at110;
    if (left_outer) at110.push_back("+I[1, 100, a, null, null, null]");
    at110.push_back("W100");
    EXPECT_EQ(j->Watermark(110), at110);
    EXPECT_EQ(j->op->stored_rows(), 0u);
    EXPECT_EQ(j->op->pending_timers(), 0u);
    EXPECT_EQ(StoredKeys(*j), 0u);
    EXPECT_THAT(j->Finish(), IsEmpty());
  }
}

// A row matched by any row of the other side while it was in state is not padded when it expires.
TEST_F(IntervalJoinTest, AMatchedRowIsNotPadded) {
  auto j = Make(Spec(StreamingJoinType::kFullOuter, -10, 5));
  EXPECT_THAT(j->Left({{Int(1), Int(100), Str("a")}}), IsEmpty());
  EXPECT_THAT(j->Right({{Int(1), Int(90), Int(1)}}), IsEmpty());  // 100 - 90 > 5
  EXPECT_THAT(j->Watermark(94), ElementsAre("W84"));
  EXPECT_THAT(j->Watermark(95), ElementsAre("+I[null, null, null, 1, 90, 1]", "W85"));
  EXPECT_THAT(j->Right({{Int(1), Int(108), Int(2)}}), ElementsAre("+I[1, 100, a, 1, 108, 2]"));
  // Both matched: neither is padded when it expires.
  EXPECT_THAT(j->Watermark(200), ElementsAre("W190"));
  EXPECT_EQ(j->op->stored_rows(), 0u);
}

// A row already expired when it arrives (its bound is behind the watermark) still joins the other
// side's rows in state, but is not stored: on an outer side it is padded at once when it matched
// nothing. A row older than anything in state could match is late: padded at once on an outer
// side, dropped and counted otherwise.
TEST_F(IntervalJoinTest, RowsThatArriveExpiredOrLate) {
  for (StreamingJoinType type : {StreamingJoinType::kInner, StreamingJoinType::kFullOuter}) {
    SCOPED_TRACE(StreamingJoinTypeName(type));
    const bool outer = type == StreamingJoinType::kFullOuter;
    auto j = Make(Spec(type, -10, 5));
    j->Right({{Int(1), Int(100), Int(1)}});  // expires at 105
    j->Watermark(104);
    // Left rows expire at l + 10 and are late when l + 10 <= 104 - 5: l <= 89.
    std::vector<std::string> expected = {"+I[1, 94, a, 1, 100, 1]"};  // expired, matches
    if (outer) {
      expected.push_back("+I[2, 93, b, null, null, null]");  // expired, nothing to match
      expected.push_back("+I[1, 89, c, null, null, null]");  // late
    }
    EXPECT_EQ(j->Left({{Int(1), Int(94), Str("a")},
                       {Int(2), Int(93), Str("b")},
                       {Int(1), Int(89), Str("c")}}),
              expected);
    EXPECT_EQ(j->op->late_rows_dropped(), outer ? 0u : 1u);
    EXPECT_EQ(j->op->stored_rows(), 1u);  // the right row only
    // A left row at 95 expires at 105 > 104: stored.
    EXPECT_THAT(j->Left({{Int(1), Int(95), Str("d")}}), ElementsAre("+I[1, 95, d, 1, 100, 1]"));
    EXPECT_EQ(j->op->stored_rows(), 2u);

    // Right rows expire at r + 5 and are late when r + 5 <= 104 - 10: r <= 89.
    expected = {"+I[1, 95, d, 1, 90, 2]"};  // expired (95 <= 104), matches the stored left row
    if (outer) {
      expected.push_back("+I[null, null, null, 2, 99, 3]");  // expired, nothing to match
      expected.push_back("+I[null, null, null, 1, 89, 4]");  // late
    }
    EXPECT_EQ(
        j->Right({{Int(1), Int(90), Int(2)}, {Int(2), Int(99), Int(3)}, {Int(1), Int(89), Int(4)}}),
        expected);
    EXPECT_EQ(j->op->late_rows_dropped(), outer ? 0u : 2u);
    EXPECT_EQ(j->op->stored_rows(), 2u);
    EXPECT_THAT(j->Finish(), IsEmpty());  // both stored rows matched
  }
}

TEST_F(IntervalJoinTest, NullKeysMatchNothingAndAreNeverStored) {
  for (StreamingJoinType type :
       {StreamingJoinType::kInner, StreamingJoinType::kLeftOuter, StreamingJoinType::kRightOuter}) {
    SCOPED_TRACE(StreamingJoinTypeName(type));
    auto j = Make(Spec(type, -10, 10));
    std::vector<std::string> left;
    if (type == StreamingJoinType::kLeftOuter) left = {"+I[null, 100, a, null, null, null]"};
    std::vector<std::string> right;
    if (type == StreamingJoinType::kRightOuter) right = {"+I[null, null, null, null, 100, 1]"};
    EXPECT_EQ(j->Left({{Null(), Int(100), Str("a")}}), left);
    EXPECT_EQ(j->Right({{Null(), Int(100), Int(1)}}), right);
    EXPECT_EQ(j->op->stored_rows(), 0u);
    EXPECT_EQ(j->op->late_rows_dropped(), 0u);
    EXPECT_EQ(StoredKeys(*j), 0u);
  }
}

TEST_F(IntervalJoinTest, RowsWithTheSameKeyAndTimeAreAList) {
  auto j = Make(Spec(StreamingJoinType::kLeftOuter, 0, 0));
  EXPECT_THAT(j->Left({{Int(1), Int(100), Str("a")},
                       {Int(1), Int(100), Str("a")},
                       {Int(1), Int(100), Str("b")}}),
              IsEmpty());
  EXPECT_THAT(j->Right({{Int(1), Int(100), Int(1)}, {Int(1), Int(100), Int(1)}}),
              ElementsAre("+I[1, 100, a, 1, 100, 1]", "+I[1, 100, a, 1, 100, 1]",
                          "+I[1, 100, b, 1, 100, 1]", "+I[1, 100, a, 1, 100, 1]",
                          "+I[1, 100, a, 1, 100, 1]", "+I[1, 100, b, 1, 100, 1]"));
  EXPECT_THAT(j->Left({{Int(1), Int(100), Str("c")}, {Int(1), Int(100), Str("c")}}),
              ElementsAre("+I[1, 100, c, 1, 100, 1]", "+I[1, 100, c, 1, 100, 1]",
                          "+I[1, 100, c, 1, 100, 1]", "+I[1, 100, c, 1, 100, 1]"));
  EXPECT_THAT(j->Left({{Int(2), Int(100), Str("d")}, {Int(2), Int(100), Str("d")}}), IsEmpty());
  EXPECT_EQ(j->op->stored_rows(), 9u);
  EXPECT_THAT(j->Watermark(100), ElementsAre("+I[2, 100, d, null, null, null]",
                                             "+I[2, 100, d, null, null, null]", "W100"));
  EXPECT_EQ(j->op->stored_rows(), 0u);
}

// Rows of a side under one key are kept in time order whatever order they arrive in.
TEST_F(IntervalJoinTest, OutOfOrderRowsExpireByTheirOwnTimes) {
  auto j = Make(Spec(StreamingJoinType::kLeftOuter, -5, 5));
  j->Left({{Int(1), Int(130), Str("c")}, {Int(1), Int(110), Str("a")}});
  j->Left({{Int(1), Int(120), Str("b")}, {Int(1), Int(110), Str("a2")}});
  EXPECT_THAT(j->Watermark(115), ElementsAre("+I[1, 110, a, null, null, null]",
                                             "+I[1, 110, a2, null, null, null]", "W110"));
  EXPECT_THAT(j->Right({{Int(1), Int(124), Int(1)}}), ElementsAre("+I[1, 120, b, 1, 124, 1]"));
  EXPECT_THAT(j->Watermark(134), ElementsAre("W129"));
  EXPECT_THAT(j->Watermark(135), ElementsAre("+I[1, 130, c, null, null, null]", "W130"));
  EXPECT_EQ(j->op->pending_timers(), 0u);
}

// The output watermark trails the input by max(-lower, upper, 0), goes out after the rows the
// advance produced, never goes back, and keeps the input's idleness.
TEST_F(IntervalJoinTest, OutputWatermarkIsHeldBack) {
  struct Case {
    int64_t lower, upper, delay;
  };
  for (const Case& c : {Case{-10, 5, 10}, Case{3, 7, 7}, Case{-7, -3, 7}, Case{0, 0, 0}}) {
    SCOPED_TRACE(absl::StrCat(c.lower, " ", c.upper));
    auto j = Make(Spec(StreamingJoinType::kInner, c.lower, c.upper));
    EXPECT_EQ(j->op->output_delay_ms(), c.delay);
    EXPECT_THAT(j->Watermark(1000), ElementsAre(absl::StrCat("W", 1000 - c.delay)));
    EXPECT_THAT(j->Watermark(1000, /*idle=*/true),
                ElementsAre(absl::StrCat("W", 1000 - c.delay, " idle")));
    EXPECT_THAT(j->Watermark(900), ElementsAre(absl::StrCat("W", 1000 - c.delay)));
    EXPECT_THAT(j->Watermark(1500), ElementsAre(absl::StrCat("W", 1500 - c.delay)));
  }
  auto j = Make(Spec(StreamingJoinType::kLeftOuter, -10, 5));
  EXPECT_THAT(j->Watermark(kMinWatermark), ElementsAre(absl::StrCat("W", kMinWatermark)));
  j->Left({{Int(1), Int(100), Str("a")}});
  EXPECT_THAT(j->Watermark(200), ElementsAre("+I[1, 100, a, null, null, null]", "W190"));
  EXPECT_EQ(j->out.batches, 1);
}

TEST_F(IntervalJoinTest, JoinWithoutEquiKeys) {
  IntervalJoinSpec spec = Spec(StreamingJoinType::kInner, -1, 1);
  spec.left_keys = {};
  spec.right_keys = {};
  auto j = Make(spec);
  j->Left({{Int(1), Int(100), Str("a")}, {Null(), Int(200), Str("b")}});
  EXPECT_THAT(j->Right({{Int(2), Int(101), Int(1)}, {Int(3), Int(199), Int(2)}}),
              ElementsAre("+I[1, 100, a, 2, 101, 1]", "+I[null, 200, b, 3, 199, 2]"));
  EXPECT_EQ(j->op->pending_timers(), 2u);
  EXPECT_EQ(StoredKeys(*j), 2u);  // L and R of the empty key
}

TEST_F(IntervalJoinTest, RejectsChangesAndNullTimes) {
  auto j = Make(Spec(StreamingJoinType::kInner, -1, 1));
  for (RowKind kind : {RowKind::kUpdateBefore, RowKind::kUpdateAfter, RowKind::kDelete}) {
    ChangelogBatch b(j->types[1]);
    b.AppendValues({Int(1), Int(100), Int(1)}, kind);
    absl::Status s = j->op->Process(1, b);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(s.message(), HasSubstr("IntervalJoin received a "));
    EXPECT_THAT(s.message(), HasSubstr("on its right input; its inputs must be append-only"));
  }
  ChangelogBatch b(j->types[0]);
  b.AppendValues({Int(1), Null(), Str("a")}, kI);
  absl::Status s = j->op->Process(0, b);
  EXPECT_THAT(s.message(),
              HasSubstr("IntervalJoin: the left time attribute (input column 1) is NULL"));
  EXPECT_EQ(j->op->Process(2, b).code(), absl::StatusCode::kInvalidArgument);
}

// Many keys and rows: after each watermark only rows that can still match are in the store, and
// every timer has a value behind it; at the end nothing is left. More values expire at once than
// one expiry round reads.
TEST_F(IntervalJoinTest, StateIsBoundedByTheWatermark) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto j = Make(Spec(StreamingJoinType::kFullOuter, -10, 10), cache);
    constexpr int kKeys = 3000;
    size_t padded = 0;
    for (int64_t t = 0; t < 1000; t += 100) {
      std::vector<std::vector<Value>> left, right;
      for (int k = 0; k < kKeys; ++k) {
        left.push_back({Int(k), Int(t + k % 50), Str("x")});
        right.push_back({Int(k + kKeys / 2), Int(t + 50 + k % 50), Int(k)});
      }
      j->Left(left);
      j->Right(right);
      for (const std::string& e : j->Watermark(t + 60))
        padded += e.find("null") != std::string::npos;
      // Left rows expire at l + 10, right rows at r + 10: the rows of earlier rounds are gone.
      uint64_t live = 0;
      for (int k = 0; k < kKeys; ++k) {
        live += t + k % 50 + 10 > t + 60;
        live += t + 50 + k % 50 + 10 > t + 60;
      }
      // Each live row is the only one of its (side, key).
      EXPECT_EQ(j->op->stored_rows(), live);
      EXPECT_EQ(j->op->pending_timers(), live);
      EXPECT_EQ(StoredKeys(*j), live);
    }
    for (const std::string& e : j->Finish()) padded += e.find("null") != std::string::npos;
    EXPECT_EQ(j->op->stored_rows(), 0u);
    EXPECT_EQ(j->op->pending_timers(), 0u);
    EXPECT_EQ(StoredKeys(*j), 0u);
    // Keys [1500, 3000) have rows on both sides 50 ms apart: never within 10 ms. Everything is
    // padded.
    EXPECT_EQ(padded, 2u * kKeys * 10);
  }
}

// State layout: one value per (side, join key) under the join key's key group, holding the side's
// rows in time order.
TEST_F(IntervalJoinTest, StateLayoutIsOneValuePerSideAndJoinKey) {
  auto j = Make(Spec(StreamingJoinType::kLeftOuter, -10, 10));
  const uint32_t state_id = j->op->state_table()->state_id();
  j->Left(
      {{Int(5), Int(300), Str("c")}, {Int(5), Int(100), Str("a")}, {Int(6), Int(100), Str("b")}});
  j->Right({{Int(5), Int(105), Int(50)}});
  EXPECT_EQ(StoredKeys(*j), 3u);  // L5, L6, R5

  auto key_encoder = KeyEncoder::Create({DataType::Int()}, {0});
  ASSERT_TRUE(key_encoder.ok());
  auto state_key = [&](char side, int64_t k) {
    ChangelogBatch b({DataType::Int()});
    b.AppendValues({Int(k)}, kI);
    const std::string bytes = key_encoder->EncodeToString(b, 0);
    std::string key;
    AppendStateKey(KeyGroupOf(bytes, kMaxParallelism), state_id, std::string(1, side) + bytes,
                   &key);
    return key;
  };
  const std::vector<std::string> keys = {state_key('L', 5), state_key('R', 5), state_key('R', 6)};
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  StateReadResult read;
  ASSERT_TRUE(backend_->MultiGet(views, &read).ok());
  ASSERT_TRUE(read.found(0));
  EXPECT_TRUE(read.found(1));
  EXPECT_FALSE(read.found(2));
  IntervalJoinRecords left(/*matched_flags=*/true);
  ASSERT_TRUE(left.Decode(read.value(0)).ok());
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left.at(0).time, 100);
  EXPECT_TRUE(left.at(0).matched);
  EXPECT_EQ(left.at(1).time, 300);
  EXPECT_FALSE(left.at(1).matched);
  IntervalJoinRecords right(/*matched_flags=*/false);
  ASSERT_TRUE(right.Decode(read.value(1)).ok());
  ASSERT_EQ(right.size(), 1u);
  EXPECT_EQ(right.at(0).time, 105);
}

TEST_F(IntervalJoinTest, ACorruptStateValueIsAnError) {
  IntervalJoinRecords list(/*matched_flags=*/true);
  list.Add(200, "r2", true);
  list.Add(-5, "r1", false);
  std::string value;
  list.Encode(&value);
  IntervalJoinRecords other(/*matched_flags=*/false);
  EXPECT_EQ(other.Decode(value).code(), absl::StatusCode::kDataLoss);  // another layout
  EXPECT_EQ(list.Decode(value.substr(0, value.size() - 1)).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(list.Decode(value + "x").code(), absl::StatusCode::kDataLoss);
  ASSERT_TRUE(list.Decode(value).ok());
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list.at(0).time, -5);
  EXPECT_EQ(list.at(0).row, "r1");
  EXPECT_FALSE(list.at(0).matched);
  EXPECT_EQ(list.at(1).time, 200);
  EXPECT_TRUE(list.at(1).matched);
  EXPECT_EQ(list.Range(-5, 199), std::make_pair(size_t{0}, size_t{1}));
  EXPECT_EQ(list.Range(-4, 200), std::make_pair(size_t{1}, size_t{2}));
  EXPECT_EQ(list.Range(201, 300), std::make_pair(size_t{2}, size_t{2}));
}

// A checkpoint (SnapshotState plus a snapshot of the store) in the middle: an operator restored
// from it has the rows and the timers, so it still joins them and pads them when the watermark
// passes, and it sees nothing of what came after the checkpoint.
TEST_F(IntervalJoinTest, RestoresStateAndTimersFromACheckpoint) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto j = Make(Spec(StreamingJoinType::kFullOuter, -10, 5), cache);
    const uint32_t state_id = j->op->state_table()->state_id();
    j->Left({{Int(1), Int(100), Str("a")}, {Int(2), Int(100), Str("b")}});  // expire at 110
    j->Right({{Int(2), Int(98), Int(20)}, {Int(3), Int(101), Int(30)}});    // at 103 and 106
    EXPECT_THAT(j->Watermark(104), ElementsAre("W94"));  // the matched R2 is gone
    const int batches = j->out.batches;
    OperatorSnapshot snapshot;
    ASSERT_TRUE(j->op->SnapshotState(1, &snapshot).ok());
    EXPECT_THAT(j->out.Take(), IsEmpty());  // a snapshot emits nothing
    EXPECT_EQ(j->out.batches, batches);
    const std::string chk = absl::StrCat(dir_, "/chk-", cache);
    ASSERT_TRUE(backend_->Snapshot(chk).ok());
    // After the checkpoint: a row the restored instance must not see.
    EXPECT_THAT(j->Right({{Int(1), Int(100), Int(10)}}), ElementsAre("+I[1, 100, a, 1, 100, 10]"));

    auto restored = KeyedStateBackend::OpenFromSnapshot(
        chk, absl::StrCat(dir_, "/restored-", cache), std::make_shared<SharedStateResources>());
    ASSERT_TRUE(restored.ok()) << restored.status();
    auto again =
        Make(Spec(StreamingJoinType::kFullOuter, -10, 5), cache, restored->get(), state_id);
    ASSERT_TRUE(again->op->RestoreState(snapshot).ok());
    EXPECT_EQ(again->op->current_watermark(), 104);
    EXPECT_EQ(again->op->stored_rows(), 3u);
    EXPECT_EQ(again->op->pending_timers(), 3u);
    // Rows in state still join.
    EXPECT_THAT(again->Right({{Int(2), Int(105), Int(21)}}),
                ElementsAre("+I[2, 100, b, 2, 105, 21]"));
    // ... and expire, padded, on the restored timers.
    EXPECT_THAT(again->Watermark(106), ElementsAre("+I[null, null, null, 3, 101, 30]", "W96"));
    EXPECT_THAT(again->Watermark(110), ElementsAre("+I[1, 100, a, null, null, null]", "W100"));
    EXPECT_EQ(again->op->stored_rows(), 0u);
    EXPECT_EQ(again->op->pending_timers(), 0u);
    EXPECT_TRUE(again->op->FlushState().ok());
    EXPECT_EQ(*(*restored)->CountKeys(state_id), 0u);
    // A malformed snapshot is refused.
    OperatorSnapshot bad;
    bad.Put("timers", "\x01");
    EXPECT_FALSE(again->op->RestoreState(bad).ok());
    again.reset();
    restored->reset();
  }
}

// ---------------------------------------------------------------------------------------------
// Randomized: rows of both sides (NULL keys, duplicates, rows behind the watermark, late rows)
// and watermarks, fed to the operator and to a model of its semantics; after every step the
// output multiset, the output watermark, the rows in state and the timers must agree. A run may
// checkpoint and continue on a restored copy.

struct RandomCase {
  StreamingJoinType type;
  int64_t lower, upper;
  bool condition;  // l.v <= r.v
  size_t cache;
  bool restore;
};

struct ModelRow {
  int side;
  std::optional<int64_t> key;
  int64_t time;
  std::optional<int64_t> value;
  bool stored = false;
  bool matched = false;
  bool gone = false;
};

std::string Cell(const std::optional<int64_t>& v) {
  return v.has_value() ? std::to_string(*v) : "null";
}
std::string Cells(const ModelRow& x) {
  return absl::StrCat(Cell(x.key), ", ", FormatValue(Value::Int(x.time), DataType::Timestamp(3)),
                      ", ", Cell(x.value));
}
std::string Padded(const ModelRow& x) {
  return x.side == 0 ? absl::StrCat("+I[", Cells(x), ", null, null, null]")
                     : absl::StrCat("+I[null, null, null, ", Cells(x), "]");
}

// Replays the operator's state: what it emits per step, and what it holds.
class IntervalJoinModel {
 public:
  explicit IntervalJoinModel(const RandomCase& c) : c_(c) {
    delay_ = std::max<int64_t>({-c.lower, c.upper, 0});
  }

  bool outer(int side) const {
    return c_.type == StreamingJoinType::kFullOuter ||
           c_.type == (side == 0 ? StreamingJoinType::kLeftOuter : StreamingJoinType::kRightOuter);
  }
  int64_t Expiry(int side, int64_t t) const { return side == 0 ? t - c_.lower : t + c_.upper; }

  // What the operator emits for one batch of `side`.
  std::vector<std::string> Arrive(int side, const std::vector<ModelRow>& batch) {
    std::vector<std::string> out;
    for (ModelRow x : batch) {
      const int64_t expiry = Expiry(x.side, x.time);
      const int64_t slack =
          side == 0 ? std::max<int64_t>(c_.upper, 0) : std::max<int64_t>(-c_.lower, 0);
      const bool started = watermark_ != kMinWatermark;
      if (started && expiry <= watermark_ - slack) {
        if (outer(side)) {
          out.push_back(Padded(x));
        } else {
          ++late_;
        }
        continue;
      }
      if (x.key.has_value()) {
        for (ModelRow& y : rows_) {
          if (y.side == side || !y.stored || y.gone || y.key != x.key) continue;
          const ModelRow& l = side == 0 ? x : y;
          const ModelRow& r = side == 0 ? y : x;
          const int64_t d = l.time - r.time;
          if (d < c_.lower || d > c_.upper) continue;
          if (c_.condition && !(l.value && r.value && *l.value <= *r.value)) continue;
          out.push_back(absl::StrCat("+I[", Cells(l), ", ", Cells(r), "]"));
          x.matched = y.matched = true;
        }
        if (!started || expiry > watermark_) {
          x.stored = true;
          rows_.push_back(x);
          continue;
        }
      }
      if (!x.matched && outer(side)) out.push_back(Padded(x));
    }
    return out;
  }

  // What the operator emits for a watermark.
  std::vector<std::string> Advance(int64_t w) {
    std::vector<std::string> out;
    if (w > watermark_) {
      watermark_ = w;
      Expire(w, &out);
    }
    out_watermark_ = std::max(out_watermark_, watermark_ - delay_);
    out.push_back(absl::StrCat("W", out_watermark_));
    return out;
  }
  std::vector<std::string> Finish() {
    std::vector<std::string> out;
    Expire(kMaxWatermark, &out);
    return out;
  }

  uint64_t stored() const {
    uint64_t n = 0;
    for (const ModelRow& x : rows_) n += x.stored && !x.gone;
    return n;
  }
  size_t timers() const {
    std::set<std::pair<int, int64_t>> values;
    for (const ModelRow& x : rows_) {
      if (x.stored && !x.gone) values.insert({x.side, *x.key});
    }
    return values.size();
  }
  uint64_t late() const { return late_; }
  int64_t watermark() const { return watermark_; }

 private:
  void Expire(int64_t w, std::vector<std::string>* out) {
    for (ModelRow& y : rows_) {
      if (!y.stored || y.gone || Expiry(y.side, y.time) > w) continue;
      y.gone = true;
      if (!y.matched && outer(y.side)) out->push_back(Padded(y));
    }
  }
  RandomCase c_;
  int64_t delay_ = 0;
  int64_t watermark_ = kMinWatermark;
  int64_t out_watermark_ = kMinWatermark;
  std::vector<ModelRow> rows_;
  uint64_t late_ = 0;
};

// A row as it arrived: in which batch (rows of one batch are one side's), and the watermark then.
struct Arrival {
  ModelRow row;
  int batch = 0;
  int64_t watermark = kMinWatermark;
};

// The whole run's output from the rule itself, over every pair of rows: a left and a right row
// join when their keys are equal (not NULL), their times are in the bounds and the condition
// holds, and the one that came first was still in state when the other came (the watermark then
// was below its expiry); an outer side's row that joined nothing is emitted padded. Rows that
// were late when they came are counted into `late` (on an inner side).
std::vector<std::string> NestedLoopJoin(const RandomCase& c, const std::vector<Arrival>& rows,
                                        uint64_t* late) {
  auto outer = [&](int side) {
    return c.type == StreamingJoinType::kFullOuter ||
           c.type == (side == 0 ? StreamingJoinType::kLeftOuter : StreamingJoinType::kRightOuter);
  };
  auto expiry = [&](const ModelRow& x) {
    return x.side == 0 ? x.time - c.lower : x.time + c.upper;
  };
  std::vector<std::string> out;
  std::vector<bool> joined(rows.size(), false);
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < rows.size(); ++j) {
      const ModelRow& l = rows[i].row;
      const ModelRow& r = rows[j].row;
      if (l.side != 0 || r.side != 1 || !l.key || l.key != r.key) continue;
      if (l.time - r.time < c.lower || l.time - r.time > c.upper) continue;
      if (c.condition && !(l.value && r.value && *l.value <= *r.value)) continue;
      const Arrival& first = rows[i].batch < rows[j].batch ? rows[i] : rows[j];
      const Arrival& second = rows[i].batch < rows[j].batch ? rows[j] : rows[i];
      if (second.watermark != kMinWatermark && second.watermark >= expiry(first.row)) continue;
      out.push_back(absl::StrCat("+I[", Cells(l), ", ", Cells(r), "]"));
      joined[i] = joined[j] = true;
    }
  }
  *late = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ModelRow& x = rows[i].row;
    if (outer(x.side) && !joined[i]) out.push_back(Padded(x));
    const int64_t slack =
        x.side == 0 ? std::max<int64_t>(c.upper, 0) : std::max<int64_t>(-c.lower, 0);
    if (!outer(x.side) && rows[i].watermark != kMinWatermark &&
        expiry(x) <= rows[i].watermark - slack) {
      ++*late;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The operator's emitted events as the model writes them: rows as printed, watermarks "W<millis>".
class RawLog : public Output {
 public:
  absl::Status Emit(const ChangelogBatch& batch) override {
    for (size_t r = 0; r < batch.num_rows(); ++r) events.push_back(FormatRow(batch, r));
    return absl::OkStatus();
  }
  absl::Status EmitWatermark(const Watermark& w) override {
    events.push_back(absl::StrCat("W", w.millis));
    return absl::OkStatus();
  }
  std::vector<std::string> Take() { return std::exchange(events, {}); }
  std::vector<std::string> events;
};

// Rows in any order, each watermark after the rows before it.
void ExpectSameStep(std::vector<std::string> actual, std::vector<std::string> expected) {
  auto normalize = [](std::vector<std::string>& events) {
    auto begin = events.begin();
    for (auto it = events.begin(); it != events.end(); ++it) {
      if ((*it)[0] == 'W') {
        std::sort(begin, it);
        begin = it + 1;
      }
    }
    std::sort(begin, events.end());
  };
  normalize(actual);
  normalize(expected);
  EXPECT_EQ(actual, expected);
}

class IntervalJoinRandomTest : public IntervalJoinTest {
 protected:
  void Run(const RandomCase& c, uint32_t seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    IntervalJoinSpec spec;
    spec.type = c.type;
    spec.left_types = {DataType::Int(), DataType::Timestamp(3), DataType::BigInt()};
    spec.right_types = {DataType::Int(), DataType::Timestamp(3), DataType::BigInt()};
    spec.left_keys = {0};
    spec.right_keys = {0};
    spec.left_time = 1;
    spec.right_time = 1;
    spec.lower_bound_ms = c.lower;
    spec.upper_bound_ms = c.upper;
    if (c.condition) {
      spec.condition =
          Call("<=", {MakeColumnRef(2, DataType::BigInt()), MakeColumnRef(5, DataType::BigInt())});
    }
    auto created = IntervalJoinOperator::Create(spec);
    ASSERT_TRUE(created.ok()) << created.status();
    std::unique_ptr<IntervalJoinOperator> op = std::move(created).value();
    const uint32_t state_id = ++next_state_id_;
    RawLog out;
    auto open = [&](IntervalJoinOperator* o, KeyedStateBackend* backend) {
      OperatorContext ctx;
      ctx.state_id = state_id;
      ctx.state = backend;
      ctx.state_cache_bytes = c.cache;
      ASSERT_TRUE(o->Open(ctx).ok());
      o->set_output(&out);
    };
    open(op.get(), backend_.get());
    std::unique_ptr<KeyedStateBackend> restored_backend;
    const int restore_step = c.restore ? 20 + pick(80) : -1;

    IntervalJoinModel model(c);
    std::vector<Arrival> arrivals;
    std::vector<std::string> all_rows;  // every row the operator emitted
    auto take = [&] {
      std::vector<std::string> events = out.Take();
      for (const std::string& e : events) {
        if (e[0] != 'W') all_rows.push_back(e);
      }
      return events;
    };
    // Late rows are a metric, not state: a restored instance counts from 0.
    uint64_t late_before_restore = 0;
    const std::vector<DataType> types = spec.left_types;
    for (int step = 0; step < 150; ++step) {
      SCOPED_TRACE(absl::StrCat("step ", step));
      if (step == restore_step) {
        OperatorSnapshot snapshot;
        ASSERT_TRUE(op->SnapshotState(step, &snapshot).ok());
        ASSERT_THAT(out.Take(), IsEmpty());
        const std::string chk = absl::StrCat(dir_, "/random-chk-", state_id);
        ASSERT_TRUE(backend_->Snapshot(chk).ok());
        ASSERT_EQ(op->late_rows_dropped(), model.late());
        late_before_restore = model.late();
        ASSERT_TRUE(op->Close().ok());
        auto reopened =
            KeyedStateBackend::OpenFromSnapshot(chk, absl::StrCat(dir_, "/random-", state_id),
                                                std::make_shared<SharedStateResources>());
        ASSERT_TRUE(reopened.ok()) << reopened.status();
        op = std::move(IntervalJoinOperator::Create(spec)).value();
        open(op.get(), reopened->get());
        restored_backend = std::move(reopened).value();
        ASSERT_TRUE(op->RestoreState(snapshot).ok());
      }
      const int64_t base = model.watermark() == kMinWatermark ? 1000 : model.watermark();
      if (pick(10) < 3) {
        const int64_t w = model.watermark() == kMinWatermark ? 1000 : base + pick(16) - 2;
        ASSERT_TRUE(op->ProcessWatermark(Watermark{w, false}).ok());
        ExpectSameStep(take(), model.Advance(w));
      } else {
        const int side = pick(2);
        std::vector<ModelRow> rows;
        ChangelogBatch batch(types);
        for (int r = pick(8); r >= 0; --r) {
          ModelRow x;
          x.side = side;
          if (pick(8) != 0) x.key = pick(4);
          x.time = base + pick(70) - 30;
          if (pick(8) != 0) x.value = pick(6);
          batch.AppendValues(
              {x.key ? Int(*x.key) : Null(), Int(x.time), x.value ? Int(*x.value) : Null()}, kI);
          rows.push_back(x);
        }
        ASSERT_TRUE(op->Process(side, batch).ok());
        for (const ModelRow& x : rows) arrivals.push_back({x, step, model.watermark()});
        ExpectSameStep(take(), model.Arrive(side, rows));
      }
      ASSERT_EQ(op->stored_rows(), model.stored());
      ASSERT_EQ(op->pending_timers(), model.timers());
    }
    ASSERT_TRUE(op->Finish().ok());
    ExpectSameStep(take(), model.Finish());
    uint64_t late = 0;
    std::sort(all_rows.begin(), all_rows.end());
    EXPECT_EQ(all_rows, NestedLoopJoin(c, arrivals, &late));
    EXPECT_EQ(late, model.late());
    EXPECT_EQ(op->late_rows_dropped(), model.late() - late_before_restore);
    EXPECT_EQ(op->stored_rows(), 0u);
    EXPECT_EQ(op->pending_timers(), 0u);
    ASSERT_TRUE(op->FlushState().ok());
    KeyedStateBackend* backend = restored_backend ? restored_backend.get() : backend_.get();
    EXPECT_EQ(*backend->CountKeys(state_id), 0u);
    op.reset();
  }
};

TEST_F(IntervalJoinRandomTest, AgainstAModelOfTheSemantics) {
  const char* env = std::getenv("EDDY_TEST_SEED");
  const uint32_t base_seed = env != nullptr ? static_cast<uint32_t>(std::strtoull(env, nullptr, 10))
                                            : std::random_device{}();
  std::cout << "seed " << base_seed << " (EDDY_TEST_SEED=" << base_seed << " replays this run)"
            << std::endl;
  SCOPED_TRACE(absl::StrCat("seed ", base_seed));
  std::mt19937 rng(base_seed);
  for (StreamingJoinType type : {StreamingJoinType::kInner, StreamingJoinType::kLeftOuter,
                                 StreamingJoinType::kRightOuter, StreamingJoinType::kFullOuter}) {
    for (int variant = 0; variant < 8; ++variant) {
      RandomCase c;
      c.type = type;
      c.lower = static_cast<int64_t>(rng() % 31) - 20;
      c.upper = c.lower + static_cast<int64_t>(rng() % 31);
      c.condition = (variant & 1) != 0;
      c.restore = (variant & 2) != 0;
      c.cache = (variant & 4) != 0 ? size_t{1} << 16 : 0;
      const uint32_t seed = rng();
      SCOPED_TRACE(absl::StrCat(StreamingJoinTypeName(type), " bounds [", c.lower, ", ", c.upper,
                                "] condition ", c.condition, " restore ", c.restore, " cache ",
                                c.cache, " case seed ", seed));
      Run(c, seed);
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
}  // namespace eddy
