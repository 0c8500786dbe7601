// GroupAggregate over native accumulators (NativeGroupState) against the same operator with
// serialized accumulators (KeyedStateTable): random changelogs, row by row and mini-batch, state
// budgets from none to all, for every call with a native form. Both must emit the same changelog
// and leave the same bytes in RocksDB.
#include <atomic>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "worker/operators/group_aggregate.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

AggregateCall Call(AggKind kind, int arg, DataType arg_type) {
  AggregateCall c;
  c.kind = kind;
  c.arg = arg;
  c.arg_type = arg_type;
  c.result_type = *AggResultType(kind, arg_type);
  return c;
}

// Input: k (the key), v BIGINT, d DOUBLE, f FLOAT, i INT, m DECIMAL(10, 2); values may be NULL.
const std::vector<DataType> kTypes = {DataType::BigInt(), DataType::BigInt(),
                                      DataType::Double(), DataType::Float(),
                                      DataType::Int(),    DataType::Decimal(10, 2)};

std::vector<AggregateCall> RetractingCalls() {
  return {Call(AggKind::kCountStar, -1, DataType::Null()),
          Call(AggKind::kCount, 1, kTypes[1]),
          Call(AggKind::kSum, 1, kTypes[1]),
          Call(AggKind::kAvg, 1, kTypes[1]),
          Call(AggKind::kSum, 2, kTypes[2]),
          Call(AggKind::kAvg, 2, kTypes[2]),
          Call(AggKind::kSum, 3, kTypes[3]),
          Call(AggKind::kAvg, 4, kTypes[4]),
          Call(AggKind::kSum, 5, kTypes[5]),
          Call(AggKind::kAvg, 5, kTypes[5])};
}

std::vector<AggregateCall> InsertOnlyCalls() {
  std::vector<AggregateCall> calls = RetractingCalls();
  for (AggKind kind : {AggKind::kMin, AggKind::kMax, AggKind::kFirstValue, AggKind::kLastValue}) {
    calls.push_back(Call(kind, 1, kTypes[1]));
    calls.push_back(Call(kind, 2, kTypes[2]));
    calls.push_back(Call(kind, 4, kTypes[4]));
  }
  return calls;
}

struct Case {
  const char* name;
  bool insert_only;
  bool fold;
  size_t budget;
  int keys;  // 0: a global aggregate
};

class NativeGroupAggregateTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    std::string path = ::testing::TempDir() + "/eddy_native_agg_" + std::to_string(::getpid()) +
                       "_" + std::to_string(counter++) + "/state";
    std::filesystem::remove_all(path);
    auto b = KeyedStateBackend::Open(path);
    ASSERT_TRUE(b.ok()) << b.status();
    backend_ = std::move(b).value();
  }

  std::unique_ptr<GroupAggregateOperator> Make(GroupAggregateSpec spec, CollectingOutput* out) {
    auto op = GroupAggregateOperator::Create(std::move(spec));
    EXPECT_TRUE(op.ok()) << op.status();
    OperatorContext ctx;
    ctx.state_id = ++next_state_id_;
    ctx.state = backend_.get();
    ctx.state_cache_bytes = GetParam().budget;
    EXPECT_TRUE((*op)->Open(ctx).ok());
    (*op)->set_output(out);
    return std::move(op).value();
  }

  // group key -> value of one operator's state in RocksDB.
  std::map<std::string, std::string> StateOf(uint32_t state_id) {
    std::map<std::string, std::string> m;
    EXPECT_TRUE(backend_
                    ->ScanPrefix("",
                                 [&](std::string_view key, std::string_view value) {
                                   if (StateIdOfStateKey(key) == state_id) {
                                     m[std::string(GroupKeyOfStateKey(key))] = std::string(value);
                                   }
                                   return absl::OkStatus();
                                 })
                    .ok());
    return m;
  }

  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
};

Value RandomValue(std::mt19937_64& rng, int column) {
  if (rng() % 8 == 0) return Value::Null();
  switch (column) {
    case 2:
    case 3:
      // Few distinct doubles, negative zero among them, so MIN/MAX ties and signs matter.
      return Value::Double(static_cast<double>(static_cast<int64_t>(rng() % 41) - 20) / 4.0 +
                           (rng() % 50 == 0 ? -0.0 : 0.0));
    default:
      return Value::Int(static_cast<int64_t>(rng() % 2001) - 1000);
  }
}

