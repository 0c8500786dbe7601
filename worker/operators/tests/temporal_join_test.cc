// TemporalJoinOperator: the classic currency-rates example (orders before any version, between
// versions, after a deletion, versions arriving after the order but before the watermark) for
// INNER and LEFT OUTER, out-of-order versions, rows held until the watermark and emitted in time
// order, versions leaving the state as the watermark passes (asserted on the stored values), late
// left rows, the residual condition (also over more rows than one chunk), processing time,
// snapshot/restore with waiting rows, and randomized comparisons: event time with a step model and
// with a naive computation over the whole run, processing time with a model of the current rows.
#include "worker/operators/temporal_join.h"

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
#include "worker/operators/temporal_versions.h"
#include "worker/operators/testing/event_log.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

using ::eddy::testing::Compact;
using ::eddy::testing::EventLog;

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr RowKind kI = RowKind::kInsert;
constexpr RowKind kUB = RowKind::kUpdateBefore;
constexpr RowKind kUA = RowKind::kUpdateAfter;
constexpr RowKind kD = RowKind::kDelete;

Value Int(int64_t v) { return Value::Int(v); }
Value Str(std::string s) { return Value::String(std::move(s)); }
Value Null() { return Value::Null(); }

// Orders (currency STRING, ot TIMESTAMP(3), amount BIGINT) joined to the versioned rates
// (currency STRING, rt TIMESTAMP(3), rate BIGINT) on the currency, at the order's time (event
// time) or at once (processing time).
TemporalJoinSpec Spec(StreamingJoinType type, bool event_time = true) {
  TemporalJoinSpec spec;
  spec.type = type;
  spec.left_types = {DataType::String(), DataType::Timestamp(3), DataType::BigInt()};
  spec.right_types = {DataType::String(), DataType::Timestamp(3), DataType::BigInt()};
  spec.left_keys = {0};
  spec.right_keys = {0};
  spec.left_time = event_time ? 1 : -1;
  spec.right_time = event_time ? 1 : -1;
  return spec;
}

ExprPtr Call(const char* f, std::vector<ExprPtr> args) {
  auto e = MakeCall(f, std::move(args));
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? *e : nullptr;
}

// A row of a changelog: its kind and values.
struct Change {
  RowKind kind;
  std::vector<Value> values;
};

// An operator, its output, and its inputs' types.
struct Join {
  std::unique_ptr<TemporalJoinOperator> op;
  EventLog out;
  std::vector<DataType> types[2];

