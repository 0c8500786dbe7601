// WindowRankOperator: exact window Top-N and window deduplication outputs (two windows fired by one
// watermark, nothing before it, rank_start > 1, with and without the row number, ties in arrival
// order and later-first, ASC/DESC with NULLs), late rows, state freed after firing, rows of a
// window over several batches with one read and one write per partition and batch, several
// partitions per batch, snapshot/restore, and spec validation. Every expectation is derived by hand
// from the semantics in window_rank_operator.h.
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/testing/collecting_output.h"
#include "worker/operators/window_rank_operator.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_resources.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

constexpr uint32_t kStateId = 7;

// Windows of 10 s: W0 = [0, 10000), W1 = [10000, 20000) (ms), as printed in an output row.
constexpr char kW0[] = "1970-01-01 00:00:00.000, 1970-01-01 00:00:10.000";
constexpr char kW1[] = "1970-01-01 00:00:10.000, 1970-01-01 00:00:20.000";

// (p STRING, id STRING, score BIGINT, window_start, window_end).
const std::vector<DataType> kTypes = {DataType::String(), DataType::String(), DataType::BigInt(),
                                      DataType::Timestamp(3), DataType::Timestamp(3)};

struct In {
  std::string p;
  std::string id;
  std::optional<int64_t> score;
  int window;  // 0: W0, 1: W1, 2: [20000, 30000)
};

ChangelogBatch Batch(const std::vector<In>& rows) {
  ChangelogBatch b(kTypes);
  for (const In& r : rows) {
    const int64_t start = int64_t{10000} * r.window;
    b.AppendValues(
        {Value::String(r.p), Value::String(r.id), r.score ? Value::Int(*r.score) : Value::Null(),
         Value::Int(start), Value::Int(start + 10000)},
        RowKind::kInsert);
  }
  return b;
}

// An output row as the collector prints it: "+I[p, id, score, <window>]" and ", rank" if numbered.
std::string Out(const std::string& p, const std::string& id, const std::string& score,
                const char* window, int64_t rank = 0) {
  return absl::StrCat("+I[", p, ", ", id, ", ", score, ", ", window,
                      rank > 0 ? absl::StrCat(", ", rank) : "", "]");
}

// The rows of partition `p` in output order.
std::vector<std::string> OfPartition(const std::vector<std::string>& rows, const std::string& p) {
  std::vector<std::string> of;
  for (const std::string& r : rows) {
    if (absl::StartsWith(r, absl::StrCat("+I[", p, ", "))) of.push_back(r);
  }
  return of;
}

class WindowRankTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = ::testing::TempDir() + "/eddy_window_rank_" + std::to_string(::getpid()) + "_" +
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
  // A fresh, empty store (for one more case in the same test).
  void Reset() {
    TearDown();
    SetUp();
  }

  // PARTITION BY p ORDER BY score (DESC unless `asc`), ranks rank_start..rank_end.
  static WindowRankSpec Spec(int64_t rank_start, int64_t rank_end, bool numbered,
                             bool descending = true, bool nulls_first = false) {
    WindowRankSpec spec;
    spec.input_types = kTypes;
    spec.partition_keys = {0};
    spec.order_by = {
        SortKeyField{.column = 2, .descending = descending, .nulls_first = nulls_first}};
    spec.rank_start = rank_start;
    spec.rank_end = rank_end;
    spec.output_rank_number = numbered;
    spec.window_start_column = 3;
    spec.window_end_column = 4;
    return spec;
  }

  std::unique_ptr<WindowRankOperator> Make(WindowRankSpec spec, CollectingOutput* out) {
    auto op = WindowRankOperator::Create(std::move(spec));
    EXPECT_TRUE(op.ok()) << op.status();
    OperatorContext ctx;
    ctx.state_id = kStateId;
    ctx.state = backend_.get();
    EXPECT_TRUE((*op)->Open(ctx).ok());
    (*op)->set_output(out);
    return std::move(op).value();
  }

  std::string dir_;
  std::unique_ptr<KeyedStateBackend> backend_;
};

