#include "worker/operators/group_aggregate.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

// Records every emitted row as FormatRow text, and optionally forwards the batch downstream.
AggregateCall Call(AggKind kind, int arg, DataType arg_type, bool distinct = false) {
  AggregateCall c;
  c.kind = kind;
  c.arg = arg;
  c.arg_type = arg_type;
  c.result_type = *AggResultType(kind, arg_type);
  c.distinct = distinct;
  return c;
}

AggregateCall CountStar() { return Call(AggKind::kCountStar, -1, DataType::Null()); }

class GroupAggregateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    std::string path = ::testing::TempDir() + "/eddy_agg_" + std::to_string(::getpid()) + "_" +
                       std::to_string(counter++) + "/state";
    std::filesystem::remove_all(path);  // a store opens whatever it finds
    auto b = KeyedStateBackend::Open(path);
    ASSERT_TRUE(b.ok()) << b.status();
    backend_ = std::move(b).value();
  }

  // Creates and opens an operator with a fresh operator id; `out` receives its output.
  std::unique_ptr<GroupAggregateOperator> Make(GroupAggregateSpec spec, Output* out,
                                               size_t state_cache_bytes = 0) {
    auto op = GroupAggregateOperator::Create(std::move(spec));
    EXPECT_TRUE(op.ok()) << op.status();
    if (!op.ok()) return nullptr;
    OperatorContext ctx;
    ctx.state_id = ++next_state_id_;
    ctx.state = backend_.get();
    ctx.state_cache_bytes = state_cache_bytes;
    EXPECT_TRUE((*op)->Open(ctx).ok());
    (*op)->set_output(out);
    return std::move(op).value();
  }

  static GroupAggregateSpec WordCountSpec(bool update_before = true) {
    GroupAggregateSpec spec;
    spec.input_types = {DataType::String()};
    spec.group_keys = {0};
    spec.aggregates = {CountStar()};
    spec.generate_update_before = update_before;
    return spec;
  }
  // Q2: SELECT cnt, COUNT(*) FROM (Q1) GROUP BY cnt.
  static GroupAggregateSpec CntCountSpec() {
    GroupAggregateSpec spec;
    spec.input_types = {DataType::String(), DataType::BigInt().WithNullable(false)};
    spec.group_keys = {1};
    spec.aggregates = {CountStar()};
    return spec;
  }

  static ChangelogBatch Words(const std::vector<std::string>& words) {
    ChangelogBatch b({DataType::String()});
    for (const auto& w : words) b.AppendValues({Value::String(w)}, RowKind::kInsert);
    return b;
  }

  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
};

const std::vector<std::string> kWords = {"a", "a", "b", "a", "c", "b"};
const std::vector<std::string> kQ1 = {"+I[a, 1]", "-U[a, 1]", "+U[a, 2]", "+I[b, 1]", "-U[a, 2]",
                                      "+U[a, 3]", "+I[c, 1]", "-U[b, 1]", "+U[b, 2]"};
const std::vector<std::string> kQ2 = {"+I[1, 1]", "-D[1, 1]", "+I[2, 1]", "+I[1, 1]",
                                      "-D[2, 1]", "+I[3, 1]", "-U[1, 1]", "+U[1, 2]",
                                      "-U[1, 2]", "+U[1, 1]", "+I[2, 1]"};

TEST_F(GroupAggregateTest, Q1OneBatch) {
  CollectingOutput out;
  auto op = Make(WordCountSpec(), &out);
  ASSERT_TRUE(op->Process(0, Words(kWords)).ok());
  EXPECT_THAT(out.rows, ElementsAreArray(kQ1));
  EXPECT_EQ(out.batches, 1);
  EXPECT_EQ(op->rows_in(), 6u);
  EXPECT_EQ(op->rows_out(), 9u);
  EXPECT_EQ(*backend_->CountKeys(1), 3u);
}