  // Feeds one batch of +I rows to an input and returns what it emitted.
  std::vector<std::string> Left(const std::vector<std::vector<Value>>& rows) {
    return Feed(0, rows);
  }
  std::vector<std::string> Right(const std::vector<std::vector<Value>>& rows) {
    return Feed(1, rows);
  }
  std::vector<std::string> Feed(int input, const std::vector<std::vector<Value>>& rows) {
    std::vector<Change> changes;
    for (const auto& values : rows) changes.push_back({kI, values});
    return FeedChanges(input, changes);
  }
  std::vector<std::string> FeedChanges(int input, const std::vector<Change>& changes) {
    absl::Status s = TryFeed(input, changes);
    EXPECT_TRUE(s.ok()) << s;
    return out.Take();
  }
  absl::Status TryFeed(int input, const std::vector<Change>& changes) {
    ChangelogBatch b(types[input]);
    for (const Change& c : changes) b.AppendValues(c.values, c.kind);
    return op->Process(input, b);
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

class TemporalJoinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = ::testing::TempDir() + "/eddy_temporal_join_" + std::to_string(::getpid()) + "_" +
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
  std::unique_ptr<Join> Make(TemporalJoinSpec spec, size_t state_cache_bytes = 0,
                             KeyedStateBackend* backend = nullptr, uint32_t state_id = 0) {
    auto j = std::make_unique<Join>();
    j->types[0] = spec.left_types;
    j->types[1] = spec.right_types;
    auto op = TemporalJoinOperator::Create(std::move(spec));
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
  uint64_t StoredKeys(Join& j, KeyedStateBackend* backend = nullptr) {
    EXPECT_TRUE(j.op->FlushState().ok());
    if (backend == nullptr) backend = backend_.get();
    absl::StatusOr<uint64_t> n = backend->CountKeys(j.op->state_table()->state_id());
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : 0;
  }

  // The stored value of (side, currency), after writing the cache back; nullopt when absent.
  std::optional<std::string> StoredValue(Join& j, char side, const std::string& currency) {
    EXPECT_TRUE(j.op->FlushState().ok());
    auto key_encoder = KeyEncoder::Create({DataType::String()}, {0});
    EXPECT_TRUE(key_encoder.ok());
    ChangelogBatch b({DataType::String()});
    b.AppendValues({Str(currency)}, kI);
    const std::string bytes = key_encoder->EncodeToString(b, 0);
    std::string key;
    AppendStateKey(KeyGroupOf(bytes, kMaxParallelism), j.op->state_table()->state_id(),
                   std::string(1, side) + bytes, &key);
    const std::vector<std::string_view> keys = {key};
    StateReadResult read;
    EXPECT_TRUE(backend_->MultiGet(keys, &read).ok());
    if (!read.found(0)) return std::nullopt;
    return std::string(read.value(0));
  }

  // The stored versions of a currency as "time:rate" or "time:-D", in time order.
  std::vector<std::string> StoredVersions(Join& j, const std::string& currency) {
    std::optional<std::string> value = StoredValue(j, 'R', currency);
    if (!value) return {};
    TemporalVersions versions;
    absl::Status s = versions.Decode(*value);
    EXPECT_TRUE(s.ok()) << s;
    auto row_encoder = KeyEncoder::Create(j.types[1], {0, 1, 2});
    EXPECT_TRUE(row_encoder.ok());
    std::vector<std::string> out;
    for (size_t i = 0; i < versions.size(); ++i) {
      const TemporalVersion& v = versions.at(i);
      if (v.deleted) {
        out.push_back(absl::StrCat(v.time, ":-D"));
        continue;
      }
      std::vector<Value> values;
      EXPECT_TRUE(row_encoder->Decode(v.row, &values).ok());
      out.push_back(absl::StrCat(v.time, ":", FormatValue(values[2], DataType::BigInt())));
    }
    return out;
  }

  std::string dir_;
  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
};

TEST_F(TemporalJoinTest, CreateRejectsBadSpecs) {
  auto status = [](TemporalJoinSpec spec) {
    return TemporalJoinOperator::Create(std::move(spec)).status();
  };
  auto spec = [] { return Spec(StreamingJoinType::kInner); };
  TemporalJoinSpec s = spec();
  s.type = StreamingJoinType::kRightOuter;
  EXPECT_THAT(status(s).message(),
              HasSubstr("TemporalJoin: a RIGHT OUTER join is not supported; INNER or LEFT OUTER"));
  for (StreamingJoinType t :
       {StreamingJoinType::kFullOuter, StreamingJoinType::kSemi, StreamingJoinType::kAnti}) {
    s.type = t;
    EXPECT_FALSE(status(s).ok());
  }
  s = spec();
  s.right_keys = {};
  EXPECT_THAT(status(s).message(), HasSubstr("1 left keys but 0 right keys"));
  s = spec();
  s.left_keys = s.right_keys = {};
  EXPECT_THAT(status(s).message(), HasSubstr("no equi-join key"));
  s = spec();
  s.left_keys = {3};
  EXPECT_FALSE(status(s).ok());  // out of range
  s = spec();
  s.right_keys = {2};
  EXPECT_THAT(status(s).message(), HasSubstr("key 0 is STRING on the left but BIGINT"));
  s = spec();
  s.right_time = -1;
  EXPECT_THAT(status(s).message(), HasSubstr("the left time column is 1 but the right one is -1"));
  s = spec();
  s.left_time = 3;
  EXPECT_THAT(status(s).message(), HasSubstr("the left time column 3 is out of range"));
  s = spec();
  s.right_time = -2;
  EXPECT_THAT(status(s).message(), HasSubstr("the right time column -2 is out of range"));
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
  s.condition = MakeColumnRef(5, DataType::BigInt());
  EXPECT_THAT(status(s).message(), HasSubstr("not BOOLEAN"));
  s = spec();
  s.condition = MakeColumnRef(6, DataType::Boolean());
  EXPECT_FALSE(status(s).ok());  // no such column
  EXPECT_TRUE(status(Spec(StreamingJoinType::kLeftOuter, /*event_time=*/false)).ok());
}

TEST_F(TemporalJoinTest, OutputTypesPadTheRightSideOfALeftOuterJoin) {
  auto types = [](StreamingJoinType t, bool event_time) {
    TemporalJoinSpec spec = Spec(t, event_time);
    for (DataType& d : spec.left_types) d = d.WithNullable(false);
    for (DataType& d : spec.right_types) d = d.WithNullable(false);
    auto op = TemporalJoinOperator::Create(spec);
    EXPECT_TRUE(op.ok());
    EXPECT_EQ((*op)->event_time(), event_time);
    std::string s;
    for (const DataType& d : (*op)->output_types()) absl::StrAppend(&s, d.nullable ? "n" : "-");
    return s;
  };
  EXPECT_EQ(types(StreamingJoinType::kInner, true), "------");
  EXPECT_EQ(types(StreamingJoinType::kLeftOuter, true), "---nnn");
  EXPECT_EQ(types(StreamingJoinType::kLeftOuter, false), "---nnn");
}

// Rates: EUR 114 from 100, 116 from 200 (its -U is ignored), deleted at 300, 120 again from 400
// (a version that arrives after the order at 420 but before the watermark that releases it); USD
// 100 from 150. Each order joins the rate valid at its time.
TEST_F(TemporalJoinTest, CurrencyRates) {
  for (StreamingJoinType type : {StreamingJoinType::kInner, StreamingJoinType::kLeftOuter}) {
    SCOPED_TRACE(StreamingJoinTypeName(type));
    const bool left = type == StreamingJoinType::kLeftOuter;
    auto j = Make(Spec(type));
    // Orders wait for the watermark; one without a currency matches nothing, at once.
    const auto at_once = j->Left({{Str("EUR"), Int(50), Int(1)},
                                  {Str("EUR"), Int(150), Int(2)},
                                  {Str("EUR"), Int(200), Int(3)},
                                  {Str("USD"), Int(160), Int(4)},
                                  {Str("EUR"), Int(250), Int(5)},
                                  {Null(), Int(170), Int(6)},
                                  {Str("GBP"), Int(180), Int(7)},
                                  {Str("EUR"), Int(350), Int(8)},
                                  {Str("EUR"), Int(420), Int(9)}});
    if (left) {
      EXPECT_THAT(at_once, ElementsAre("+I[null, 170, 6, null, null, null]"));
    } else {
      EXPECT_THAT(at_once, IsEmpty());
    }
    EXPECT_EQ(j->op->waiting_rows(), 8u);
    EXPECT_THAT(j->FeedChanges(1, {{kI, {Str("EUR"), Int(100), Int(114)}},
                                   {kUB, {Str("EUR"), Int(100), Int(114)}},
                                   {kUA, {Str("EUR"), Int(200), Int(116)}},
                                   {kI, {Str("USD"), Int(150), Int(100)}},
                                   {kD, {Str("EUR"), Int(300), Int(116)}}}),
                IsEmpty());
    // The order at 50 is before any version.
    if (left) {
      EXPECT_THAT(j->Watermark(120), ElementsAre("+I[EUR, 50, 1, null, null, null]", "W120"));
    } else {
      EXPECT_THAT(j->Watermark(120), ElementsAre("W120"));
    }
    EXPECT_THAT(j->Right({{Str("EUR"), Int(400), Int(120)}}), IsEmpty());
    // Keys in the order of their earliest order, each key's orders in time order.
    if (left) {
      EXPECT_THAT(j->Watermark(1000),
                  ElementsAre("+I[EUR, 150, 2, EUR, 100, 114]", "+I[EUR, 200, 3, EUR, 200, 116]",
                              "+I[EUR, 250, 5, EUR, 200, 116]", "+I[EUR, 350, 8, null, null, null]",
                              "+I[EUR, 420, 9, EUR, 400, 120]", "+I[USD, 160, 4, USD, 150, 100]",
                              "+I[GBP, 180, 7, null, null, null]", "W1000"));
    } else {
      EXPECT_THAT(j->Watermark(1000),
                  ElementsAre("+I[EUR, 150, 2, EUR, 100, 114]", "+I[EUR, 200, 3, EUR, 200, 116]",
                              "+I[EUR, 250, 5, EUR, 200, 116]", "+I[EUR, 420, 9, EUR, 400, 120]",
                              "+I[USD, 160, 4, USD, 150, 100]", "W1000"));
    }
    // Left behind: the latest version of each currency.
    EXPECT_EQ(j->op->waiting_rows(), 0u);
    EXPECT_EQ(j->op->pending_timers(), 0u);
    EXPECT_THAT(StoredVersions(*j, "EUR"), ElementsAre("400:120"));
    EXPECT_THAT(StoredVersions(*j, "USD"), ElementsAre("150:100"));
    EXPECT_EQ(StoredKeys(*j), 2u);
  }
}

// Versions arrive in any time order; a version at the time of an earlier one replaces it (a row
// or a deletion, whichever came last).
TEST_F(TemporalJoinTest, OutOfOrderVersionsAndVersionsAtTheSameTime) {
  auto j = Make(Spec(StreamingJoinType::kLeftOuter));
  j->Right({{Str("EUR"), Int(300), Int(3)}});
  j->Right({{Str("EUR"), Int(200), Int(2)}, {Str("EUR"), Int(100), Int(1)}});
  j->FeedChanges(1,
                 {{kUB, {Str("EUR"), Int(200), Int(2)}}, {kUA, {Str("EUR"), Int(200), Int(22)}}});
  j->FeedChanges(1, {{kI, {Str("USD"), Int(100), Int(5)}}, {kD, {Str("USD"), Int(100), Int(5)}}});
  j->FeedChanges(1, {{kD, {Str("GBP"), Int(100), Int(7)}}, {kI, {Str("GBP"), Int(100), Int(7)}}});
  EXPECT_THAT(StoredVersions(*j, "EUR"), ElementsAre("100:1", "200:22", "300:3"));
  EXPECT_THAT(StoredVersions(*j, "USD"), ElementsAre("100:-D"));
  EXPECT_THAT(StoredVersions(*j, "GBP"), ElementsAre("100:7"));
  EXPECT_THAT(j->Left({{Str("EUR"), Int(300), Int(1)},
                       {Str("EUR"), Int(99), Int(2)},
                       {Str("EUR"), Int(250), Int(3)},
                       {Str("EUR"), Int(150), Int(4)},
                       {Str("USD"), Int(150), Int(5)},
                       {Str("GBP"), Int(150), Int(6)}}),
              IsEmpty());
  // USD and GBP tie on time: keys then go in the order of their bytes.
  EXPECT_THAT(
      j->Watermark(1000),
      ElementsAre("+I[EUR, 99, 2, null, null, null]", "+I[EUR, 150, 4, EUR, 100, 1]",
                  "+I[EUR, 250, 3, EUR, 200, 22]", "+I[EUR, 300, 1, EUR, 300, 3]",
                  "+I[GBP, 150, 6, GBP, 100, 7]", "+I[USD, 150, 5, null, null, null]", "W1000"));
}

// Rows wait until the watermark reaches their time (time <= watermark), then go out in time
// order, rows of equal times in arrival order. Watermarks go on unchanged after them; an idle one
// releases nothing.
TEST_F(TemporalJoinTest, RowsWaitForTheWatermarkAndGoOutInTimeOrder) {
  auto j = Make(Spec(StreamingJoinType::kLeftOuter));
  j->Right({{Str("EUR"), Int(0), Int(10)}});
  EXPECT_THAT(j->Left({{Str("EUR"), Int(300), Int(1)},
                       {Str("EUR"), Int(100), Int(2)},
                       {Str("EUR"), Int(200), Int(3)},
                       {Str("USD"), Int(50), Int(4)}}),
              IsEmpty());
  EXPECT_THAT(j->Left({{Str("EUR"), Int(100), Int(5)}}), IsEmpty());
  EXPECT_EQ(j->op->waiting_rows(), 5u);
  EXPECT_EQ(j->op->pending_timers(), 2u);  // EUR at 100, USD at 50
  EXPECT_THAT(j->Watermark(49), ElementsAre("W49"));
  EXPECT_THAT(j->Watermark(50), ElementsAre("+I[USD, 50, 4, null, null, null]", "W50"));
  EXPECT_THAT(j->Watermark(150),
              ElementsAre("+I[EUR, 100, 2, EUR, 0, 10]", "+I[EUR, 100, 5, EUR, 0, 10]", "W150"));
  EXPECT_THAT(j->Watermark(500, /*idle=*/true), ElementsAre("W500 idle"));
  EXPECT_EQ(j->op->waiting_rows(), 2u);
  EXPECT_THAT(j->Watermark(400),
              ElementsAre("+I[EUR, 200, 3, EUR, 0, 10]", "+I[EUR, 300, 1, EUR, 0, 10]", "W400"));
  EXPECT_EQ(j->op->waiting_rows(), 0u);
  EXPECT_EQ(j->op->pending_timers(), 0u);
  EXPECT_EQ(StoredKeys(*j), 1u);  // the EUR version
}

// After a watermark W, a key keeps only the versions later than W and the newest one at or below
// W unless that is a deletion; a key whose only version left is a deletion at or below W is gone.
// Versions leave the state whether or not rows wait under their key.
TEST_F(TemporalJoinTest, VersionsLeaveTheStateAsTheWatermarkPasses) {
  auto j = Make(Spec(StreamingJoinType::kInner));
  j->FeedChanges(1, {{kI, {Str("EUR"), Int(100), Int(1)}},
                     {kUA, {Str("EUR"), Int(200), Int(2)}},
                     {kD, {Str("EUR"), Int(300), Int(2)}},
                     {kI, {Str("EUR"), Int(400), Int(4)}}});
  EXPECT_THAT(StoredVersions(*j, "EUR"), ElementsAre("100:1", "200:2", "300:-D", "400:4"));
  EXPECT_EQ(j->op->pending_timers(), 1u);  // pruned at 200
  j->Watermark(199);
  EXPECT_THAT(StoredVersions(*j, "EUR"), ElementsAre("100:1", "200:2", "300:-D", "400:4"));
  j->Watermark(250);
  EXPECT_THAT(StoredVersions(*j, "EUR"), ElementsAre("200:2", "300:-D", "400:4"));
  // The newest version at or below the watermark is a deletion: a row before 400 finds no version
  // instead, which matches nothing all the same.
  j->Watermark(350);
  EXPECT_THAT(StoredVersions(*j, "EUR"), ElementsAre("400:4"));
  EXPECT_EQ(j->op->pending_timers(), 0u);
  // A deletion: once the watermark passes it, nothing is left of the key.
  j->FeedChanges(1, {{kD, {Str("EUR"), Int(500), Int(4)}}});
  EXPECT_THAT(StoredVersions(*j, "EUR"), ElementsAre("400:4", "500:-D"));
  EXPECT_EQ(j->op->pending_timers(), 1u);
  j->Watermark(600);
  EXPECT_EQ(StoredValue(*j, 'R', "EUR"), std::nullopt);
  EXPECT_EQ(j->op->pending_timers(), 0u);
  EXPECT_EQ(StoredKeys(*j), 0u);
  // A version behind the watermark (late) is pruned as it arrives: it supersedes older ones.
  j->Right({{Str("USD"), Int(700), Int(1)}, {Str("USD"), Int(800), Int(2)}});
  j->Watermark(900);
  j->Right({{Str("USD"), Int(850), Int(3)}, {Str("USD"), Int(750), Int(4)}});
  EXPECT_THAT(StoredVersions(*j, "USD"), ElementsAre("850:3"));
  // Rows released by a watermark leave the state; their key's versions are pruned with them.
  j->Right({{Str("GBP"), Int(1000), Int(1)}, {Str("GBP"), Int(1100), Int(2)}});
  j->Left({{Str("GBP"), Int(1050), Int(1)}, {Str("GBP"), Int(1200), Int(2)}});
  EXPECT_TRUE(StoredValue(*j, 'L', "GBP").has_value());
  EXPECT_THAT(j->Watermark(1150), ElementsAre("+I[GBP, 1050, 1, GBP, 1000, 1]", "W1150"));
  EXPECT_THAT(StoredVersions(*j, "GBP"), ElementsAre("1100:2"));
  std::optional<std::string> waiting = StoredValue(*j, 'L', "GBP");
  ASSERT_TRUE(waiting.has_value());
  IntervalJoinRecords rows(/*matched_flags=*/false);
  ASSERT_TRUE(rows.Decode(*waiting).ok());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows.at(0).time, 1200);
  EXPECT_THAT(j->Watermark(1200), ElementsAre("+I[GBP, 1200, 2, GBP, 1100, 2]", "W1200"));
  EXPECT_EQ(StoredValue(*j, 'L', "GBP"), std::nullopt);
  EXPECT_EQ(StoredKeys(*j), 2u);  // the USD and GBP versions
}

// More keys than one timer round reads: every row goes out, and each key keeps one version.
TEST_F(TemporalJoinTest, ManyKeysStayBoundedByTheWatermark) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto j = Make(Spec(StreamingJoinType::kInner), cache);
    constexpr int kKeys = 5000;
    std::vector<std::vector<Value>> versions, orders;
    for (int k = 0; k < kKeys; ++k) {
      const std::string key = absl::StrCat("K", k);
      versions.push_back({Str(key), Int(100), Int(k)});
      versions.push_back({Str(key), Int(200), Int(k + 1)});
      versions.push_back({Str(key), Int(300), Int(k + 2)});
      orders.push_back({Str(key), Int(150 + k % 7), Int(k)});
    }
    j->Right(versions);
    j->Left(orders);
    EXPECT_EQ(j->op->pending_timers(), 2u * kKeys);
    EXPECT_EQ(StoredKeys(*j), 2u * kKeys);
    const std::vector<std::string> out = j->Watermark(250);
    ASSERT_EQ(out.size(), kKeys + 1u);
    // Keys in the order of their rows' times.
    EXPECT_EQ(out[0].substr(0, 13), "+I[K0, 150, 0");
    EXPECT_EQ(out.back(), "W250");
    EXPECT_EQ(j->op->pending_timers(), size_t{kKeys});  // each key's next prune, at 300
    EXPECT_EQ(StoredKeys(*j), size_t{kKeys});
    EXPECT_THAT(StoredVersions(*j, "K42"), ElementsAre("200:43", "300:44"));
    EXPECT_THAT(j->Watermark(300), ElementsAre("W300"));
    EXPECT_EQ(j->op->pending_timers(), 0u);
    EXPECT_THAT(StoredVersions(*j, "K42"), ElementsAre("300:44"));
    EXPECT_EQ(StoredKeys(*j), size_t{kKeys});
  }
}