TEST_F(WindowRankTest, TopTwoPerPartitionInTwoWindowsFiredByOneWatermark) {
  CollectingOutput out;
  auto op = Make(Spec(1, 2, /*numbered=*/false), &out);
  // W0: a has 5, 9, 7 -> top-2 DESC: y(9), z(7); b has u(1). W1: a has v(3), w(8) -> w, v.
  ASSERT_TRUE(op->Process(0, Batch({{"a", "x", 5, 0},
                                    {"a", "y", 9, 0},
                                    {"b", "u", 1, 0},
                                    {"a", "v", 3, 1},
                                    {"a", "z", 7, 0},
                                    {"a", "w", 8, 1}}))
                  .ok());
  EXPECT_EQ(op->pending_windows(), 2u);
  EXPECT_EQ(*backend_->CountKeys(kStateId), 3u);  // (W0, a), (W0, b), (W1, a)

  // Nothing fires before the watermark reaches end - 1; the watermark is still passed on.
  ASSERT_TRUE(op->ProcessWatermark({9998, false}).ok());
  EXPECT_THAT(out.rows, IsEmpty());
  EXPECT_THAT(out.WatermarkMillis(), ElementsAre(9998));

  ASSERT_TRUE(op->ProcessWatermark({19999, false}).ok());
  // W0's rows first (window_end order), each partition's in rank order.
  ASSERT_EQ(out.rows.size(), 5u);
  const std::vector<std::string> w0(out.rows.begin(), out.rows.begin() + 3);
  EXPECT_THAT(w0, UnorderedElementsAre(Out("a", "y", "9", kW0), Out("a", "z", "7", kW0),
                                       Out("b", "u", "1", kW0)));
  EXPECT_THAT(OfPartition(w0, "a"), ElementsAre(Out("a", "y", "9", kW0), Out("a", "z", "7", kW0)));
  EXPECT_EQ(out.rows[3], Out("a", "w", "8", kW1));
  EXPECT_EQ(out.rows[4], Out("a", "v", "3", kW1));
  EXPECT_THAT(out.WatermarkMillis(), ElementsAre(9998, 19999));  // after the rows it fired
  EXPECT_EQ(op->pending_windows(), 0u);
  EXPECT_EQ(*backend_->CountKeys(kStateId), 0u);  // every fired window's state is gone
}

TEST_F(WindowRankTest, FiresOnlyDueWindowsAndFreesTheirState) {
  CollectingOutput out;
  auto op = Make(Spec(1, 1, /*numbered=*/true), &out);
  ASSERT_TRUE(op->Process(0, Batch({{"a", "x", 5, 0}, {"a", "y", 6, 1}, {"a", "z", 7, 2}})).ok());
  EXPECT_EQ(*backend_->CountKeys(kStateId), 3u);
  ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());  // end - 1 of W0
  EXPECT_THAT(out.Take(), ElementsAre(Out("a", "x", "5", kW0, 1)));
  EXPECT_EQ(op->pending_windows(), 2u);
  EXPECT_EQ(*backend_->CountKeys(kStateId), 2u);  // W0's value is gone, W1's and W2's remain
  ASSERT_TRUE(op->Finish().ok());                 // end of input fires the rest
  EXPECT_THAT(out.Take(), ElementsAre(Out("a", "y", "6", kW1, 1),
                                      Out("a", "z", "7",
                                          "1970-01-01 00:00:20.000, 1970-01-01 00:00:30.000", 1)));
  EXPECT_EQ(*backend_->CountKeys(kStateId), 0u);
}

TEST_F(WindowRankTest, RankStartAboveOneWithAndWithoutTheRowNumber) {
  // Scores DESC: 9 (1), 8 (2), 7 (3), 6 (4), 5 (5); ranks 2..4.
  const std::vector<In> rows = {{"a", "r5", 5, 0},
                                {"a", "r9", 9, 0},
                                {"a", "r7", 7, 0},
                                {"a", "r6", 6, 0},
                                {"a", "r8", 8, 0}};
  {
    CollectingOutput out;
    auto op = Make(Spec(2, 4, /*numbered=*/true), &out);
    ASSERT_TRUE(op->Process(0, Batch(rows)).ok());
    ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
    EXPECT_THAT(out.rows, ElementsAre(Out("a", "r8", "8", kW0, 2), Out("a", "r7", "7", kW0, 3),
                                      Out("a", "r6", "6", kW0, 4)));
  }
  Reset();
  {
    CollectingOutput out;
    auto op = Make(Spec(2, 4, /*numbered=*/false), &out);
    ASSERT_TRUE(op->Process(0, Batch(rows)).ok());
    ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
    EXPECT_THAT(out.rows, ElementsAre(Out("a", "r8", "8", kW0), Out("a", "r7", "7", kW0),
                                      Out("a", "r6", "6", kW0)));
  }
}