TEST_F(GroupAggregateTest, Q1OneRowPerBatch) {
  CollectingOutput out;
  auto op = Make(WordCountSpec(), &out);
  for (const auto& w : kWords) ASSERT_TRUE(op->Process(0, Words({w})).ok());
  EXPECT_THAT(out.rows, ElementsAreArray(kQ1));
}

TEST_F(GroupAggregateTest, Q2FedByQ1OneBatch) {
  CollectingOutput q2_out;
  auto q2 = Make(CntCountSpec(), &q2_out);
  CollectingOutput q1_out(q2.get());
  auto q1 = Make(WordCountSpec(), &q1_out);
  ASSERT_TRUE(q1->Process(0, Words(kWords)).ok());
  EXPECT_THAT(q1_out.rows, ElementsAreArray(kQ1));
  EXPECT_THAT(q2_out.rows, ElementsAreArray(kQ2));
  // Q1 keeps a, b, c; Q2 keeps cnt 1 (c), 2 (b), 3 (a): separate state per operator id.
  EXPECT_EQ(*backend_->CountKeys(q1->state_id()), 3u);
  EXPECT_EQ(*backend_->CountKeys(q2->state_id()), 3u);
}

TEST_F(GroupAggregateTest, Q2FedByQ1OneRowPerBatch) {
  CollectingOutput q2_out;
  auto q2 = Make(CntCountSpec(), &q2_out);
  CollectingOutput q1_out(q2.get());
  auto q1 = Make(WordCountSpec(), &q1_out);
  for (const auto& w : kWords) ASSERT_TRUE(q1->Process(0, Words({w})).ok());
  EXPECT_THAT(q2_out.rows, ElementsAreArray(kQ2));
}

TEST_F(GroupAggregateTest, WithoutUpdateBefore) {
  CollectingOutput out;
  auto op = Make(WordCountSpec(/*update_before=*/false), &out);
  ASSERT_TRUE(op->Process(0, Words(kWords)).ok());
  EXPECT_THAT(out.rows,
              ElementsAre("+I[a, 1]", "+U[a, 2]", "+I[b, 1]", "+U[a, 3]", "+I[c, 1]", "+U[b, 2]"));
}

class ValuesBuilder {
 public:
  explicit ValuesBuilder(std::vector<DataType> types) : batch_(types) {}
  ValuesBuilder& Row(RowKind k, std::vector<Value> v) {
    batch_.AppendValues(v, k);
    return *this;
  }
  ChangelogBatch Build() { return std::move(batch_); }

 private:
  ChangelogBatch batch_;
};

TEST_F(GroupAggregateTest, SumAvgMinMaxCountWithRetraction) {
  std::vector<DataType> types = {DataType::String(), DataType::Int()};
  GroupAggregateSpec spec;
  spec.input_types = types;
  spec.group_keys = {0};
  spec.aggregates = {
      Call(AggKind::kSum, 1, DataType::Int()), Call(AggKind::kAvg, 1, DataType::Int()),
      Call(AggKind::kMin, 1, DataType::Int()), Call(AggKind::kMax, 1, DataType::Int()),
      Call(AggKind::kCount, 1, DataType::Int())};
  CollectingOutput out;
  auto op = Make(spec, &out);
  const RowKind I = RowKind::kInsert, D = RowKind::kDelete, UB = RowKind::kUpdateBefore;
  auto x = [](Value v) { return std::vector<Value>{Value::String("x"), v}; };
  ASSERT_TRUE(op->Process(0, ValuesBuilder(types)
                                 .Row(I, x(Value::Int(5)))
                                 .Row(I, x(Value::Int(3)))
                                 .Row(I, x(Value::Null()))  // row count changes, results do not
                                 .Build())
                  .ok());
  EXPECT_THAT(out.Take(),
              ElementsAre("+I[x, 5, 5, 5, 5, 1]", "-U[x, 5, 5, 5, 5, 1]", "+U[x, 8, 4, 3, 5, 2]"));
  // Retracting the minimum: MIN falls back to the next value.
  ASSERT_TRUE(op->Process(0, ValuesBuilder(types).Row(UB, x(Value::Int(3))).Build()).ok());
  EXPECT_THAT(out.Take(), ElementsAre("-U[x, 8, 4, 3, 5, 2]", "+U[x, 5, 5, 5, 5, 1]"));
  // All non-null values retracted but one (null) row left: SUM/AVG/MIN/MAX are NULL.
  ASSERT_TRUE(op->Process(0, ValuesBuilder(types).Row(D, x(Value::Int(5))).Build()).ok());
  EXPECT_THAT(out.Take(), ElementsAre("-U[x, 5, 5, 5, 5, 1]", "+U[x, null, null, null, null, 0]"));
  // Last row gone: -D of the previous result, state removed; a later retraction is ignored.
  ASSERT_TRUE(
      op->Process(0, ValuesBuilder(types).Row(D, x(Value::Null())).Row(D, x(Value::Int(7))).Build())
          .ok());
  EXPECT_THAT(out.Take(), ElementsAre("-D[x, null, null, null, null, 0]"));
  EXPECT_EQ(*backend_->CountKeys(op->state_id()), 0u);
}

