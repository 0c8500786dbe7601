// Two-phase aggregation in the operators: LocalGroupAggregate folds each mini-batch into one
// partial row per key, and a GlobalGroupAggregate (GroupAggregateOperator merging partials) behind
// it emits exactly the changelog of a one-phase mini-batch aggregate, for insert-only and for
// retracting input (random changelogs).
#include <atomic>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/group_aggregate.h"
#include "worker/operators/local_group_aggregate.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/state/keyed_state_backend.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

AggregateCall Call(AggKind kind, int arg, DataType arg_type) {
  AggregateCall c;
  c.kind = kind;
  c.arg = arg;
  c.arg_type = arg_type;
  c.result_type = *AggResultType(kind, arg_type);
  return c;
}

// Input: (k STRING, v INT).
const std::vector<DataType> kInput = {DataType::String(), DataType::Int()};

class TwoPhaseAggregateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    std::string path = ::testing::TempDir() + "/eddy_two_phase_" + std::to_string(::getpid()) +
                       "_" + std::to_string(counter++) + "/state";
    std::filesystem::remove_all(path);  // a store opens whatever it finds
    auto b = KeyedStateBackend::Open(path);
    ASSERT_TRUE(b.ok()) << b.status();
    backend_ = std::move(b).value();
  }

  void Open(Operator* op) {
    OperatorContext ctx;
    ctx.state_id = ++next_state_id_;
    ctx.state = backend_.get();
    ASSERT_TRUE(op->Open(ctx).ok());
  }

  // One-phase changelog and two-phase changelog of `input` (fed batch by batch), with mini-batches
  // of `size` rows.
  std::pair<std::vector<std::string>, std::vector<std::string>> Run(
      const std::vector<AggregateCall>& calls, bool insert_only,
      const std::vector<ChangelogBatch>& input, int size) {
    GroupAggregateSpec one;
    one.input_types = kInput;
    one.group_keys = {0};
    one.aggregates = calls;
    one.input_insert_only = insert_only;
    one.mini_batch_size = size;
    one.mini_batch_latency_ms = 60000;
    auto one_op = GroupAggregateOperator::Create(one);
    EXPECT_TRUE(one_op.ok()) << one_op.status();
    CollectingOutput one_out;
    (*one_op)->set_output(&one_out);
    Open(one_op->get());

    LocalGroupAggregateSpec local;
    local.input_types = kInput;
    local.group_keys = {0};
    local.aggregates = calls;
    local.input_insert_only = insert_only;
    local.mini_batch_size = size;
    local.mini_batch_latency_ms = 60000;
    auto local_op = LocalGroupAggregateOperator::Create(local);
    EXPECT_TRUE(local_op.ok()) << local_op.status();

    GroupAggregateSpec global;
    global.input_types = (*local_op)->output_types();
    global.group_keys = {0};
    global.input_insert_only = insert_only;
    global.merge_partials = true;
    int column = 1;
    for (AggregateCall c : calls) {
      if (!insert_only && c.kind == AggKind::kCountStar) global.partial_row_count_column = column;
      const int fields =
          static_cast<int>(AggPartialFields(c.kind, c.arg_type, false, !insert_only)->size());
      c.arg = column;
      column += fields;
      global.aggregates.push_back(c);
    }
    if (!insert_only && global.partial_row_count_column < 0) {
      global.partial_row_count_column = column;  // appended by the local aggregate
    }
    auto global_op = GroupAggregateOperator::Create(global);
    EXPECT_TRUE(global_op.ok()) << global_op.status();
    CollectingOutput global_out;
    CollectingOutput partials(global_op->get());
    (*local_op)->set_output(&partials);
    (*global_op)->set_output(&global_out);
    Open(global_op->get());

    for (const ChangelogBatch& b : input) {
      EXPECT_TRUE((*one_op)->Process(0, b).ok());
      EXPECT_TRUE((*local_op)->Process(0, b).ok());
    }
    EXPECT_TRUE((*one_op)->Finish().ok());
    EXPECT_TRUE((*local_op)->Finish().ok());
    EXPECT_TRUE((*global_op)->Finish().ok());
    last_partials_ = partials.rows;
    return {one_out.rows, global_out.rows};
  }

  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
  std::vector<std::string> last_partials_;
};

ChangelogBatch Rows(const std::vector<std::pair<std::string, int>>& rows) {
  ChangelogBatch b(kInput);
  for (const auto& [k, v] : rows)
    b.AppendValues({Value::String(k), Value::Int(v)}, RowKind::kInsert);
  return b;
}

TEST_F(TwoPhaseAggregateTest, LocalEmitsOnePartialPerKeyAndMiniBatch) {
  std::vector<ChangelogBatch> input;
  input.push_back(Rows({{"a", 1}, {"a", 4}, {"b", 3}, {"a", 2}, {"c", 5}, {"b", 6}}));
  const std::vector<AggregateCall> calls = {
      Call(AggKind::kCountStar, -1, DataType::Null()), Call(AggKind::kSum, 1, DataType::Int()),
      Call(AggKind::kAvg, 1, DataType::Int()), Call(AggKind::kMin, 1, DataType::Int()),
      Call(AggKind::kMax, 1, DataType::Int())};
  auto [one, two] = Run(calls, /*insert_only=*/true, input, 4);
  // [a a b a] then [c b]: count1, sum, (sum, count), min, max.
  EXPECT_THAT(last_partials_, ElementsAre("+I[a, 3, 7, 7, 3, 1, 4]", "+I[b, 1, 3, 3, 1, 3, 3]",
                                          "+I[c, 1, 5, 5, 1, 5, 5]", "+I[b, 1, 6, 6, 1, 6, 6]"));
  EXPECT_THAT(two, ElementsAreArray(one));
  EXPECT_THAT(two,
              ElementsAre("+I[a, 3, 7, 2, 1, 4]", "+I[b, 1, 3, 3, 3, 3]", "+I[c, 1, 5, 5, 5, 5]",
                          "-U[b, 1, 3, 3, 3, 3]", "+U[b, 2, 9, 4, 3, 6]"));
}

