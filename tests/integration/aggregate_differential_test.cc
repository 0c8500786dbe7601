// Aggregates with FILTER clauses against an independent answer: random rows (small key ranges,
// NULLs) grouped by Eddy on a coordinator and two worker processes at parallelism 1 and 4, the
// printed changelog replayed into the final rows, and SQLite's FILTER over the same rows. The seed
// is printed; EDDY_TEST_SEED replays it.
#include <gtest/gtest.h>

#include <string>

#include "tests/integration/differential_test_base.h"
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

}  // namespace
}  // namespace eddy::testing
