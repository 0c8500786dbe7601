#include "tests/integration/sqlite_oracle.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace eddy::testing {
namespace {

std::string Cell(const std::optional<int>& v) { return v ? std::to_string(*v) : "null"; }

}  // namespace

std::string RowText(const Row& row) {
  std::vector<std::string> cells;
  for (const auto& v : row) cells.push_back(Cell(v));
  return absl::StrJoin(cells, ", ");
}

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

Sqlite::Sqlite() { sqlite3_open(":memory:", &db_); }
Sqlite::~Sqlite() { sqlite3_close(db_); }

void Sqlite::Load(const Table& t) {
  Exec(absl::StrCat("CREATE TABLE ", t.name, " (", absl::StrJoin(t.columns, " INTEGER, "),
                    " INTEGER);"));
  for (const Row& row : t.rows) {
    std::vector<std::string> cells;
    for (const auto& v : row) cells.push_back(v ? std::to_string(*v) : "NULL");
    Exec(absl::StrCat("INSERT INTO ", t.name, " VALUES (", absl::StrJoin(cells, ", "), ");"));
  }
}

Multiset Sqlite::Query(const std::string& sql) { return Run(sql, /*as_text=*/false); }

Multiset Sqlite::QueryText(const std::string& sql) { return Run(sql, /*as_text=*/true); }

Multiset Sqlite::Run(const std::string& sql, bool as_text) {
  Multiset out;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << "sqlite: " << sqlite3_errmsg(db_) << " in " << sql;
    return out;
  }
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    std::vector<std::string> cells;
    for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
      if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
        cells.push_back("null");
      } else if (as_text) {
        cells.push_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)));
      } else {
        cells.push_back(std::to_string(sqlite3_column_int(stmt, c)));
      }
    }
    ++out[absl::StrJoin(cells, ", ")];
  }
  sqlite3_finalize(stmt);
  return out;
}

void Sqlite::Exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    ADD_FAILURE() << "sqlite: " << (err ? err : "?") << " in " << sql;
    sqlite3_free(err);
  }
}

}  // namespace eddy::testing
