// StreamingJoinOperator: exact changelogs of every join type (null padding and its retraction,
// updates, duplicates, unique keys, NULL and null-safe keys, residual conditions, SEMI/ANTI in both
// input orders), batching, state TTL, snapshot/restore, and a randomized comparison of the folded
// changelog with a nested-loop join of the inputs' final contents.
#include "worker/operators/streaming_join.h"

#include <unistd.h>

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
#include "worker/operators/join_record_list.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

constexpr RowKind kI = RowKind::kInsert;
constexpr RowKind kUB = RowKind::kUpdateBefore;
constexpr RowKind kUA = RowKind::kUpdateAfter;
constexpr RowKind kD = RowKind::kDelete;

Value Int(int64_t v) { return Value::Int(v); }
Value Str(std::string s) { return Value::String(std::move(s)); }
Value Null() { return Value::Null(); }

using Row = std::pair<RowKind, std::vector<Value>>;

ChangelogBatch Batch(const std::vector<DataType>& types, const std::vector<Row>& rows) {
  ChangelogBatch b(types);
  for (const auto& [kind, values] : rows) b.AppendValues(values, kind);
  return b;
}

// Left (k INT, a STRING), right (k INT, b BIGINT), joined on k.
StreamingJoinSpec Spec(StreamingJoinType type) {
  StreamingJoinSpec spec;
  spec.type = type;
  spec.left_types = {DataType::Int(), DataType::String()};
  spec.right_types = {DataType::Int(), DataType::BigInt()};
  spec.left_keys = {0};
  spec.right_keys = {0};
  return spec;
}

ExprPtr Call(const char* f, std::vector<ExprPtr> args) {
  auto e = MakeCall(f, std::move(args));
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? *e : nullptr;
}

// An operator, its output, and its inputs' types.
struct Join {
  std::unique_ptr<StreamingJoinOperator> op;
  CollectingOutput out;
  std::vector<DataType> left_types, right_types;

  // Feeds one batch to an input and returns what it emitted.
  std::vector<std::string> Left(const std::vector<Row>& rows) { return Feed(0, rows); }
  std::vector<std::string> Right(const std::vector<Row>& rows) { return Feed(1, rows); }
  std::vector<std::string> Feed(int input, const std::vector<Row>& rows) {
    absl::Status s = op->Process(input, Batch(input == 0 ? left_types : right_types, rows));
    EXPECT_TRUE(s.ok()) << s;
    return out.Take();
  }
};

class StreamingJoinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = ::testing::TempDir() + "/eddy_join_" + std::to_string(::getpid()) + "_" +
           std::to_string(counter++);
    std::filesystem::remove_all(dir_);  // a store opens whatever it finds
    StateBackendOptions options;
    options.now_ms = [this] { return now_ms_.load(); };
    auto b = KeyedStateBackend::Open(dir_ + "/state", options);
    ASSERT_TRUE(b.ok()) << b.status();
    backend_ = std::move(b).value();
  }
  void TearDown() override {
    backend_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Creates and opens an operator (a fresh state id unless `state_id` is given).
  std::unique_ptr<Join> Make(StreamingJoinSpec spec, size_t state_cache_bytes = 0,
                             KeyedStateBackend* backend = nullptr, uint32_t state_id = 0) {
    auto j = std::make_unique<Join>();
    j->left_types = spec.left_types;
    j->right_types = spec.right_types;
    auto op = StreamingJoinOperator::Create(std::move(spec));
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

  std::string dir_;
  std::atomic<int64_t> now_ms_{1'000'000};
  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
};

TEST_F(StreamingJoinTest, OutputTypesPadTheOuterJoinsOtherSide) {
  auto types = [](StreamingJoinType t) {
    StreamingJoinSpec spec = Spec(t);
    for (DataType& d : spec.left_types) d = d.WithNullable(false);
    for (DataType& d : spec.right_types) d = d.WithNullable(false);
    auto op = StreamingJoinOperator::Create(spec);
    EXPECT_TRUE(op.ok());
    std::string s;
    for (const DataType& d : (*op)->output_types()) absl::StrAppend(&s, d.ToString(), ";");
    return s;
  };
  EXPECT_EQ(types(StreamingJoinType::kInner),
            "INT NOT NULL;STRING NOT NULL;INT NOT NULL;BIGINT NOT NULL;");
  EXPECT_EQ(types(StreamingJoinType::kLeftOuter), "INT NOT NULL;STRING NOT NULL;INT;BIGINT;");
  EXPECT_EQ(types(StreamingJoinType::kRightOuter), "INT;STRING;INT NOT NULL;BIGINT NOT NULL;");
  EXPECT_EQ(types(StreamingJoinType::kFullOuter), "INT;STRING;INT;BIGINT;");
  EXPECT_EQ(types(StreamingJoinType::kSemi), "INT NOT NULL;STRING NOT NULL;");
  EXPECT_EQ(types(StreamingJoinType::kAnti), "INT NOT NULL;STRING NOT NULL;");
}

TEST_F(StreamingJoinTest, CreateRejectsBadSpecs) {
  auto rejected = [](StreamingJoinSpec spec) {
    return !StreamingJoinOperator::Create(std::move(spec)).ok();
  };
  StreamingJoinSpec spec = Spec(StreamingJoinType::kInner);
  spec.right_keys = {};
  EXPECT_TRUE(rejected(spec));  // key counts differ
  spec = Spec(StreamingJoinType::kInner);
  spec.left_keys = {2};
  EXPECT_TRUE(rejected(spec));  // out of range
  spec = Spec(StreamingJoinType::kInner);
  spec.right_keys = {1};
  EXPECT_TRUE(rejected(spec));  // INT = BIGINT: different key bytes
  spec = Spec(StreamingJoinType::kInner);
  spec.null_safe = {true, false};
  EXPECT_TRUE(rejected(spec));
  spec = Spec(StreamingJoinType::kInner);
  spec.right_unique_key = {5};
  EXPECT_TRUE(rejected(spec));
  spec = Spec(StreamingJoinType::kInner);
  spec.condition = MakeColumnRef(3, DataType::BigInt());
  EXPECT_TRUE(rejected(spec));  // not BOOLEAN
  spec = Spec(StreamingJoinType::kInner);
  spec.condition = MakeColumnRef(4, DataType::Boolean());
  EXPECT_TRUE(rejected(spec));  // no such column
  spec = Spec(StreamingJoinType::kInner);
  spec.state_ttl_ms = -1;
  EXPECT_TRUE(rejected(spec));
  spec = Spec(StreamingJoinType::kInner);
  spec.left_types[1] = DataType::Varchar(5);
  spec.right_types[1] = DataType::String();
  spec.left_keys = {0, 1};
  spec.right_keys = {0, 1};
  EXPECT_FALSE(rejected(spec));  // VARCHAR(5) = STRING: the same bytes
}

TEST_F(StreamingJoinTest, Inner) {
  auto j = Make(Spec(StreamingJoinType::kInner));
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("a")}}}), IsEmpty());
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}), ElementsAre("+I[1, a, 1, 10]"));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(20)}}, {kI, {Int(2), Int(30)}}}),
              ElementsAre("+I[1, a, 1, 20]"));
  EXPECT_THAT(j->Left({{kI, {Int(2), Str("b")}}, {kI, {Int(3), Str("c")}}}),
              ElementsAre("+I[2, b, 2, 30]"));
  EXPECT_THAT(j->Left({{kD, {Int(1), Str("a")}}}),
              ElementsAre("-D[1, a, 1, 10]", "-D[1, a, 1, 20]"));
  EXPECT_THAT(j->Right({{kD, {Int(2), Int(30)}}}), ElementsAre("-D[2, b, 2, 30]"));
  // A retraction of a row the side does not hold is ignored.
  EXPECT_THAT(j->Left({{kD, {Int(1), Str("a")}}}), IsEmpty());
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(99)}}}), IsEmpty());
}