// A left row at or behind the watermark when it arrives is joined at once, against the versions
// in state: a version older than the newest one at or below the watermark is gone by then.
TEST_F(TemporalJoinTest, LateLeftRowsJoinAtOnce) {
  for (StreamingJoinType type : {StreamingJoinType::kInner, StreamingJoinType::kLeftOuter}) {
    SCOPED_TRACE(StreamingJoinTypeName(type));
    const bool left = type == StreamingJoinType::kLeftOuter;
    auto j = Make(Spec(type));
    j->Right({{Str("EUR"), Int(100), Int(1)},
              {Str("EUR"), Int(200), Int(2)},
              {Str("EUR"), Int(400), Int(4)}});
    j->Watermark(300);
    EXPECT_THAT(StoredVersions(*j, "EUR"), ElementsAre("200:2", "400:4"));
    const auto out = j->Left({{Str("EUR"), Int(250), Int(1)},
                              {Str("EUR"), Int(350), Int(2)},  // waits
                              {Str("EUR"), Int(150), Int(3)},
                              {Str("EUR"), Int(300), Int(4)},
                              {Str("USD"), Int(10), Int(5)}});
    if (left) {
      EXPECT_THAT(out,
                  ElementsAre("+I[EUR, 250, 1, EUR, 200, 2]", "+I[EUR, 150, 3, null, null, null]",
                              "+I[EUR, 300, 4, EUR, 200, 2]", "+I[USD, 10, 5, null, null, null]"));
    } else {
      EXPECT_THAT(out, ElementsAre("+I[EUR, 250, 1, EUR, 200, 2]", "+I[EUR, 300, 4, EUR, 200, 2]"));
    }
    EXPECT_EQ(j->op->waiting_rows(), 1u);
    EXPECT_THAT(j->Watermark(350), ElementsAre("+I[EUR, 350, 2, EUR, 200, 2]", "W350"));
  }
}