TEST_F(GroupAggregateTest, DuplicatesTruncatingAvgAndUnchangedResults) {
  std::vector<DataType> types = {DataType::String(), DataType::Int()};
  GroupAggregateSpec spec;
  spec.input_types = types;
  spec.group_keys = {0};
  spec.aggregates = {Call(AggKind::kMin, 1, DataType::Int()),
                     Call(AggKind::kAvg, 1, DataType::Int())};
  CollectingOutput out;
  auto op = Make(spec, &out);
  auto y = [](int64_t v) { return std::vector<Value>{Value::String("y"), Value::Int(v)}; };
  const RowKind I = RowKind::kInsert, D = RowKind::kDelete;
  ASSERT_TRUE(op->Process(0, ValuesBuilder(types)
                                 .Row(I, y(1))
                                 .Row(I, y(1))   // MIN 1, AVG 1: unchanged, nothing emitted
                                 .Row(I, y(2))   // AVG 4/3 truncates to 1: unchanged
                                 .Row(I, y(4))   // AVG 8/4 = 2
                                 .Row(D, y(1))   // MIN still 1 (one copy left), AVG 7/3 = 2
                                 .Row(D, y(1))   // MIN 2, AVG 3
                                 .Row(I, y(-7))  // MIN -7, AVG -1/3 truncates toward zero: 0
                                 .Build())
                  .ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[y, 1, 1]", "-U[y, 1, 1]", "+U[y, 1, 2]", "-U[y, 1, 2]",
                                    "+U[y, 2, 3]", "-U[y, 2, 3]", "+U[y, -7, 0]"));
}

TEST_F(GroupAggregateTest, DecimalDoubleAndStringAggregates) {
  std::vector<DataType> types = {DataType::Int(), DataType::Decimal(10, 2), DataType::Double(),
                                 DataType::String()};
  GroupAggregateSpec spec;
  spec.input_types = types;
  spec.group_keys = {0};
  spec.aggregates = {Call(AggKind::kSum, 1, types[1]), Call(AggKind::kAvg, 1, types[1]),
                     Call(AggKind::kSum, 2, types[2]), Call(AggKind::kAvg, 2, types[2]),
                     Call(AggKind::kMin, 3, types[3]), Call(AggKind::kMax, 3, types[3])};
  CollectingOutput out;
  auto op = Make(spec, &out);
  EXPECT_EQ(op->output_types()[2].ToString(), "DECIMAL(18, 6)");
  auto row = [](int64_t dec, double d, std::string s) {
    return std::vector<Value>{Value::Int(1), Value::Int(dec), Value::Double(d),
                              Value::String(std::move(s))};
  };
  ASSERT_TRUE(op->Process(0, ValuesBuilder(types)
                                 .Row(RowKind::kInsert, row(100, 0.5, "pear"))
                                 .Row(RowKind::kInsert, row(200, 0.25, "apple"))
                                 .Row(RowKind::kInsert, row(200, 1.0, "zebra"))
                                 .Row(RowKind::kDelete, row(200, 1.0, "zebra"))
                                 .Build())
                  .ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[1, 1.00, 1.000000, 0.5, 0.5, pear, pear]",
                                    "-U[1, 1.00, 1.000000, 0.5, 0.5, pear, pear]",
                                    "+U[1, 3.00, 1.500000, 0.75, 0.375, apple, pear]",
                                    "-U[1, 3.00, 1.500000, 0.75, 0.375, apple, pear]",
                                    "+U[1, 5.00, 1.666667, 1.75, 0.5833333333333334, apple, zebra]",
                                    "-U[1, 5.00, 1.666667, 1.75, 0.5833333333333334, apple, zebra]",
                                    "+U[1, 3.00, 1.500000, 0.75, 0.375, apple, pear]"));
}