TEST_F(StreamingJoinTest, InnerPassesUpdatesOnWithTheirKinds) {
  auto j = Make(Spec(StreamingJoinType::kInner));
  j->Left({{kI, {Int(1), Str("a")}}});
  j->Right({{kI, {Int(1), Int(10)}}});
  EXPECT_THAT(j->Left({{kUB, {Int(1), Str("a")}}, {kUA, {Int(1), Str("a2")}}}),
              ElementsAre("-U[1, a, 1, 10]", "+U[1, a2, 1, 10]"));
  EXPECT_THAT(j->Right({{kUB, {Int(1), Int(10)}}, {kUA, {Int(1), Int(11)}}}),
              ElementsAre("-U[1, a2, 1, 10]", "+U[1, a2, 1, 11]"));
  // An update that moves a row to another key.
  j->Right({{kI, {Int(2), Int(20)}}});
  EXPECT_THAT(j->Left({{kUB, {Int(1), Str("a2")}}, {kUA, {Int(2), Str("a2")}}}),
              ElementsAre("-U[1, a2, 1, 11]", "+U[2, a2, 2, 20]"));
}

TEST_F(StreamingJoinTest, AnUpsertConsumerGetsNoUpdateBefore) {
  // Updates that keep their join key: the +U replaces the row by the upsert key downstream.
  StreamingJoinSpec spec = Spec(StreamingJoinType::kInner);
  spec.omit_update_before = true;
  auto j = Make(spec);
  j->Left({{kI, {Int(1), Str("a")}}});
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}), ElementsAre("+I[1, a, 1, 10]"));
  EXPECT_THAT(j->Left({{kUB, {Int(1), Str("a")}}, {kUA, {Int(1), Str("a2")}}}),
              ElementsAre("+U[1, a2, 1, 10]"));
  EXPECT_THAT(j->Right({{kUB, {Int(1), Int(10)}}, {kUA, {Int(1), Int(11)}}}),
              ElementsAre("+U[1, a2, 1, 11]"));
  // Deletes stay.
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(11)}}}), ElementsAre("-D[1, a2, 1, 11]"));

  spec = Spec(StreamingJoinType::kSemi);
  spec.omit_update_before = true;
  auto semi = Make(spec);
  semi->Right({{kI, {Int(2), Int(30)}}});
  semi->Left({{kI, {Int(2), Str("b")}}});
  EXPECT_THAT(semi->Left({{kUB, {Int(2), Str("b")}}, {kUA, {Int(2), Str("c")}}}),
              ElementsAre("+U[2, c]"));
}

TEST_F(StreamingJoinTest, LeftOuter) {
  auto j = Make(Spec(StreamingJoinType::kLeftOuter));
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("a")}}}), ElementsAre("+I[1, a, null, null]"));
  // The first match takes the padded row back.
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}),
              ElementsAre("-D[1, a, null, null]", "+I[1, a, 1, 10]"));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(20)}}}), ElementsAre("+I[1, a, 1, 20]"));
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(10)}}}), ElementsAre("-D[1, a, 1, 10]"));
  // The last match gone: padded again.
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(20)}}}),
              ElementsAre("-D[1, a, 1, 20]", "+I[1, a, null, null]"));
  // A right row without a left one emits nothing; a left row arriving after it joins directly.
  EXPECT_THAT(j->Right({{kI, {Int(2), Int(30)}}}), IsEmpty());
  EXPECT_THAT(j->Left({{kI, {Int(2), Str("b")}}}), ElementsAre("+I[2, b, 2, 30]"));
  // Left retractions: matched (-D whatever the input kind), and padded.
  EXPECT_THAT(j->Left({{kUB, {Int(2), Str("b")}}}), ElementsAre("-D[2, b, 2, 30]"));
  EXPECT_THAT(j->Left({{kD, {Int(1), Str("a")}}}), ElementsAre("-D[1, a, null, null]"));
  // The right row now has no partner: nothing to emit (the right side is not outer).
  EXPECT_THAT(j->Right({{kD, {Int(2), Int(30)}}}), IsEmpty());
}