// The condition over left ++ right: a version it rejects is no match (INNER drops, LEFT OUTER
// pads). More rows than one chunk, released by a watermark or joined at once.
TEST_F(TemporalJoinTest, ResidualCondition) {
  for (StreamingJoinType type : {StreamingJoinType::kInner, StreamingJoinType::kLeftOuter}) {
    SCOPED_TRACE(StreamingJoinTypeName(type));
    const bool left = type == StreamingJoinType::kLeftOuter;
    TemporalJoinSpec spec = Spec(type);
    // amount <= rate
    spec.condition =
        Call("<=", {MakeColumnRef(2, DataType::BigInt()), MakeColumnRef(5, DataType::BigInt())});
    auto j = Make(std::move(spec));
    j->Right({{Str("EUR"), Int(100), Int(10)}, {Str("GBP"), Int(100), Null()}});
    j->Left({{Str("EUR"), Int(150), Int(10)},
             {Str("EUR"), Int(160), Int(11)},
             {Str("GBP"), Int(170), Int(1)}});
    if (left) {
      EXPECT_THAT(j->Watermark(200), ElementsAre("+I[EUR, 150, 10, EUR, 100, 10]",
                                                 "+I[EUR, 160, 11, null, null, null]",
                                                 "+I[GBP, 170, 1, null, null, null]", "W200"));
    } else {
      EXPECT_THAT(j->Watermark(200), ElementsAre("+I[EUR, 150, 10, EUR, 100, 10]", "W200"));
    }

    // 40000 rows of one key: amounts 0..39999 against a rate of 20000.
    constexpr int kRows = 40000;
    j->Right({{Str("CHF"), Int(0), Int(20000)}});
    std::vector<std::vector<Value>> rows;
    for (int i = 0; i < kRows; ++i) rows.push_back({Str("CHF"), Int(500 + i % 100), Int(i)});
    EXPECT_THAT(j->Left(rows), IsEmpty());
    const std::vector<std::string> released = j->Watermark(1000);
    ASSERT_EQ(released.size(), (left ? size_t{kRows} : size_t{20001}) + 1);
    size_t matched = 0;
    for (size_t i = 0; i + 1 < released.size(); ++i) {
      matched += released[i].find("CHF, 0, 20000") != std::string::npos;
    }
    EXPECT_EQ(matched, 20001u);
    // Time order: the first row out is the first one at 500.
    EXPECT_EQ(released[0], "+I[CHF, 500, 0, CHF, 0, 20000]");
    // The same rows, late: joined at once in input order.
    const std::vector<std::string> at_once = j->Left(rows);
    ASSERT_EQ(at_once.size(), left ? size_t{kRows} : size_t{20001});
    EXPECT_EQ(at_once[1], "+I[CHF, 501, 1, CHF, 0, 20000]");
  }
}

TEST_F(TemporalJoinTest, FinishJoinsEveryWaitingRow) {
  auto j = Make(Spec(StreamingJoinType::kLeftOuter));
  j->Right({{Str("EUR"), Int(100), Int(1)}, {Str("EUR"), Int(200), Int(2)}});
  j->Left({{Str("EUR"), Int(500), Int(1)},
           {Str("EUR"), Int(150), Int(2)},
           {Str("USD"), Int(1), Int(3)}});
  EXPECT_THAT(j->Finish(),
              ElementsAre("+I[USD, 1, 3, null, null, null]", "+I[EUR, 150, 2, EUR, 100, 1]",
                          "+I[EUR, 500, 1, EUR, 200, 2]"));
  EXPECT_EQ(j->op->waiting_rows(), 0u);
}

