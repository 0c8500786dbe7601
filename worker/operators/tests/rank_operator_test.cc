// RankOperator: exact Top-N changelogs of both strategies, with and without the row number (rows
// entering at the top, middle and bottom, rows that do not enter, rank_start > 1, DESC and ASC,
// NULL sort keys, ties, duplicates, updates crossing the boundary, generate_update_before off),
// several partitions per batch, batching, state TTL, snapshot/restore, the bound on append-only
// state, and the order of SortKeyEncoder's bytes. Every expectation is derived by hand from the
// semantics in rank_operator.h.
#include "worker/operators/rank_operator.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/hash.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/rank_record_list.h"
#include "worker/operators/sort_key_encoder.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr RowKind kI = RowKind::kInsert;
constexpr RowKind kUB = RowKind::kUpdateBefore;
constexpr RowKind kUA = RowKind::kUpdateAfter;
constexpr RowKind kD = RowKind::kDelete;

Value Int(int64_t v) { return Value::Int(v); }
Value Str(std::string s) { return Value::String(std::move(s)); }
Value Null() { return Value::Null(); }

using Row = std::pair<RowKind, std::vector<Value>>;

// (p STRING, id STRING, score BIGINT): partitioned by p, ordered by score.
const std::vector<DataType> kTypes = {DataType::String(), DataType::String(), DataType::BigInt()};

ChangelogBatch Batch(const std::vector<Row>& rows, const std::vector<DataType>& types = kTypes) {
  ChangelogBatch b(types);
  for (const auto& [kind, values] : rows) b.AppendValues(values, kind);
  return b;
}

Row R(RowKind kind, const char* p, const char* id, int64_t score) {
  return {kind, {Str(p), Str(id), Int(score)}};
}
Row RNull(RowKind kind, const char* p, const char* id) { return {kind, {Str(p), Str(id), Null()}}; }

RankSpec Spec(RankStrategy strategy, int64_t rank_end, bool number, bool descending = true) {
  RankSpec spec;
  spec.input_types = kTypes;
  spec.partition_keys = {0};
  spec.order_by = {SortKeyField{.column = 2, .descending = descending, .nulls_first = false}};
  spec.rank_start = 1;
  spec.rank_end = rank_end;
  spec.output_rank_number = number;
  spec.strategy = strategy;
  return spec;
}

// An operator and its output.
struct Rank {
  std::unique_ptr<RankOperator> op;
  CollectingOutput out;

  // Feeds one batch and returns what it emitted.
  std::vector<std::string> Feed(const std::vector<Row>& rows) {
    absl::Status s = op->Process(0, Batch(rows));
    EXPECT_TRUE(s.ok()) << s;
    return out.Take();
  }
  std::vector<std::string> Feed(const Row& row) { return Feed(std::vector<Row>{row}); }
};

class RankTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = ::testing::TempDir() + "/eddy_rank_" + std::to_string(::getpid()) + "_" +
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
  std::unique_ptr<Rank> Make(RankSpec spec, size_t state_cache_bytes = 0,
                             KeyedStateBackend* backend = nullptr, uint32_t state_id = 0) {
    auto op = RankOperator::Create(std::move(spec));
    EXPECT_TRUE(op.ok()) << op.status();
    if (!op.ok()) return nullptr;
    auto rank = std::make_unique<Rank>();
    OperatorContext ctx;
    ctx.state_id = state_id != 0 ? state_id : ++next_state_id_;
    ctx.state = backend != nullptr ? backend : backend_.get();
    ctx.state_cache_bytes = state_cache_bytes;
    absl::Status opened = (*op)->Open(ctx);
    EXPECT_TRUE(opened.ok()) << opened;
    rank->op = std::move(op).value();
    rank->op->set_output(&rank->out);
    return rank;
  }

  // The rows the store holds for partition `p` of `rank` (after FlushState).
  int64_t StoredRows(Rank& rank, const std::string& p) {
    EXPECT_TRUE(rank.op->FlushState().ok());
    auto encoder = KeyEncoder::Create({DataType::String()}, {0});
    EXPECT_TRUE(encoder.ok());
    const std::string bytes =
        encoder->EncodeToString(Batch({{kI, {Str(p)}}}, {DataType::String()}), 0);
    std::string key;
    AppendStateKey(KeyGroupOf(bytes, kMaxParallelism), rank.op->state_table()->state_id(), bytes,
                   &key);
    const std::vector<std::string_view> keys = {key};
    StateReadResult read;
    EXPECT_TRUE(backend_->MultiGet(keys, &read).ok());
    if (!read.found(0)) return 0;
    RankRecordList list;
    EXPECT_TRUE(list.Decode(read.value(0)).ok());
    return list.rows();
  }

  std::string dir_;
  std::atomic<int64_t> now_ms_{1'000'000};
  std::unique_ptr<KeyedStateBackend> backend_;
  uint32_t next_state_id_ = 0;
};

TEST_F(RankTest, OutputTypesAppendANotNullRowNumber) {
  auto plain = RankOperator::Create(Spec(RankStrategy::kAppendFast, 3, false));
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)->output_types().size(), 3u);
  auto numbered = RankOperator::Create(Spec(RankStrategy::kAppendFast, 3, true));
  ASSERT_TRUE(numbered.ok());
  ASSERT_EQ((*numbered)->output_types().size(), 4u);
  EXPECT_EQ((*numbered)->output_types()[3], DataType::BigInt().WithNullable(false));
}

