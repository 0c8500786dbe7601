// Top-N and deduplication against an independent answer: random rows (small key ranges, NULLs,
// ties) ranked by Eddy on a coordinator and two worker processes at parallelism 1 and 4, the
// printed changelog replayed into the final rows and compared with SQLite's ROW_NUMBER() over the
// same rows. Ties rank in arrival order in Eddy (a row joins the end of its equals), so SQLite
// breaks them by each row's sequence number `s`. The seed is printed; EDDY_TEST_SEED replays it.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/differential_test_base.h"
#include "tests/integration/sqlite_oracle.h"

namespace eddy::testing {
namespace {

class RankDifferentialTest : public DifferentialTest {
 protected:
  // Table `a` (k, x, s): k in 0..7 and x in 0..20, both sometimes NULL, s the row's position.
  Table Sequenced(int rows) {
    Table a = RandomTable("a", {"k", "x"}, rows, rng_);
    a.columns.push_back("s");
    for (size_t i = 0; i < a.rows.size(); ++i) a.rows[i].push_back(static_cast<int>(i));
    return a;
  }

  // The row number is BIGINT; the print sink's columns are INT, so Eddy's queries cast it.
  void Check(const std::string& eddy_query, const std::string& sqlite_query, int columns) {
    const Table a = Sequenced(120);
    Sqlite oracle;
    oracle.Load(a);
    const Multiset expected = oracle.Query(sqlite_query);
    EXPECT_FALSE(expected.empty()) << sqlite_query;
    for (int p : {1, 4}) {
      EXPECT_EQ(RunEddy(EddyView(a), eddy_query, columns, p), expected)
          << "parallelism " << p << ": " << eddy_query;
    }
  }
};

TEST_F(RankDifferentialTest, TopNPerPartitionWithTheRowNumber) {
  Check(
      "SELECT k, x, s, CAST(rn AS INT) FROM (SELECT k, x, s, ROW_NUMBER() OVER (PARTITION BY k "
      "ORDER BY x DESC) "
      "AS rn FROM a) WHERE rn <= 3",
      "SELECT k, x, s, rn FROM (SELECT k, x, s, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x DESC, "
      "s) AS rn FROM a) WHERE rn <= 3",
      4);
}

TEST_F(RankDifferentialTest, TopNFromTheSecondRankWithoutTheRowNumber) {
  Check(
      "SELECT k, x, s FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x) AS rn FROM a) "
      "WHERE rn BETWEEN 2 AND 4",
      "SELECT k, x, s FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x, s) AS rn FROM "
      "a) WHERE rn BETWEEN 2 AND 4",
      3);
}

TEST_F(RankDifferentialTest, TopNOfTheWholeInputRunsInOneSubtask) {
  Check(
      "SELECT x, s, CAST(rn AS INT) FROM (SELECT x, s, ROW_NUMBER() OVER (ORDER BY x DESC) AS rn "
      "FROM a) WHERE "
      "rn <= 5",
      "SELECT x, s, rn FROM (SELECT x, s, ROW_NUMBER() OVER (ORDER BY x DESC, s) AS rn FROM a) "
      "WHERE rn <= 5",
      3);
}

TEST_F(RankDifferentialTest, TopNOverAnUpdatingAggregateRetracts) {
  // Groups' totals change as rows arrive; ties broken by the group column on both sides.
  Check(
      "SELECT k, g, total, CAST(rn AS INT) FROM (SELECT k, g, total, ROW_NUMBER() OVER (PARTITION "
      "BY "
      "k ORDER BY total DESC, g) AS rn FROM (SELECT k, x % 3 AS g, CAST(SUM(s) AS INT) AS total "
      "FROM a GROUP "
      "BY k, x % 3)) WHERE rn <= 2",
      "SELECT k, g, total, rn FROM (SELECT k, g, total, ROW_NUMBER() OVER (PARTITION BY k ORDER BY "
      "total DESC, g) AS rn FROM (SELECT k, x % 3 AS g, SUM(s) AS total FROM a GROUP BY k, x % 3)) "
      "WHERE rn <= 2",
      4);
}

TEST_F(RankDifferentialTest, RankAndDenseRankGiveTiesOneNumber) {
  // Ties share a rank, so no tie-break is needed: the rows in range are the same in any order.
  Check(
      "SELECT k, x, s, CAST(r AS INT) FROM (SELECT k, x, s, RANK() OVER (PARTITION BY k ORDER BY "
      "x DESC) AS r FROM a) WHERE r <= 3",
      "SELECT k, x, s, r FROM (SELECT k, x, s, RANK() OVER (PARTITION BY k ORDER BY x DESC) AS r "
      "FROM a) WHERE r <= 3",
      4);
  Check(
      "SELECT k, x, s FROM (SELECT *, DENSE_RANK() OVER (PARTITION BY k ORDER BY x) AS r FROM a) "
      "WHERE r BETWEEN 2 AND 3",
      "SELECT k, x, s FROM (SELECT *, DENSE_RANK() OVER (PARTITION BY k ORDER BY x) AS r FROM a) "
      "WHERE r BETWEEN 2 AND 3",
      3);
}

TEST_F(RankDifferentialTest, RankOverAnUpdatingAggregateRetracts) {
  Check(
      "SELECT k, c, CAST(r AS INT) FROM (SELECT k, c, DENSE_RANK() OVER (ORDER BY c DESC) AS r "
      "FROM (SELECT k, CAST(COUNT(*) AS INT) AS c FROM a GROUP BY k)) WHERE r <= 2",
      "SELECT k, c, r FROM (SELECT k, c, DENSE_RANK() OVER (ORDER BY c DESC) AS r FROM (SELECT k, "
      "COUNT(*) AS c FROM a GROUP BY k)) WHERE r <= 2",
      3);
}

TEST_F(RankDifferentialTest, DeduplicationKeepsTheFirstOrLastRowByEventTime) {
  // Events (k, t, s) in a CSV file with a watermark on t; times out of order and repeated.
  std::uniform_int_distribution<int> key(0, 7), second(0, 59);
  Table ev{"ev", {"k", "t", "s"}, {}};
  std::string csv;
  for (int i = 0; i < 150; ++i) {
    const int k = key(rng_);
    const int t = second(rng_);
    ev.rows.push_back({k, t, i});
    csv += absl::StrCat(k, ",2024-01-01 00:00:", t < 10 ? "0" : "", t, ".000,", i, "\n");
  }
  const std::string path = *dir_ + "/events-" + std::to_string(runs_) + ".csv";
  std::ofstream(path) << csv;
  Sqlite oracle;
  oracle.Load(ev);
  const std::string table = absl::StrCat(
      "CREATE TEMPORARY TABLE ev (k INT, ts TIMESTAMP(3), s INT, WATERMARK FOR ts AS ts - INTERVAL "
      "'5' SECOND) WITH ('connector' = 'filesystem', 'path' = '",
      path, "', 'format' = 'csv');");
  for (const bool last : {false, true}) {
    const Multiset expected = oracle.Query(
        absl::StrCat("SELECT k, s FROM (SELECT k, s, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ",
                     last ? "t DESC, s DESC" : "t, s", ") AS rn FROM ev) WHERE rn = 1"));
    const std::string query =
        absl::StrCat("SELECT k, s FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts",
                     last ? " DESC" : "", ") AS rn FROM ev) WHERE rn = 1");
    for (int p : {1, 4}) {
      EXPECT_EQ(RunEddy(table, query, 2, p), expected) << "parallelism " << p << ": " << query;
    }
  }
}

}  // namespace
}  // namespace eddy::testing