// Processing time: a left row joins its key's current row at once; the state holds one row per
// key (none after a deletion). Watermarks pass through.
TEST_F(TemporalJoinTest, ProcessingTime) {
  for (StreamingJoinType type : {StreamingJoinType::kInner, StreamingJoinType::kLeftOuter}) {
    SCOPED_TRACE(StreamingJoinTypeName(type));
    const bool left = type == StreamingJoinType::kLeftOuter;
    auto j = Make(Spec(type, /*event_time=*/false));
    auto expect = [&](const std::vector<std::string>& out, const std::string& joined) {
      if (joined.empty()) {
        EXPECT_THAT(out, IsEmpty());
      } else {
        EXPECT_THAT(out, ElementsAre(joined));
      }
    };
    expect(j->Left({{Str("EUR"), Int(5), Int(1)}}), left ? "+I[EUR, 5, 1, null, null, null]" : "");
    EXPECT_THAT(j->Right({{Str("EUR"), Int(900), Int(114)}}), IsEmpty());
    expect(j->Left({{Str("EUR"), Int(6), Int(2)}}), "+I[EUR, 6, 2, EUR, 900, 114]");
    j->FeedChanges(1, {{kUB, {Str("EUR"), Int(900), Int(114)}}});
    expect(j->Left({{Str("EUR"), Int(7), Int(3)}}), "+I[EUR, 7, 3, EUR, 900, 114]");
    j->FeedChanges(1, {{kUA, {Str("EUR"), Int(100), Int(116)}}});
    expect(j->Left({{Str("EUR"), Int(8), Int(4)}}), "+I[EUR, 8, 4, EUR, 100, 116]");
    EXPECT_EQ(StoredKeys(*j), 1u);
    std::optional<std::string> row = StoredValue(*j, 'R', "EUR");
    ASSERT_TRUE(row.has_value());
    auto row_encoder = KeyEncoder::Create(j->types[1], {0, 1, 2});
    ASSERT_TRUE(row_encoder.ok());
    std::vector<Value> values;
    ASSERT_TRUE(row_encoder->Decode(*row, &values).ok());
    EXPECT_EQ(FormatValue(values[2], DataType::BigInt()), "116");
    EXPECT_THAT(j->Watermark(50), ElementsAre("W50"));
    j->FeedChanges(1, {{kD, {Str("EUR"), Int(100), Int(116)}}});
    expect(j->Left({{Str("EUR"), Int(9), Int(5)}}), left ? "+I[EUR, 9, 5, null, null, null]" : "");
    expect(j->Left({{Null(), Int(9), Int(6)}}), left ? "+I[null, 9, 6, null, null, null]" : "");
    EXPECT_EQ(StoredKeys(*j), 0u);
    EXPECT_EQ(j->op->pending_timers(), 0u);
    // One batch: the last change of a key wins; rows of a batch go out in input order.
    j->FeedChanges(1, {{kI, {Str("USD"), Int(1), Int(1)}},
                       {kD, {Str("USD"), Int(2), Int(1)}},
                       {kI, {Str("USD"), Int(3), Int(3)}},
                       {kI, {Null(), Int(3), Int(3)}}});
    const auto out = j->Left({{Str("USD"), Int(10), Int(7)},
                              {Str("EUR"), Int(10), Int(8)},
                              {Str("USD"), Int(11), Int(9)}});
    if (left) {
      EXPECT_THAT(out, ElementsAre("+I[USD, 10, 7, USD, 3, 3]", "+I[EUR, 10, 8, null, null, null]",
                                   "+I[USD, 11, 9, USD, 3, 3]"));
    } else {
      EXPECT_THAT(out, ElementsAre("+I[USD, 10, 7, USD, 3, 3]", "+I[USD, 11, 9, USD, 3, 3]"));
    }
    EXPECT_THAT(j->Finish(), IsEmpty());
  }
}

TEST_F(TemporalJoinTest, RejectsChangesOnTheLeftAndNullTimes) {
  auto j = Make(Spec(StreamingJoinType::kInner));
  absl::Status s = j->TryFeed(0, {{kD, {Str("EUR"), Int(1), Int(1)}}});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("TemporalJoin received a -D row on its left input"));
  s = j->TryFeed(0, {{kUA, {Str("EUR"), Int(1), Int(1)}}});
  EXPECT_THAT(s.message(), HasSubstr("TemporalJoin received a +U row"));
  s = j->TryFeed(0, {{kI, {Str("EUR"), Null(), Int(1)}}});
  EXPECT_THAT(s.message(), HasSubstr("the left time attribute (input column 1) is NULL"));
  s = j->TryFeed(1, {{kI, {Str("EUR"), Null(), Int(1)}}});
  EXPECT_THAT(s.message(), HasSubstr("the right time attribute (input column 1) is NULL"));
  // A -U is ignored whatever it holds.
  EXPECT_TRUE(j->TryFeed(1, {{kUB, {Str("EUR"), Null(), Int(1)}}}).ok());
  EXPECT_EQ(StoredKeys(*j), 0u);
  EXPECT_FALSE(j->op->Process(2, ChangelogBatch(j->types[1])).ok());
}

// A checkpoint (SnapshotState plus a snapshot of the store) in the middle: an operator restored
// from it has the waiting rows, the versions and the timers, so the next watermark releases the
// rows; it sees nothing of what came after the checkpoint.
TEST_F(TemporalJoinTest, RestoresWaitingRowsAndTimersFromACheckpoint) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto j = Make(Spec(StreamingJoinType::kLeftOuter), cache);
    const uint32_t state_id = j->op->state_table()->state_id();
    j->Right({{Str("EUR"), Int(100), Int(114)}});
    j->Right({{Str("EUR"), Int(200), Int(116)}});
    j->Left({{Str("EUR"), Int(150), Int(1)},
             {Str("EUR"), Int(250), Int(2)},
             {Str("USD"), Int(120), Int(3)}});
    EXPECT_THAT(j->Watermark(130), ElementsAre("+I[USD, 120, 3, null, null, null]", "W130"));
    const int batches = j->out.batches;
    OperatorSnapshot snapshot;
    ASSERT_TRUE(j->op->SnapshotState(1, &snapshot).ok());
    EXPECT_THAT(j->out.Take(), IsEmpty());  // a snapshot emits nothing
    EXPECT_EQ(j->out.batches, batches);
    const std::string chk = absl::StrCat(dir_, "/chk-", cache);
    ASSERT_TRUE(backend_->Snapshot(chk).ok());
    // After the checkpoint: a version the restored instance must not see.
    j->Right({{Str("EUR"), Int(140), Int(999)}});

    auto restored = KeyedStateBackend::OpenFromSnapshot(
        chk, absl::StrCat(dir_, "/restored-", cache), std::make_shared<SharedStateResources>());
    ASSERT_TRUE(restored.ok()) << restored.status();
    auto again = Make(Spec(StreamingJoinType::kLeftOuter), cache, restored->get(), state_id);
    ASSERT_TRUE(again->op->RestoreState(snapshot).ok());
    EXPECT_EQ(again->op->current_watermark(), 130);
    EXPECT_EQ(again->op->waiting_rows(), 2u);
    EXPECT_EQ(again->op->pending_timers(), 2u);  // EUR's rows at 150, EUR's versions at 200
    EXPECT_THAT(again->Watermark(300), ElementsAre("+I[EUR, 150, 1, EUR, 100, 114]",
                                                   "+I[EUR, 250, 2, EUR, 200, 116]", "W300"));
    EXPECT_EQ(again->op->waiting_rows(), 0u);
    EXPECT_EQ(again->op->pending_timers(), 0u);
    EXPECT_EQ(StoredKeys(*again, restored->get()), 1u);  // EUR's version at 200
    // A malformed snapshot is refused.
    OperatorSnapshot bad;
    bad.Put("timers", "\x01");
    EXPECT_FALSE(again->op->RestoreState(bad).ok());
    again.reset();
    restored->reset();
  }
}

