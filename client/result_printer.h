// Prints a SELECT's result as it arrives, in the SQL client's result modes
// (`sql-client.execution.result-mode`):
//   TABLEAU (default), CHANGELOG: a table with an `op` column, one row per change as it arrives,
//     column widths from the column types (rows stream, so content cannot size them), ending with
//     `Received a total of N rows`. CHANGELOG prints the same in a non-interactive session.
//   TABLE: the materialized result (each -U/-D removes the row it retracts), ending with
//     `N rows in set` (or `Empty set`); beyond `max_table_rows` rows (when positive) the oldest
//     row goes for each new one, as Flink's sql-client.execution.max-table-result.rows. On a
//     terminal (`live`) it is a view redrawn in place while the query runs, at most twice a second
//     and only when it changed; elsewhere it is printed once, when the query ends.
// A batch query's result (execution.runtime-mode = BATCH) in TABLEAU mode is printed as Flink's SQL
// client prints batch results: when the query ends, without an op column (every row is final),
// column widths from the data, ending with `N rows in set` (or `Empty set`).
// Cells are right-aligned, NULL prints as <NULL>, a cell wider than its column ends in `...`.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/batch/changelog_batch.h"
#include "common/types/data_type.h"

namespace eddy {

inline constexpr int kDefaultMaxColumnWidth = 30;

class ResultPrinter {
 public:
  virtual ~ResultPrinter() = default;
  virtual void Begin() = 0;
  virtual void Add(const ChangelogBatch& batch) = 0;
  virtual void End() = 0;
  // Called often while the query runs, rows or not: a live view redraws here.
  virtual void Refresh(std::chrono::steady_clock::time_point now) {}
  virtual int64_t rows_received() const = 0;
  // sql-client.display.print-time-cost: the closing line (`N rows in set`, `Received a total of N
  // rows`, `Empty set`) ends with the seconds since `since`, as `(1.23 seconds)`.
  void PrintTimeCostSince(std::chrono::steady_clock::time_point since) { time_cost_since_ = since; }

 protected:
  // " (1.23 seconds)", or empty when the time cost is not printed.
  std::string TimeCost() const;

 private:
  std::optional<std::chrono::steady_clock::time_point> time_cost_since_;
};

// `mode` is TABLEAU, TABLE or CHANGELOG (case-insensitive); anything else is TABLEAU. `batch`: the
// result of a batch query. `max_column_width` (`sql-client.display.max-column-width`) is the width
// of variable-width columns (of every column of a batch result).
std::unique_ptr<ResultPrinter> MakeResultPrinter(const std::string& mode, const Schema& schema,
                                                 FILE* out, bool live = false, bool batch = false,
                                                 int max_column_width = kDefaultMaxColumnWidth,
                                                 int64_t max_table_rows = 0);

// Flink's tableau column width for a column: its name, or the widest text of its type (<NULL>
// included), STRING and other variable-width types `max_column_width`.
int TableauColumnWidth(const Field& field, int max_column_width = kDefaultMaxColumnWidth);

}  // namespace eddy
