// Differential testing against SQLite: small integer tables (with NULLs), the same rows as an Eddy
// VALUES view and as a SQLite table, and a print-sink changelog replayed into the final multiset
// of rows, so that a query's final table can be compared with SQLite's answer.
#pragma once

#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

struct sqlite3;

namespace eddy::testing {

using Row = std::vector<std::optional<int>>;
using Multiset = std::map<std::string, int>;  // row text ("1, null, 3") -> count

std::string RowText(const Row& row);

// Replays print-sink lines (`+I[..]`, `-U[..]`, `+U[..]`, `-D[..]`, any `N> ` prefix) into a
// multiset; a retraction of a row that is not there is recorded in `errors`.
Multiset ReplayMultiset(const std::string& printed, std::vector<std::string>* errors);

struct Table {
  std::string name;
  std::vector<std::string> columns;
  std::vector<Row> rows;
};

// `n` rows: the first column a key in 0..7, the others values in 0..20, each NULL one time in ten.
Table RandomTable(const std::string& name, const std::vector<std::string>& columns, int n,
                  std::mt19937_64& rng);

// `CREATE TEMPORARY VIEW name AS SELECT * FROM (VALUES ...) AS t(cols)` for Eddy.
std::string EddyView(const Table& t);

// An in-memory SQLite database; failures are test failures.
class Sqlite {
 public:
  Sqlite();
  ~Sqlite();
  Sqlite(const Sqlite&) = delete;
  Sqlite& operator=(const Sqlite&) = delete;

  void Load(const Table& t);
  // The result rows with integer cells (RowText).
  Multiset Query(const std::string& sql);
  // The result rows with every cell as SQLite's text of it ("null" for NULL), for string results
  // such as group_concat's.
  Multiset QueryText(const std::string& sql);
  // Runs statements (e.g. CREATE TABLE and INSERTs of tables that are not integer-only).
  void Exec(const std::string& sql);

 private:
  Multiset Run(const std::string& sql, bool as_text);
  sqlite3* db_ = nullptr;
};

}  // namespace eddy::testing