TEST(TemporalVersionsTest, SetFindPruneAndEncoding) {
  TemporalVersions v;
  EXPECT_EQ(v.Find(0), -1);
  EXPECT_EQ(v.PruneTime(), std::nullopt);
  v.Set(200, false, "b");
  v.Set(-5, false, "a");
  v.Set(300, true, "ignored");
  v.Set(200, false, "b2");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v.at(1).row, "b2");
  EXPECT_TRUE(v.at(2).deleted);
  EXPECT_EQ(v.at(2).row, "");
  EXPECT_EQ(v.Find(-6), -1);
  EXPECT_EQ(v.Find(-5), 0);
  EXPECT_EQ(v.Find(199), 0);
  EXPECT_EQ(v.Find(200), 1);
  EXPECT_EQ(v.Find(1000), 2);
  EXPECT_EQ(v.PruneTime(), 200);

  std::string value;
  v.Encode(&value);
  TemporalVersions w;
  ASSERT_TRUE(w.Decode(value).ok());
  EXPECT_FALSE(w.dirty());
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w.at(0).time, -5);
  EXPECT_EQ(w.at(0).row, "a");
  EXPECT_EQ(w.at(1).time, 200);
  EXPECT_TRUE(w.at(2).deleted);
  TemporalVersions corrupt;
  EXPECT_EQ(corrupt.Decode(value.substr(0, value.size() - 1)).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(corrupt.Decode(value + "x").code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(corrupt.Decode("").code(), absl::StatusCode::kDataLoss);
  std::string unordered;
  TemporalVersions two;
  two.Set(1, false, "x");
  two.Set(2, false, "y");
  two.Encode(&unordered);
  unordered[unordered.size() - 4] = 0;  // the second version's time delta: the same time
  EXPECT_THAT(corrupt.Decode(unordered).message(), HasSubstr("out of time order"));

  EXPECT_EQ(w.Prune(-6), 0u);
  EXPECT_EQ(w.Prune(199), 0u);
  EXPECT_FALSE(w.dirty());
  EXPECT_EQ(w.Prune(250), 1u);
  EXPECT_TRUE(w.dirty());
  EXPECT_EQ(w.PruneTime(), 300);
  // The newest version at 300 is the deletion: nothing is left of the key.
  EXPECT_EQ(w.Prune(300), 2u);
  EXPECT_TRUE(w.empty());
  // A lone deletion later than the watermark stays until the watermark reaches it.
  w.Set(400, true, "");
  EXPECT_EQ(w.PruneTime(), 400);
  EXPECT_EQ(w.Prune(399), 0u);
  EXPECT_EQ(w.Prune(400), 1u);
  // A lone row stays.
  w.Set(500, false, "r");
  EXPECT_EQ(w.PruneTime(), std::nullopt);
  EXPECT_EQ(w.Prune(1000), 0u);
  EXPECT_EQ(w.size(), 1u);
  // A deletion first is dropped once the watermark reaches it, whatever follows.
  w.Set(400, true, "");
  w.Set(600, true, "");
  EXPECT_EQ(w.PruneTime(), 400);
  EXPECT_EQ(w.Prune(450), 1u);
  EXPECT_EQ(w.PruneTime(), 600);
  EXPECT_EQ(w.Prune(599), 0u);
  EXPECT_EQ(w.Prune(650), 2u);
  EXPECT_TRUE(w.empty());
}

// ---------------------------------------------------------------------------------------------
// Randomized: orders (k INT, t TIMESTAMP(3), a BIGINT, id BIGINT) and versions (k INT, t
// TIMESTAMP(3), v BIGINT) of a few keys, NULL keys on both sides, +I/+U/-U/-D versions at times
// after the watermark (a watermark promises that), left rows also behind it (late), watermarks
// (some idle), fed to the operator and to a step model; after every step the output (exact order)
// and the state's size must agree. The whole run's output is also checked against a naive
// computation. A run may checkpoint and continue on a restored copy.

struct RandomCase {
  StreamingJoinType type;
  bool condition;  // a <= v
  size_t cache;
  bool restore;
};

const std::vector<DataType> kRandomLeft = {DataType::Int(), DataType::Timestamp(3),
                                           DataType::BigInt(), DataType::BigInt()};
const std::vector<DataType> kRandomRight = {DataType::Int(), DataType::Timestamp(3),
                                            DataType::BigInt()};

struct Order {
  std::optional<int64_t> key;
  int64_t time = 0;
  std::optional<int64_t> a;
  int64_t id = 0;
};

struct Version {
  RowKind kind = kI;
  std::optional<int64_t> key;
  int64_t time = 0;
  std::optional<int64_t> v;
};

Value Opt(const std::optional<int64_t>& x) { return x ? Int(*x) : Null(); }

// The output row of an order and its version (none: padded), as the operator prints it.
std::string OutputRow(const Order& o, const Version* v) {
  std::vector<DataType> types = kRandomLeft;
  for (const DataType& t : kRandomRight) types.push_back(t);
  ChangelogBatch b(types);
  std::vector<Value> values = {Opt(o.key), Int(o.time), Opt(o.a), Int(o.id)};
  if (v != nullptr) {
    values.insert(values.end(), {Opt(v->key), Int(v->time), Opt(v->v)});
  } else {
    values.insert(values.end(), {Null(), Null(), Null()});
  }
  b.AppendValues(values, kI);
  return FormatRow(b, 0);
}

// Whether an order joins a version: it exists, is not a deletion, and the condition holds.
bool Joins(const RandomCase& c, const Order& o, const Version* v) {
  if (v == nullptr || v->kind == kD) return false;
  return !c.condition || (o.a && v->v && *o.a <= *v->v);
}

// Appends the order's output (if any) to `out`.
void Emit(const RandomCase& c, const Order& o, const Version* v, std::vector<std::string>* out) {
  if (Joins(c, o, v)) {
    out->push_back(OutputRow(o, v));
  } else if (c.type == StreamingJoinType::kLeftOuter) {
    out->push_back(OutputRow(o, nullptr));
  }
}

// Replays the operator step by step: what it emits (in its order) and what it holds.
class TemporalJoinModel {
 public:
  explicit TemporalJoinModel(const RandomCase& c) : c_(c) {
    auto key = KeyEncoder::Create({DataType::Int()}, {0});
    EXPECT_TRUE(key.ok());
    key_ = *key;
  }

  std::vector<std::string> Right(const std::vector<Version>& batch) {
    for (const Version& v : batch) {
      if (v.kind == kUB || !v.key) continue;
      versions_[*v.key][v.time] = v;
    }
    return {};
  }

  std::vector<std::string> Left(const std::vector<Order>& batch) {
    std::vector<std::string> out;
    for (const Order& o : batch) {
      if (!o.key) {
        Emit(c_, o, nullptr, &out);
      } else if (o.time <= watermark_) {
        Emit(c_, o, LookupPruned(*o.key, o.time), &out);
      } else {
        waiting_.push_back(o);
      }
    }
    return out;
  }

  std::vector<std::string> Watermark(int64_t w, bool idle) {
    std::vector<std::string> out;
    if (!idle && w > watermark_) {
      watermark_ = w;
      Release(w, &out);
    }
    out.push_back(absl::StrCat("W", w, idle ? " idle" : ""));
    return out;
  }

  std::vector<std::string> Finish() {
    std::vector<std::string> out;
    Release(kMaxWatermark, &out);
    return out;
  }

  int64_t watermark() const { return watermark_; }
  uint64_t waiting() const { return waiting_.size(); }
  // (side, key) values in state, and timers.
  void StateSize(uint64_t* keys, size_t* timers) const {
    std::set<int64_t> waiting_keys;
    for (const Order& o : waiting_) waiting_keys.insert(*o.key);
    *keys = waiting_keys.size();
    *timers = waiting_keys.size();
    for (const auto& [key, all] : versions_) {
      std::vector<const Version*> kept = Pruned(all);
      *keys += !kept.empty();
      *timers += !kept.empty() && (kept.size() >= 2 || kept[0]->kind == kD);
    }
  }

 private:
  // What the operator keeps of a key's versions at the current watermark.
  std::vector<const Version*> Pruned(const std::map<int64_t, Version>& all) const {
    auto newest = all.upper_bound(watermark_);
    auto from = newest == all.begin() ? all.begin() : std::prev(newest);
    std::vector<const Version*> kept;
    for (auto it = from; it != all.end(); ++it) kept.push_back(&it->second);
    if (!kept.empty() && kept[0]->kind == kD && kept[0]->time <= watermark_) {
      kept.erase(kept.begin());
    }
    return kept;
  }
  // The version valid at `time` among those kept.
  const Version* LookupPruned(int64_t key, int64_t time) const {
    auto it = versions_.find(key);
    if (it == versions_.end()) return nullptr;
    std::vector<const Version*> kept = Pruned(it->second);
    const Version* found = nullptr;
    for (const Version* v : kept) {
      if (v->time <= time) found = v;
    }
    return found;
  }
  const Version* Lookup(int64_t key, int64_t time) const {
    auto it = versions_.find(key);
    if (it == versions_.end()) return nullptr;
    auto at = it->second.upper_bound(time);
    if (at == it->second.begin()) return nullptr;
    return &std::prev(at)->second;
  }
  // Releases the waiting orders with time <= w: keys in the order of (earliest released time, key
  // bytes), each key's orders in time order (arrival order for equal times).
  void Release(int64_t w, std::vector<std::string>* out) {
    std::map<int64_t, std::vector<Order>> by_key;
    std::vector<Order> still;
    for (const Order& o : waiting_) {
      if (o.time <= w) {
        by_key[*o.key].push_back(o);
      } else {
        still.push_back(o);
      }
    }
    waiting_ = std::move(still);
    std::vector<std::pair<std::pair<int64_t, std::string>, int64_t>> keys;
    for (auto& [key, orders] : by_key) {
      std::stable_sort(orders.begin(), orders.end(),
                       [](const Order& x, const Order& y) { return x.time < y.time; });
      ChangelogBatch b({DataType::Int()});
      b.AppendValues({Int(key)}, kI);
      keys.push_back({{orders[0].time, key_.EncodeToString(b, 0)}, key});
    }
    std::sort(keys.begin(), keys.end());
    for (const auto& [order, key] : keys) {
      for (const Order& o : by_key[key]) Emit(c_, o, Lookup(key, o.time), out);
    }
  }

  RandomCase c_;
  KeyEncoder key_;
  int64_t watermark_ = kMinWatermark;
  std::map<int64_t, std::map<int64_t, Version>> versions_;  // every version that arrived
  std::vector<Order> waiting_;                              // in arrival order
};

// One event of a run, for the naive computation.
struct Event {
  enum Kind { kLeft, kRight, kWatermark, kFinish } kind;
  std::vector<Order> orders;
  std::vector<Version> versions;
  int64_t watermark = 0;
  bool idle = false;
};

// The whole run's output from the definition: an order joins the latest version of its key at or
// before its time among all versions that arrived before the watermark that releases it (the
// first one at or above its time after it arrived, or the end); a late order (at or behind the
// watermark when it arrives) joins among the versions that arrived before it, where those older
// than the newest one at or below that watermark are no longer kept.
std::vector<std::string> NaiveJoin(const RandomCase& c, const std::vector<Event>& events) {
  std::vector<std::string> out;
  auto lookup = [](const std::vector<Version>& arrived, int64_t key, int64_t time) {
    const Version* found = nullptr;
    for (const Version& v : arrived) {
      if (v.kind == kUB || v.key != key || v.time > time) continue;
      // The latest time wins; at equal times the later arrival.
      if (found == nullptr || v.time >= found->time) found = &v;
    }
    return found;
  };
  int64_t watermark = kMinWatermark;
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].kind == Event::kWatermark && !events[i].idle) {
      watermark = std::max(watermark, events[i].watermark);
    }
    if (events[i].kind != Event::kLeft) continue;
    for (const Order& o : events[i].orders) {
      std::vector<Version> arrived;
      if (!o.key) {
        Emit(c, o, nullptr, &out);
        continue;
      }
      if (o.time <= watermark) {
        for (size_t j = 0; j < i; ++j) {
          arrived.insert(arrived.end(), events[j].versions.begin(), events[j].versions.end());
        }
        const Version* newest = lookup(arrived, *o.key, watermark);
        if (newest != nullptr && o.time < newest->time) {
          Emit(c, o, nullptr, &out);
        } else {
          Emit(c, o, lookup(arrived, *o.key, o.time), &out);
        }
        continue;
      }
      size_t release = i + 1;
      for (; release < events.size(); ++release) {
        const Event& e = events[release];
        if (e.kind == Event::kFinish) break;
        if (e.kind == Event::kWatermark && !e.idle && e.watermark >= o.time) break;
      }
      for (size_t j = 0; j < release; ++j) {
        arrived.insert(arrived.end(), events[j].versions.begin(), events[j].versions.end());
      }
      Emit(c, o, lookup(arrived, *o.key, o.time), &out);
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
    events.push_back(absl::StrCat("W", w.millis, w.idle ? " idle" : ""));
    return absl::OkStatus();
  }
  std::vector<std::string> Take() { return std::exchange(events, {}); }
  std::vector<std::string> events;
};

