// OVER aggregations against an independent answer: random events (k, t, v, s) in a CSV file with a
// watermark on t, aggregated by Eddy over RANGE and ROWS frames on a coordinator and two worker
// processes at parallelism 1 and 4, and by SQLite's window functions over the same rows. RANGE
// frames give peers (equal times) the same values, so SQLite orders by time alone; ROWS frames
// count rows in arrival order among equal times, which SQLite gets from the sequence number s.
// The seed is printed; EDDY_TEST_SEED replays it.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/differential_test_base.h"
#include "tests/integration/sqlite_oracle.h"

namespace eddy::testing {
namespace {

class OverDifferentialTest : public DifferentialTest {
 protected:
  // Events with k in 0..4, t in 0..59 s (out of order, repeated), v in 0..20 or NULL, s the row's
  // position; the file is read in order, so s is each key's arrival order.
  void SetUp() override {
    DifferentialTest::SetUp();
    std::uniform_int_distribution<int> key(0, 4), second(0, 59), value(0, 20), null_draw(0, 9);
    events_ = Table{"ev", {"k", "t", "v", "s"}, {}};
    std::string csv;
    for (int i = 0; i < 200; ++i) {
      const int k = key(rng_);
      // Times mostly rise, with some disorder within the watermark's 10 seconds.
      const int t = std::min(59, std::max(0, i * 60 / 200 + second(rng_) % 8 - 4));
      const std::optional<int> v =
          null_draw(rng_) == 0 ? std::nullopt : std::optional<int>(value(rng_));
      events_.rows.push_back({k, t, v, i});
      csv += absl::StrCat(k, ",2024-01-01 00:00:", t < 10 ? "0" : "", t, ".000,",
                          v ? std::to_string(*v) : "", ",", i, "\n");
    }
    path_ = absl::StrCat(*dir_, "/over-", ::testing::UnitTest::GetInstance()->random_seed(), "-",
                         runs_, ".csv");
    std::ofstream(path_) << csv;
  }

  std::string EddyTable() const {
    return absl::StrCat(
        "CREATE TEMPORARY TABLE ev (k INT, ts TIMESTAMP(3), v INT, s INT, WATERMARK FOR ts AS ts - "
        "INTERVAL '10' SECOND) WITH ('connector' = 'filesystem', 'path' = '",
        path_, "', 'format' = 'csv');");
  }

  void Check(const std::string& eddy_query, const std::string& sqlite_query, int columns) {
    Sqlite oracle;
    oracle.Load(events_);
    const Multiset expected = oracle.Query(sqlite_query);
    ASSERT_FALSE(expected.empty()) << sqlite_query;
    for (int p : {1, 4}) {
      EXPECT_EQ(RunEddy(EddyTable(), eddy_query, columns, p), expected)
          << "parallelism " << p << ": " << eddy_query;
    }
  }

  Table events_;
  std::string path_;
};

TEST_F(OverDifferentialTest, RangeFramesGivePeersTheSameValues) {
  Check(
      "SELECT s, CAST(SUM(v) OVER w AS INT), CAST(COUNT(v) OVER w AS INT), MIN(v) OVER w, MAX(v) "
      "OVER w FROM ev WINDOW w AS (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '5' SECOND "
      "PRECEDING AND CURRENT ROW)",
      "SELECT s, SUM(v) OVER w, COUNT(v) OVER w, MIN(v) OVER w, MAX(v) OVER w FROM ev WINDOW w AS "
      "(PARTITION BY k ORDER BY t RANGE BETWEEN 5 PRECEDING AND CURRENT ROW)",
      5);
}

TEST_F(OverDifferentialTest, RowsFramesCountRowsInArrivalOrder) {
  Check(
      "SELECT s, CAST(SUM(v) OVER w AS INT), CAST(COUNT(*) OVER w AS INT), MAX(v) OVER w FROM ev "
      "WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 3 PRECEDING AND CURRENT ROW)",
      "SELECT s, SUM(v) OVER w, COUNT(*) OVER w, MAX(v) OVER w FROM ev WINDOW w AS (PARTITION BY k "
      "ORDER BY t, s ROWS BETWEEN 3 PRECEDING AND CURRENT ROW)",
      4);
}

TEST_F(OverDifferentialTest, UnboundedFramesAreRunningTotals) {
  Check(
      "SELECT s, CAST(SUM(v) OVER (PARTITION BY k ORDER BY ts) AS INT), MIN(v) OVER (PARTITION BY "
      "k "
      "ORDER BY ts) FROM ev",
      "SELECT s, SUM(v) OVER (PARTITION BY k ORDER BY t), MIN(v) OVER (PARTITION BY k ORDER BY t) "
      "FROM ev",
      3);
  Check(
      "SELECT s, CAST(COUNT(*) OVER (ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) "
      "AS INT) FROM ev",
      "SELECT s, COUNT(*) OVER (ORDER BY t, s ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) "
      "FROM "
      "ev",
      2);
}

}  // namespace
}  // namespace eddy::testing
