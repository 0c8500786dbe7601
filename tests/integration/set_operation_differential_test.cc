// Set operations against an independent answer: UNION, INTERSECT and EXCEPT of random tables (few
// distinct rows, NULLs, duplicates) run by Eddy on a coordinator and two worker processes at
// parallelism 1 and 4, in streaming and batch mode, and are compared with SQLite's result. SQLite
// has no INTERSECT ALL or EXCEPT ALL, so their answer is computed from SQLite's multisets of the
// two inputs: a row occurs min(n, m) times, or max(n - m, 0) times. The seed is printed;
// EDDY_TEST_SEED replays a run.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "tests/integration/differential_test_base.h"
#include "tests/integration/sqlite_oracle.h"

namespace eddy::testing {
namespace {

// Rows of a and b with few distinct values, so that rows repeat within and across the tables.
constexpr char kLeft[] = "SELECT k % 3, x % 2 FROM a";
constexpr char kRight[] = "SELECT k % 3, y % 2 FROM b";

class SetOperationDifferentialTest : public DifferentialTest {
 protected:
  void SetUp() override {
    DifferentialTest::SetUp();
    a_ = RandomTable("a", {"k", "x"}, 40, rng_);
    b_ = RandomTable("b", {"k", "y"}, 30, rng_);
    oracle_.Load(a_);
    oracle_.Load(b_);
  }

  // Checks `op` (UNION, INTERSECT, ...) of kLeft and kRight at parallelism 1 and 4 against
  // `expected`, in streaming mode and in batch mode.
  void Check(const std::string& op, const Multiset& expected) {
    const std::string query = absl::StrCat(kLeft, " ", op, " ", kRight);
    const std::string views = EddyView(a_) + EddyView(b_);
    for (const char* mode : {"streaming", "batch"}) {
      const std::string settings =
          absl::StrCat("SET 'execution.runtime-mode' = '", mode, "';", views);
      for (int p : {1, 4}) {
        EXPECT_EQ(RunEddy(settings, query, 2, p), expected)
            << mode << ", parallelism " << p << ": " << query;
      }
    }
  }

  // Per row of kLeft (n copies, m in kRight), `copies(n, m)` copies when positive, from SQLite's
  // multisets of the two inputs.
  Multiset CopiesKept(int (*copies)(int n, int m)) {
    const Multiset left = oracle_.Query(kLeft);
    const Multiset right = oracle_.Query(kRight);
    Multiset kept;
    for (const auto& [row, n] : left) {
      auto it = right.find(row);
      const int k = copies(n, it == right.end() ? 0 : it->second);
      if (k > 0) kept[row] = k;
    }
    return kept;
  }

  Table a_, b_;
  Sqlite oracle_;
};

TEST_F(SetOperationDifferentialTest, UnionKeepsEachDistinctRowOnce) {
  Check("UNION", oracle_.Query(absl::StrCat(kLeft, " UNION ", kRight)));
}

TEST_F(SetOperationDifferentialTest, IntersectKeepsTheDistinctRowsOfBoth) {
  Check("INTERSECT", oracle_.Query(absl::StrCat(kLeft, " INTERSECT ", kRight)));
  Check("INTERSECT DISTINCT", oracle_.Query(absl::StrCat(kLeft, " INTERSECT ", kRight)));
}

TEST_F(SetOperationDifferentialTest, ExceptKeepsTheDistinctRowsOfTheLeftOnly) {
  Check("EXCEPT", oracle_.Query(absl::StrCat(kLeft, " EXCEPT ", kRight)));
}

TEST_F(SetOperationDifferentialTest, IntersectAllKeepsTheFewerCopies) {
  const Multiset expected = CopiesKept([](int n, int m) { return std::min(n, m); });
  ASSERT_FALSE(expected.empty()) << "the random tables share no row";
  Check("INTERSECT ALL", expected);
}

TEST_F(SetOperationDifferentialTest, ExceptAllKeepsTheSurplusCopies) {
  Check("EXCEPT ALL", CopiesKept([](int n, int m) { return n - m; }));
}

// Set operations nest: INTERSECT binds more tightly than UNION and EXCEPT, which associate left
// to right, and SQLite (which gives all three the same precedence) is told so with parentheses.
TEST_F(SetOperationDifferentialTest, IntersectBindsMoreTightlyThanUnion) {
  const std::string third = "SELECT x % 3, k % 2 FROM a";
  const std::string eddy = absl::StrCat(kLeft, " UNION ", kRight, " INTERSECT ", third);
  const std::string sqlite =
      absl::StrCat(kLeft, " UNION SELECT * FROM (", kRight, " INTERSECT ", third, ")");
  const std::string views = EddyView(a_) + EddyView(b_);
  for (int p : {1, 4}) {
    EXPECT_EQ(RunEddy(views, eddy, 2, p), oracle_.Query(sqlite)) << "parallelism " << p;
  }
}

}  // namespace
}  // namespace eddy::testing
