// Producer and consumer tasks connected by ExchangeSink/ExchangeSource, as a planner would deploy
// them: Values -> HASH exchange -> GroupAggregate (parallelism 2) -> SINGLETON exchange -> the
// test.
#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <map>
#include <thread>

#include "common/base/hash.h"
#include "common/batch/batch_codec.h"
#include "common/types/type_proto.h"
#include "tests/util/eventually.h"
#include "worker/exchange/tests/exchange_test_util.h"
#include "worker/operators/key_encoder.h"
#include "worker/runtime/task.h"
#include "worker/state/testing/temp_state_backend.h"

namespace eddy {
namespace {

using testing::TestWorker;

constexpr int kProducers = 2;
constexpr int kConsumers = 2;
constexpr int kRowsPerProducer = 20000;
constexpr int kWords = 37;

Schema InputSchema() { return Schema{{{"word", DataType::String()}, {"v", DataType::BigInt()}}}; }
Schema AggSchema() {
  return Schema{{{"word", DataType::String()},
                 {"cnt", DataType::BigInt().WithNullable(false)},
                 {"total", DataType::BigInt()}}};
}

std::string Word(int i) { return "w" + std::to_string(i % kWords); }

v1::PlanNode ValuesNode(int id, int producer) {
  v1::PlanNode n;
  n.set_id(id);
  n.set_description("Values");
  SchemaToProto(InputSchema(), n.mutable_output_schema());
  for (int start = 0; start < kRowsPerProducer; start += 5000) {
    ChangelogBatch b(InputSchema().Types());
    for (int i = start; i < start + 5000; ++i) {
      b.AppendValues({Value::String(Word(i * 7 + producer)), Value::Int(i)}, RowKind::kInsert);
    }
    EncodeBatch(b, n.mutable_values()->add_batches());
  }
  return n;
}

v1::ExchangeTarget* AddTarget(v1::ExchangeSink* sink, const std::string& address, bool local,
                              int task, int subtask, int channel, int num_channels) {
  auto* t = sink->add_targets();
  t->set_address(address);
  t->set_local(local);
  t->set_job_id("jx");
  t->set_task_index(task);
  t->set_subtask_index(subtask);
  t->set_channel_index(channel);
  t->set_num_channels(num_channels);
  return t;
}

v1::PlanNode AggNode(int id, int input) {
  v1::PlanNode n;
  n.set_id(id);
  n.add_inputs(input);
  n.set_description("GroupAggregate(groupBy=[word])");
  n.set_state_id(id + 1);
  SchemaToProto(AggSchema(), n.mutable_output_schema());
  auto* agg = n.mutable_group_aggregate();
  agg->add_group_keys(0);
  auto* count = agg->add_calls();
  count->set_function("COUNT");
  count->set_count_star(true);
  count->set_arg(-1);
  TypeToProto(DataType::BigInt().WithNullable(false), count->mutable_result_type());
  auto* sum = agg->add_calls();
  sum->set_function("SUM");
  sum->set_arg(1);
  TypeToProto(DataType::BigInt(), sum->mutable_arg_type());
  TypeToProto(DataType::BigInt(), sum->mutable_result_type());
  agg->set_generate_update_before(true);
  return n;
}

class ExchangeTaskTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(state_.status().ok()) << state_.status(); }

  std::unique_ptr<Task> MakeTask(const v1::TaskDeployment& d, ExchangeRegistry* registry) {
    TaskEnvironment env;
    env.state_stores = state_.stores();
    env.exchange = registry;
    auto* promise = &done_[{d.task_index(), d.subtask_index()}];
    env.on_state = [promise](const Task&, v1::TaskState s, const std::string& error) {
      if (s != v1::TASK_STATE_RUNNING) promise->set_value({s, error});
    };
    auto task = Task::Create(d, std::move(env));
    EXPECT_TRUE(task.ok()) << task.status();
    return task.ok() ? std::move(*task) : nullptr;
  }

  testing::TempStateBackend state_{"exchange_task_test"};
  std::map<std::pair<int, int>, std::promise<std::pair<v1::TaskState, std::string>>> done_;
};