TEST_F(StreamingJoinTest, RightOuter) {
  auto j = Make(Spec(StreamingJoinType::kRightOuter));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}), ElementsAre("+I[null, null, 1, 10]"));
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("a")}}}),
              ElementsAre("-D[null, null, 1, 10]", "+I[1, a, 1, 10]"));
  EXPECT_THAT(j->Left({{kUB, {Int(1), Str("a")}}, {kUA, {Int(1), Str("b")}}}),
              ElementsAre("-U[1, a, 1, 10]", "+I[null, null, 1, 10]", "-D[null, null, 1, 10]",
                          "+I[1, b, 1, 10]"));
  EXPECT_THAT(j->Right({{kUB, {Int(1), Int(10)}}, {kUA, {Int(1), Int(11)}}}),
              ElementsAre("-D[1, b, 1, 10]", "+I[1, b, 1, 11]"));
  EXPECT_THAT(j->Left({{kD, {Int(1), Str("b")}}}),
              ElementsAre("-D[1, b, 1, 11]", "+I[null, null, 1, 11]"));
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(11)}}}), ElementsAre("-D[null, null, 1, 11]"));
}

TEST_F(StreamingJoinTest, FullOuter) {
  auto j = Make(Spec(StreamingJoinType::kFullOuter));
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("a")}}}), ElementsAre("+I[1, a, null, null]"));
  EXPECT_THAT(j->Right({{kI, {Int(2), Int(20)}}}), ElementsAre("+I[null, null, 2, 20]"));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}),
              ElementsAre("-D[1, a, null, null]", "+I[1, a, 1, 10]"));
  EXPECT_THAT(j->Left({{kI, {Int(2), Str("b")}}}),
              ElementsAre("-D[null, null, 2, 20]", "+I[2, b, 2, 20]"));
  EXPECT_THAT(j->Left({{kI, {Int(2), Str("c")}}}), ElementsAre("+I[2, c, 2, 20]"));
  EXPECT_THAT(j->Left({{kD, {Int(2), Str("b")}}}), ElementsAre("-D[2, b, 2, 20]"));
  EXPECT_THAT(j->Left({{kD, {Int(2), Str("c")}}}),
              ElementsAre("-D[2, c, 2, 20]", "+I[null, null, 2, 20]"));
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(10)}}}),
              ElementsAre("-D[1, a, 1, 10]", "+I[1, a, null, null]"));
  EXPECT_THAT(j->Right({{kD, {Int(2), Int(20)}}}), ElementsAre("-D[null, null, 2, 20]"));
  EXPECT_THAT(j->Left({{kD, {Int(1), Str("a")}}}), ElementsAre("-D[1, a, null, null]"));
}

TEST_F(StreamingJoinTest, DuplicatesAreCounted) {
  auto j = Make(Spec(StreamingJoinType::kLeftOuter));
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("a")}}, {kI, {Int(1), Str("a")}}}),
              ElementsAre("+I[1, a, null, null]", "+I[1, a, null, null]"));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}),
              ElementsAre("-D[1, a, null, null]", "-D[1, a, null, null]", "+I[1, a, 1, 10]",
                          "+I[1, a, 1, 10]"));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}),
              ElementsAre("+I[1, a, 1, 10]", "+I[1, a, 1, 10]"));
  EXPECT_THAT(j->Left({{kD, {Int(1), Str("a")}}}),
              ElementsAre("-D[1, a, 1, 10]", "-D[1, a, 1, 10]"));
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(10)}}}), ElementsAre("-D[1, a, 1, 10]"));
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(10)}}}),
              ElementsAre("-D[1, a, 1, 10]", "+I[1, a, null, null]"));
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(10)}}}), IsEmpty());  // none left
  // One state value per (side, join key): the left's for key 1 (the right's is gone).
  ASSERT_TRUE(j->op->FlushState().ok());
  EXPECT_EQ(*backend_->CountKeys(j->op->state_table()->state_id()), 1u);
}

TEST_F(StreamingJoinTest, UniqueKeyStateKeepsOneRowPerKey) {
  StreamingJoinSpec spec = Spec(StreamingJoinType::kInner);
  spec.left_unique_key = {1};  // a
  auto j = Make(spec);
  j->Left({{kI, {Int(1), Str("a")}}, {kI, {Int(1), Str("a")}}});  // the second replaces the first
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}), ElementsAre("+I[1, a, 1, 10]"));
  EXPECT_THAT(j->Left({{kD, {Int(1), Str("a")}}}), ElementsAre("-D[1, a, 1, 10]"));
  EXPECT_THAT(j->Left({{kD, {Int(1), Str("a")}}}), IsEmpty());  // gone

  // Without the unique key the same input is a multiset.
  auto m = Make(Spec(StreamingJoinType::kInner));
  m->Left({{kI, {Int(1), Str("a")}}, {kI, {Int(1), Str("a")}}});
  EXPECT_THAT(m->Right({{kI, {Int(1), Int(10)}}}),
              ElementsAre("+I[1, a, 1, 10]", "+I[1, a, 1, 10]"));

  // A unique key on an outer side, whose rows change (the key columns are the unique key).
  spec = Spec(StreamingJoinType::kFullOuter);
  spec.right_unique_key = {0};
  auto f = Make(spec);
  EXPECT_THAT(f->Right({{kI, {Int(1), Int(10)}}}), ElementsAre("+I[null, null, 1, 10]"));
  EXPECT_THAT(f->Left({{kI, {Int(1), Str("a")}}}),
              ElementsAre("-D[null, null, 1, 10]", "+I[1, a, 1, 10]"));
  EXPECT_THAT(f->Right({{kUB, {Int(1), Int(10)}}, {kUA, {Int(1), Int(11)}}}),
              ElementsAre("-D[1, a, 1, 10]", "+I[1, a, null, null]", "-D[1, a, null, null]",
                          "+I[1, a, 1, 11]"));
  EXPECT_THAT(f->Left({{kD, {Int(1), Str("a")}}}),
              ElementsAre("-D[1, a, 1, 11]", "+I[null, null, 1, 11]"));
}