TEST_F(RankTest, CreateRejectsBadSpecs) {
  auto rejected = [](RankSpec spec, const std::string& what) {
    auto op = RankOperator::Create(std::move(spec));
    ASSERT_FALSE(op.ok());
    EXPECT_EQ(op.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(op.status().message().find(what), std::string::npos) << op.status();
  };
  RankSpec spec = Spec(RankStrategy::kRetract, 3, true);
  spec.partition_keys = {3};
  rejected(spec, "partition key column 3");
  spec = Spec(RankStrategy::kRetract, 3, true);
  spec.order_by[0].column = -1;
  rejected(spec, "ORDER BY column -1");
  spec = Spec(RankStrategy::kRetract, 3, true);
  spec.rank_start = 0;
  rejected(spec, "rank_start is 0");
  spec = Spec(RankStrategy::kRetract, 3, true);
  spec.rank_start = 4;
  rejected(spec, "rank_end 3 is below rank_start 4");
  spec = Spec(RankStrategy::kRetract, 3, true);
  spec.state_ttl_ms = -1;
  rejected(spec, "negative state TTL");
}

TEST_F(RankTest, OpenNeedsAStateBackend) {
  auto op = RankOperator::Create(Spec(RankStrategy::kAppendFast, 3, true));
  ASSERT_TRUE(op.ok());
  EXPECT_EQ((*op)->Process(0, Batch({R(kI, "a", "x", 1)})).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*op)->Open(OperatorContext{}).code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(RankTest, AppendOnlyRefusesUpdatingInput) {
  auto rank = Make(Spec(RankStrategy::kAppendFast, 3, true));
  absl::Status s = rank->op->Process(0, Batch({R(kI, "a", "x", 1), R(kD, "a", "x", 1)}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Rank (APPEND_FAST)"), std::string::npos) << s;
  EXPECT_NE(s.message().find("-D"), std::string::npos) << s;
}

// Top 3 by score DESC with the row number: each row that enters moves the rows below it down one
// rank (-U/+U per rank), and the partition grows with +I until it is full.
TEST_F(RankTest, AppendOnlyWithRowNumber) {
  auto rank = Make(Spec(RankStrategy::kAppendFast, 3, true));
  EXPECT_THAT(rank->Feed(R(kI, "a", "x", 10)), ElementsAre("+I[a, x, 10, 1]"));
  // At the top of a partition that is not full.
  EXPECT_THAT(rank->Feed(R(kI, "a", "y", 20)),
              ElementsAre("-U[a, x, 10, 1]", "+U[a, y, 20, 1]", "+I[a, x, 10, 2]"));
  // In the middle: y 20, z 15, x 10.
  EXPECT_THAT(rank->Feed(R(kI, "a", "z", 15)),
              ElementsAre("-U[a, x, 10, 2]", "+U[a, z, 15, 2]", "+I[a, x, 10, 3]"));
  // Below a full Top-3: does not enter.
  EXPECT_THAT(rank->Feed(R(kI, "a", "w", 5)), IsEmpty());
  // At the top of a full partition: every rank changes, x leaves without a -D.
  EXPECT_THAT(rank->Feed(R(kI, "a", "v", 30)),
              ElementsAre("-U[a, y, 20, 1]", "+U[a, v, 30, 1]", "-U[a, z, 15, 2]",
                          "+U[a, y, 20, 2]", "-U[a, x, 10, 3]", "+U[a, z, 15, 3]"));
  // A tie with y ranks after it (arrival order) and pushes z out.
  EXPECT_THAT(rank->Feed(R(kI, "a", "t", 20)), ElementsAre("-U[a, z, 15, 3]", "+U[a, t, 20, 3]"));
  // A tie with the last row (t) would rank after it: does not enter.
  EXPECT_THAT(rank->Feed(R(kI, "a", "s", 20)), IsEmpty());
  // The bottom of a full partition, just above the last row.
  EXPECT_THAT(rank->Feed(R(kI, "a", "r", 21)), ElementsAre("-U[a, y, 20, 2]", "+U[a, r, 21, 2]",
                                                           "-U[a, t, 20, 3]", "+U[a, y, 20, 3]"));
}

// RANK(): ties share a number and the next rank skips; the rows entering or leaving the range (or
// changing their rank) are +I/-D with their numbers, in the order of the rows' bytes. DENSE_RANK()
// ranks without gaps.
TEST_F(RankTest, RankAndDenseRankGiveTiesOneNumber) {
  RankSpec spec = Spec(RankStrategy::kRetract, 2, true);
  spec.function = RankFunction::kRank;
  auto rank = Make(spec);
  EXPECT_THAT(rank->Feed(R(kI, "a", "x", 10)), ElementsAre("+I[a, x, 10, 1]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "y", 20)),
              ElementsAre("-D[a, x, 10, 1]", "+I[a, x, 10, 2]", "+I[a, y, 20, 1]"));
  // A tie with y: both rank 1, x falls to 3 and leaves.
  EXPECT_THAT(rank->Feed(R(kI, "a", "z", 20)), ElementsAre("-D[a, x, 10, 2]", "+I[a, z, 20, 1]"));
  // Retracting one of the tied rows brings x back at 2.
  EXPECT_THAT(rank->Feed(R(kD, "a", "y", 20)), ElementsAre("+I[a, x, 10, 2]", "-D[a, y, 20, 1]"));
  // A retraction of a row never seen changes nothing.
  EXPECT_THAT(rank->Feed(R(kD, "a", "q", 99)), IsEmpty());

  spec.function = RankFunction::kDenseRank;
  auto dense = Make(spec);
  dense->Feed({R(kI, "b", "x", 10), R(kI, "b", "y", 20), R(kI, "b", "z", 20)});
  // y and z share 1, x is 2 (RANK would say 3).
  EXPECT_THAT(dense->Feed(R(kI, "b", "w", 5)), IsEmpty());
  EXPECT_THAT(dense->Feed(R(kI, "b", "v", 30)),
              ElementsAre("+I[b, v, 30, 1]", "-D[b, x, 10, 2]", "-D[b, y, 20, 1]",
                          "+I[b, y, 20, 2]", "-D[b, z, 20, 1]", "+I[b, z, 20, 2]"));
}

// Over append-only input RANK keeps only the rows ranked up to rank_end, ties included.
TEST_F(RankTest, AppendOnlyRankKeepsTheRankedRowsAndTheirTies) {
  RankSpec spec = Spec(RankStrategy::kAppendFast, 2, true);
  spec.function = RankFunction::kRank;
  auto rank = Make(spec);
  rank->Feed({R(kI, "a", "x", 10), R(kI, "a", "y", 20), R(kI, "a", "z", 20)});
  EXPECT_THAT(rank->Feed(R(kI, "a", "w", 5)), IsEmpty());   // rank 4: dropped from state
  EXPECT_THAT(rank->Feed(R(kI, "a", "v", 10)), IsEmpty());  // ties x at 3: out
  EXPECT_EQ(StoredRows(*rank, "a"), 2);                     // y and z (rank 1), not x, v, w
  EXPECT_THAT(rank->Feed(R(kI, "a", "u", 30)),
              ElementsAre("+I[a, u, 30, 1]", "-D[a, y, 20, 1]", "+I[a, y, 20, 2]",
                          "-D[a, z, 20, 1]", "+I[a, z, 20, 2]"));
}

// The same rows without the row number: a row that enters a full Top-N deletes the last row first.
TEST_F(RankTest, AppendOnlyWithoutRowNumber) {
  auto rank = Make(Spec(RankStrategy::kAppendFast, 3, false));
  EXPECT_THAT(rank->Feed(R(kI, "a", "x", 10)), ElementsAre("+I[a, x, 10]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "y", 20)), ElementsAre("+I[a, y, 20]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "z", 15)), ElementsAre("+I[a, z, 15]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "w", 5)), IsEmpty());
  EXPECT_THAT(rank->Feed(R(kI, "a", "v", 30)), ElementsAre("-D[a, x, 10]", "+I[a, v, 30]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "t", 20)), ElementsAre("-D[a, z, 15]", "+I[a, t, 20]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "s", 20)), IsEmpty());
  EXPECT_THAT(rank->Feed(R(kI, "a", "r", 21)), ElementsAre("-D[a, t, 20]", "+I[a, r, 21]"));
}

TEST_F(RankTest, AppendOnlyWithoutUpdateBefore) {
  RankSpec spec = Spec(RankStrategy::kAppendFast, 3, true);
  spec.generate_update_before = false;
  auto rank = Make(spec);
  EXPECT_THAT(rank->Feed(R(kI, "a", "x", 10)), ElementsAre("+I[a, x, 10, 1]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "y", 20)), ElementsAre("+U[a, y, 20, 1]", "+I[a, x, 10, 2]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "z", 15)), ElementsAre("+U[a, z, 15, 2]", "+I[a, x, 10, 3]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "v", 30)),
              ElementsAre("+U[a, v, 30, 1]", "+U[a, y, 20, 2]", "+U[a, z, 15, 3]"));
}

// rank_start 2: only ranks 2..3 are emitted; without the row number the output still follows the
// numbered algorithm (updates per rank), without the rank column.
TEST_F(RankTest, AppendOnlyWithRankStartAboveOne) {
  for (bool number : {false, true}) {
    SCOPED_TRACE(number);
    RankSpec spec = Spec(RankStrategy::kAppendFast, 3, number);
    spec.rank_start = 2;
    auto rank = Make(spec);
    auto row = [&](const char* kind, const char* id, int64_t score, int64_t r) {
      return number ? absl::StrCat(kind, "[a, ", id, ", ", score, ", ", r, "]")
                    : absl::StrCat(kind, "[a, ", id, ", ", score, "]");
    };
    // x takes rank 1: out of range.
    EXPECT_THAT(rank->Feed(R(kI, "a", "x", 10)), IsEmpty());
    // y takes rank 1, x moves to 2.
    EXPECT_THAT(rank->Feed(R(kI, "a", "y", 20)), ElementsAre(row("+I", "x", 10, 2)));
    // z takes rank 2, x moves to 3.
    EXPECT_THAT(rank->Feed(R(kI, "a", "z", 15)),
                ElementsAre(row("-U", "x", 10, 2), row("+U", "z", 15, 2), row("+I", "x", 10, 3)));
    // v takes rank 1: y moves to 2, z to 3, x out.
    EXPECT_THAT(rank->Feed(R(kI, "a", "v", 30)),
                ElementsAre(row("-U", "z", 15, 2), row("+U", "y", 20, 2), row("-U", "x", 10, 3),
                            row("+U", "z", 15, 3)));
    // Below the Top-3.
    EXPECT_THAT(rank->Feed(R(kI, "a", "w", 1)), IsEmpty());
  }
}

// ASC with NULLS LAST and with NULLS FIRST; NULL sort keys tie with each other.
TEST_F(RankTest, AscendingWithNullSortKeys) {
  auto last = Make(Spec(RankStrategy::kAppendFast, 2, false, /*descending=*/false));
  EXPECT_THAT(last->Feed(RNull(kI, "a", "n1")), ElementsAre("+I[a, n1, null]"));
  EXPECT_THAT(last->Feed(R(kI, "a", "x", 5)), ElementsAre("+I[a, x, 5]"));
  EXPECT_THAT(last->Feed(R(kI, "a", "y", 3)), ElementsAre("-D[a, n1, null]", "+I[a, y, 3]"));
  EXPECT_THAT(last->Feed(RNull(kI, "a", "n2")), IsEmpty());
  EXPECT_THAT(last->Feed(R(kI, "a", "z", 4)), ElementsAre("-D[a, x, 5]", "+I[a, z, 4]"));

  RankSpec spec = Spec(RankStrategy::kAppendFast, 2, true, /*descending=*/false);
  spec.order_by[0].nulls_first = true;
  auto first = Make(spec);
  EXPECT_THAT(first->Feed(R(kI, "a", "x", 5)), ElementsAre("+I[a, x, 5, 1]"));
  EXPECT_THAT(first->Feed(RNull(kI, "a", "n1")),
              ElementsAre("-U[a, x, 5, 1]", "+U[a, n1, null, 1]", "+I[a, x, 5, 2]"));
  // n2 ties with n1 and ranks after it, pushing x out.
  EXPECT_THAT(first->Feed(RNull(kI, "a", "n2")),
              ElementsAre("-U[a, x, 5, 2]", "+U[a, n2, null, 2]"));
  EXPECT_THAT(first->Feed(R(kI, "a", "y", -100)), IsEmpty());
}

// Two ORDER BY fields: score DESC, then id ASC.
TEST_F(RankTest, SeveralSortFields) {
  RankSpec spec = Spec(RankStrategy::kAppendFast, 2, true);
  spec.order_by.push_back(SortKeyField{.column = 1, .descending = false, .nulls_first = false});
  auto rank = Make(spec);
  EXPECT_THAT(rank->Feed(R(kI, "a", "m", 10)), ElementsAre("+I[a, m, 10, 1]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "b", 10)),
              ElementsAre("-U[a, m, 10, 1]", "+U[a, b, 10, 1]", "+I[a, m, 10, 2]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "z", 10)), IsEmpty());
  EXPECT_THAT(rank->Feed(R(kI, "a", "c", 10)), ElementsAre("-U[a, m, 10, 2]", "+U[a, c, 10, 2]"));
}

// One batch with rows of two partitions: each partition ranks on its own, the output follows the
// input order, in one batch.
TEST_F(RankTest, SeveralPartitionsInOneBatch) {
  auto rank = Make(Spec(RankStrategy::kAppendFast, 1, true));
  EXPECT_THAT(rank->Feed({R(kI, "a", "x", 10), R(kI, "b", "y", 5), R(kI, "a", "z", 20),
                          R(kI, "b", "w", 1), R(kI, "b", "u", 7)}),
              ElementsAre("+I[a, x, 10, 1]", "+I[b, y, 5, 1]", "-U[a, x, 10, 1]", "+U[a, z, 20, 1]",
                          "-U[b, y, 5, 1]", "+U[b, u, 7, 1]"));
  EXPECT_EQ(rank->out.batches, 1);
  // The next batch sees both partitions' state.
  EXPECT_THAT(rank->Feed({R(kI, "b", "v", 6), R(kI, "a", "t", 21)}),
              ElementsAre("-U[a, z, 20, 1]", "+U[a, t, 21, 1]"));
}

// The same rows in one batch or one row per batch give the same changelog, with and without the
// state cache.
TEST_F(RankTest, BatchingDoesNotChangeTheChangelog) {
  const std::vector<Row> rows = {R(kI, "a", "x", 10),  R(kI, "a", "y", 20), R(kUB, "a", "x", 10),
                                 R(kUA, "a", "x", 30), R(kI, "a", "z", 5),  R(kD, "a", "y", 20),
                                 R(kI, "b", "q", 1)};
  // Top 2 DESC with the row number, derived row by row.
  const std::vector<std::string> expected = {
      // +I x 10: rank 1.
      "+I[a, x, 10, 1]",
      // +I y 20: rank 1, x to 2.
      "-U[a, x, 10, 1]", "+U[a, y, 20, 1]", "+I[a, x, 10, 2]",
      // -U x 10 (rank 2, the last): its rank is empty now.
      "-D[a, x, 10, 2]",
      // +U x 30: rank 1, y to 2.
      "-U[a, y, 20, 1]", "+U[a, x, 30, 1]", "+I[a, y, 20, 2]",
      // +I z 5: rank 3, beyond the Top-2. -D y 20 (rank 2): z moves up to 2.
      "-U[a, y, 20, 2]", "+U[a, z, 5, 2]",
      // +I q 1 in partition b.
      "+I[b, q, 1, 1]"};
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto whole = Make(Spec(RankStrategy::kRetract, 2, true), cache);
    auto single = Make(Spec(RankStrategy::kRetract, 2, true), cache);
    std::vector<std::string> one_by_one;
    for (const Row& r : rows) {
      for (std::string& s : single->Feed(r)) one_by_one.push_back(std::move(s));
    }
    EXPECT_EQ(whole->Feed(rows), expected);
    EXPECT_EQ(whole->out.batches, 1);
    EXPECT_EQ(one_by_one, expected);
  }
}

// Retract Top-2 DESC with the row number: a retraction inside the Top-N pulls the next row up, one
// outside emits nothing, one of a row never seen is ignored.
TEST_F(RankTest, RetractWithRowNumber) {
  auto rank = Make(Spec(RankStrategy::kRetract, 2, true));
  EXPECT_THAT(rank->Feed(R(kI, "a", "x", 10)), ElementsAre("+I[a, x, 10, 1]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "y", 20)),
              ElementsAre("-U[a, x, 10, 1]", "+U[a, y, 20, 1]", "+I[a, x, 10, 2]"));
  // Rank 3: kept, not emitted.
  EXPECT_THAT(rank->Feed(R(kI, "a", "z", 5)), IsEmpty());
  // x (rank 2) leaves: z moves up to 2.
  EXPECT_THAT(rank->Feed(R(kD, "a", "x", 10)), ElementsAre("-U[a, x, 10, 2]", "+U[a, z, 5, 2]"));
  EXPECT_THAT(rank->Feed(R(kD, "a", "w", 1)), IsEmpty());   // never seen
  EXPECT_THAT(rank->Feed(R(kD, "a", "z", 99)), IsEmpty());  // no such row
  // z (rank 2, the last): its rank is empty now.
  EXPECT_THAT(rank->Feed(R(kD, "a", "z", 5)), ElementsAre("-D[a, z, 5, 2]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "u", 1)), ElementsAre("+I[a, u, 1, 2]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "v", 0)), IsEmpty());
  // Outside the Top-2: nothing.
  EXPECT_THAT(rank->Feed(R(kD, "a", "v", 0)), IsEmpty());
  // y (rank 1) leaves: u moves up to 1, rank 2 is empty.
  EXPECT_THAT(rank->Feed(R(kD, "a", "y", 20)),
              ElementsAre("-U[a, y, 20, 1]", "+U[a, u, 1, 1]", "-D[a, u, 1, 2]"));
  EXPECT_THAT(rank->Feed(R(kD, "a", "u", 1)), ElementsAre("-D[a, u, 1, 1]"));
  EXPECT_EQ(StoredRows(*rank, "a"), 0);  // an empty partition leaves no state
}

TEST_F(RankTest, RetractWithoutRowNumber) {
  auto rank = Make(Spec(RankStrategy::kRetract, 2, false));
  EXPECT_THAT(rank->Feed(R(kI, "a", "x", 10)), ElementsAre("+I[a, x, 10]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "y", 20)), ElementsAre("+I[a, y, 20]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "z", 5)), IsEmpty());
  // A new top row pushes x (rank 2) out.
  EXPECT_THAT(rank->Feed(R(kI, "a", "w", 30)), ElementsAre("-D[a, x, 10]", "+I[a, w, 30]"));
  // y (rank 2) leaves: x comes back.
  EXPECT_THAT(rank->Feed(R(kD, "a", "y", 20)), ElementsAre("-D[a, y, 20]", "+I[a, x, 10]"));
  // z (rank 3) leaves: nothing.
  EXPECT_THAT(rank->Feed(R(kD, "a", "z", 5)), IsEmpty());
  // w (rank 1) leaves with only two rows: nothing to pull in.
  EXPECT_THAT(rank->Feed(R(kD, "a", "w", 30)), ElementsAre("-D[a, w, 30]"));
}

// Updates from an upstream aggregate (-U/+U pairs) moving a row across the Top-2 boundary.
TEST_F(RankTest, RetractUpdatesCrossTheBoundary) {
  for (bool number : {false, true}) {
    SCOPED_TRACE(number);
    auto rank = Make(Spec(RankStrategy::kRetract, 2, number));
    rank->Feed({R(kI, "a", "x", 10), R(kI, "a", "y", 20), R(kI, "a", "z", 5)});
    // z 5 -> 30: from rank 3 to rank 1.
    const std::vector<std::string> up = rank->Feed({R(kUB, "a", "z", 5), R(kUA, "a", "z", 30)});
    // z 30 -> 1: from rank 1 to rank 3.
    const std::vector<std::string> down = rank->Feed({R(kUB, "a", "z", 30), R(kUA, "a", "z", 1)});
    if (number) {
      EXPECT_THAT(up, ElementsAre("-U[a, y, 20, 1]", "+U[a, z, 30, 1]", "-U[a, x, 10, 2]",
                                  "+U[a, y, 20, 2]"));
      EXPECT_THAT(down, ElementsAre("-U[a, z, 30, 1]", "+U[a, y, 20, 1]", "-U[a, y, 20, 2]",
                                    "+U[a, x, 10, 2]"));
    } else {
      EXPECT_THAT(up, ElementsAre("-D[a, x, 10]", "+I[a, z, 30]"));
      EXPECT_THAT(down, ElementsAre("-D[a, z, 30]", "+I[a, x, 10]"));
    }
  }
}

TEST_F(RankTest, RetractWithoutUpdateBefore) {
  RankSpec spec = Spec(RankStrategy::kRetract, 2, true);
  spec.generate_update_before = false;
  auto rank = Make(spec);
  rank->Feed({R(kI, "a", "x", 10), R(kI, "a", "y", 20), R(kI, "a", "z", 5)});
  EXPECT_THAT(rank->Feed({R(kUB, "a", "z", 5), R(kUA, "a", "z", 30)}),
              ElementsAre("+U[a, z, 30, 1]", "+U[a, y, 20, 2]"));
  EXPECT_THAT(rank->Feed(R(kD, "a", "z", 30)), ElementsAre("+U[a, y, 20, 1]", "+U[a, x, 10, 2]"));
  EXPECT_THAT(rank->Feed(R(kD, "a", "x", 10)), ElementsAre("-D[a, x, 10, 2]"));
}

// Rank 2..3 of an updating input without the row number.
TEST_F(RankTest, RetractWithRankStartAboveOne) {
  RankSpec spec = Spec(RankStrategy::kRetract, 3, false);
  spec.rank_start = 2;
  auto rank = Make(spec);
  EXPECT_THAT(rank->Feed({R(kI, "a", "x", 10), R(kI, "a", "y", 20)}),
              ElementsAre("+I[a, x, 10]"));  // y takes rank 1, x moves to 2
  EXPECT_THAT(rank->Feed(R(kI, "a", "z", 5)), ElementsAre("+I[a, z, 5]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "w", 1)), IsEmpty());
  // y (rank 1) leaves: x moves to 1 (out of range), z to 2, w to 3.
  EXPECT_THAT(rank->Feed(R(kD, "a", "y", 20)),
              ElementsAre("-U[a, x, 10]", "+U[a, z, 5]", "-U[a, z, 5]", "+U[a, w, 1]"));
}

// Equal rows are counted; a retraction removes the first copy among equal rows, and the rows after
// it move up one rank each.
TEST_F(RankTest, RetractDuplicates) {
  auto rank = Make(Spec(RankStrategy::kRetract, 3, true, /*descending=*/false));
  EXPECT_THAT(rank->Feed(R(kI, "a", "x", 1)), ElementsAre("+I[a, x, 1, 1]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "x", 1)), ElementsAre("+I[a, x, 1, 2]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "y", 1)), ElementsAre("+I[a, y, 1, 3]"));
  EXPECT_THAT(rank->Feed(R(kI, "a", "x", 1)), IsEmpty());  // rank 4
  EXPECT_EQ(StoredRows(*rank, "a"), 4);
  // x, x, y, x: the first x leaves.
  EXPECT_THAT(rank->Feed(R(kD, "a", "x", 1)),
              ElementsAre("-U[a, x, 1, 1]", "+U[a, x, 1, 1]", "-U[a, x, 1, 2]", "+U[a, y, 1, 2]",
                          "-U[a, y, 1, 3]", "+U[a, x, 1, 3]"));
  // x, y, x: the first x leaves again.
  EXPECT_THAT(rank->Feed(R(kD, "a", "x", 1)),
              ElementsAre("-U[a, x, 1, 1]", "+U[a, y, 1, 1]", "-U[a, y, 1, 2]", "+U[a, x, 1, 2]",
                          "-D[a, x, 1, 3]"));
  // y, x: y leaves.
  EXPECT_THAT(rank->Feed(R(kD, "a", "y", 1)),
              ElementsAre("-U[a, y, 1, 1]", "+U[a, x, 1, 1]", "-D[a, x, 1, 2]"));
  EXPECT_EQ(StoredRows(*rank, "a"), 1);
}

// A partition keeps its Top-N across batches, in the cache or in RocksDB.
TEST_F(RankTest, RowsOfOnePartitionOverSeveralBatches) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto rank = Make(Spec(RankStrategy::kAppendFast, 2, false), cache);
    EXPECT_THAT(rank->Feed({R(kI, "a", "x", 1), R(kI, "b", "y", 1)}),
                ElementsAre("+I[a, x, 1]", "+I[b, y, 1]"));
    EXPECT_THAT(rank->Feed(R(kI, "a", "z", 2)), ElementsAre("+I[a, z, 2]"));
    EXPECT_THAT(rank->Feed(R(kI, "a", "w", 3)), ElementsAre("-D[a, x, 1]", "+I[a, w, 3]"));
    EXPECT_THAT(rank->Feed(R(kI, "a", "v", 0)), IsEmpty());
    EXPECT_THAT(rank->Feed(R(kI, "b", "u", 0)), ElementsAre("+I[b, u, 0]"));
  }
}

// Without partition keys every row is in one partition (key group 0).
TEST_F(RankTest, NoPartitionKeysRanksAllRowsTogether) {
  RankSpec spec = Spec(RankStrategy::kAppendFast, 1, true);
  spec.partition_keys = {};
  auto rank = Make(spec);
  EXPECT_THAT(rank->Feed({R(kI, "a", "x", 1), R(kI, "b", "y", 2)}),
              ElementsAre("+I[a, x, 1, 1]", "-U[a, x, 1, 1]", "+U[b, y, 2, 1]"));
}

// An input row can move every row of a large Top-N: the output goes out in bounded batches.
TEST_F(RankTest, AVeryLargeOutputIsEmittedInSeveralBatches) {
  auto rank = Make(Spec(RankStrategy::kRetract, 20000, true, /*descending=*/false));
  std::vector<Row> rows;
  for (int64_t i = 1; i <= 20000; ++i) rows.push_back(R(kI, "a", "x", i));
  EXPECT_EQ(rank->Feed(rows).size(), 20000u);  // each one +I at the bottom
  rank->out.batches = 0;
  const std::vector<std::string> out = rank->Feed(R(kI, "a", "y", 0));
  ASSERT_EQ(out.size(), 40000u);  // -U/+U per rank, the last row pushed out
  EXPECT_EQ(out[0], "-U[a, x, 1, 1]");
  EXPECT_EQ(out[1], "+U[a, y, 0, 1]");
  EXPECT_EQ(out[39999], "+U[a, x, 19999, 20000]");
  EXPECT_GE(rank->out.batches, 3);
}

// State TTL: a partition not written for the TTL is gone (a row that does not enter writes
// nothing); its next row starts an empty Top-N, a retraction for it is ignored.
TEST_F(RankTest, StateTtlExpiresAPartition) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    now_ms_ = 1'000'000;
    RankSpec spec = Spec(RankStrategy::kAppendFast, 2, true);
    spec.state_ttl_ms = 1000;
    auto rank = Make(spec, cache);
    EXPECT_THAT(rank->Feed(R(kI, "a", "x", 10)), ElementsAre("+I[a, x, 10, 1]"));
    now_ms_ += 500;
    EXPECT_THAT(rank->Feed(R(kI, "a", "y", 5)), ElementsAre("+I[a, y, 5, 2]"));
    now_ms_ += 700;  // written 700 ms ago: alive; z does not enter, writes nothing
    EXPECT_THAT(rank->Feed(R(kI, "a", "z", 1)), IsEmpty());
    now_ms_ += 400;  // written 1100 ms ago: gone
    EXPECT_THAT(rank->Feed(R(kI, "a", "w", 0)), ElementsAre("+I[a, w, 0, 1]"));

    RankSpec retract = Spec(RankStrategy::kRetract, 2, true);
    retract.state_ttl_ms = 1000;
    auto r = Make(retract, cache);
    EXPECT_THAT(r->Feed(R(kI, "a", "x", 10)), ElementsAre("+I[a, x, 10, 1]"));
    now_ms_ += 1000;
    EXPECT_THAT(r->Feed(R(kD, "a", "x", 10)), IsEmpty());  // expired: ignored
    EXPECT_THAT(r->Feed(R(kI, "a", "y", 5)), ElementsAre("+I[a, y, 5, 1]"));

    // Expired values are dropped from RocksDB by compaction.
    ASSERT_TRUE(rank->op->FlushState().ok());
    ASSERT_TRUE(r->op->FlushState().ok());
    now_ms_ += 1000;
    ASSERT_TRUE(backend_->CompactAll().ok());
    EXPECT_EQ(*backend_->CountKeys(rank->op->state_table()->state_id()), 0u);
    EXPECT_EQ(*backend_->CountKeys(r->op->state_table()->state_id()), 0u);
  }
}

// A snapshot of the store after SnapshotState holds all the operator's state: an operator opened
// on a restored copy goes on as the original would have, without what came after the snapshot.
TEST_F(RankTest, RestoresFromASnapshotOfItsStore) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    for (RankStrategy strategy : {RankStrategy::kAppendFast, RankStrategy::kRetract}) {
      const bool retract = strategy == RankStrategy::kRetract;
      SCOPED_TRACE(retract);
      auto rank = Make(Spec(strategy, 2, true), cache);
      const uint32_t state_id = rank->op->state_table()->state_id();
      rank->Feed({R(kI, "a", "x", 10), R(kI, "a", "y", 20), R(kI, "a", "z", 5)});
      OperatorSnapshot snapshot;
      ASSERT_TRUE(rank->op->SnapshotState(1, &snapshot).ok());
      EXPECT_TRUE(snapshot.empty());
      EXPECT_EQ(rank->out.batches, 1);  // a snapshot emits nothing
      const std::string chk = absl::StrCat(dir_, "/chk-", cache, "-", retract);
      ASSERT_TRUE(backend_->Snapshot(chk).ok());
      // After the checkpoint: a row the restored instance must not see.
      rank->Feed(R(kI, "a", "v", 100));

      auto restored = KeyedStateBackend::OpenFromSnapshot(
          chk, absl::StrCat(dir_, "/restored-", cache, "-", retract),
          std::make_shared<SharedStateResources>());
      ASSERT_TRUE(restored.ok()) << restored.status();
      auto again = Make(Spec(strategy, 2, true), cache, restored->get(), state_id);
      ASSERT_TRUE(again->op->RestoreState(snapshot).ok());
      // The Top-2 at the snapshot is y 20, x 10.
      EXPECT_THAT(again->Feed(R(kI, "a", "w", 15)),
                  ElementsAre("-U[a, x, 10, 2]", "+U[a, w, 15, 2]"));
      if (retract) {
        // z 5 (rank 4) is kept: w and x leave, x 10 and z 5 move up.
        EXPECT_THAT(
            again->Feed({R(kD, "a", "w", 15), R(kD, "a", "x", 10)}),
            ElementsAre("-U[a, w, 15, 2]", "+U[a, x, 10, 2]", "-U[a, x, 10, 2]", "+U[a, z, 5, 2]"));
      }
      again.reset();
      restored->reset();
    }
  }
}

// After SnapshotState the store holds everything: a fresh instance opened on the same store (a task
// restarted on its worker) goes on where the closed one stopped.
TEST_F(RankTest, AFreshInstanceOnTheSameStoreGoesOn) {
  for (size_t cache : {size_t{0}, size_t{1} << 20}) {
    SCOPED_TRACE(cache);
    auto rank = Make(Spec(RankStrategy::kRetract, 2, false), cache);
    const uint32_t state_id = rank->op->state_table()->state_id();
    EXPECT_THAT(rank->Feed({R(kI, "a", "x", 10), R(kI, "a", "y", 20), R(kI, "a", "z", 5)}),
                ElementsAre("+I[a, x, 10]", "+I[a, y, 20]"));
    OperatorSnapshot snapshot;
    ASSERT_TRUE(rank->op->SnapshotState(1, &snapshot).ok());
    ASSERT_TRUE(rank->op->Close().ok());
    auto fresh = Make(Spec(RankStrategy::kRetract, 2, false), cache, backend_.get(), state_id);
    ASSERT_TRUE(fresh->op->RestoreState(snapshot).ok());
    // y (rank 1) leaves: z (rank 3) comes in.
    EXPECT_THAT(fresh->Feed(R(kD, "a", "y", 20)), ElementsAre("-D[a, y, 20]", "+I[a, z, 5]"));
  }
}

// An append-only partition keeps only its Top-N in state, however many rows arrive.
TEST_F(RankTest, AppendOnlyStateStaysBounded) {
  for (bool number : {false, true}) {
    SCOPED_TRACE(number);
    auto rank = Make(Spec(RankStrategy::kAppendFast, 3, number));
    std::mt19937_64 rng(42);
    for (int batch = 0; batch < 100; ++batch) {
      std::vector<Row> rows;
      for (int i = 0; i < 100; ++i) {
        // Mostly rising scores, so that most rows enter at the top.
        const int64_t score = batch * 100 + i + static_cast<int64_t>(rng() % 50);
        rows.push_back(R(kI, "a", "x", score));
      }
      rank->Feed(rows);
    }
    EXPECT_EQ(rank->op->rows_in(), 10000u);
    EXPECT_EQ(StoredRows(*rank, "a"), 3);
    EXPECT_EQ(*backend_->CountKeys(rank->op->state_table()->state_id()), 1u);
  }
}

// Random input for every combination of strategy, row number, rank range, direction and cache:
// after each batch, the changelog applied to a table (every retraction must find its row) holds
// exactly the rows ranked rank_start..rank_end of each partition's live rows, sorted by score with
// ties in arrival order, and with the row number their ranks.
TEST_F(RankTest, RandomizedChangelogMaterializesTheTopN) {
  std::mt19937_64 rng(7);
  for (RankStrategy strategy : {RankStrategy::kAppendFast, RankStrategy::kRetract}) {
    for (bool number : {false, true}) {
      for (int64_t start : {1, 2}) {
        for (int64_t end : {1, 3}) {
          if (end < start) continue;
          for (bool descending : {false, true}) {
            for (size_t cache : {size_t{0}, size_t{1} << 20}) {
              const bool retract = strategy == RankStrategy::kRetract;
              SCOPED_TRACE(absl::StrCat("retract ", retract, " number ", number, " ranks ", start,
                                        "..", end, " desc ", descending, " cache ", cache));
              RankSpec spec = Spec(strategy, end, number, descending);
              spec.rank_start = start;
              auto rank = Make(spec, cache);
              // Live input rows per partition, in arrival order (id, score).
              std::map<std::string, std::vector<std::pair<std::string, int64_t>>> live;
              std::multiset<std::string> table;  // the changelog applied: "[p, id, score(, rank)]"
              for (int batch = 0; batch < 60; ++batch) {
                std::vector<Row> rows;
                const int n = 1 + static_cast<int>(rng() % 8);
                for (int i = 0; i < n; ++i) {
                  const std::string p = rng() % 2 == 0 ? "a" : "b";
                  auto& rows_of_p = live[p];
                  if (retract && !rows_of_p.empty() && rng() % 3 == 0) {
                    // Retract a live row (the first equal copy goes), as -D or as an update.
                    const auto victim = rows_of_p[rng() % rows_of_p.size()];
                    const bool update = rng() % 2 == 0;
                    rows.push_back(
                        R(update ? kUB : kD, p.c_str(), victim.first.c_str(), victim.second));
                    rows_of_p.erase(std::find(rows_of_p.begin(), rows_of_p.end(), victim));
                    if (update) {
                      const int64_t score = static_cast<int64_t>(rng() % 6);
                      rows.push_back(R(kUA, p.c_str(), victim.first.c_str(), score));
                      rows_of_p.emplace_back(victim.first, score);
                    }
                  } else {
                    const std::string id(1, static_cast<char>('u' + rng() % 3));
                    const int64_t score = static_cast<int64_t>(rng() % 6);
                    rows.push_back(R(kI, p.c_str(), id.c_str(), score));
                    rows_of_p.emplace_back(id, score);
                  }
                }
                for (const std::string& out : rank->Feed(rows)) {
                  const std::string row = out.substr(2);
                  if (out[0] == '+') {
                    table.insert(row);
                  } else {
                    auto it = table.find(row);
                    ASSERT_NE(it, table.end()) << "retraction of a row not in the result: " << out;
                    table.erase(it);
                  }
                }
                std::multiset<std::string> expected;
                for (const auto& [p, rows_of_p] : live) {
                  std::vector<std::pair<std::string, int64_t>> sorted = rows_of_p;
                  std::stable_sort(sorted.begin(), sorted.end(), [&](const auto& x, const auto& y) {
                    return descending ? x.second > y.second : x.second < y.second;
                  });
                  for (int64_t r = start; r <= end && r <= static_cast<int64_t>(sorted.size());
                       ++r) {
                    const auto& [id, score] = sorted[r - 1];
                    expected.insert(number
                                        ? absl::StrCat("[", p, ", ", id, ", ", score, ", ", r, "]")
                                        : absl::StrCat("[", p, ", ", id, ", ", score, "]"));
                  }
                }
                ASSERT_EQ(table, expected) << "after batch " << batch;
              }
            }
          }
        }
      }
    }
  }
}

TEST_F(RankTest, WatermarksPassThrough) {
  auto rank = Make(Spec(RankStrategy::kAppendFast, 3, true));
  ASSERT_TRUE(rank->op->ProcessWatermark({1000, false}).ok());
  EXPECT_THAT(rank->out.WatermarkMillis(), ElementsAre(1000));
}

TEST_F(RankTest, ACorruptStateValueIsAnError) {
  RankRecordList list;
  list.Insert(0, "k", "row");
  std::string value;
  list.Encode(&value);
  EXPECT_TRUE(list.Decode(value).ok());
  EXPECT_EQ(list.rows(), 1);
  EXPECT_EQ(list.Decode(value.substr(0, value.size() - 1)).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(list.Decode(value + "x").code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(list.Decode("").code(), absl::StatusCode::kDataLoss);
  std::string other_format = value;
  other_format[0] = 9;
  EXPECT_EQ(list.Decode(other_format).code(), absl::StatusCode::kDataLoss);
}

// Sort keys compare as their ORDER BY values: per type, by direction, with NULLs first or last.
TEST(RankSortKeyTest, BytesFollowTheOrderByOrder) {
  auto key = [](const DataType& type, const Value& v, bool descending, bool nulls_first) {
    auto encoder = SortKeyEncoder::Create(
        "test", {type},
        {SortKeyField{.column = 0, .descending = descending, .nulls_first = nulls_first}});
    EXPECT_TRUE(encoder.ok());
    ChangelogBatch b({type});
    b.AppendValues({v}, kI);
    std::string out;
    encoder->Encode(b, 0, &out);
    return out;
  };
  // Each list is in ascending order.
  const std::vector<std::pair<DataType, std::vector<Value>>> ordered = {
      {DataType::Int(), {Int(-2147483648LL), Int(-1), Int(0), Int(1), Int(2147483647LL)}},
      {DataType::BigInt(), {Int(INT64_MIN), Int(-5), Int(0), Int(7), Int(INT64_MAX)}},
      {DataType::TinyInt(), {Int(-128), Int(-1), Int(0), Int(127)}},
      {DataType::Boolean(), {Value::Bool(false), Value::Bool(true)}},
      {DataType::Double(),
       {Value::Double(-1e300), Value::Double(-1.5), Value::Double(-1e-300), Value::Double(0),
        Value::Double(1e-300), Value::Double(2.5), Value::Double(1e300)}},
      {DataType::Float(), {Value::Double(-3.5), Value::Double(0), Value::Double(0.25)}},
      {DataType::String(),
       {Str(""), Str(std::string(1, '\0')), Str(std::string("\0a", 2)), Str("a"), Str("ab"),
        Str("b"), Str("\xc3\xa9")}},
      {DataType::Timestamp(3), {Int(-1000), Int(0), Int(1000)}},
  };
  for (const auto& [type, values] : ordered) {
    SCOPED_TRACE(type.ToString());
    for (size_t i = 0; i + 1 < values.size(); ++i) {
      SCOPED_TRACE(i);
      EXPECT_LT(key(type, values[i], false, false), key(type, values[i + 1], false, false));
      EXPECT_GT(key(type, values[i], true, false), key(type, values[i + 1], true, false));
    }
    // NULL first or last, whatever the direction.
    for (bool descending : {false, true}) {
      EXPECT_LT(key(type, Null(), descending, true), key(type, values.front(), descending, true));
      EXPECT_LT(key(type, Null(), descending, true), key(type, values.back(), descending, true));
      EXPECT_GT(key(type, Null(), descending, false), key(type, values.front(), descending, false));
      EXPECT_GT(key(type, Null(), descending, false), key(type, values.back(), descending, false));
    }
  }
  // -0.0 ties with 0.0.
  EXPECT_EQ(key(DataType::Double(), Value::Double(-0.0), false, false),
            key(DataType::Double(), Value::Double(0.0), false, false));
}

}  // namespace
}  // namespace eddy
