// Aggregates against an independent answer: random rows (small key ranges, NULLs) grouped by Eddy
// on a coordinator and two worker processes at parallelism 1 and 4, the printed changelog replayed
// into the final rows, and SQLite over the same rows: FILTER clauses; FIRST_VALUE, LAST_VALUE
// and LISTAGG; and random GROUPING SETS / ROLLUP / CUBE clauses with GROUPING_ID (SQLite has none:
// it answers the UNION ALL of one GROUP BY per grouping set). The VALUES source runs in one
// subtask, so each key's rows reach their aggregate in the table's order (SQLite's rowid order) at
// either parallelism: the first and last values and the joined lists must match SQLite's window
// functions ordered by rowid exactly. Over an updating input (an aggregate's changes from several
// subtasks) the order is not fixed: lists are compared as sorted parts, FIRST_VALUE/LAST_VALUE by
// what holds in any order. The seed is printed; EDDY_TEST_SEED replays it.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tests/integration/differential_test_base.h"
#include "tests/integration/grouping_sets_spec.h"
#include "tests/integration/sqlite_oracle.h"

namespace eddy::testing {
namespace {

// Each row with its cell `column` (a joined list, or null) split at `sep` and its parts sorted:
// what the list holds whatever the order its values arrived in.
Multiset SortedParts(const Multiset& rows, size_t column, char sep) {
  Multiset out;
  for (const auto& [text, n] : rows) {
    std::vector<std::string> cells = absl::StrSplit(text, ", ");
    if (column < cells.size() && cells[column] != "null") {
      std::vector<std::string> parts = absl::StrSplit(cells[column], sep);
      std::sort(parts.begin(), parts.end());
      cells[column] = absl::StrJoin(parts, std::string(1, sep));
    }
    out[absl::StrJoin(cells, ", ")] += n;
  }
  return out;
}

// Session settings for two-phase aggregation in small mini-batches.
constexpr char kTwoPhase[] =
    "SET 'table.exec.mini-batch.enabled' = 'true';"
    "SET 'table.exec.mini-batch.allow-latency' = '1 s';"
    "SET 'table.exec.mini-batch.size' = '7';"
    "SET 'table.optimizer.agg-phase-strategy' = 'TWO_PHASE';";

class AggregateDifferentialTest : public DifferentialTest {
 protected:
  void Check(const std::string& eddy_query, const std::string& sqlite_query, int columns) {
    const Table a = RandomTable("a", {"k", "x", "y"}, 150, rng_);
    Sqlite oracle;
    oracle.Load(a);
    const Multiset expected = oracle.Query(sqlite_query);
    ASSERT_FALSE(expected.empty()) << sqlite_query;
    for (int p : {1, 4}) {
      EXPECT_EQ(RunEddy(EddyView(a), eddy_query, columns, p), expected)
          << "parallelism " << p << ": " << eddy_query;
    }
  }