TEST_F(StreamingJoinTest, NullKeysMatchNothingButOuterRowsArePadded) {
  for (StreamingJoinType type :
       {StreamingJoinType::kInner, StreamingJoinType::kLeftOuter, StreamingJoinType::kFullOuter}) {
    SCOPED_TRACE(StreamingJoinTypeName(type));
    auto j = Make(Spec(type));
    const bool left_outer = type != StreamingJoinType::kInner;
    const bool right_outer = type == StreamingJoinType::kFullOuter;
    std::vector<std::string> padded_left;
    if (left_outer) padded_left = {"+I[null, a, null, null]"};
    std::vector<std::string> padded_right;
    if (right_outer) padded_right = {"+I[null, null, null, 10]"};
    EXPECT_THAT(j->Left({{kI, {Null(), Str("a")}}}), ElementsAreArray(padded_left));
    EXPECT_THAT(j->Right({{kI, {Null(), Int(10)}}}), ElementsAreArray(padded_right));
    std::vector<std::string> unpadded_left;
    if (left_outer) unpadded_left = {"-D[null, a, null, null]"};
    EXPECT_THAT(j->Left({{kD, {Null(), Str("a")}}}), ElementsAreArray(unpadded_left));
  }
}

TEST_F(StreamingJoinTest, NullSafeKeysMatchNull) {
  StreamingJoinSpec spec = Spec(StreamingJoinType::kLeftOuter);
  spec.null_safe = {true};
  auto j = Make(spec);
  EXPECT_THAT(j->Left({{kI, {Null(), Str("a")}}}), ElementsAre("+I[null, a, null, null]"));
  EXPECT_THAT(j->Right({{kI, {Null(), Int(10)}}}),
              ElementsAre("-D[null, a, null, null]", "+I[null, a, null, 10]"));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}), IsEmpty());  // NULL is not 1
}

TEST_F(StreamingJoinTest, TwoKeyColumnsOneNullSafe) {
  StreamingJoinSpec spec;
  spec.type = StreamingJoinType::kInner;
  spec.left_types = {DataType::Int(), DataType::String()};
  spec.right_types = {DataType::String(), DataType::Int()};
  spec.left_keys = {0, 1};
  spec.right_keys = {1, 0};
  spec.null_safe = {false, true};
  auto j = Make(spec);
  j->Left({{kI, {Int(1), Null()}}, {kI, {Null(), Str("x")}}, {kI, {Int(2), Str("y")}}});
  EXPECT_THAT(
      j->Right({{kI, {Null(), Int(1)}}, {kI, {Str("x"), Null()}}, {kI, {Str("y"), Int(2)}}}),
      ElementsAre("+I[1, null, null, 1]", "+I[2, y, y, 2]"));
}

TEST_F(StreamingJoinTest, ResidualCondition) {
  // ON l.k = r.k AND CHAR_LENGTH(l.a) < r.b
  StreamingJoinSpec spec = Spec(StreamingJoinType::kLeftOuter);
  spec.condition = Call("<", {Call("CHAR_LENGTH", {MakeColumnRef(1, DataType::String())}),
                              MakeColumnRef(3, DataType::BigInt())});
  auto j = Make(spec);
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(2)}}, {kI, {Int(1), Int(5)}}, {kI, {Int(1), Null()}}}),
              IsEmpty());
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("abc")}}, {kI, {Int(1), Str("a")}}}),
              ElementsAre("+I[1, abc, 1, 5]", "+I[1, a, 1, 2]", "+I[1, a, 1, 5]"));
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("abcdef")}}}), ElementsAre("+I[1, abcdef, null, null]"));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(7)}}}),
              ElementsAre("-D[1, abcdef, null, null]", "+I[1, abc, 1, 7]", "+I[1, a, 1, 7]",
                          "+I[1, abcdef, 1, 7]"));
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(5)}}}),
              ElementsAre("-D[1, abc, 1, 5]", "-D[1, a, 1, 5]"));
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(7)}}}),
              ElementsAre("-D[1, abc, 1, 7]", "-D[1, a, 1, 7]", "-D[1, abcdef, 1, 7]",
                          "+I[1, abc, null, null]", "+I[1, abcdef, null, null]"));
}

TEST_F(StreamingJoinTest, ConditionOverManyPairsIsEvaluatedInChunks) {
  // More candidate pairs than one chunk holds: 200 left rows x 100 right rows of one key.
  StreamingJoinSpec spec;
  spec.type = StreamingJoinType::kInner;
  spec.left_types = {DataType::Int(), DataType::BigInt()};
  spec.right_types = {DataType::Int(), DataType::BigInt()};
  spec.left_keys = {0};
  spec.right_keys = {0};
  spec.condition =
      Call("<", {MakeColumnRef(1, DataType::BigInt()), MakeColumnRef(3, DataType::BigInt())});
  auto j = Make(spec);
  std::vector<Row> right;
  for (int i = 0; i < 100; ++i) right.push_back({kI, {Int(7), Int(i)}});
  j->Right(right);
  std::vector<Row> left;
  for (int i = 0; i < 200; ++i) left.push_back({kI, {Int(7), Int(i)}});
  std::vector<std::string> out = j->Left(left);
  size_t expected = 0;
  for (int l = 0; l < 200; ++l) expected += l < 100 ? 99 - l : 0;
  EXPECT_EQ(out.size(), expected);
  EXPECT_EQ(out.front(), "+I[7, 0, 7, 1]");
  EXPECT_EQ(out.back(), "+I[7, 98, 7, 99]");
}