TEST_F(GroupAggregateTest, CountDistinct) {
  std::vector<DataType> types = {DataType::String(), DataType::Int()};
  GroupAggregateSpec spec;
  spec.input_types = types;
  spec.group_keys = {0};
  spec.aggregates = {Call(AggKind::kCount, 1, DataType::Int(), /*distinct=*/true),
                     Call(AggKind::kSum, 1, DataType::Int(), /*distinct=*/true)};
  CollectingOutput out;
  auto op = Make(spec, &out);
  auto k = [](int64_t v) { return std::vector<Value>{Value::String("k"), Value::Int(v)}; };
  const RowKind I = RowKind::kInsert, D = RowKind::kDelete;
  // One row per batch, so that the distinct sets go through state serialization.
  for (auto [kind, v] :
       std::vector<std::pair<RowKind, int>>{{I, 1}, {I, 1}, {I, 2}, {D, 1}, {D, 1}, {D, 2}}) {
    ASSERT_TRUE(op->Process(0, ValuesBuilder(types).Row(kind, k(v)).Build()).ok());
  }
  EXPECT_THAT(out.rows, ElementsAre("+I[k, 1, 1]", "-U[k, 1, 1]", "+U[k, 2, 3]", "-U[k, 2, 3]",
                                    "+U[k, 1, 2]", "-D[k, 1, 2]"));
}

TEST_F(GroupAggregateTest, GlobalAggregateUsesKeyGroupZero) {
  std::vector<DataType> types = {DataType::BigInt()};
  GroupAggregateSpec spec;
  spec.input_types = types;
  spec.aggregates = {CountStar(), Call(AggKind::kSum, 0, types[0])};
  CollectingOutput out;
  auto op = Make(spec, &out);
  ASSERT_TRUE(
      op->Process(0, ValuesBuilder(types).Row(RowKind::kInsert, {Value::Int(5)}).Build()).ok());
  ASSERT_TRUE(
      op->Process(0, ValuesBuilder(types).Row(RowKind::kInsert, {Value::Int(3)}).Build()).ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[1, 5]", "-U[1, 5]", "+U[2, 8]"));
  std::string key;
  AppendStateKey(0, op->state_id(), "", &key);
  std::vector<std::string_view> keys = {key};
  StateReadResult r;
  ASSERT_TRUE(backend_->MultiGet(keys, &r).ok());
  EXPECT_TRUE(r.found(0));
  EXPECT_EQ(*backend_->CountKeys(op->state_id()), 1u);
}

TEST_F(GroupAggregateTest, MultiColumnKeyWithNulls) {
  std::vector<DataType> types = {DataType::Int(), DataType::String(), DataType::Int()};
  GroupAggregateSpec spec;
  spec.input_types = types;
  spec.group_keys = {1, 2};
  spec.aggregates = {Call(AggKind::kMax, 0, types[0])};
  CollectingOutput out;
  auto op = Make(spec, &out);
  ASSERT_TRUE(
      op->Process(0, ValuesBuilder(types)
                         .Row(RowKind::kInsert, {Value::Int(1), Value::Null(), Value::Int(2)})
                         .Row(RowKind::kInsert, {Value::Int(4), Value::String(""), Value::Int(2)})
                         .Row(RowKind::kInsert, {Value::Int(3), Value::Null(), Value::Int(2)})
                         .Row(RowKind::kInsert, {Value::Int(9), Value::Null(), Value::Null()})
                         .Build())
          .ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[null, 2, 1]", "+I[, 2, 4]", "-U[null, 2, 1]",
                                    "+U[null, 2, 3]", "+I[null, null, 9]"));
}