  // A random grouping-sets query over (k, x, y) of `source` (Eddy's and SQLite's spelling), after
  // `settings` (SET statements), against the UNION ALL of one GROUP BY per grouping set.
  void CheckGroupingSets(const std::string& eddy_source, const std::string& sqlite_source,
                         const std::string& settings) {
    const std::vector<std::string> columns = {"k", "x", "y"};
    const GroupingSetsSpec spec = RandomGroupingSets(columns, rng_);
    std::vector<int> keys(spec.keys.begin(), spec.keys.end());
    std::vector<std::string> key_names;
    for (int c : keys) key_names.push_back(columns[c]);
    // The grouped columns (NULL for one no set groups by), aggregates (x and y may be keys too),
    // GROUPING_ID of every key, and GROUPING of the first.
    std::vector<std::string> select;
    for (size_t c = 0; c < columns.size(); ++c) {
      select.push_back(spec.keys.count(c) ? columns[c] : "CAST(NULL AS INT)");
    }
    const std::string aggregates =
        "CAST(COUNT(*) AS INT), CAST(SUM(x) AS INT), MAX(y), CAST(COUNT(y) AS INT)";
    const std::string eddy_query = absl::StrCat(
        "SELECT ", absl::StrJoin(select, ", "), ", ", aggregates, ", CAST(GROUPING_ID(",
        absl::StrJoin(key_names, ", "), ") AS INT), CAST(GROUPING(", key_names[0],
        ") AS INT) FROM ", eddy_source, " GROUP BY ", spec.group_by);
    std::vector<std::string> per_set;
    for (const std::set<int>& set : spec.sets) {
      std::vector<std::string> cells, group_by;
      for (size_t c = 0; c < columns.size(); ++c) {
        cells.push_back(set.count(c) ? columns[c] : "NULL");
        if (set.count(c)) group_by.push_back(columns[c]);
      }
      per_set.push_back(absl::StrCat(
          "SELECT ", absl::StrJoin(cells, ", "), ", ", aggregates, ", ", GroupingId(keys, set),
          ", ", GroupingId({keys[0]}, set), " FROM ", sqlite_source,
          group_by.empty() ? "" : " GROUP BY " + absl::StrJoin(group_by, ", ")));
    }
    const std::string sqlite_query = absl::StrJoin(per_set, " UNION ALL ");
    const Table a = RandomTable("a", columns, 150, rng_);
    Sqlite oracle;
    oracle.Load(a);
    const Multiset expected = oracle.Query(sqlite_query);
    ASSERT_FALSE(expected.empty()) << sqlite_query;
    for (int p : {1, 4}) {
      EXPECT_EQ(RunEddy(settings + EddyView(a), eddy_query, 9, p), expected)
          << "parallelism " << p << ": " << eddy_query << "\nSQLite: " << sqlite_query;
    }
  }
};

TEST_F(AggregateDifferentialTest, FilterClausesCountOnlyTheRowsTheyKeep) {
  Check(
      "SELECT k, CAST(COUNT(*) FILTER (WHERE x > 10) AS INT), CAST(COUNT(DISTINCT y) FILTER (WHERE "
      "x <= 10) AS INT), CAST(SUM(y) FILTER (WHERE y IS NOT NULL AND x > 5) AS INT), MAX(x) FILTER "
      "(WHERE y < 7) FROM a GROUP BY k",
      "SELECT k, COUNT(*) FILTER (WHERE x > 10), COUNT(DISTINCT y) FILTER (WHERE x <= 10), SUM(y) "
      "FILTER (WHERE y IS NOT NULL AND x > 5), MAX(x) FILTER (WHERE y < 7) FROM a GROUP BY k",
      5);
}

TEST_F(AggregateDifferentialTest, FirstLastValueAndListAggFollowArrivalOrder) {
  const Table a = RandomTable("a", {"k", "x", "y"}, 150, rng_);
  Sqlite oracle;
  oracle.Load(a);
  // SQLite has no IGNORE NULLS: ordering the NULLs last (first) makes first_value (last_value) the
  // first (last) non-NULL x by rowid; group_concat skips NULLs and joins in the window's order.
  const std::string whole_partition = "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";
  const Multiset expected = oracle.QueryText(
      "SELECT DISTINCT k, first_value(x) OVER (PARTITION BY k ORDER BY x IS NULL, rowid " +
      whole_partition + "), last_value(x) OVER (PARTITION BY k ORDER BY x IS NOT NULL, rowid " +
      whole_partition + "), group_concat(x, ';') OVER (PARTITION BY k ORDER BY rowid " +
      whole_partition + ") FROM a");
  ASSERT_FALSE(expected.empty());
  for (int p : {1, 4}) {
    EXPECT_EQ(RunEddy(EddyView(a),
                      "SELECT k, FIRST_VALUE(x), LAST_VALUE(x), LISTAGG(CAST(x AS STRING), ';') "
                      "FROM a GROUP BY k",
                      {"INT", "INT", "INT", "STRING"}, p),
              expected)
        << "parallelism " << p;
  }
  // Two phases: each mini-batch's values joined before the shuffle, joined again after it.
  const Multiset with_counts = oracle.QueryText(
      "SELECT DISTINCT k, group_concat(x, ';') OVER (PARTITION BY k ORDER BY rowid " +
      whole_partition + "), COUNT(*) OVER (PARTITION BY k) FROM a");
  for (int p : {1, 4}) {
    EXPECT_EQ(RunEddy(kTwoPhase + EddyView(a),
                      "SELECT k, LISTAGG(CAST(x AS STRING), ';'), CAST(COUNT(*) AS INT) FROM a "
                      "GROUP BY k",
                      {"INT", "STRING", "INT"}, p),
              with_counts)
        << "two phases, parallelism " << p;
  }
}

TEST_F(AggregateDifferentialTest, DistinctListAggHoldsEachValueOnce) {
  const Table a = RandomTable("a", {"k", "x", "y"}, 150, rng_);
  Sqlite oracle;
  oracle.Load(a);
  const Multiset expected = SortedParts(
      oracle.QueryText("SELECT k, group_concat(DISTINCT y), COUNT(DISTINCT y) FROM a GROUP BY k"),
      1, ',');
  ASSERT_FALSE(expected.empty());
  for (int p : {1, 4}) {
    EXPECT_EQ(SortedParts(RunEddy(EddyView(a),
                                  "SELECT k, LISTAGG(DISTINCT CAST(y AS STRING)), "
                                  "CAST(COUNT(DISTINCT y) AS INT) FROM a GROUP BY k",
                                  {"INT", "STRING", "INT"}, p),
                          1, ','),
              expected)
        << "parallelism " << p;
  }
}

// The outer aggregate groups the values x by how often they occur; as the inner counts move, each
// x is retracted from one group (wherever it sits in its list) and added to the next.
TEST_F(AggregateDifferentialTest, OverAnUpdatingInputTheRemainingValuesAreKept) {
  const Table a = RandomTable("a", {"k", "x", "y"}, 150, rng_);
  Sqlite oracle;
  oracle.Load(a);
  // With one non-NULL value left, FIRST_VALUE and LAST_VALUE are it; with any, they lie between
  // its MIN and MAX.
  const Multiset expected = SortedParts(
      oracle.QueryText(
          "SELECT c, group_concat(x, ';'), COUNT(*), CASE WHEN COUNT(x) = 1 THEN MIN(x) END, "
          "CASE WHEN COUNT(x) = 1 THEN MAX(x) END, CASE WHEN COUNT(x) > 0 THEN 1 ELSE 0 END "
          "FROM (SELECT x, COUNT(*) AS c FROM a GROUP BY x) GROUP BY c"),
      1, ';');
  ASSERT_FALSE(expected.empty());
  for (int p : {1, 4}) {
    EXPECT_EQ(
        SortedParts(
            RunEddy(EddyView(a),
                    "SELECT c, LISTAGG(CAST(x AS STRING), ';'), CAST(COUNT(*) AS INT), "
                    "CASE WHEN COUNT(x) = 1 THEN FIRST_VALUE(x) END, "
                    "CASE WHEN COUNT(x) = 1 THEN LAST_VALUE(x) END, "
                    "CASE WHEN FIRST_VALUE(x) BETWEEN MIN(x) AND MAX(x) AND LAST_VALUE(x) "
                    "BETWEEN MIN(x) AND MAX(x) THEN 1 ELSE 0 END "
                    "FROM (SELECT x, CAST(COUNT(*) AS INT) AS c FROM a GROUP BY x) GROUP BY c",
                    {"INT", "STRING", "INT", "INT", "INT", "INT"}, p),
            1, ';'),
        expected)
        << "parallelism " << p;
  }
}

TEST_F(AggregateDifferentialTest, RandomGroupingSets) {
  for (int i = 0; i < 3; ++i) CheckGroupingSets("a", "a", "");
}

// Over an updating input: the inner counts retract and re-add, and so do the outer groups.
TEST_F(AggregateDifferentialTest, RandomGroupingSetsOverAnUpdatingInput) {
  const std::string counts = "(SELECT k, x, CAST(COUNT(*) AS INT) AS y FROM a GROUP BY k, x)";
  for (int i = 0; i < 2; ++i) CheckGroupingSets(counts, counts, "");
}

// With mini-batches the aggregate splits into a local one after the Expand and a global one.
TEST_F(AggregateDifferentialTest, RandomGroupingSetsInTwoPhases) {
  CheckGroupingSets("a", "a",
                    "SET 'table.exec.mini-batch.enabled' = 'true';"
                    "SET 'table.exec.mini-batch.allow-latency' = '50 ms';"
                    "SET 'table.exec.mini-batch.size' = '20';"
                    "SET 'table.optimizer.agg-phase-strategy' = 'TWO_PHASE';");
}

}  // namespace
}  // namespace eddy::testing