TEST_F(StreamingJoinTest, SemiInBothInputOrders) {
  auto j = Make(Spec(StreamingJoinType::kSemi));
  // Left first.
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("a")}}, {kI, {Int(1), Str("a")}}}), IsEmpty());
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}), ElementsAre("+I[1, a]", "+I[1, a]"));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(20)}}}), IsEmpty());
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(10)}}}), IsEmpty());
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(20)}}}), ElementsAre("-D[1, a]", "-D[1, a]"));
  // Right first.
  EXPECT_THAT(j->Right({{kI, {Int(2), Int(30)}}}), IsEmpty());
  EXPECT_THAT(j->Left({{kI, {Int(2), Str("b")}}}), ElementsAre("+I[2, b]"));
  EXPECT_THAT(j->Left({{kUB, {Int(2), Str("b")}}, {kUA, {Int(2), Str("c")}}}),
              ElementsAre("-U[2, b]", "+U[2, c]"));
  EXPECT_THAT(j->Left({{kD, {Int(2), Str("c")}}}), ElementsAre("-D[2, c]"));
  EXPECT_THAT(j->Left({{kD, {Int(2), Str("c")}}}), IsEmpty());  // not held
  // Left rows without a match stay out; NULL keys never match.
  EXPECT_THAT(j->Left({{kI, {Int(3), Str("x")}}, {kI, {Null(), Str("n")}}}), IsEmpty());
  EXPECT_THAT(j->Right({{kI, {Null(), Int(1)}}}), IsEmpty());
}

TEST_F(StreamingJoinTest, AntiInBothInputOrders) {
  auto j = Make(Spec(StreamingJoinType::kAnti));
  // Left first.
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("a")}}}), ElementsAre("+I[1, a]"));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}), ElementsAre("-D[1, a]"));
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(20)}}}), IsEmpty());
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(10)}}}), IsEmpty());
  EXPECT_THAT(j->Right({{kUB, {Int(1), Int(20)}}}), ElementsAre("+I[1, a]"));
  // Right first.
  EXPECT_THAT(j->Right({{kI, {Int(2), Int(30)}}}), IsEmpty());
  EXPECT_THAT(j->Left({{kI, {Int(2), Str("b")}}}), IsEmpty());
  EXPECT_THAT(j->Left({{kD, {Int(2), Str("b")}}}), IsEmpty());
  EXPECT_THAT(j->Right({{kD, {Int(2), Int(30)}}}), IsEmpty());
  // NULL keys never match: the left row stays in the ANTI result.
  EXPECT_THAT(j->Left({{kI, {Null(), Str("n")}}}), ElementsAre("+I[null, n]"));
  EXPECT_THAT(j->Right({{kI, {Null(), Int(1)}}}), IsEmpty());
  EXPECT_THAT(j->Left({{kUB, {Null(), Str("n")}}}), ElementsAre("-U[null, n]"));
}

TEST_F(StreamingJoinTest, SemiWithConditionAndUniqueKey) {
  StreamingJoinSpec spec = Spec(StreamingJoinType::kSemi);
  spec.condition = Call(
      ">", {MakeColumnRef(3, DataType::BigInt()), MakeLiteral(Value::Int(15), DataType::BigInt())});
  spec.left_unique_key = {1};
  auto j = Make(spec);
  j->Left({{kI, {Int(1), Str("a")}}});
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}), IsEmpty());
  EXPECT_THAT(j->Right({{kI, {Int(1), Int(20)}}}), ElementsAre("+I[1, a]"));
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("b")}}}), ElementsAre("+I[1, b]"));
  EXPECT_THAT(j->Right({{kD, {Int(1), Int(20)}}}), ElementsAre("-D[1, a]", "-D[1, b]"));
}

// The same changelog fed row by row, as one batch per input run, and interleaved: the output is
// the same, and one input batch reads the store once and emits one batch.
TEST_F(StreamingJoinTest, BatchingDoesNotChangeTheChangelog) {
  const std::vector<std::pair<int, Row>> changes = {
      {1, {kI, {Int(1), Int(10)}}},  {0, {kI, {Int(1), Str("a")}}}, {0, {kI, {Int(1), Str("b")}}},
      {0, {kD, {Int(1), Str("a")}}}, {0, {kI, {Int(1), Str("a")}}}, {0, {kI, {Int(2), Str("c")}}},
      {0, {kD, {Int(1), Str("b")}}}, {0, {kD, {Int(1), Str("a")}}}, {1, {kI, {Int(2), Int(20)}}},
      {1, {kI, {Int(2), Int(21)}}},  {1, {kD, {Int(2), Int(20)}}},  {1, {kD, {Int(2), Int(21)}}},
      {1, {kI, {Int(1), Int(11)}}},  {1, {kUB, {Int(1), Int(11)}}}, {1, {kUA, {Int(1), Int(12)}}},
  };
  const std::vector<std::string> expected = {
      "+I[null, null, 1, 10]", "-D[null, null, 1, 10]", "+I[1, a, 1, 10]",
      "+I[1, b, 1, 10]",       "-D[1, a, 1, 10]",       "+I[1, a, 1, 10]",
      "+I[2, c, null, null]",  "-D[1, b, 1, 10]",       "-D[1, a, 1, 10]",
      "+I[null, null, 1, 10]", "-D[2, c, null, null]",  "+I[2, c, 2, 20]",
      "+I[2, c, 2, 21]",       "-D[2, c, 2, 20]",       "-D[2, c, 2, 21]",
      "+I[2, c, null, null]",  "+I[null, null, 1, 11]", "-D[null, null, 1, 11]",
      "+I[null, null, 1, 12]"};
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto rows = Make(Spec(StreamingJoinType::kFullOuter), cache);
    std::vector<std::string> out;
    for (const auto& [input, row] : changes) {
      for (std::string& s : rows->Feed(input, {row})) out.push_back(std::move(s));
    }
    EXPECT_THAT(out, ElementsAreArray(expected));

    auto runs = Make(Spec(StreamingJoinType::kFullOuter), cache);
    out.clear();
    int batches = 0;
    for (size_t i = 0; i < changes.size();) {
      std::vector<Row> run;
      const int input = changes[i].first;
      for (; i < changes.size() && changes[i].first == input; ++i) run.push_back(changes[i].second);
      const uint64_t multigets = runs->op->state_table()->stats().multiget_calls;
      const int emitted = runs->out.batches;
      for (std::string& s : runs->Feed(input, run)) out.push_back(std::move(s));
      EXPECT_LE(runs->op->state_table()->stats().multiget_calls, multigets + 1);
      EXPECT_LE(runs->out.batches, emitted + 1);
      ++batches;
    }
    EXPECT_EQ(batches, 3);
    EXPECT_THAT(out, ElementsAreArray(expected));
  }
}

