// Joins and subqueries against an independent answer: random tables (small key ranges, NULL keys,
// duplicates) are joined by Eddy on a coordinator and two worker processes at parallelism 1 and 4,
// the printed changelog is replayed into the final multiset of rows, and SQLite runs the same
// query over the same rows. Every join type, residual conditions, semi and anti joins from IN /
// EXISTS (NOT IN with its NULL semantics), scalar subqueries, a self-join and a join of an
// aggregated (updating) input. The seed is printed; EDDY_TEST_SEED replays a run.
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
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

using Row = std::vector<std::optional<int>>;
using Multiset = std::map<std::string, int>;  // row text ("1, null, 3") -> count

std::string Cell(const std::optional<int>& v) { return v ? std::to_string(*v) : "null"; }

std::string RowText(const Row& row) {
  std::vector<std::string> cells;
  for (const auto& v : row) cells.push_back(Cell(v));
  return absl::StrJoin(cells, ", ");
}

// Replays print-sink lines (`+I[..]`, `-U[..]`, `+U[..]`, `-D[..]`, any `N> ` prefix) into a
// multiset; a retraction of a row that is not there is recorded in `errors`.
Multiset ReplayMultiset(const std::string& printed, std::vector<std::string>* errors) {
  Multiset rows;
  for (absl::string_view line : absl::StrSplit(printed, '\n')) {
    size_t open = line.find('[');
    if (open < 2 || line.empty() || line.back() != ']') continue;
    const absl::string_view kind = line.substr(open - 2, 2);
    const std::string row(line.substr(open + 1, line.size() - open - 2));
    if (kind == "+I" || kind == "+U") {
      ++rows[row];
    } else if (kind == "-U" || kind == "-D") {
      auto it = rows.find(row);
      if (it == rows.end()) {
        errors->push_back(absl::StrCat("retraction of an absent row: ", line));
        continue;
      }
      if (--it->second == 0) rows.erase(it);
    }
  }
  return rows;
}

struct Table {
  std::string name;
  std::vector<std::string> columns;
  std::vector<Row> rows;
};

Table RandomTable(const std::string& name, const std::vector<std::string>& columns, int n,
                  std::mt19937_64& rng) {
  Table t{name, columns, {}};
  std::uniform_int_distribution<int> key(0, 7), value(0, 20), null_draw(0, 9);
  for (int i = 0; i < n; ++i) {
    Row row;
    row.push_back(null_draw(rng) == 0 ? std::nullopt : std::optional<int>(key(rng)));
    for (size_t c = 1; c < columns.size(); ++c) {
      row.push_back(null_draw(rng) == 0 ? std::nullopt : std::optional<int>(value(rng)));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

// `CREATE TEMPORARY VIEW name AS SELECT * FROM (VALUES ...) AS t(cols)` for Eddy.
std::string EddyView(const Table& t) {
  std::vector<std::string> tuples;
  for (const Row& row : t.rows) {
    std::vector<std::string> cells;
    for (const auto& v : row) cells.push_back(v ? std::to_string(*v) : "CAST(NULL AS INT)");
    tuples.push_back("(" + absl::StrJoin(cells, ", ") + ")");
  }
  return absl::StrCat("CREATE TEMPORARY VIEW ", t.name, " AS SELECT * FROM (VALUES ",
                      absl::StrJoin(tuples, ", "), ") AS t(", absl::StrJoin(t.columns, ", "), ");");
}

class Sqlite {
 public:
  Sqlite() { sqlite3_open(":memory:", &db_); }
  ~Sqlite() { sqlite3_close(db_); }

  void Load(const Table& t) {
    Exec(absl::StrCat("CREATE TABLE ", t.name, " (", absl::StrJoin(t.columns, " INTEGER, "),
                      " INTEGER);"));
    for (const Row& row : t.rows) {
      std::vector<std::string> cells;
      for (const auto& v : row) cells.push_back(v ? std::to_string(*v) : "NULL");
      Exec(absl::StrCat("INSERT INTO ", t.name, " VALUES (", absl::StrJoin(cells, ", "), ");"));
    }
  }

  Multiset Query(const std::string& sql) {
    Multiset out;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "sqlite: " << sqlite3_errmsg(db_) << " in " << sql;
      return out;
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      Row row;
      for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
        row.push_back(sqlite3_column_type(stmt, c) == SQLITE_NULL
                          ? std::nullopt
                          : std::optional<int>(sqlite3_column_int(stmt, c)));
      }
      ++out[RowText(row)];
    }
    sqlite3_finalize(stmt);
    return out;
  }

 private:
  void Exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      ADD_FAILURE() << "sqlite: " << (err ? err : "?") << " in " << sql;
      sqlite3_free(err);
    }
  }
  sqlite3* db_ = nullptr;
};

class JoinDifferentialTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(FreshTestDir("joins"));
    cluster_ = new ProcessCluster(*dir_, ClusterOptions{.workers = 2, .slots_per_worker = 4});
  }
  static void TearDownTestSuite() {
    delete cluster_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  void SetUp() override {
    ASSERT_TRUE(cluster_->ok()) << cluster_->error();
    uint64_t seed = std::random_device{}();
    if (const char* s = std::getenv("EDDY_TEST_SEED")) seed = std::strtoull(s, nullptr, 10);
    std::cout << "EDDY_TEST_SEED=" << seed << std::endl;
    rng_.seed(seed);
  }

  // Runs `query` (a SELECT with `columns` output columns) into a print sink at `parallelism` and
  // returns the replayed final rows.
  Multiset RunEddy(const std::string& views, const std::string& query, int columns,
                   int parallelism) {
    std::vector<size_t> offsets;
    for (int i = 0; i < cluster_->workers(); ++i) {
      offsets.push_back(cluster_->WorkerStdout(i).size());
    }
    std::vector<std::string> defs;
    for (int c = 0; c < columns; ++c) defs.push_back(absl::StrCat("c", c, " INT"));
    const std::string sink = absl::StrCat("out_", ++runs_);
    auto r = cluster_->Eddy(
        absl::StrCat("SET 'table.dml-sync' = 'true';", "SET 'parallelism.default' = '", parallelism,
                     "';", views, "CREATE TEMPORARY TABLE ", sink, " (", absl::StrJoin(defs, ", "),
                     ") WITH ('connector' = 'print');", "INSERT INTO ", sink, " ", query, ";"));
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    std::string printed;
    for (int i = 0; i < cluster_->workers(); ++i) {
      printed += cluster_->WorkerStdout(i).substr(offsets[i]);
    }
    std::vector<std::string> errors;
    Multiset rows = ReplayMultiset(printed, &errors);
    for (size_t i = 0; i < errors.size() && i < 5; ++i) ADD_FAILURE() << errors[i];
    return rows;
  }

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

  std::mt19937_64 rng_;
  int runs_ = 0;
  static std::string* dir_;
  static ProcessCluster* cluster_;
};

std::string* JoinDifferentialTest::dir_ = nullptr;
ProcessCluster* JoinDifferentialTest::cluster_ = nullptr;

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
