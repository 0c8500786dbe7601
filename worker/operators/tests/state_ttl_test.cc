// State TTL of GroupAggregate (table.exec.state.ttl) with an injected clock: a group not written
// for the TTL is gone (its next row starts a new group with +I, a retraction for it is ignored),
// whether its state sits in the state cache or in RocksDB; writes refresh the timestamp; and under
// a stream of ever-new keys the keys the operator holds in RocksDB stop growing.
#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/group_aggregate.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/state/keyed_state_backend.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

using ::testing::ElementsAre;
using ::testing::IsEmpty;

AggregateCall CountStar() {
  AggregateCall c;
  c.kind = AggKind::kCountStar;
  c.result_type = *AggResultType(AggKind::kCountStar, DataType::Null());
  return c;
}

ChangelogBatch Words(const std::vector<std::string>& words, RowKind kind = RowKind::kInsert) {
  ChangelogBatch b({DataType::String()});
  for (const auto& w : words) b.AppendValues({Value::String(w)}, kind);
  return b;
}

// Parameter: the state cache budget (0: every change reaches RocksDB with its batch).
class StateTtlTest : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    std::string path = ::testing::TempDir() + "/eddy_ttl_" + std::to_string(::getpid()) + "_" +
                       std::to_string(counter++) + "/state";
    std::filesystem::remove_all(path);  // a store opens whatever it finds
    StateBackendOptions options;
    options.now_ms = [this] { return now_ms_.load(); };
    auto b = KeyedStateBackend::Open(path, options);
    ASSERT_TRUE(b.ok()) << b.status();
    backend_ = std::move(b).value();
  }

  std::unique_ptr<GroupAggregateOperator> Make(int64_t ttl_ms, bool insert_only = true) {
    GroupAggregateSpec spec;
    spec.input_types = {DataType::String()};
    spec.group_keys = {0};
    spec.aggregates = {CountStar()};
    spec.input_insert_only = insert_only;
    spec.state_ttl_ms = ttl_ms;
    auto op = GroupAggregateOperator::Create(spec);
    EXPECT_TRUE(op.ok()) << op.status();
    OperatorContext ctx;
    ctx.state_id = ++next_state_id_;
    ctx.state = backend_.get();
    ctx.state_cache_bytes = GetParam();
    EXPECT_TRUE((*op)->Open(ctx).ok());
    (*op)->set_output(&out_);
    return std::move(op).value();
  }

  std::atomic<int64_t> now_ms_{1000000};
  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
  CollectingOutput out_;
};

TEST_P(StateTtlTest, AKeyNotWrittenForTheTtlStartsANewGroup) {
  auto op = Make(/*ttl_ms=*/1000);
  ASSERT_TRUE(op->Process(0, Words({"a", "a", "b"})).ok());
  EXPECT_THAT(out_.Take(), ElementsAre("+I[a, 1]", "-U[a, 1]", "+U[a, 2]", "+I[b, 1]"));

  // 999 ms later: still there; the write refreshes a's timestamp (b's stays).
  now_ms_ += 999;
  ASSERT_TRUE(op->Process(0, Words({"a"})).ok());
  EXPECT_THAT(out_.Take(), ElementsAre("-U[a, 2]", "+U[a, 3]"));

  // 1000 ms after b's last write b is gone, a (written 1 ms later) is not.
  now_ms_ += 1;
  ASSERT_TRUE(op->Process(0, Words({"b", "a"})).ok());
  EXPECT_THAT(out_.Take(), ElementsAre("+I[b, 1]", "-U[a, 3]", "+U[a, 4]"));

  // Long after: both start again, from the cache or from RocksDB alike.
  ASSERT_TRUE(op->FlushState().ok());
  now_ms_ += 5000;
  ASSERT_TRUE(op->Process(0, Words({"a", "b", "a"})).ok());
  EXPECT_THAT(out_.Take(), ElementsAre("+I[a, 1]", "+I[b, 1]", "-U[a, 1]", "+U[a, 2]"));
}

TEST_P(StateTtlTest, ARetractionForAnExpiredGroupIsIgnored) {
  auto op = Make(/*ttl_ms=*/100, /*insert_only=*/false);
  ASSERT_TRUE(op->Process(0, Words({"a", "a"})).ok());
  out_.Take();
  now_ms_ += 100;
  ASSERT_TRUE(op->Process(0, Words({"a"}, RowKind::kDelete)).ok());
  EXPECT_THAT(out_.Take(), IsEmpty());
  ASSERT_TRUE(op->Process(0, Words({"a"})).ok());
  EXPECT_THAT(out_.Take(), ElementsAre("+I[a, 1]"));
}

TEST_P(StateTtlTest, WithoutTtlStateIsKeptForever) {
  auto op = Make(/*ttl_ms=*/0);
  ASSERT_TRUE(op->Process(0, Words({"a"})).ok());
  now_ms_ += int64_t{1} << 40;
  ASSERT_TRUE(op->FlushState().ok());
  ASSERT_TRUE(backend_->CompactAll().ok());
  ASSERT_TRUE(op->Process(0, Words({"a"})).ok());
  EXPECT_THAT(out_.Take(), ElementsAre("+I[a, 1]", "-U[a, 1]", "+U[a, 2]"));
}

TEST_P(StateTtlTest, StateStopsGrowingUnderEverNewKeys) {
  auto with_ttl = Make(/*ttl_ms=*/1000);
  auto forever = Make(/*ttl_ms=*/0);
  const uint32_t ttl_op = 1, forever_op = 2;
  // 60 rounds of 2,000 new keys, 100 ms apart: with a 1 s TTL only about the last 10 rounds'
  // keys are live at any time.
  uint64_t max_ttl_keys = 0;
  int next_key = 0;
  for (int round = 0; round < 60; ++round) {
    std::vector<std::string> words;
    for (int i = 0; i < 2000; ++i) words.push_back("k" + std::to_string(next_key++));
    ASSERT_TRUE(with_ttl->Process(0, Words(words)).ok());
    ASSERT_TRUE(forever->Process(0, Words(words)).ok());
    out_.Take();
    now_ms_ += 100;
    if (round % 10 == 9) {
      // What RocksDB holds: cached changes written, then compactions run their filter.
      ASSERT_TRUE(with_ttl->FlushState().ok());
      ASSERT_TRUE(forever->FlushState().ok());
      ASSERT_TRUE(backend_->CompactAll().ok());
      auto n = backend_->CountKeys(ttl_op);
      ASSERT_TRUE(n.ok());
      max_ttl_keys = std::max(max_ttl_keys, *n);
      EXPECT_LE(*n, 11u * 2000) << "round " << round;
      EXPECT_EQ(*backend_->CountKeys(forever_op), static_cast<uint64_t>(next_key));
    }
  }
  EXPECT_GE(max_ttl_keys, 9u * 2000);  // the live keys are all still there
  EXPECT_EQ(next_key, 120000);
}

INSTANTIATE_TEST_SUITE_P(CacheBudgets, StateTtlTest, ::testing::Values(0, 64u << 10, 32u << 20),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return info.param == 0
                                      ? std::string("NoCache")
                                      : "Cache" + std::to_string(info.param >> 10) + "KiB";
                         });

}  // namespace
}  // namespace eddy
