// eddy-bench-state: Google Benchmark micro-benchmarks of the keyed-state hot path of a group
// aggregate, in one thread without a cluster: the state cache's batch lookup, the accumulators'
// decode/update/encode, and GroupAggregateOperator over 1024-row batches of random BIGINT keys
// (COUNT(*), SUM) with its state in memory. Items/s is rows (or keys) per second.
//   build-release/bin/eddy-bench-state --benchmark_filter=GroupAggregate
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "common/expr/aggregate_signature.h"
#include "worker/operators/accumulator.h"
#include "worker/operators/group_aggregate.h"
#include "worker/operators/group_table.h"
#include "worker/operators/native_aggregates.h"
#include "worker/state/state_cache.h"
#include "worker/state/testing/temp_state_backend.h"

namespace eddy {
namespace {

constexpr size_t kBatchRows = 1024;

class DiscardOutput : public Output {
 public:
  absl::Status Emit(const ChangelogBatch& batch) override {
    benchmark::DoNotOptimize(batch.num_rows());
    return absl::OkStatus();
  }
};

AggregateCall Call(AggKind kind, int arg, DataType arg_type) {
  AggregateCall c;
  c.kind = kind;
  c.arg = arg;
  c.arg_type = arg_type;
  c.result_type = *AggResultType(kind, arg_type);
  return c;
}

// Batches of (k, v) rows, k uniform in [1, keys].
std::vector<ChangelogBatch> RandomBatches(int64_t keys, size_t batches) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int64_t> key(1, keys), value(1, 1000);
  std::vector<ChangelogBatch> out;
  for (size_t b = 0; b < batches; ++b) {
    ChangelogBatch batch({DataType::BigInt(), DataType::BigInt()});
    for (size_t r = 0; r < kBatchRows; ++r) {
      batch.mutable_column(0).Append<int64_t>(key(rng));
      batch.mutable_column(1).Append<int64_t>(value(rng));
      batch.mutable_kinds().push_back(RowKind::kInsert);
    }
    out.push_back(std::move(batch));
  }
  return out;
}

void BM_GroupAggregate(benchmark::State& state) {
  const int64_t keys = state.range(0);
  testing::TempStateBackend backend("eddy_bench_state");
  GroupAggregateSpec spec;
  spec.input_types = {DataType::BigInt(), DataType::BigInt()};
  spec.group_keys = {0};
  spec.aggregates = {Call(AggKind::kCountStar, -1, DataType::Null()),
                     Call(AggKind::kSum, 1, DataType::BigInt())};
  spec.generate_update_before = false;
  spec.allow_native_state = state.range(1) != 0;
  auto op = GroupAggregateOperator::Create(spec);
  if (!op.ok() || !backend.status().ok()) {
    state.SkipWithError("cannot create the operator");
    return;
  }
  DiscardOutput out;
  OperatorContext ctx;
  ctx.state_id = 1;
  ctx.state = backend.get();
  ctx.state_cache_bytes = size_t{4} << 30;
  if (!(*op)->Open(ctx).ok()) {
    state.SkipWithError("cannot open the operator");
    return;
  }
  (*op)->set_output(&out);
  const std::vector<ChangelogBatch> batches = RandomBatches(keys, 1024);
  // Every key in state before the timing starts, as in a long-running job.
  for (int64_t done = 0; done < keys * 2; done += kBatchRows) {
    (void)(*op)->Process(0, batches[(done / kBatchRows) % batches.size()]);
  }
  size_t i = 0;
  for (auto _ : state) {
    absl::Status s = (*op)->Process(0, batches[i++ % batches.size()]);
    if (!s.ok()) state.SkipWithError(std::string(s.message()).c_str());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kBatchRows));
}
// Second argument: 1 = native accumulators in a GroupTable, 0 = serialized ones in a StateCache.
BENCHMARK(BM_GroupAggregate)
    ->ArgsProduct({{5000, 100000, 1000000}, {0, 1}})
    ->ArgNames({"keys", "native"})
    ->Unit(benchmark::kMicrosecond);