TEST_F(StreamingJoinTest, AVeryLargeOutputIsEmittedInSeveralBatches) {
  auto j = Make(Spec(StreamingJoinType::kInner));
  std::vector<Row> right;
  for (int i = 0; i < 100; ++i) right.push_back({kI, {Int(1), Int(i)}});
  j->Right(right);
  std::vector<Row> left;
  for (int i = 0; i < 300; ++i) left.push_back({kI, {Int(1), Str(std::to_string(i))}});
  EXPECT_EQ(j->Left(left).size(), 30000u);
  EXPECT_GE(j->out.batches, 2);
  EXPECT_LE(j->out.batches, 3);
}

TEST_F(StreamingJoinTest, NoEquiKeyJoinsEveryPair) {
  StreamingJoinSpec spec = Spec(StreamingJoinType::kLeftOuter);
  spec.left_keys = {};
  spec.right_keys = {};
  auto j = Make(spec);
  EXPECT_THAT(j->Left({{kI, {Int(1), Str("a")}}}), ElementsAre("+I[1, a, null, null]"));
  EXPECT_THAT(j->Right({{kI, {Int(2), Int(20)}}}),
              ElementsAre("-D[1, a, null, null]", "+I[1, a, 2, 20]"));
  EXPECT_THAT(j->Left({{kI, {Null(), Str("b")}}}), ElementsAre("+I[null, b, 2, 20]"));
}

// State TTL: each side's value for a join key is gone once not written for the TTL (in the cache
// or in RocksDB); a write (a new row, or a changed association count) refreshes it.
TEST_F(StreamingJoinTest, StateTtlExpiresEachSideOnItsOwn) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    now_ms_ = 1'000'000;
    StreamingJoinSpec spec = Spec(StreamingJoinType::kInner);
    spec.state_ttl_ms = 1000;
    auto j = Make(spec, cache);
    j->Left({{kI, {Int(1), Str("a")}}});
    now_ms_ += 500;
    EXPECT_THAT(j->Right({{kI, {Int(1), Int(10)}}}), ElementsAre("+I[1, a, 1, 10]"));
    now_ms_ += 700;  // the left value was written 1200 ms ago, the right one 700 ms ago
    EXPECT_THAT(j->Right({{kI, {Int(1), Int(20)}}}), IsEmpty());
    EXPECT_THAT(j->Left({{kD, {Int(1), Str("a")}}}), IsEmpty());  // expired: ignored
    now_ms_ += 900;  // the right value was written again 900 ms ago
    EXPECT_THAT(j->Left({{kI, {Int(1), Str("b")}}}),
                ElementsAre("+I[1, b, 1, 10]", "+I[1, b, 1, 20]"));
    now_ms_ += 1000;
    EXPECT_THAT(j->Right({{kD, {Int(1), Int(10)}}}), IsEmpty());
    EXPECT_THAT(j->Left({{kI, {Int(1), Str("c")}}}), IsEmpty());
    // Expired values are dropped from RocksDB by compaction.
    ASSERT_TRUE(j->op->FlushState().ok());
    now_ms_ += 1000;
    ASSERT_TRUE(backend_->CompactAll().ok());
    EXPECT_EQ(*backend_->CountKeys(j->op->state_table()->state_id()), 0u);
  }
}

// A snapshot of the store after SnapshotState holds all the join's state: an operator opened on a
// restored copy goes on as the original would have, without what came after the snapshot.
TEST_F(StreamingJoinTest, RestoresFromASnapshotOfItsStore) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto j = Make(Spec(StreamingJoinType::kFullOuter), cache);
    const uint32_t state_id = j->op->state_table()->state_id();
    j->Left({{kI, {Int(1), Str("a")}}, {kI, {Int(2), Str("b")}}});
    j->Right({{kI, {Int(1), Int(10)}}});
    OperatorSnapshot snapshot;
    ASSERT_TRUE(j->op->SnapshotState(1, &snapshot).ok());
    EXPECT_TRUE(snapshot.empty());
    EXPECT_EQ(j->out.batches, 2);  // a snapshot emits nothing
    const std::string chk = absl::StrCat(dir_, "/chk-", cache);
    ASSERT_TRUE(backend_->Snapshot(chk).ok());
    // After the checkpoint: a row the restored instance must not see.
    j->Right({{kI, {Int(2), Int(20)}}});

    auto restored = KeyedStateBackend::OpenFromSnapshot(
        chk, absl::StrCat(dir_, "/restored-", cache), std::make_shared<SharedStateResources>());
    ASSERT_TRUE(restored.ok()) << restored.status();
    auto again = Make(Spec(StreamingJoinType::kFullOuter), cache, restored->get(), state_id);
    ASSERT_TRUE(again->op->RestoreState(snapshot).ok());
    EXPECT_THAT(again->Right({{kI, {Int(2), Int(21)}}}),
                ElementsAre("-D[2, b, null, null]", "+I[2, b, 2, 21]"));
    EXPECT_THAT(again->Right({{kD, {Int(1), Int(10)}}}),
                ElementsAre("-D[1, a, 1, 10]", "+I[1, a, null, null]"));
    EXPECT_THAT(again->Left({{kD, {Int(2), Str("b")}}}),
                ElementsAre("-D[2, b, 2, 21]", "+I[null, null, 2, 21]"));
    again.reset();
    restored->reset();
  }
}