TEST_F(GroupAggregateTest, InsertOnlyMinMaxKeepsOnlyTheExtreme) {
  std::vector<DataType> types = {DataType::String(), DataType::Int()};
  GroupAggregateSpec spec;
  spec.input_types = types;
  spec.group_keys = {0};
  spec.aggregates = {Call(AggKind::kMin, 1, types[1]), Call(AggKind::kMax, 1, types[1])};
  spec.input_insert_only = true;
  CollectingOutput out;
  auto op = Make(spec, &out);
  auto k = [](int64_t v) { return std::vector<Value>{Value::String("k"), Value::Int(v)}; };
  for (int v : {5, 7, 6, 1}) {
    ASSERT_TRUE(op->Process(0, ValuesBuilder(types).Row(RowKind::kInsert, k(v)).Build()).ok());
  }
  EXPECT_THAT(out.rows, ElementsAre("+I[k, 5, 5]", "-U[k, 5, 5]", "+U[k, 5, 7]", "-U[k, 5, 7]",
                                    "+U[k, 1, 7]"));
  absl::Status s = op->Process(0, ValuesBuilder(types).Row(RowKind::kDelete, k(1)).Build());
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
}

TEST_F(GroupAggregateTest, OneMultiGetPerBatchOverDistinctKeys) {
  CollectingOutput out;
  auto op = Make(WordCountSpec(), &out);
  std::vector<std::string> words;
  for (int i = 0; i < 1000; ++i) words.push_back("w" + std::to_string(i % 10));
  ChangelogBatch batch = Words(words);
  ASSERT_TRUE(op->Process(0, batch).ok());
  KeyedStateTable::Stats s = op->state_stats();
  EXPECT_EQ(s.multiget_calls, 1u);
  EXPECT_EQ(s.keys_read, 10u);
  EXPECT_EQ(s.commits, 1u);
  EXPECT_EQ(s.keys_written, 10u);
  EXPECT_EQ(backend_->stats().multiget_calls, 1u);
  EXPECT_EQ(backend_->stats().write_batches, 1u);
  // 10 first appearances (+I) and 990 updates (-U, +U), in one output batch.
  EXPECT_EQ(out.batches, 1);
  EXPECT_EQ(out.rows.size(), 10u + 990u * 2);
  EXPECT_EQ(out.rows.back(), "+U[w9, 100]");

  ASSERT_TRUE(op->Process(0, batch).ok());
  s = op->state_stats();
  EXPECT_EQ(s.multiget_calls, 2u);
  EXPECT_EQ(s.keys_read, 20u);
  EXPECT_EQ(out.rows.back(), "+U[w9, 200]");
}