TEST_F(WindowRankTest, RanksBeyondThePartitionsRowsAreNotEmitted) {
  CollectingOutput out;
  auto op = Make(Spec(2, 5, /*numbered=*/true), &out);
  ASSERT_TRUE(op->Process(0, Batch({{"a", "x", 1, 0}, {"a", "y", 2, 0}, {"b", "z", 3, 0}})).ok());
  ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
  // a: y (1), x (2); b: z (1) only, below rank_start.
  EXPECT_THAT(out.rows, ElementsAre(Out("a", "x", "1", kW0, 2)));
}

TEST_F(WindowRankTest, TiesRankInArrivalOrderOrLaterFirst) {
  const std::vector<In> rows = {
      {"a", "first", 5, 0}, {"a", "second", 5, 0}, {"a", "low", 1, 0}, {"a", "third", 5, 0}};
  {
    CollectingOutput out;
    auto op = Make(Spec(1, 3, /*numbered=*/true), &out);
    ASSERT_TRUE(op->Process(0, Batch(rows)).ok());
    ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
    EXPECT_THAT(out.rows,
                ElementsAre(Out("a", "first", "5", kW0, 1), Out("a", "second", "5", kW0, 2),
                            Out("a", "third", "5", kW0, 3)));
  }
  Reset();
  {
    CollectingOutput out;
    WindowRankSpec spec = Spec(1, 3, /*numbered=*/true);
    spec.later_ties_first = true;
    auto op = Make(spec, &out);
    // Over two batches: the bounded state must keep the later tie that enters a full partition.
    ASSERT_TRUE(op->Process(0, Batch({rows[0], rows[1], rows[2]})).ok());
    ASSERT_TRUE(op->Process(0, Batch({rows[3]})).ok());
    ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
    EXPECT_THAT(out.rows,
                ElementsAre(Out("a", "third", "5", kW0, 1), Out("a", "second", "5", kW0, 2),
                            Out("a", "first", "5", kW0, 3)));
  }
}

// Keep-last window deduplication: PARTITION BY k ORDER BY rowtime DESC, rank 1, the later arrival
// first among equal rowtimes; keep-first is ORDER BY rowtime ASC with earlier ties first.
TEST_F(WindowRankTest, WindowDeduplicationKeepsTheLastOrTheFirstRow) {
  const std::vector<DataType> types = {DataType::String(), DataType::String(),
                                       DataType::Timestamp(3), DataType::Timestamp(3),
                                       DataType::Timestamp(3)};
  auto batch = [&](const std::vector<std::tuple<std::string, std::string, int64_t>>& rows) {
    ChangelogBatch b(types);
    for (const auto& [k, v, t] : rows) {
      b.AppendValues(
          {Value::String(k), Value::String(v), Value::Int(t), Value::Int(0), Value::Int(10000)},
          RowKind::kInsert);
    }
    return b;
  };
  // k=a: v1 at 3000, v2 at 5000, v3 at 5000, v4 at 1000; k=b: w1 at 2000, w2 at 2000.
  const ChangelogBatch rows = batch({{"a", "v1", 3000},
                                     {"b", "w1", 2000},
                                     {"a", "v2", 5000},
                                     {"a", "v3", 5000},
                                     {"b", "w2", 2000},
                                     {"a", "v4", 1000}});
  for (bool keep_last : {true, false}) {
    SCOPED_TRACE(keep_last);
    Reset();
    WindowRankSpec spec;
    spec.input_types = types;
    spec.partition_keys = {0};
    spec.order_by = {SortKeyField{.column = 2, .descending = keep_last}};
    spec.rank_start = spec.rank_end = 1;
    spec.window_start_column = 3;
    spec.window_end_column = 4;
    spec.later_ties_first = keep_last;
    CollectingOutput out;
    auto op = Make(spec, &out);
    ASSERT_TRUE(op->Process(0, rows).ok());
    ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
    const std::string w = "1970-01-01 00:00:00.000, 1970-01-01 00:00:10.000";
    if (keep_last) {
      EXPECT_THAT(out.rows, UnorderedElementsAre(
                                absl::StrCat("+I[a, v3, 1970-01-01 00:00:05.000, ", w, "]"),
                                absl::StrCat("+I[b, w2, 1970-01-01 00:00:02.000, ", w, "]")));
    } else {
      EXPECT_THAT(out.rows, UnorderedElementsAre(
                                absl::StrCat("+I[a, v4, 1970-01-01 00:00:01.000, ", w, "]"),
                                absl::StrCat("+I[b, w1, 1970-01-01 00:00:02.000, ", w, "]")));
    }
  }
}

