// Joins and subqueries against an independent answer: random tables (small key ranges, NULL keys,
// duplicates) are joined by Eddy on a coordinator and two worker processes at parallelism 1 and 4,
// the printed changelog is replayed into the final multiset of rows, and SQLite runs the same
// query over the same rows. Every join type, residual conditions, semi and anti joins from IN /
// EXISTS (NOT IN with its NULL semantics), scalar subqueries (random correlated ones too), a
// self-join and a join of an aggregated (updating) input. The seed is printed; EDDY_TEST_SEED
// replays a run.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tests/integration/differential_test_base.h"
#include "tests/integration/process_cluster.h"
#include "tests/integration/sqlite_oracle.h"

namespace eddy::testing {
namespace {

class JoinDifferentialTest : public DifferentialTest {
 protected:
  // Checks `eddy_query` at parallelism 1 and 4 against `sqlite_query` over fresh random tables;
  // `settings` (SET statements) run first.
  void Check(const std::string& eddy_query, const std::string& sqlite_query, int columns,
             const std::string& settings = "") {
    Table a = RandomTable("a", {"k", "x"}, 60, rng_);
    Table b = RandomTable("b", {"k", "y"}, 50, rng_);
    Sqlite oracle;
    oracle.Load(a);
    oracle.Load(b);
    const Multiset expected = oracle.Query(sqlite_query);
    const std::string views = settings + EddyView(a) + EddyView(b);
    for (int p : {1, 4}) {
      EXPECT_EQ(RunEddy(views, eddy_query, columns, p), expected)
          << "parallelism " << p << ": " << eddy_query;
    }
  }
};

TEST_F(JoinDifferentialTest, InnerJoin) {
  const std::string q = "SELECT a.k, a.x, b.k, b.y FROM a JOIN b ON a.k = b.k";
  Check(q, q, 4);
}

TEST_F(JoinDifferentialTest, CommaJoinWithWhereEqualityAndResidualCondition) {
  const std::string q = "SELECT a.k, a.x, b.y FROM a, b WHERE a.k = b.k AND a.x < b.y";
  Check(q, q, 3);
}

TEST_F(JoinDifferentialTest, OuterJoins) {
  for (const char* type : {"LEFT", "RIGHT", "FULL"}) {
    const std::string q = absl::StrCat("SELECT a.k, a.x, b.k, b.y FROM a ", type,
                                       " JOIN b ON a.k = b.k AND a.x <= b.y");
    Check(q, q, 4);
  }
}

// Batch mode: outer joins, an aggregate over an outer join and a Top-N over a join run as batch
// jobs whose printed rows are final (+I only) and equal SQLite's.
TEST_F(JoinDifferentialTest, BatchModeJoinsPrintOnlyTheirFinalRows) {
  const std::string batch = "SET 'execution.runtime-mode' = 'batch';";
  for (const char* type : {"LEFT", "FULL"}) {
    const std::string q = absl::StrCat("SELECT a.k, a.x, b.k, b.y FROM a ", type,
                                       " JOIN b ON a.k = b.k AND a.x <= b.y");
    Check(q, q, 4, batch);
  }
  Check("SELECT a.k, CAST(COUNT(*) AS INT), SUM(b.y) FROM a LEFT JOIN b ON a.k = b.k GROUP BY a.k",
        "SELECT a.k, COUNT(*), SUM(b.y) FROM a LEFT JOIN b ON a.k = b.k GROUP BY a.k", 3, batch);
  Check(
      "SELECT c.k, c.n, b.y FROM (SELECT k, CAST(COUNT(*) AS INT) AS n FROM a GROUP BY k) AS c "
      "JOIN b ON c.k = b.k",
      "SELECT c.k, c.n, b.y FROM (SELECT k, COUNT(*) AS n FROM a GROUP BY k) AS c "
      "JOIN b ON c.k = b.k",
      3, batch);
  EXPECT_EQ(runs_with_changes_, 0);
}

TEST_F(JoinDifferentialTest, NonEquiJoinRunsInOneSubtask) {
  const std::string q = "SELECT a.x, b.y FROM a JOIN b ON a.x > b.y + 15";
  Check(q, q, 2);
}

TEST_F(JoinDifferentialTest, InAndExistsAreSemiAndAntiJoins) {
  Check("SELECT k, x FROM a WHERE k IN (SELECT k FROM b WHERE y > 5)",
        "SELECT k, x FROM a WHERE k IN (SELECT k FROM b WHERE y > 5)", 2);
  Check("SELECT k, x FROM a WHERE EXISTS (SELECT * FROM b WHERE b.k = a.k AND b.y < a.x)",
        "SELECT k, x FROM a WHERE EXISTS (SELECT * FROM b WHERE b.k = a.k AND b.y < a.x)", 2);
  Check("SELECT k, x FROM a WHERE NOT EXISTS (SELECT * FROM b WHERE b.k = a.k)",
        "SELECT k, x FROM a WHERE NOT EXISTS (SELECT * FROM b WHERE b.k = a.k)", 2);
}

TEST_F(JoinDifferentialTest, NotInKeepsNullSemantics) {
  // b.k holds NULLs: NOT IN is then empty; without them (the filtered subquery) it is not.
  const std::string q1 = "SELECT k, x FROM a WHERE k NOT IN (SELECT k FROM b)";
  Check(q1, q1, 2);
  const std::string q2 =
      "SELECT k, x FROM a WHERE k NOT IN (SELECT k FROM b WHERE k IS NOT NULL AND y > 3)";
  Check(q2, q2, 2);
}

TEST_F(JoinDifferentialTest, NullSafeKeysMatchNullWithNull) {
  // SQLite spells IS NOT DISTINCT FROM as IS.
  Check("SELECT a.k, a.x, b.y FROM a JOIN b ON a.k IS NOT DISTINCT FROM b.k",
        "SELECT a.k, a.x, b.y FROM a JOIN b ON a.k IS b.k", 3);
  Check("SELECT a.k, a.x, b.y FROM a LEFT JOIN b ON a.k IS NOT DISTINCT FROM b.k AND a.x < b.y",
        "SELECT a.k, a.x, b.y FROM a LEFT JOIN b ON a.k IS b.k AND a.x < b.y", 3);
}

TEST_F(JoinDifferentialTest, SelfJoin) {
  const std::string q = "SELECT l.k, l.x, r.x FROM a AS l JOIN a AS r ON l.k = r.k AND l.x < r.x";
  Check(q, q, 3);
}

TEST_F(JoinDifferentialTest, JoinOfAnAggregatedInput) {
  // The aggregate's updates reach the join as -U/+U pairs, which it must retract exactly.
  const std::string q =
      "SELECT c.k, c.n, b.y FROM (SELECT k, CAST(COUNT(*) AS INT) AS n FROM a GROUP BY k) AS c "
      "LEFT JOIN b ON c.k = b.k";
  Check(q, q, 3);
}

TEST_F(JoinDifferentialTest, ScalarSubqueriesInWhereAndSelect) {
  // The subquery's aggregate changes as rows arrive; the rows that read it are retracted and
  // emitted again, so the final table holds the value over every row.
  const std::string q1 = "SELECT k, x FROM a WHERE x > (SELECT MAX(y) - 10 FROM b)";
  Check(q1, q1, 2);
  const std::string q2 = "SELECT k, x, (SELECT MIN(y) FROM b WHERE k = 3) FROM a WHERE x < 5";
  Check(q2, q2, 3);
}

// A random correlated scalar subquery over b for the outer row of a, as Eddy and SQLite spell it:
// an aggregate of b's rows whose key matches a's (one or two equalities; `k` alone is b's own),
// at random filtered further. COUNT is cast to the sink's INT inside the subquery, so that its
// value over no rows, 0, is an expression's; SQLite's AVG is a double, Flink's truncates.
struct CorrelatedScalar {
  std::string eddy, sqlite;
};

CorrelatedScalar RandomCorrelatedScalar(std::mt19937_64& rng) {
  static const std::vector<std::pair<std::string, std::string>> kAggregates = {
      {"CAST(COUNT(*) AS INT)", "COUNT(*)"},
      {"CAST(COUNT(b.y) AS INT)", "COUNT(b.y)"},
      {"SUM(b.y)", "SUM(b.y)"},
      {"MAX(b.y)", "MAX(b.y)"},
      {"AVG(b.y)", "CAST(AVG(b.y) AS INTEGER)"}};
  static const std::vector<std::string> kCorrelations = {
      "b.k = a.k", "k = a.k", "a.k = b.k", "b.k = a.k AND b.y / 5 = a.x", "(b.y + b.k) % 4 = a.k"};
  auto pick = [&rng](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  const auto& [eddy_agg, sqlite_agg] = kAggregates[pick(kAggregates.size())];
  std::string where = kCorrelations[pick(kCorrelations.size())];
  switch (pick(3)) {
    case 0:
      break;
    case 1:
      absl::StrAppend(&where, " AND b.y > ", pick(16));
      break;
    case 2:
      where = absl::StrCat("b.y IS NOT NULL AND ", where);
      break;
  }
  return {absl::StrCat("(SELECT ", eddy_agg, " FROM b WHERE ", where, ")"),
          absl::StrCat("(SELECT ", sqlite_agg, " FROM b WHERE ", where, ")")};
}

TEST_F(JoinDifferentialTest, CorrelatedScalarSubqueriesInSelect) {
  // Decorrelated: b's aggregate per key, left-joined on it; rows without matches read COUNT as 0.
  for (int i = 0; i < 5; ++i) {
    const CorrelatedScalar s = RandomCorrelatedScalar(rng_);
    Check(absl::StrCat("SELECT a.k, a.x, ", s.eddy, " FROM a"),
          absl::StrCat("SELECT a.k, a.x, ", s.sqlite, " FROM a"), 3);
  }
}

TEST_F(JoinDifferentialTest, CorrelatedScalarSubqueriesInWhere) {
  for (int i = 0; i < 5; ++i) {
    const CorrelatedScalar s = RandomCorrelatedScalar(rng_);
    const CorrelatedScalar t = RandomCorrelatedScalar(rng_);
    const std::string where = i % 2 == 0 ? "a.x > " : "a.x + 3 <= ";
    Check(absl::StrCat("SELECT a.k, ", t.eddy, " FROM a WHERE ", where, s.eddy),
          absl::StrCat("SELECT a.k, ", t.sqlite, " FROM a WHERE ", where, s.sqlite), 2);
  }
}

TEST_F(JoinDifferentialTest, MultiWayJoin) {
  const std::string q =
      "SELECT a.k, a.x, b.y, c.x FROM a JOIN b ON a.k = b.k JOIN a AS c ON b.y = c.x";
  Check(q, q, 4);
  // Reordered (the smaller inputs first): the same rows.
  const std::string filtered =
      "SELECT a.k, a.x, b.y, c.x FROM a JOIN b ON a.k = b.k JOIN (SELECT * FROM a WHERE x < 10) "
      "AS c ON b.y = c.x";
  Check(filtered, filtered, 4, "SET 'table.optimizer.join-reorder-enabled' = 'true';");
}

}  // namespace
}  // namespace eddy::testing