TEST_F(GroupAggregateTest, StateCacheChangesNeitherTheChangelogNorTheStateWrittenBack) {
  // A random changelog over 200 keys (inserts, and retractions of rows inserted earlier) through
  // three operators: no cache, a cache holding ~50 keys (constant eviction), and one holding all.
  std::vector<DataType> types = {DataType::BigInt(), DataType::BigInt()};
  GroupAggregateSpec spec;
  spec.input_types = types;
  spec.group_keys = {0};
  spec.aggregates = {CountStar(), Call(AggKind::kSum, 1, types[1]),
                     Call(AggKind::kMax, 1, types[1])};
  CollectingOutput no_cache_out, small_out, large_out;
  auto no_cache = Make(spec, &no_cache_out, 0);
  auto small = Make(spec, &small_out, 50 * 150);
  auto large = Make(spec, &large_out, 1 << 20);
  std::mt19937 rng(7);
  std::vector<std::pair<int64_t, int64_t>> live;  // inserted and not yet retracted
  for (int b = 0; b < 100; ++b) {
    ValuesBuilder batch(types);
    for (int r = 0; r < 64; ++r) {
      if (!live.empty() && rng() % 3 == 0) {
        size_t i = rng() % live.size();
        RowKind kind = rng() % 2 ? RowKind::kDelete : RowKind::kUpdateBefore;
        batch.Row(kind, {Value::Int(live[i].first), Value::Int(live[i].second)});
        live[i] = live.back();
        live.pop_back();
      } else {
        int64_t k = rng() % 200, v = rng() % 1000;
        batch.Row(RowKind::kInsert, {Value::Int(k), Value::Int(v)});
        live.emplace_back(k, v);
      }
    }
    ChangelogBatch in = batch.Build();
    ASSERT_TRUE(no_cache->Process(0, in).ok());
    ASSERT_TRUE(small->Process(0, in).ok());
    ASSERT_TRUE(large->Process(0, in).ok());
  }
  EXPECT_EQ(small_out.rows, no_cache_out.rows);
  EXPECT_EQ(large_out.rows, no_cache_out.rows);
  EXPECT_GT(small->state_evictions(), 0u);
  EXPECT_GT(large->state_stats().cache_hits, 0u);
  EXPECT_EQ(large->state_evictions(), 0u);
  // Written back, every cache leaves RocksDB with the same live keys as the uncached operator.
  auto keys_of = [&](const GroupAggregateOperator& op) {
    return *backend_->CountKeys(op.state_id());
  };
  ASSERT_TRUE(small->FlushState().ok());
  ASSERT_TRUE(large->FlushState().ok());
  EXPECT_EQ(keys_of(*small), keys_of(*no_cache));
  EXPECT_EQ(keys_of(*large), keys_of(*no_cache));
  EXPECT_GT(keys_of(*no_cache), 0u);
}

