// Aggregates against an independent answer: random rows (small key ranges, NULLs) grouped by Eddy
// on a coordinator and two worker processes at parallelism 1 and 4, the printed changelog replayed
// into the final rows, and SQLite's answer over the same rows: FILTER clauses, and random GROUPING
// SETS / ROLLUP / CUBE clauses with GROUPING_ID (SQLite has none: it answers the UNION ALL of one
// GROUP BY per grouping set). The seed is printed; EDDY_TEST_SEED replays it.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tests/integration/differential_test_base.h"
#include "tests/integration/grouping_sets_spec.h"
#include "tests/integration/sqlite_oracle.h"

namespace eddy::testing {
namespace {

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