TEST_F(WindowRankTest, AscendingAndDescendingWithNulls) {
  const std::vector<In> rows = {{"a", "n1", std::nullopt, 0},
                                {"a", "s2", 2, 0},
                                {"a", "n2", std::nullopt, 0},
                                {"a", "s1", 1, 0},
                                {"a", "s3", 3, 0}};
  struct Case {
    bool descending, nulls_first;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {false,
       true,
       {Out("a", "n1", "null", kW0, 1), Out("a", "n2", "null", kW0, 2),
        Out("a", "s1", "1", kW0, 3)}},
      {false,
       false,
       {Out("a", "s1", "1", kW0, 1), Out("a", "s2", "2", kW0, 2), Out("a", "s3", "3", kW0, 3)}},
      {true,
       true,
       {Out("a", "n1", "null", kW0, 1), Out("a", "n2", "null", kW0, 2),
        Out("a", "s3", "3", kW0, 3)}},
      {true,
       false,
       {Out("a", "s3", "3", kW0, 1), Out("a", "s2", "2", kW0, 2), Out("a", "s1", "1", kW0, 3)}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(absl::StrCat(c.descending, " ", c.nulls_first));
    Reset();
    CollectingOutput out;
    auto op = Make(Spec(1, 3, /*numbered=*/true, c.descending, c.nulls_first), &out);
    ASSERT_TRUE(op->Process(0, Batch(rows)).ok());
    ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
    EXPECT_EQ(out.rows, c.expected);
  }
}

TEST_F(WindowRankTest, LateRowsAreDroppedAndCounted) {
  CollectingOutput out;
  auto op = Make(Spec(1, 2, /*numbered=*/false), &out);
  ASSERT_TRUE(op->Process(0, Batch({{"a", "x", 1, 0}})).ok());
  ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
  EXPECT_THAT(out.Take(), ElementsAre(Out("a", "x", "1", kW0)));
  // W0 fired (end - 1 = 9999 <= 9999): its rows are late, also in a partition it never saw.
  ASSERT_TRUE(
      op->Process(0, Batch({{"a", "late", 9, 0}, {"b", "late", 9, 0}, {"a", "ok", 2, 1}})).ok());
  EXPECT_EQ(op->late_rows_dropped(), 2u);
  EXPECT_EQ(op->pending_windows(), 1u);
  // An idle watermark or one that does not advance fires nothing.
  ASSERT_TRUE(op->ProcessWatermark({30000, true}).ok());
  ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
  EXPECT_THAT(out.rows, IsEmpty());
  ASSERT_TRUE(op->ProcessWatermark({19999, false}).ok());
  EXPECT_THAT(out.Take(), ElementsAre(Out("a", "ok", "2", kW1)));
  EXPECT_EQ(op->late_rows_dropped(), 2u);
  // A batch of late rows only changes nothing but the count.
  ASSERT_TRUE(op->Process(0, Batch({{"a", "late", 9, 1}})).ok());
  EXPECT_EQ(op->late_rows_dropped(), 3u);
  EXPECT_EQ(*backend_->CountKeys(kStateId), 0u);
}

TEST_F(WindowRankTest, RowsOfAWindowOverSeveralBatchesReadAndWriteEachPartitionOnce) {
  CollectingOutput out;
  auto op = Make(Spec(1, 2, /*numbered=*/true), &out);
  // Batch 1: a: 4, 2; b: 1. Batch 2: a: 6 (enters at 1), 1 (does not enter); b: 3, 2.
  // Batch 3: a: 5 (enters at 2, pushes 4 out).
  ASSERT_TRUE(
      op->Process(0, Batch({{"a", "a4", 4, 0}, {"b", "b1", 1, 0}, {"a", "a2", 2, 0}})).ok());
  const KeyedStateTable::Stats after1 = op->state_table()->stats();
  EXPECT_EQ(after1.multiget_calls, 1u);
  EXPECT_EQ(after1.keys_read, 2u);  // (W0, a), (W0, b)
  EXPECT_EQ(after1.commits, 1u);
  EXPECT_EQ(after1.keys_written, 2u);
  ASSERT_TRUE(
      op->Process(
            0, Batch({{"a", "a6", 6, 0}, {"b", "b3", 3, 0}, {"a", "a1", 1, 0}, {"b", "b2", 2, 0}}))
          .ok());
  const KeyedStateTable::Stats after2 = op->state_table()->stats();
  EXPECT_EQ(after2.multiget_calls, 2u);
  EXPECT_EQ(after2.keys_read, 4u);
  EXPECT_EQ(after2.commits, 2u);
  EXPECT_EQ(after2.keys_written, 4u);
  ASSERT_TRUE(op->Process(0, Batch({{"a", "a5", 5, 0}})).ok());
  EXPECT_THAT(out.rows, IsEmpty());
  ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
  EXPECT_THAT(out.rows,
              UnorderedElementsAre(Out("a", "a6", "6", kW0, 1), Out("a", "a5", "5", kW0, 2),
                                   Out("b", "b3", "3", kW0, 1), Out("b", "b2", "2", kW0, 2)));
  EXPECT_THAT(OfPartition(out.rows, "a"),
              ElementsAre(Out("a", "a6", "6", kW0, 1), Out("a", "a5", "5", kW0, 2)));
  EXPECT_THAT(OfPartition(out.rows, "b"),
              ElementsAre(Out("b", "b3", "3", kW0, 1), Out("b", "b2", "2", kW0, 2)));
}

TEST_F(WindowRankTest, WithoutPartitionKeysTheWholeWindowIsOnePartition) {
  CollectingOutput out;
  WindowRankSpec spec = Spec(1, 2, /*numbered=*/true);
  spec.partition_keys.clear();
  auto op = Make(spec, &out);
  ASSERT_TRUE(op->Process(0, Batch({{"a", "x", 1, 0}, {"b", "y", 3, 0}, {"c", "z", 2, 0}})).ok());
  ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
  EXPECT_THAT(out.rows, ElementsAre(Out("b", "y", "3", kW0, 1), Out("c", "z", "2", kW0, 2)));
}

// The recorded watermark and pending windows plus the store are the whole state: a fresh instance
// on the same store fires exactly the windows the first had not fired, and treats rows of the
// fired ones as late.
TEST_F(WindowRankTest, RestoredInstanceFiresExactlyTheRest) {
  OperatorSnapshot snapshot;
  {
    CollectingOutput out;
    auto op = Make(Spec(1, 2, /*numbered=*/true), &out);
    ASSERT_TRUE(
        op->Process(0,
                    Batch({{"a", "x", 1, 0}, {"a", "y", 2, 1}, {"b", "z", 3, 1}, {"a", "w", 4, 2}}))
            .ok());
    ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());
    EXPECT_THAT(out.rows, ElementsAre(Out("a", "x", "1", kW0, 1)));
    ASSERT_TRUE(op->SnapshotState(1, &snapshot).ok());
    EXPECT_GT(op->state_bytes_in_memory(), 0u);  // the index of two pending windows
    ASSERT_TRUE(op->Close().ok());
  }
  CollectingOutput out;
  auto op = Make(Spec(1, 2, /*numbered=*/true), &out);
  ASSERT_TRUE(op->RestoreState(snapshot).ok());
  EXPECT_EQ(op->pending_windows(), 2u);
  ASSERT_TRUE(op->Process(0, Batch({{"a", "late", 9, 0}, {"a", "v", 5, 1}})).ok());
  EXPECT_EQ(op->late_rows_dropped(), 1u);
  ASSERT_TRUE(op->ProcessWatermark({19999, false}).ok());
  EXPECT_THAT(OfPartition(out.rows, "a"),
              ElementsAre(Out("a", "v", "5", kW1, 1), Out("a", "y", "2", kW1, 2)));
  EXPECT_THAT(OfPartition(out.rows, "b"), ElementsAre(Out("b", "z", "3", kW1, 1)));
  EXPECT_EQ(out.rows.size(), 3u);
  out.rows.clear();
  ASSERT_TRUE(op->Finish().ok());
  EXPECT_THAT(out.rows, ElementsAre(Out("a", "w", "4",
                                        "1970-01-01 00:00:20.000, 1970-01-01 00:00:30.000", 1)));
  EXPECT_EQ(*backend_->CountKeys(kStateId), 0u);
  EXPECT_EQ(op->state_bytes_in_memory(), 0u);

  OperatorSnapshot bad;
  bad.Put("watermark", "short");
  EXPECT_EQ(op->RestoreState(bad).code(), absl::StatusCode::kInvalidArgument);
}