TEST_F(GroupAggregateTest, MiniBatchFoldsEachKeyIntoOneChangeAndOneStateAccess) {
  GroupAggregateSpec spec = WordCountSpec();
  spec.mini_batch_size = 1000;
  spec.mini_batch_latency_ms = 50;
  CollectingOutput out;
  auto op = Make(spec, &out);
  // Two input batches in one mini-batch: nothing comes out until it flushes.
  ASSERT_TRUE(op->Process(0, Words({"a", "b", "a"})).ok());
  ASSERT_TRUE(op->Process(0, Words({"a", "c"})).ok());
  EXPECT_THAT(out.rows, IsEmpty());
  ASSERT_TRUE(op->OnTick(std::chrono::steady_clock::now()).ok());  // not old enough yet
  EXPECT_THAT(out.rows, IsEmpty());
  ASSERT_TRUE(op->OnTick(std::chrono::steady_clock::now() + std::chrono::milliseconds(60)).ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[a, 3]", "+I[b, 1]", "+I[c, 1]"));
  EXPECT_EQ(op->state_stats().multiget_calls, 1u);
  EXPECT_EQ(op->state_stats().keys_read, 3u);
  EXPECT_EQ(op->state_stats().keys_written, 3u);

  // Next mini-batch: a changes (one -U/+U pair for two rows), b goes away (-D), c goes and comes
  // back to the same count (nothing), d is new; Finish flushes it.
  ChangelogBatch changes = ValuesBuilder({DataType::String()})
                               .Row(RowKind::kInsert, {Value::String("a")})
                               .Row(RowKind::kDelete, {Value::String("b")})
                               .Row(RowKind::kInsert, {Value::String("a")})
                               .Row(RowKind::kDelete, {Value::String("c")})
                               .Row(RowKind::kInsert, {Value::String("c")})
                               .Row(RowKind::kInsert, {Value::String("d")})
                               .Build();
  ASSERT_TRUE(op->Process(0, changes).ok());
  out.Take();
  ASSERT_TRUE(op->Finish().ok());
  EXPECT_THAT(out.rows, ElementsAre("-U[a, 3]", "+U[a, 5]", "-D[b, 1]", "+I[d, 1]"));
  EXPECT_EQ(op->state_stats().multiget_calls, 2u);
}

TEST_F(GroupAggregateTest, MiniBatchFlushesEverySizeRows) {
  GroupAggregateSpec spec = WordCountSpec();
  spec.mini_batch_size = 2;
  spec.mini_batch_latency_ms = 1000;
  CollectingOutput out;
  auto op = Make(spec, &out);
  ASSERT_TRUE(op->Process(0, Words({"a", "a", "a"})).ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[a, 2]"));  // the third row waits
  ASSERT_TRUE(op->Finish().ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[a, 2]", "-U[a, 2]", "+U[a, 3]"));
}

TEST_F(GroupAggregateTest, StateOutlivesClose) {
  // State belongs to the job, not to the operator instance: Close frees memory only, and the store
  // keeps what the operator wrote until the worker drops the job's state.
  CollectingOutput out;
  auto op = Make(WordCountSpec(), &out);
  ASSERT_TRUE(op->Process(0, Words(kWords)).ok());
  uint32_t id = op->state_id();
  ASSERT_TRUE(op->FlushState().ok());
  EXPECT_EQ(*backend_->CountKeys(id), 3u);
  ASSERT_TRUE(op->Close().ok());
  EXPECT_EQ(*backend_->CountKeys(id), 3u);
  ASSERT_TRUE(op->Close().ok());  // a second Close is a no-op
}

TEST_F(GroupAggregateTest, BarrierFlushesTheMiniBatchAndSnapshotWritesTheCacheBack) {
  GroupAggregateSpec spec = WordCountSpec();
  spec.mini_batch_size = 100;
  CollectingOutput out;
  auto op = Make(spec, &out);
  ASSERT_TRUE(op->Process(0, Words(kWords)).ok());
  EXPECT_TRUE(out.rows.empty());  // buffered
  ASSERT_TRUE(op->PrepareSnapshotPreBarrier(1).ok());
  EXPECT_EQ(out.rows.size(), 3u);  // one +I per word, ahead of the barrier
  OperatorSnapshot snapshot;
  ASSERT_TRUE(op->SnapshotState(1, &snapshot).ok());
  EXPECT_TRUE(snapshot.empty());  // everything is in the store
  EXPECT_EQ(*backend_->CountKeys(op->state_id()), 3u);
}

TEST_F(GroupAggregateTest, RejectsBadSpecs) {
  GroupAggregateSpec spec = WordCountSpec();
  spec.group_keys = {3};
  EXPECT_EQ(GroupAggregateOperator::Create(spec).status().code(),
            absl::StatusCode::kInvalidArgument);
  spec = WordCountSpec();
  spec.aggregates = {Call(AggKind::kMin, 0, DataType::String())};
  spec.aggregates[0].result_type = DataType::Int();
  EXPECT_EQ(GroupAggregateOperator::Create(spec).status().code(),
            absl::StatusCode::kInvalidArgument);
  spec = WordCountSpec();
  spec.aggregates = {Call(AggKind::kMax, 0, DataType::Int())};  // column 0 is STRING
  EXPECT_EQ(GroupAggregateOperator::Create(spec).status().code(),
            absl::StatusCode::kInvalidArgument);

  auto op = GroupAggregateOperator::Create(WordCountSpec());
  ASSERT_TRUE(op.ok());
  EXPECT_EQ((*op)->Open(OperatorContext{}).code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace eddy