TEST_F(ExchangeTaskTest, HashExchangeFeedsAParallelAggregateWithCorrectTotals) {
  // Worker A runs both producers, consumer 0 and the collector; worker B runs consumer 1. So the
  // shuffle uses local channels (to consumer 0) and gRPC streams (to consumer 1, and back).
  TestWorker a, b;
  TestWorker* worker_of_consumer[kConsumers] = {&a, &b};

  // The collector: the gate of a parallelism-1 "task 2", fed by both consumers.
  auto collector = std::make_shared<InputGate>("collector", kConsumers, 4, AggSchema().Types());
  auto collector_reg = a.registry.Register(GateKey{"jx", 2, 0}, collector);
  ASSERT_TRUE(collector_reg.ok());

  std::vector<std::unique_ptr<Task>> consumers, producers;
  for (int c = 0; c < kConsumers; ++c) {
    v1::TaskDeployment d;
    d.set_job_id("jx");
    d.set_task_index(1);
    d.set_subtask_index(c);
    d.set_parallelism(kConsumers);
    d.set_max_parallelism(128);
    v1::PlanNode src;
    src.set_id(1);
    src.set_description("Exchange(distribution=[hash[word]])");
    SchemaToProto(InputSchema(), src.mutable_output_schema());
    src.mutable_exchange_source()->set_num_channels(kProducers);
    src.mutable_exchange_source()->set_credits_per_channel(2);
    *d.add_nodes() = src;
    *d.add_nodes() = AggNode(2, 1);
    v1::PlanNode out;
    out.set_id(3);
    out.add_inputs(2);
    out.set_description("Exchange(distribution=[single])");
    auto* sink = out.mutable_exchange_sink();
    sink->set_partitioning(v1::ExchangeSink::SINGLETON);
    AddTarget(sink, a.address, /*local=*/c == 0, 2, 0, /*channel=*/c, kConsumers);
    *d.add_nodes() = out;
    consumers.push_back(MakeTask(d, &worker_of_consumer[c]->registry));
    ASSERT_NE(consumers.back(), nullptr);
  }
  for (int p = 0; p < kProducers; ++p) {
    // VALUES emits its rows in subtask 0 only, so the two producers are two parallelism-1 tasks
    // (as the two inputs of a UNION ALL would be): the consumer's channels 0 and 1.
    v1::TaskDeployment d;
    d.set_job_id("jx");
    d.set_task_index(p == 0 ? 0 : 3);
    d.set_subtask_index(0);
    d.set_parallelism(1);
    d.set_max_parallelism(128);
    *d.add_nodes() = ValuesNode(1, p);
    v1::PlanNode out;
    out.set_id(2);
    out.add_inputs(1);
    out.set_description("Exchange(distribution=[hash[word]])");
    auto* sink = out.mutable_exchange_sink();
    sink->set_partitioning(v1::ExchangeSink::HASH);
    sink->add_hash_keys(0);
    sink->set_max_parallelism(128);
    sink->set_flush_rows(512);
    for (int c = 0; c < kConsumers; ++c) {
      AddTarget(sink, worker_of_consumer[c]->address, /*local=*/c == 0, 1, c, /*channel=*/p,
                kProducers);
    }
    *d.add_nodes() = out;
    producers.push_back(MakeTask(d, &a.registry));
    ASSERT_NE(producers.back(), nullptr);
  }
  // Producers first: their streams wait for the consumers' gates, which exist since Create.
  for (auto& t : producers) t->Start();
  for (auto& t : consumers) t->Start();

  // Materialize the aggregate's changelog: the last +I/+U per word, per consumer subtask.
  auto encoder = KeyEncoder::Create(AggSchema().Types(), {0});
  ASSERT_TRUE(encoder.ok());
  std::map<std::string, std::pair<int64_t, int64_t>> result;
  size_t changes = 0;
  ChangelogBatch batch;
  int channel = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (true) {
    auto st = collector->Poll(&batch, &channel);
    ASSERT_TRUE(st.ok()) << st.status();
    if (*st == SourceState::kEnd) break;
    if (*st == SourceState::kIdle) {
      ASSERT_LT(std::chrono::steady_clock::now(), deadline);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    for (size_t r = 0; r < batch.num_rows(); ++r) {
      ++changes;
      // Every word reached the consumer subtask that owns its key group.
      int key_group = KeyGroupOf(encoder->EncodeToString(batch, r), 128);
      ASSERT_EQ(SubtaskOfKeyGroup(key_group, kConsumers, 128), channel);
      RowKind kind = batch.kind(r);
      if (kind == RowKind::kInsert || kind == RowKind::kUpdateAfter) {
        result[std::string(batch.column(0).GetString(r))] = {batch.column(1).Get<int64_t>(r),
                                                             batch.column(2).Get<int64_t>(r)};
      }
    }
  }
  for (auto& [key, promise] : done_) {
    auto fut = promise.get_future();
    ASSERT_EQ(fut.wait_for(std::chrono::seconds(30)), std::future_status::ready);
    auto [state, error] = fut.get();
    EXPECT_EQ(state, v1::TASK_STATE_FINISHED)
        << "task " << key.first << "." << key.second << ": " << error;
  }

  std::map<std::string, std::pair<int64_t, int64_t>> expected;
  for (int p = 0; p < kProducers; ++p) {
    for (int i = 0; i < kRowsPerProducer; ++i) {
      auto& e = expected[Word(i * 7 + p)];
      e.first += 1;
      e.second += i;
    }
  }
  EXPECT_EQ(result, expected);
  // +I per word, then -U/+U per later row.
  EXPECT_EQ(changes, static_cast<size_t>(kWords + 2 * (kProducers * kRowsPerProducer - kWords)));
}

TEST_F(ExchangeTaskTest, CancellingABackpressuredProducerDoesNotHang) {
  TestWorker a;
  // A consumer gate nobody drains: the producer runs out of credit and blocks in Send.
  auto gate = std::make_shared<InputGate>("stuck", 1, 1, InputSchema().Types());
  auto reg = a.registry.Register(GateKey{"jx", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  v1::TaskDeployment d;
  d.set_job_id("jx");
  *d.add_nodes() = ValuesNode(1, 0);
  v1::PlanNode out;
  out.set_id(2);
  out.add_inputs(1);
  out.set_description("Exchange");
  auto* sink = out.mutable_exchange_sink();
  sink->set_partitioning(v1::ExchangeSink::FORWARD);
  AddTarget(sink, a.address, /*local=*/false, 1, 0, 0, 1);
  *d.add_nodes() = out;
  auto task = MakeTask(d, &a.registry);
  ASSERT_NE(task, nullptr);
  task->Start();
  // Bounded by the credit window: one batch arrives, and the task stays blocked behind it.
  ASSERT_TRUE(testing::Eventually([&] { return gate->buffered() == 1u; }));
  EXPECT_TRUE(testing::HoldsFor([&] { return gate->buffered() == 1u && !task->done(); },
                                std::chrono::milliseconds(100)));
  task->Cancel();
  auto fut = done_[{0, 0}].get_future();
  ASSERT_EQ(fut.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(fut.get().first, v1::TASK_STATE_CANCELED);
  task->Join();
}

TEST_F(ExchangeTaskTest, TheDriversTicksFlushASlowSourcesRowsAfterTheBufferTimeout) {
  TestWorker a;
  const Schema schema{{{"x", DataType::BigInt()}}};
  auto gate = std::make_shared<InputGate>("slow", 1, 4, schema.Types());
  auto reg = a.registry.Register(GateKey{"jx", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  v1::TaskDeployment d;
  d.set_job_id("jx");
  v1::PlanNode src;
  src.set_id(1);
  src.set_description("datagen");
  SchemaToProto(schema, src.mutable_output_schema());
  v1::TableSource* gen = src.mutable_table_source();
  gen->set_connector("datagen");
  gen->set_table_name("gen");
  (*gen->mutable_options())["rows-per-second"] = "200";  // far below the 1024-row flush threshold
  SchemaToProto(schema, gen->mutable_table_schema());
  gen->add_columns(0);
  *d.add_nodes() = src;
  v1::PlanNode out;
  out.set_id(2);
  out.add_inputs(1);
  out.set_description("Exchange");
  auto* sink = out.mutable_exchange_sink();
  sink->set_partitioning(v1::ExchangeSink::FORWARD);
  sink->set_buffer_timeout_ms(50);
  AddTarget(sink, a.address, /*local=*/true, 1, 0, 0, 1);
  *d.add_nodes() = out;
  auto task = MakeTask(d, &a.registry);
  ASSERT_NE(task, nullptr);
  task->Start();
  // Only the timeout can flush here: batches arrive while the source is far from 1024 rows.
  size_t batches = 0, rows = 0;
  ChangelogBatch b;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (batches < 3 && std::chrono::steady_clock::now() < deadline) {
    auto st = gate->Poll(&b);
    ASSERT_TRUE(st.ok()) << st.status();
    if (*st == SourceState::kData) {
      ++batches;
      rows += b.num_rows();
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  EXPECT_EQ(batches, 3u);
  EXPECT_LT(rows, 1024u);
  task->Cancel();
  task->Join();
}

}  // namespace
}  // namespace eddy
