// Session windows and window Top-N against an independent answer: random events (k, t, v, s) in a
// CSV file with a watermark on t, windowed by Eddy on a coordinator and two worker processes at
// parallelism 1 and 4, and by SQLite over the same rows: sessions by gaps between consecutive times
// (LAG and a running sum), tumbling windows by integer division, ranks by ROW_NUMBER(). Times stay
// within the watermark's delay of each other, so no row is late. The seed is printed;
// EDDY_TEST_SEED replays it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/differential_test_base.h"
#include "tests/integration/sqlite_oracle.h"

namespace eddy::testing {
namespace {

// Seconds since 2024-01-01 00:00:00 of a TIMESTAMP expression (times stay within the first hour).
std::string Secs(const std::string& ts) {
  const std::string s = absl::StrCat("CAST(", ts, " AS STRING)");
  return absl::StrCat("(CAST(SUBSTRING(", s, ", 15, 2) AS INT) * 60 + CAST(SUBSTRING(", s,
                      ", 18, 2) AS INT))");
}

// The rows whose counts differ, as "row: eddy x, sqlite y" lines.
std::string Differences(const Multiset& eddy, const Multiset& sqlite) {
  std::string out;
  Multiset all = eddy;
  all.insert(sqlite.begin(), sqlite.end());
  for (const auto& [row, unused] : all) {
    const int e = eddy.count(row) ? eddy.at(row) : 0;
    const int s = sqlite.count(row) ? sqlite.at(row) : 0;
    if (e != s) absl::StrAppend(&out, row, ": eddy ", e, ", sqlite ", s, "\n");
  }
  return out;
}

class WindowDifferentialTest : public DifferentialTest {
 protected:
  // 200 events over about ten minutes: k in 0..4, t rising 3 s a row with up to 4 s of disorder
  // (so a key's consecutive times are often more than a session gap apart, and sometimes less),
  // v in 0..20 or NULL, s the row's position.
  void SetUp() override {
    DifferentialTest::SetUp();
    std::uniform_int_distribution<int> key(0, 4), jitter(-4, 4), value(0, 20), null_draw(0, 9);
    events_ = Table{"ev", {"k", "t", "v", "s"}, {}};
    std::string csv;
    for (int i = 0; i < 200; ++i) {
      const int k = key(rng_);
      const int t = std::max(0, i * 3 + jitter(rng_));
      const std::optional<int> v =
          null_draw(rng_) == 0 ? std::nullopt : std::optional<int>(value(rng_));
      events_.rows.push_back({k, t, v, i});
      csv += absl::StrCat(k, ",2024-01-01 00:", t / 60 < 10 ? "0" : "", t / 60, ":",
                          t % 60 < 10 ? "0" : "", t % 60, ".000,", v ? std::to_string(*v) : "", ",",
                          i, "\n");
    }
    path_ = absl::StrCat(*dir_, "/windows-", ::testing::UnitTest::GetInstance()->random_seed(), "-",
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
      const Multiset actual = RunEddy(EddyTable(), eddy_query, columns, p);
      EXPECT_EQ(actual, expected) << "parallelism " << p << ": " << eddy_query << "\n"
                                  << Differences(actual, expected);
    }
  }

  Table events_;
  std::string path_;
};

// Per key, a row starts a new session when it is more than the gap after the key's previous row
// (in time order): Flink's sessions [first, last + gap) merge when they overlap or touch
// (TimeWindow.intersects is inclusive).
std::string SqliteSessions(int gap) {
  return absl::StrCat(
      "WITH o AS (SELECT k, t, v, CASE WHEN t - LAG(t) OVER (PARTITION BY k ORDER BY t, s) <= ",
      gap,
      " THEN 0 ELSE 1 END AS new, s FROM ev), w AS (SELECT k, t, v, SUM(new) OVER (PARTITION BY k "
      "ORDER BY t, s ROWS UNBOUNDED PRECEDING) AS sid FROM o) SELECT k, MIN(t), MAX(t) + ",
      gap, ", COUNT(*), SUM(v) FROM w GROUP BY k, sid");
}

TEST_F(WindowDifferentialTest, SessionWindowsMergeAsTheGapsBetweenTimesSay) {
  Check(absl::StrCat("SELECT k, ", Secs("window_start"), ", ", Secs("window_end"),
                     ", CAST(COUNT(*) AS INT), SUM(v) FROM TABLE(SESSION(TABLE ev PARTITION BY k, "
                     "DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end"),
        SqliteSessions(10), 5);
  Check(absl::StrCat("SELECT k, ", Secs("SESSION_START(ts, INTERVAL '6' SECOND)"), ", ",
                     Secs("SESSION_END(ts, INTERVAL '6' SECOND)"),
                     ", CAST(COUNT(*) AS INT), SUM(v) FROM ev GROUP BY k, SESSION(ts, INTERVAL '6' "
                     "SECOND)"),
        SqliteSessions(6), 5);
}

TEST_F(WindowDifferentialTest, WindowTopNKeepsTheFirstRowsOfEachWindowAndKey) {
  Check(absl::StrCat("SELECT k, ", Secs("window_start"),
                     ", s, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, "
                     "window_end, k ORDER BY v DESC, s) AS rn FROM TABLE(TUMBLE(TABLE ev, "
                     "DESCRIPTOR(ts), INTERVAL '30' SECOND))) WHERE rn <= 3"),
        "SELECT k, (t / 30) * 30, s, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k, t / 30 "
        "ORDER BY v DESC, s) AS rn FROM ev) WHERE rn <= 3",
        4);
}

TEST_F(WindowDifferentialTest, WindowDeduplicationKeepsTheEarliestRowOfEachWindowAndKey) {
  // Keep-first by time; equal times keep the first to arrive, which s orders in SQLite.
  Check(absl::StrCat("SELECT k, ", Secs("window_start"),
                     ", s FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, "
                     "window_end, k ORDER BY ts) AS rn FROM TABLE(TUMBLE(TABLE ev, "
                     "DESCRIPTOR(ts), INTERVAL '20' SECOND))) WHERE rn = 1"),
        "SELECT k, (t / 20) * 20, s FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k, t / 20 "
        "ORDER BY t, s) AS rn FROM ev) WHERE rn = 1",
        3);
}

}  // namespace
}  // namespace eddy::testing