// One value per (side, join key), in the join key's key group as the hash partitioner computes it
// (KeyGroupOf of the key's KeyEncoder bytes), under the side byte and those bytes; the empty key of
// a join without equi keys lives in key group 0.
TEST_F(StreamingJoinTest, StateLayoutIsOneValuePerSideAndJoinKey) {
  auto j = Make(Spec(StreamingJoinType::kInner));
  const uint32_t state_id = j->op->state_table()->state_id();
  j->Left({{kI, {Int(5), Str("a")}}, {kI, {Int(5), Str("b")}}, {kI, {Int(6), Str("c")}}});
  j->Right({{kI, {Int(5), Int(50)}}});
  ASSERT_TRUE(j->op->FlushState().ok());
  EXPECT_EQ(*backend_->CountKeys(state_id), 3u);  // L5, L6, R5

  auto key_encoder = KeyEncoder::Create({DataType::Int()}, {0});
  ASSERT_TRUE(key_encoder.ok());
  auto state_key = [&](char side, int64_t k) {
    const std::string bytes =
        key_encoder->EncodeToString(Batch({DataType::Int()}, {{kI, {Int(k)}}}), 0);
    std::string key;
    AppendStateKey(KeyGroupOf(bytes, kMaxParallelism), state_id, std::string(1, side) + bytes,
                   &key);
    return key;
  };
  const std::vector<std::string> keys = {state_key('L', 5), state_key('L', 6), state_key('R', 5),
                                         state_key('R', 6)};
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  StateReadResult read;
  ASSERT_TRUE(backend_->MultiGet(views, &read).ok());
  EXPECT_TRUE(read.found(0));
  EXPECT_TRUE(read.found(1));
  EXPECT_TRUE(read.found(2));
  EXPECT_FALSE(read.found(3));
  // The left value for 5 holds both rows.
  JoinRecordList list(/*unique_key=*/false, /*associations=*/false);
  ASSERT_TRUE(list.Decode(read.value(0)).ok());
  EXPECT_EQ(list.live(), 2u);

  StreamingJoinSpec spec = Spec(StreamingJoinType::kInner);
  spec.left_keys = {};
  spec.right_keys = {};
  auto g = Make(spec);
  g->Left({{kI, {Int(5), Str("a")}}});
  ASSERT_TRUE(g->op->FlushState().ok());
  std::string key;
  AppendStateKey(0, g->op->state_table()->state_id(), "L", &key);
  const std::vector<std::string_view> global = {key};
  ASSERT_TRUE(backend_->MultiGet(global, &read).ok());
  EXPECT_TRUE(read.found(0));
}

TEST_F(StreamingJoinTest, WatermarksPassThrough) {
  auto j = Make(Spec(StreamingJoinType::kInner));
  ASSERT_TRUE(j->op->ProcessWatermark({1000, false}).ok());
  EXPECT_THAT(j->out.WatermarkMillis(), ElementsAre(1000));
}

TEST_F(StreamingJoinTest, ACorruptStateValueIsAnError) {
  JoinRecordList list(/*unique_key=*/false, /*associations=*/true);
  list.Add("row", "row", 3);
  std::string value;
  list.Encode(&value);
  JoinRecordList other(/*unique_key=*/false, /*associations=*/false);
  EXPECT_EQ(other.Decode(value).code(), absl::StatusCode::kDataLoss);  // another layout
  EXPECT_EQ(list.Decode(value.substr(0, value.size() - 1)).code(), absl::StatusCode::kDataLoss);
  ASSERT_TRUE(list.Decode(value).ok());
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list.at(0).row, "row");
  EXPECT_EQ(list.at(0).count, 1);
  EXPECT_EQ(list.at(0).associations, 3);
}

// ---------------------------------------------------------------------------------------------
// Randomized: a changelog of both inputs (inserts, updates, deletes, duplicates, NULLs, and
// retractions of rows never inserted), folded into a multiset, against a nested-loop join of what
// each input holds at the end.

// Left (k INT, a BIGINT), right (k INT, b BIGINT); a row as {k, a|b} with nullopt for NULL.
using TestRow = std::pair<std::optional<int64_t>, std::optional<int64_t>>;

std::string Cell(const std::optional<int64_t>& v) {
  return v.has_value() ? std::to_string(*v) : "null";
}

struct RandomCase {
  StreamingJoinType type;
  bool condition;  // a <= b
  bool null_safe;
  bool unique;  // each side's second column is its unique key
  size_t cache;
};