// A checkpoint is the recorded state plus a snapshot of the store: an instance restored from both
// fires the windows pending at the checkpoint with the rows they had then, not later ones.
TEST_F(WindowRankTest, RestoresFromACheckpointOfItsStoreWithoutLaterRows) {
  CollectingOutput out;
  auto op = Make(Spec(1, 2, /*numbered=*/true), &out);
  ASSERT_TRUE(op->Process(0, Batch({{"a", "x", 1, 0}, {"a", "y", 2, 1}, {"a", "z", 3, 1}})).ok());
  ASSERT_TRUE(op->ProcessWatermark({9999, false}).ok());  // fires W0
  ASSERT_EQ(out.rows.size(), 1u);
  OperatorSnapshot snapshot;
  ASSERT_TRUE(op->SnapshotState(1, &snapshot).ok());
  ASSERT_TRUE(backend_->Snapshot(dir_ + "/chk-1").ok());
  // After the checkpoint: a row that outranks both in W1, and a new window.
  ASSERT_TRUE(op->Process(0, Batch({{"a", "after", 9, 1}, {"a", "after", 9, 2}})).ok());

  auto restored = KeyedStateBackend::OpenFromSnapshot(dir_ + "/chk-1", dir_ + "/restored",
                                                      std::make_shared<SharedStateResources>());
  ASSERT_TRUE(restored.ok()) << restored.status();
  auto made = WindowRankOperator::Create(Spec(1, 2, /*numbered=*/true));
  ASSERT_TRUE(made.ok());
  std::unique_ptr<WindowRankOperator> op2 = std::move(made).value();
  OperatorContext ctx;
  ctx.state_id = kStateId;
  ctx.state = restored->get();
  ASSERT_TRUE(op2->Open(ctx).ok());
  CollectingOutput again;
  op2->set_output(&again);
  ASSERT_TRUE(op2->RestoreState(snapshot).ok());
  EXPECT_EQ(op2->pending_windows(), 1u);
  ASSERT_TRUE(op2->Finish().ok());
  EXPECT_THAT(again.rows, ElementsAre(Out("a", "z", "3", kW1, 1), Out("a", "y", "2", kW1, 2)));
  EXPECT_EQ(*(*restored)->CountKeys(kStateId), 0u);
  op2.reset();
  restored->reset();
}