class TemporalJoinRandomTest : public TemporalJoinTest {
 protected:
  void Run(const RandomCase& c, uint32_t seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    TemporalJoinSpec spec;
    spec.type = c.type;
    spec.left_types = kRandomLeft;
    spec.right_types = kRandomRight;
    spec.left_keys = {0};
    spec.right_keys = {0};
    spec.left_time = 1;
    spec.right_time = 1;
    if (c.condition) {
      spec.condition =
          Call("<=", {MakeColumnRef(2, DataType::BigInt()), MakeColumnRef(6, DataType::BigInt())});
    }
    auto created = TemporalJoinOperator::Create(spec);
    ASSERT_TRUE(created.ok()) << created.status();
    std::unique_ptr<TemporalJoinOperator> op = std::move(created).value();
    const uint32_t state_id = ++next_state_id_;
    RawLog out;
    auto open = [&](TemporalJoinOperator* o, KeyedStateBackend* backend) {
      OperatorContext ctx;
      ctx.state_id = state_id;
      ctx.state = backend;
      ctx.state_cache_bytes = c.cache;
      ASSERT_TRUE(o->Open(ctx).ok());
      o->set_output(&out);
    };
    open(op.get(), backend_.get());
    KeyedStateBackend* backend = backend_.get();
    std::unique_ptr<KeyedStateBackend> restored_backend;
    const int restore_step = c.restore ? 20 + pick(100) : -1;

    TemporalJoinModel model(c);
    std::vector<Event> events;
    std::vector<std::string> all_rows;  // every row the operator emitted
    auto take = [&] {
      std::vector<std::string> emitted = out.Take();
      for (const std::string& e : emitted) {
        if (e[0] != 'W') all_rows.push_back(e);
      }
      return emitted;
    };
    int64_t next_id = 0;
    for (int step = 0; step < 200; ++step) {
      SCOPED_TRACE(absl::StrCat("step ", step));
      if (step == restore_step) {
        OperatorSnapshot snapshot;
        ASSERT_TRUE(op->SnapshotState(step, &snapshot).ok());
        ASSERT_THAT(out.Take(), IsEmpty());
        const std::string chk = absl::StrCat(dir_, "/random-chk-", state_id);
        ASSERT_TRUE(backend_->Snapshot(chk).ok());
        ASSERT_TRUE(op->Close().ok());
        auto reopened =
            KeyedStateBackend::OpenFromSnapshot(chk, absl::StrCat(dir_, "/random-", state_id),
                                                std::make_shared<SharedStateResources>());
        ASSERT_TRUE(reopened.ok()) << reopened.status();
        op = std::move(TemporalJoinOperator::Create(spec)).value();
        open(op.get(), reopened->get());
        restored_backend = std::move(reopened).value();
        backend = restored_backend.get();
        ASSERT_TRUE(op->RestoreState(snapshot).ok());
      }
      const int64_t base = model.watermark() == kMinWatermark ? 1000 : model.watermark();
      const int what = pick(10);
      if (what < 3) {
        const int64_t w = model.watermark() == kMinWatermark ? 1000 : base + pick(25) - 3;
        const bool idle = pick(10) == 0;
        ASSERT_TRUE(op->ProcessWatermark(Watermark{w, idle}).ok());
        ASSERT_EQ(take(), model.Watermark(w, idle));
        events.push_back({Event::kWatermark, {}, {}, w, idle});
      } else if (what < 6) {
        // Versions after the watermark: the watermark promises no earlier ones come.
        std::vector<Version> versions;
        ChangelogBatch batch(kRandomRight);
        for (int r = pick(6); r >= 0; --r) {
          Version v;
          const int k = pick(10);
          v.kind = k < 4 ? kI : k < 6 ? kUA : k < 8 ? kD : kUB;
          if (pick(10) != 0) v.key = pick(4);
          v.time = v.kind == kUB ? base + pick(60) - 30 : base + 1 + pick(40);
          if (pick(8) != 0) v.v = pick(6);
          batch.AppendValues({Opt(v.key), Int(v.time), Opt(v.v)}, v.kind);
          versions.push_back(v);
        }
        ASSERT_TRUE(op->Process(1, batch).ok());
        ASSERT_EQ(take(), model.Right(versions));
        events.push_back({Event::kRight, {}, versions, 0, false});
      } else {
        std::vector<Order> orders;
        ChangelogBatch batch(kRandomLeft);
        for (int r = pick(8); r >= 0; --r) {
          Order o;
          if (pick(10) != 0) o.key = pick(4);
          o.time = base + pick(70) - 25;
          if (pick(8) != 0) o.a = pick(6);
          o.id = next_id++;
          batch.AppendValues({Opt(o.key), Int(o.time), Opt(o.a), Int(o.id)}, kI);
          orders.push_back(o);
        }
        ASSERT_TRUE(op->Process(0, batch).ok());
        ASSERT_EQ(take(), model.Left(orders));
        events.push_back({Event::kLeft, orders, {}, 0, false});
      }
      ASSERT_EQ(op->waiting_rows(), model.waiting());
      uint64_t keys = 0;
      size_t timers = 0;
      model.StateSize(&keys, &timers);
      ASSERT_EQ(op->pending_timers(), timers);
      ASSERT_TRUE(op->FlushState().ok());
      ASSERT_EQ(*backend->CountKeys(state_id), keys);
    }
    ASSERT_TRUE(op->Finish().ok());
    ASSERT_EQ(take(), model.Finish());
    events.push_back({Event::kFinish, {}, {}, 0, false});
    EXPECT_EQ(op->waiting_rows(), 0u);
    std::sort(all_rows.begin(), all_rows.end());
    EXPECT_EQ(all_rows, NaiveJoin(c, events));
    op.reset();
  }
};