void RunRandom(const RandomCase& c, uint32_t seed, std::unique_ptr<Join> j) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  auto value = [&](int n) -> std::optional<int64_t> {
    if (pick(8) == 0) return std::nullopt;
    return pick(n);
  };
  std::multiset<TestRow> held[2];
  std::map<std::string, int64_t> folded;
  bool negative = false;

  for (int step = 0; step < 120; ++step) {
    const int input = pick(2);
    std::vector<Row> batch;
    const int rows = 1 + pick(12);
    for (int r = 0; r < rows; ++r) {
      std::multiset<TestRow>& h = held[input];
      const int action = pick(10);
      auto emit = [&](RowKind kind, const TestRow& row) {
        batch.push_back(
            {kind, {row.first ? Int(*row.first) : Null(), row.second ? Int(*row.second) : Null()}});
      };
      if (action < 5 || h.empty()) {
        // With a unique key (the side's second column), a new row never repeats a held key.
        TestRow row{value(3), value(5)};
        if (c.unique) {
          if (!row.second.has_value()) continue;
          bool taken = false;
          for (const TestRow& x : h) taken = taken || x.second == row.second;
          if (taken) continue;
        }
        h.insert(row);
        emit(pick(4) == 0 ? kUA : kI, row);
      } else if (action < 8) {
        auto it = h.begin();
        std::advance(it, pick(static_cast<int>(h.size())));
        const TestRow old = *it;
        h.erase(it);
        if (action == 7) {
          // An update: -U old, +U new (the same unique key).
          TestRow now{value(3), old.second};
          emit(kUB, old);
          h.insert(now);
          emit(kUA, now);
        } else {
          emit(pick(2) == 0 ? kD : kUB, old);
        }
      } else if (!c.unique) {
        // A retraction of a row the side does not hold: ignored.
        TestRow row{value(3), 100 + pick(3)};
        emit(kD, row);
      }
    }
    for (const std::string& s : j->Feed(input, batch)) {
      const std::string body = s.substr(2);
      const int64_t delta = IsAccumulate(s[0] == '+' ? kI : kD) ? 1 : -1;
      if ((folded[body] += delta) < 0) negative = true;
      if (folded[body] == 0) folded.erase(body);
    }
    ASSERT_FALSE(negative) << "a retraction of a row never emitted, step " << step;
  }

  // The nested-loop join of the final contents.
  auto keys_match = [&](const std::optional<int64_t>& l, const std::optional<int64_t>& r) {
    if (!l.has_value() || !r.has_value()) return c.null_safe && l == r;
    return *l == *r;
  };
  auto matches = [&](const TestRow& l, const TestRow& r) {
    if (!keys_match(l.first, r.first)) return false;
    if (!c.condition) return true;
    return l.second.has_value() && r.second.has_value() && *l.second <= *r.second;
  };
  std::map<std::string, int64_t> expected;
  const bool semi_anti = c.type == StreamingJoinType::kSemi || c.type == StreamingJoinType::kAnti;
  const bool left_outer =
      c.type == StreamingJoinType::kLeftOuter || c.type == StreamingJoinType::kFullOuter;
  const bool right_outer =
      c.type == StreamingJoinType::kRightOuter || c.type == StreamingJoinType::kFullOuter;
  for (const TestRow& l : held[0]) {
    bool any = false;
    for (const TestRow& r : held[1]) {
      if (!matches(l, r)) continue;
      any = true;
      if (!semi_anti) {
        ++expected[absl::StrCat("[", Cell(l.first), ", ", Cell(l.second), ", ", Cell(r.first), ", ",
                                Cell(r.second), "]")];
      }
    }
    if ((c.type == StreamingJoinType::kSemi && any) ||
        (c.type == StreamingJoinType::kAnti && !any)) {
      ++expected[absl::StrCat("[", Cell(l.first), ", ", Cell(l.second), "]")];
    }
    if (left_outer && !any) {
      ++expected[absl::StrCat("[", Cell(l.first), ", ", Cell(l.second), ", null, null]")];
    }
  }
  if (right_outer) {
    for (const TestRow& r : held[1]) {
      bool any = false;
      for (const TestRow& l : held[0]) any = any || matches(l, r);
      if (!any) {
        ++expected[absl::StrCat("[null, null, ", Cell(r.first), ", ", Cell(r.second), "]")];
      }
    }
  }
  EXPECT_EQ(folded, expected);
}

TEST_F(StreamingJoinTest, RandomizedAgainstANestedLoopJoin) {
  const char* env = std::getenv("EDDY_TEST_SEED");
  const uint32_t base_seed = env != nullptr ? static_cast<uint32_t>(std::strtoull(env, nullptr, 10))
                                            : std::random_device{}();
  std::cout << "seed " << base_seed << " (EDDY_TEST_SEED=" << base_seed << " replays this run)"
            << std::endl;
  SCOPED_TRACE(absl::StrCat("seed ", base_seed));
  std::mt19937 rng(base_seed);
  for (StreamingJoinType type :
       {StreamingJoinType::kInner, StreamingJoinType::kLeftOuter, StreamingJoinType::kRightOuter,
        StreamingJoinType::kFullOuter, StreamingJoinType::kSemi, StreamingJoinType::kAnti}) {
    for (int variant = 0; variant < 8; ++variant) {
      RandomCase c;
      c.type = type;
      c.condition = (variant & 1) != 0;
      c.null_safe = (variant & 2) != 0;
      c.unique = (variant & 4) != 0;
      c.cache = rng() % 2 == 0 ? 0 : size_t{1} << 16;
      const uint32_t seed = rng();
      SCOPED_TRACE(absl::StrCat(StreamingJoinTypeName(type), " condition ", c.condition,
                                " null_safe ", c.null_safe, " unique ", c.unique, " cache ",
                                c.cache, " case seed ", seed));
      StreamingJoinSpec spec;
      spec.type = type;
      spec.left_types = {DataType::Int(), DataType::BigInt()};
      spec.right_types = {DataType::Int(), DataType::BigInt()};
      spec.left_keys = {0};
      spec.right_keys = {0};
      spec.null_safe = {c.null_safe};
      if (c.condition) {
        spec.condition = Call(
            "<=", {MakeColumnRef(1, DataType::BigInt()), MakeColumnRef(3, DataType::BigInt())});
      }
      if (c.unique) {
        spec.left_unique_key = {1};
        spec.right_unique_key = {1};
      }
      RunRandom(c, seed, Make(std::move(spec), c.cache));
    }
  }
}

}  // namespace
}  // namespace eddy