TEST_F(TwoPhaseAggregateTest, RowsThatCancelOutLeaveNoPartial) {
  ChangelogBatch b(kInput);
  b.AppendValues({Value::String("a"), Value::Int(1)}, RowKind::kInsert);
  b.AppendValues({Value::String("b"), Value::Int(2)}, RowKind::kInsert);
  b.AppendValues({Value::String("a"), Value::Int(1)}, RowKind::kDelete);
  std::vector<ChangelogBatch> input;
  input.push_back(std::move(b));
  auto [one, two] =
      Run({Call(AggKind::kSum, 1, DataType::Int())}, /*insert_only=*/false, input, 10);
  // (sum, count, appended row count): a's rows cancelled out.
  EXPECT_THAT(last_partials_, ElementsAre("+I[b, 2, 1, 1]"));
  EXPECT_THAT(two, ElementsAreArray(one));
  EXPECT_THAT(two, ElementsAre("+I[b, 2]"));
}

// A consistent random changelog over 12 keys: inserts, deletes and update pairs of live rows, some
// values NULL, in batches of 1 to 40 rows.
std::vector<ChangelogBatch> RandomChangelog(uint32_t seed, bool insert_only, int rows) {
  std::mt19937 rng(seed);
  std::vector<std::pair<std::string, std::optional<int>>> live;
  std::vector<ChangelogBatch> out;
  ChangelogBatch b(kInput);
  auto add = [&](const std::pair<std::string, std::optional<int>>& row, RowKind kind) {
    b.AppendValues({Value::String(row.first), row.second ? Value::Int(*row.second) : Value::Null()},
                   kind);
  };
  for (int i = 0; i < rows; ++i) {
    const int op = insert_only || live.empty() ? 0 : static_cast<int>(rng() % 3);
    if (op == 0) {
      std::pair<std::string, std::optional<int>> row{std::string(1, 'a' + rng() % 12), {}};
      if (rng() % 5 != 0) row.second = static_cast<int>(rng() % 200) - 100;
      add(row, RowKind::kInsert);
      live.push_back(row);
    } else {
      const size_t at = rng() % live.size();
      if (op == 1) {
        add(live[at], RowKind::kDelete);
        live.erase(live.begin() + at);
      } else {
        add(live[at], RowKind::kUpdateBefore);
        live[at].second = static_cast<int>(rng() % 200) - 100;
        add(live[at], RowKind::kUpdateAfter);
      }
    }
    if (rng() % 40 == 0 || i + 1 == rows) {
      out.push_back(std::move(b));
      b = ChangelogBatch(kInput);
    }
  }
  return out;
}

TEST_F(TwoPhaseAggregateTest, RandomInsertOnlyInputMatchesOnePhase) {
  // LISTAGG(k) joins a key's copies: as many as it has rows, across mini-batches.
  const std::vector<AggregateCall> calls = {
      Call(AggKind::kCountStar, -1, DataType::Null()), Call(AggKind::kCount, 1, DataType::Int()),
      Call(AggKind::kSum, 1, DataType::Int()),         Call(AggKind::kAvg, 1, DataType::Int()),
      Call(AggKind::kMin, 1, DataType::Int()),         Call(AggKind::kMax, 1, DataType::Int()),
      Call(AggKind::kListAgg, 0, DataType::String())};
  for (int size : {1, 3, 50, 1000}) {
    auto [one, two] = Run(calls, true, RandomChangelog(size, true, 600), size);
    EXPECT_THAT(two, ElementsAreArray(one)) << "mini-batch size " << size;
  }
}

TEST_F(TwoPhaseAggregateTest, RandomRetractingInputMatchesOnePhase) {
  const std::vector<AggregateCall> with_count_star = {
      Call(AggKind::kSum, 1, DataType::Int()), Call(AggKind::kCountStar, -1, DataType::Null()),
      Call(AggKind::kAvg, 1, DataType::Int()), Call(AggKind::kCount, 1, DataType::Int())};
  const std::vector<AggregateCall> without = {Call(AggKind::kSum, 1, DataType::Int()),
                                              Call(AggKind::kAvg, 1, DataType::Int())};
  for (int size : {1, 3, 50, 1000}) {
    for (const auto* calls : {&with_count_star, &without}) {
      auto [one, two] = Run(*calls, false, RandomChangelog(100 + size, false, 800), size);
      EXPECT_THAT(two, ElementsAreArray(one)) << "mini-batch size " << size;
      EXPECT_FALSE(one.empty());
    }
  }
}

TEST_F(TwoPhaseAggregateTest, CallsWithoutAPartialFormAreRejected) {
  LocalGroupAggregateSpec spec;
  spec.input_types = kInput;
  spec.group_keys = {0};
  AggregateCall distinct = Call(AggKind::kCount, 1, DataType::Int());
  distinct.distinct = true;
  spec.aggregates = {distinct};
  EXPECT_FALSE(LocalGroupAggregateOperator::Create(spec).ok());
  spec.aggregates = {Call(AggKind::kMin, 1, DataType::Int())};
  spec.input_insert_only = false;
  EXPECT_FALSE(LocalGroupAggregateOperator::Create(spec).ok());
  spec.input_insert_only = true;
  EXPECT_TRUE(LocalGroupAggregateOperator::Create(spec).ok());
  spec.mini_batch_size = 0;
  EXPECT_FALSE(LocalGroupAggregateOperator::Create(spec).ok());
}

}  // namespace
}  // namespace eddy