TEST_F(TemporalJoinRandomTest, AgainstAModelAndANaiveJoin) {
  const char* env = std::getenv("EDDY_TEST_SEED");
  const uint32_t base_seed = env != nullptr ? static_cast<uint32_t>(std::strtoull(env, nullptr, 10))
                                            : std::random_device{}();
  std::cout << "seed " << base_seed << " (EDDY_TEST_SEED=" << base_seed << " replays this run)"
            << std::endl;
  SCOPED_TRACE(absl::StrCat("seed ", base_seed));
  std::mt19937 rng(base_seed);
  for (StreamingJoinType type : {StreamingJoinType::kInner, StreamingJoinType::kLeftOuter}) {
    for (int variant = 0; variant < 8; ++variant) {
      RandomCase c;
      c.type = type;
      c.condition = (variant & 1) != 0;
      c.restore = (variant & 2) != 0;
      c.cache = (variant & 4) != 0 ? size_t{1} << 16 : 0;
      const uint32_t seed = rng();
      SCOPED_TRACE(absl::StrCat(StreamingJoinTypeName(type), " condition ", c.condition,
                                " restore ", c.restore, " cache ", c.cache, " case seed ", seed));
      Run(c, seed);
      if (HasFatalFailure()) return;
    }
  }
}

// Processing time, randomly: each left row joins the row its key holds when the row arrives (the
// last +I/+U of the key, none after a -D), in input order.
TEST_F(TemporalJoinRandomTest, ProcessingTimeAgainstAModel) {
  const char* env = std::getenv("EDDY_TEST_SEED");
  const uint32_t seed = env != nullptr ? static_cast<uint32_t>(std::strtoull(env, nullptr, 10))
                                       : std::random_device{}();
  std::cout << "seed " << seed << " (EDDY_TEST_SEED=" << seed << " replays this run)" << std::endl;
  SCOPED_TRACE(absl::StrCat("seed ", seed));
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  for (StreamingJoinType type : {StreamingJoinType::kInner, StreamingJoinType::kLeftOuter}) {
    for (bool condition : {false, true}) {
      SCOPED_TRACE(absl::StrCat(StreamingJoinTypeName(type), " condition ", condition));
      RandomCase c{type, condition, size_t{1} << 16, false};
      TemporalJoinSpec spec;
      spec.type = type;
      spec.left_types = kRandomLeft;
      spec.right_types = kRandomRight;
      spec.left_keys = {0};
      spec.right_keys = {0};
      if (condition) {
        spec.condition = Call(
            "<=", {MakeColumnRef(2, DataType::BigInt()), MakeColumnRef(6, DataType::BigInt())});
      }
      auto j = Make(spec, c.cache);
      std::map<int64_t, Version> current;
      int64_t next_id = 0;
      for (int step = 0; step < 300; ++step) {
        SCOPED_TRACE(absl::StrCat("step ", step));
        if (pick(2) == 0) {
          std::vector<Change> changes;
          for (int r = pick(6); r >= 0; --r) {
            Version v;
            const int k = pick(10);
            v.kind = k < 4 ? kI : k < 6 ? kUA : k < 8 ? kD : kUB;
            if (pick(10) != 0) v.key = pick(4);
            v.time = pick(1000);
            if (pick(8) != 0) v.v = pick(6);
            changes.push_back({v.kind, {Opt(v.key), Int(v.time), Opt(v.v)}});
            if (!v.key || v.kind == kUB) continue;
            if (v.kind == kD) {
              current.erase(*v.key);
            } else {
              current[*v.key] = v;
            }
          }
          ASSERT_THAT(j->FeedChanges(1, changes), IsEmpty());
        } else {
          std::vector<Change> changes;
          std::vector<std::string> expected;
          for (int r = pick(8); r >= 0; --r) {
            Order o;
            if (pick(10) != 0) o.key = pick(4);
            o.time = pick(1000);
            if (pick(8) != 0) o.a = pick(6);
            o.id = next_id++;
            changes.push_back({kI, {Opt(o.key), Int(o.time), Opt(o.a), Int(o.id)}});
            auto it = o.key ? current.find(*o.key) : current.end();
            Emit(c, o, it == current.end() ? nullptr : &it->second, &expected);
          }
          std::vector<std::string> actual = j->FeedChanges(0, changes);
          // The log compacts timestamps; compare with the model's rows compacted alike.
          for (std::string& e : expected) e = Compact(e);
          ASSERT_EQ(actual, expected);
        }
        ASSERT_EQ(StoredKeys(*j), current.size());
      }
    }
  }
}

}  // namespace
}  // namespace eddy