TEST_F(WindowRankTest, RejectsUpdatesAndNullWindows) {
  CollectingOutput out;
  auto op = Make(Spec(1, 1, /*numbered=*/false), &out);
  ChangelogBatch update(kTypes);
  update.AppendValues(
      {Value::String("a"), Value::String("x"), Value::Int(1), Value::Int(0), Value::Int(10000)},
      RowKind::kUpdateAfter);
  EXPECT_EQ(op->Process(0, update).code(), absl::StatusCode::kInvalidArgument);
  ChangelogBatch null_window(kTypes);
  null_window.AppendValues(
      {Value::String("a"), Value::String("x"), Value::Int(1), Value::Int(0), Value::Null()},
      RowKind::kInsert);
  EXPECT_EQ(op->Process(0, null_window).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(WindowRankTest, CreateValidatesTheSpec) {
  auto code = [](WindowRankSpec spec) {
    return WindowRankOperator::Create(std::move(spec)).status().code();
  };
  EXPECT_EQ(code(Spec(1, 3, true)), absl::StatusCode::kOk);
  EXPECT_EQ(code(Spec(0, 3, true)), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code(Spec(3, 2, true)), absl::StatusCode::kInvalidArgument);
  WindowRankSpec spec = Spec(1, 1, false);
  spec.partition_keys = {5};
  EXPECT_EQ(code(spec), absl::StatusCode::kInvalidArgument);
  spec = Spec(1, 1, false);
  spec.order_by[0].column = 9;
  EXPECT_EQ(code(spec), absl::StatusCode::kInvalidArgument);
  spec = Spec(1, 1, false);
  spec.window_start_column = 2;  // BIGINT
  EXPECT_EQ(code(spec), absl::StatusCode::kInvalidArgument);
  spec = Spec(1, 1, false);
  spec.window_end_column = 5;
  EXPECT_EQ(code(spec), absl::StatusCode::kInvalidArgument);

  auto op = WindowRankOperator::Create(Spec(1, 1, true));
  ASSERT_TRUE(op.ok());
  EXPECT_EQ((*op)->output_types().size(), kTypes.size() + 1);
  EXPECT_EQ((*op)->Open(OperatorContext{}).code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace eddy
