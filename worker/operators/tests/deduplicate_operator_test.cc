// DeduplicateOperator: exact changelogs of keep-first and keep-last row-time deduplication (equal
// rowtimes, out-of-order rows, generate_update_before off, several keys per batch, a key replaced
// twice in one batch), refusal of updating input, state TTL and snapshot/restore. Every expectation
// is derived by hand from the semantics in deduplicate_operator.h.
#include "worker/operators/deduplicate_operator.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/testing/event_log.h"
#include "worker/state/keyed_state_backend.h"

namespace eddy {
namespace {

using testing::EventLog;

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr RowKind kI = RowKind::kInsert;

// (k STRING, v BIGINT, ts TIMESTAMP(3)): deduplicated on k by ts.
const std::vector<DataType> kTypes = {DataType::String(), DataType::BigInt(),
                                      DataType::Timestamp(3)};

using Row = std::pair<RowKind, std::vector<Value>>;

Row R(const char* k, int64_t v, int64_t ts, RowKind kind = kI) {
  return {kind, {Value::String(k), Value::Int(v), Value::Int(ts)}};
}

DeduplicateSpec Spec(bool keep_last_row, bool generate_update_before = true) {
  DeduplicateSpec spec;
  spec.input_types = kTypes;
  spec.keys = {0};
  spec.time_column = 2;
  spec.keep_last_row = keep_last_row;
  spec.generate_update_before = generate_update_before;
  return spec;
}

// An operator and its output (timestamps printed as their millis).
struct Dedup {
  std::unique_ptr<DeduplicateOperator> op;
  EventLog out;

  absl::Status Process(const std::vector<Row>& rows) {
    ChangelogBatch b(kTypes);
    for (const auto& [kind, values] : rows) b.AppendValues(values, kind);
    return op->Process(0, b);
  }
  // Feeds one batch and returns what it emitted.
  std::vector<std::string> Feed(const std::vector<Row>& rows) {
    absl::Status s = Process(rows);
    EXPECT_TRUE(s.ok()) << s;
    return out.Take();
  }
  std::vector<std::string> Feed(const Row& row) { return Feed(std::vector<Row>{row}); }
};

class DedupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = ::testing::TempDir() + "/eddy_dedup_" + std::to_string(::getpid()) + "_" +
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
  std::unique_ptr<Dedup> Make(DeduplicateSpec spec, size_t state_cache_bytes = 0,
                              KeyedStateBackend* backend = nullptr, uint32_t state_id = 0) {
    auto op = DeduplicateOperator::Create(std::move(spec));
    EXPECT_TRUE(op.ok()) << op.status();
    if (!op.ok()) return nullptr;
    auto d = std::make_unique<Dedup>();
    OperatorContext ctx;
    ctx.state_id = state_id != 0 ? state_id : ++next_state_id_;
    ctx.state = backend != nullptr ? backend : backend_.get();
    ctx.state_cache_bytes = state_cache_bytes;
    absl::Status opened = (*op)->Open(ctx);
    EXPECT_TRUE(opened.ok()) << opened;
    d->op = std::move(op).value();
    d->op->set_output(&d->out);
    return d;
  }