TEST_P(NativeGroupAggregateTest, EmitsAndStoresWhatSerializedAccumulatorsDo) {
  const Case& c = GetParam();
  const uint32_t seed = std::random_device{}();
  std::cout << "seed " << seed << "\n";
  std::mt19937_64 rng(seed);

  GroupAggregateSpec spec;
  spec.input_types = kTypes;
  if (c.keys > 0) spec.group_keys = {0};
  spec.aggregates = c.insert_only ? InsertOnlyCalls() : RetractingCalls();
  spec.input_insert_only = c.insert_only;
  if (c.fold) {
    spec.mini_batch_size = 300;
    spec.mini_batch_latency_ms = 1000000;
  }
  GroupAggregateSpec serialized_spec = spec;
  serialized_spec.allow_native_state = false;
  CollectingOutput native_out, serialized_out;
  auto native = Make(spec, &native_out);
  auto serialized = Make(serialized_spec, &serialized_out);
  ASSERT_TRUE(native->uses_native_state());
  ASSERT_FALSE(serialized->uses_native_state());

  std::vector<std::vector<Value>> live;  // inserted and not yet retracted
  for (int b = 0; b < 150; ++b) {
    ChangelogBatch batch(kTypes);
    const int rows = 1 + static_cast<int>(rng() % 200);
    for (int r = 0; r < rows; ++r) {
      if (!c.insert_only && !live.empty() && rng() % 3 == 0) {
        const size_t i = rng() % live.size();
        batch.AppendValues(live[i], rng() % 2 ? RowKind::kDelete : RowKind::kUpdateBefore);
        live[i] = live.back();
        live.pop_back();
        continue;
      }
      std::vector<Value> row = {Value::Int(c.keys > 0 ? static_cast<int64_t>(rng() % c.keys) : 0)};
      for (int col = 1; col < static_cast<int>(kTypes.size()); ++col) {
        row.push_back(RandomValue(rng, col));
      }
      batch.AppendValues(row, rng() % 4 == 0 ? RowKind::kUpdateAfter : RowKind::kInsert);
      live.push_back(row);
    }
    ASSERT_TRUE(native->Process(0, batch).ok());
    ASSERT_TRUE(serialized->Process(0, batch).ok());
    if (b % 50 == 49) {  // a checkpoint now and then
      ASSERT_TRUE(native->PrepareSnapshotPreBarrier(b).ok());
      ASSERT_TRUE(serialized->PrepareSnapshotPreBarrier(b).ok());
    }
  }
  ASSERT_TRUE(native->Finish().ok());
  ASSERT_TRUE(serialized->Finish().ok());
  ASSERT_GT(native_out.rows.size(), 0u);
  ASSERT_EQ(native_out.rows, serialized_out.rows) << "seed " << seed;

  ASSERT_TRUE(native->FlushState().ok());
  ASSERT_TRUE(serialized->FlushState().ok());
  const auto native_state = StateOf(native->state_id());
  EXPECT_GT(native_state.size(), 0u);
  EXPECT_EQ(native_state, StateOf(serialized->state_id())) << "seed " << seed;
  if (c.budget == 0 && c.keys > 0) {
    EXPECT_GT(native->state_evictions(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, NativeGroupAggregateTest,
    ::testing::Values(Case{"RetractingRowByRowNoBudget", false, false, 0, 300},
                      Case{"RetractingRowByRowSmallBudget", false, false, 4 << 10, 300},
                      Case{"RetractingRowByRowAllInMemory", false, false, 64 << 20, 300},
                      Case{"RetractingMiniBatchSmallBudget", false, true, 4 << 10, 300},
                      Case{"RetractingGlobal", false, false, 4 << 10, 0},
                      Case{"InsertOnlyRowByRowSmallBudget", true, false, 4 << 10, 300},
                      Case{"InsertOnlyMiniBatchAllInMemory", true, true, 64 << 20, 300},
                      Case{"InsertOnlyRowByRowNoBudget", true, false, 0, 50}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace eddy