// A batch of random keys looked up in a GroupTable holding them all (the aggregate's probe).
void BM_GroupTableFind(benchmark::State& state) {
  const int64_t keys = state.range(0);
  GroupTable table(24);
  std::vector<std::string> names;
  for (int64_t k = 0; k < keys; ++k) {
    names.push_back("state-key-" + std::to_string(k));
    table.Insert(names.back(), GroupTable::Hash(names.back()), 0);
  }
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> pick(0, keys - 1);
  std::vector<std::vector<std::string_view>> lookups(64);
  std::vector<std::vector<uint64_t>> hashes(64);
  for (size_t b = 0; b < lookups.size(); ++b) {
    for (size_t r = 0; r < kBatchRows; ++r) {
      lookups[b].push_back(names[pick(rng)]);
      hashes[b].push_back(GroupTable::Hash(lookups[b].back()));
    }
  }
  size_t i = 0;
  for (auto _ : state) {
    const auto& batch = lookups[i % lookups.size()];
    const auto& h = hashes[i++ % lookups.size()];
    for (size_t r = 0; r < batch.size(); ++r) {
      if (r + 8 < batch.size()) table.PrefetchSlot(h[r + 8]);
      benchmark::DoNotOptimize(table.Find(batch[r], h[r]));
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kBatchRows));
}
BENCHMARK(BM_GroupTableFind)->Arg(100000)->Arg(1000000);

void BM_StateCacheFindMany(benchmark::State& state) {
  const int64_t keys = state.range(0);
  StateCache cache(size_t{4} << 30);
  std::vector<std::string> names;
  for (int64_t k = 0; k < keys; ++k) {
    names.push_back("state-key-" + std::to_string(k));
    cache.Insert(names.back(), true, "value", true, false);
  }
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> pick(0, keys - 1);
  std::vector<std::vector<std::string_view>> lookups(64);
  for (auto& batch : lookups) {
    for (size_t r = 0; r < kBatchRows; ++r) batch.push_back(names[pick(rng)]);
  }
  std::vector<uint32_t> found;
  size_t i = 0;
  for (auto _ : state) {
    cache.FindMany(lookups[i++ % lookups.size()], &found);
    benchmark::DoNotOptimize(found.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kBatchRows));
}
BENCHMARK(BM_StateCacheFindMany)->Arg(100000)->Arg(1000000);

// One group's accumulators decoded, updated with one row, evaluated and encoded again: what the
// aggregate does for every touched key of a batch.
void BM_AccumulatorRoundTrip(benchmark::State& state) {
  const std::vector<DataType> types = {DataType::BigInt(), DataType::BigInt()};
  auto functions = AggregateFunctions::Create(
      {Call(AggKind::kCountStar, -1, DataType::Null()), Call(AggKind::kSum, 1, DataType::BigInt())},
      types, /*retractions_possible=*/false);
  if (!functions.ok()) {
    state.SkipWithError("cannot create the functions");
    return;
  }
  const std::vector<ChangelogBatch> batches = RandomBatches(1000, 1);
  GroupAccumulators acc;
  functions->Reset(&acc);
  std::string bytes;
  functions->Serialize(acc, &bytes);
  std::vector<AggValue> values;
  size_t row = 0;
  for (auto _ : state) {
    (void)functions->Deserialize(bytes, &acc);
    functions->Update(&acc, batches[0], row++ % kBatchRows, /*accumulate=*/true);
    functions->GetValues(acc, &values);
    bytes.clear();
    functions->Serialize(acc, &bytes);
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_AccumulatorRoundTrip);

// The same group updated with one row in native form: what the aggregate now does per row.
void BM_NativeAccumulatorUpdate(benchmark::State& state) {
  const std::vector<DataType> types = {DataType::BigInt(), DataType::BigInt()};
  auto functions = AggregateFunctions::Create(
      {Call(AggKind::kCountStar, -1, DataType::Null()), Call(AggKind::kSum, 1, DataType::BigInt())},
      types, /*retractions_possible=*/false);
  if (!functions.ok()) {
    state.SkipWithError("cannot create the functions");
    return;
  }
  std::optional<NativeAggregates> native = NativeAggregates::Create(*functions);
  const std::vector<ChangelogBatch> batches = RandomBatches(1000, 1);
  std::vector<uint8_t> payload(native->payload_bytes(), 0);
  size_t row = 0;
  for (auto _ : state) {
    native->Update(payload.data(), batches[0], row++ % kBatchRows, /*accumulate=*/true);
    benchmark::DoNotOptimize(payload.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_NativeAccumulatorUpdate);

}  // namespace
}  // namespace eddy

BENCHMARK_MAIN();