  std::string dir_;
  std::atomic<int64_t> now_ms_{1'000'000};
  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
};

TEST_F(DedupTest, CreateRejectsBadSpecs) {
  auto rejected = [](DeduplicateSpec spec, const std::string& what) {
    auto op = DeduplicateOperator::Create(std::move(spec));
    ASSERT_FALSE(op.ok());
    EXPECT_EQ(op.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(op.status().message().find(what), std::string::npos) << op.status();
  };
  DeduplicateSpec spec = Spec(true);
  spec.keys = {3};
  rejected(spec, "key column 3 out of range");
  spec = Spec(true);
  spec.time_column = 5;
  rejected(spec, "time column 5 out of range");
  spec = Spec(true);
  spec.time_column = 1;
  rejected(spec, "time column 1 is BIGINT, not a TIMESTAMP(3) rowtime");
  spec = Spec(true);
  spec.input_types[2] = DataType::Timestamp(6);
  rejected(spec, "not a TIMESTAMP(3) rowtime");
  spec = Spec(true);
  spec.state_ttl_ms = -5;
  rejected(spec, "negative state TTL");
}

TEST_F(DedupTest, OpenNeedsAStateBackend) {
  auto op = DeduplicateOperator::Create(Spec(true));
  ASSERT_TRUE(op.ok());
  EXPECT_EQ((*op)->Open(OperatorContext{}).code(), absl::StatusCode::kFailedPrecondition);
}

// Keep-first: only a strictly smaller rowtime replaces the kept row.
TEST_F(DedupTest, KeepFirstRow) {
  auto d = Make(Spec(/*keep_last_row=*/false));
  EXPECT_THAT(d->Feed(R("a", 1, 100)), ElementsAre("+I[a, 1, 100]"));
  EXPECT_THAT(d->Feed(R("a", 2, 200)), IsEmpty());
  EXPECT_THAT(d->Feed(R("a", 3, 100)), IsEmpty());  // equal rowtime: the first stays
  // Out of order, older: the new first row.
  EXPECT_THAT(d->Feed(R("a", 4, 50)), ElementsAre("-U[a, 1, 100]", "+U[a, 4, 50]"));
  EXPECT_THAT(d->Feed(R("b", 5, 10)), ElementsAre("+I[b, 5, 10]"));
  EXPECT_THAT(d->Feed(R("a", 6, 49)), ElementsAre("-U[a, 4, 50]", "+U[a, 6, 49]"));
}

// Keep-last: a greater or equal rowtime replaces the kept row.
TEST_F(DedupTest, KeepLastRow) {
  auto d = Make(Spec(/*keep_last_row=*/true));
  EXPECT_THAT(d->Feed(R("a", 1, 100)), ElementsAre("+I[a, 1, 100]"));
  EXPECT_THAT(d->Feed(R("a", 2, 200)), ElementsAre("-U[a, 1, 100]", "+U[a, 2, 200]"));
  // Equal rowtime: the later row wins, even when it is the same row.
  EXPECT_THAT(d->Feed(R("a", 3, 200)), ElementsAre("-U[a, 2, 200]", "+U[a, 3, 200]"));
  EXPECT_THAT(d->Feed(R("a", 3, 200)), ElementsAre("-U[a, 3, 200]", "+U[a, 3, 200]"));
  // Out of order, older: dropped.
  EXPECT_THAT(d->Feed(R("a", 4, 150)), IsEmpty());
}

TEST_F(DedupTest, WithoutUpdateBefore) {
  auto last = Make(Spec(/*keep_last_row=*/true, /*generate_update_before=*/false));
  EXPECT_THAT(last->Feed(R("a", 1, 100)), ElementsAre("+I[a, 1, 100]"));
  EXPECT_THAT(last->Feed(R("a", 2, 200)), ElementsAre("+U[a, 2, 200]"));
  EXPECT_THAT(last->Feed(R("a", 3, 200)), ElementsAre("+U[a, 3, 200]"));
  EXPECT_THAT(last->Feed(R("a", 4, 150)), IsEmpty());

  auto first = Make(Spec(/*keep_last_row=*/false, /*generate_update_before=*/false));
  EXPECT_THAT(first->Feed(R("a", 1, 100)), ElementsAre("+I[a, 1, 100]"));
  EXPECT_THAT(first->Feed(R("a", 2, 90)), ElementsAre("+U[a, 2, 90]"));
  EXPECT_THAT(first->Feed(R("a", 3, 90)), IsEmpty());
}

// Several keys in one batch, one of them replaced twice in it: the second -U retracts the row the
// batch itself kept. The next batch reads the state the first one wrote.
TEST_F(DedupTest, SeveralKeysPerBatch) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto d = Make(Spec(/*keep_last_row=*/true), cache);
    EXPECT_THAT(
        d->Feed({R("a", 1, 100), R("b", 2, 100), R("a", 3, 200), R("b", 4, 50), R("a", 5, 300)}),
        ElementsAre("+I[a, 1, 100]", "+I[b, 2, 100]", "-U[a, 1, 100]", "+U[a, 3, 200]",
                    "-U[a, 3, 200]", "+U[a, 5, 300]"));
    EXPECT_EQ(d->out.batches, 1);
    EXPECT_THAT(d->Feed({R("b", 6, 100), R("a", 7, 300), R("c", 8, 0)}),
                ElementsAre("-U[b, 2, 100]", "+U[b, 6, 100]", "-U[a, 5, 300]", "+U[a, 7, 300]",
                            "+I[c, 8, 0]"));
  }
}

// Keep-first with rows out of order over several batches.
TEST_F(DedupTest, KeepFirstOutOfOrderOverBatches) {
  auto d = Make(Spec(/*keep_last_row=*/false));
  EXPECT_THAT(d->Feed({R("a", 1, 500), R("a", 2, 300), R("a", 3, 400)}),
              ElementsAre("+I[a, 1, 500]", "-U[a, 1, 500]", "+U[a, 2, 300]"));
  EXPECT_THAT(d->Feed({R("a", 4, 300), R("a", 5, 299)}),
              ElementsAre("-U[a, 2, 300]", "+U[a, 5, 299]"));
}

// Without keys every row has the one (empty) key.
TEST_F(DedupTest, NoKeysDeduplicatesAllRows) {
  DeduplicateSpec spec = Spec(/*keep_last_row=*/true);
  spec.keys = {};
  auto d = Make(spec);
  EXPECT_THAT(d->Feed({R("a", 1, 100), R("b", 2, 100)}),
              ElementsAre("+I[a, 1, 100]", "-U[a, 1, 100]", "+U[b, 2, 100]"));
}

TEST_F(DedupTest, RefusesUpdatingInputAndNullRowtimes) {
  auto d = Make(Spec(/*keep_last_row=*/true));
  absl::Status s = d->Process({R("a", 1, 100), R("a", 1, 100, RowKind::kUpdateBefore)});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Deduplicate accepts insert-only input"), std::string::npos) << s;
  EXPECT_NE(s.message().find("-U"), std::string::npos) << s;
  s = d->Process({{kI, {Value::String("a"), Value::Int(1), Value::Null()}}});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Deduplicate: the time attribute"), std::string::npos) << s;
  EXPECT_THAT(d->out.Take(), IsEmpty());
}

// State TTL: a key whose kept row was not written for the TTL is gone; a row that is dropped writes
// nothing, and the next row after expiry is a first row again.
TEST_F(DedupTest, StateTtlExpiresAKey) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    now_ms_ = 1'000'000;
    DeduplicateSpec spec = Spec(/*keep_last_row=*/false);
    spec.state_ttl_ms = 1000;
    auto d = Make(spec, cache);
    EXPECT_THAT(d->Feed(R("a", 1, 100)), ElementsAre("+I[a, 1, 100]"));
    now_ms_ += 600;
    EXPECT_THAT(d->Feed(R("a", 2, 200)), IsEmpty());
    now_ms_ += 600;  // written 1200 ms ago
    EXPECT_THAT(d->Feed(R("a", 3, 300)), ElementsAre("+I[a, 3, 300]"));
    now_ms_ += 500;
    EXPECT_THAT(d->Feed(R("a", 4, 250)), ElementsAre("-U[a, 3, 300]", "+U[a, 4, 250]"));
    ASSERT_TRUE(d->op->FlushState().ok());
    now_ms_ += 1000;
    ASSERT_TRUE(backend_->CompactAll().ok());
    EXPECT_EQ(*backend_->CountKeys(d->op->state_table()->state_id()), 0u);
  }
}

// A snapshot of the store after SnapshotState holds all the operator's state: an operator opened
// on a restored copy goes on as the original would have, without what came after the snapshot.
TEST_F(DedupTest, RestoresFromASnapshotOfItsStore) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto d = Make(Spec(/*keep_last_row=*/true), cache);
    const uint32_t state_id = d->op->state_table()->state_id();
    d->Feed({R("a", 1, 100), R("b", 2, 100), R("a", 3, 200)});
    OperatorSnapshot snapshot;
    ASSERT_TRUE(d->op->SnapshotState(1, &snapshot).ok());
    EXPECT_TRUE(snapshot.empty());
    EXPECT_EQ(d->out.batches, 1);  // a snapshot emits nothing
    const std::string chk = absl::StrCat(dir_, "/chk-", cache);
    ASSERT_TRUE(backend_->Snapshot(chk).ok());
    d->Feed(R("a", 9, 900));  // after the checkpoint: not in the snapshot

    auto restored = KeyedStateBackend::OpenFromSnapshot(
        chk, absl::StrCat(dir_, "/restored-", cache), std::make_shared<SharedStateResources>());
    ASSERT_TRUE(restored.ok()) << restored.status();
    auto again = Make(Spec(/*keep_last_row=*/true), cache, restored->get(), state_id);
    ASSERT_TRUE(again->op->RestoreState(snapshot).ok());
    EXPECT_THAT(again->Feed({R("a", 4, 300), R("b", 5, 50), R("c", 6, 1)}),
                ElementsAre("-U[a, 3, 200]", "+U[a, 4, 300]", "+I[c, 6, 1]"));
    again.reset();
    restored->reset();
  }
}

// After SnapshotState the store holds everything: a fresh instance opened on the same store (a task
// restarted on its worker) goes on where the closed one stopped.
TEST_F(DedupTest, AFreshInstanceOnTheSameStoreGoesOn) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto d = Make(Spec(/*keep_last_row=*/false), cache);
    const uint32_t state_id = d->op->state_table()->state_id();
    EXPECT_THAT(d->Feed({R("a", 1, 100), R("a", 2, 50)}),
                ElementsAre("+I[a, 1, 100]", "-U[a, 1, 100]", "+U[a, 2, 50]"));
    OperatorSnapshot snapshot;
    ASSERT_TRUE(d->op->SnapshotState(1, &snapshot).ok());
    ASSERT_TRUE(d->op->Close().ok());
    auto fresh = Make(Spec(/*keep_last_row=*/false), cache, backend_.get(), state_id);
    ASSERT_TRUE(fresh->op->RestoreState(snapshot).ok());
    EXPECT_THAT(fresh->Feed({R("a", 3, 60), R("a", 4, 40)}),
                ElementsAre("-U[a, 2, 50]", "+U[a, 4, 40]"));
  }
}

TEST_F(DedupTest, WatermarksPassThrough) {
  auto d = Make(Spec(/*keep_last_row=*/true));
  ASSERT_TRUE(d->op->ProcessWatermark({1000, false}).ok());
  EXPECT_THAT(d->out.Take(), ElementsAre("W1000"));
}

}  // namespace
}  // namespace eddy
