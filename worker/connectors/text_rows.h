// Rows of field text on their way from a file into typed columns. A format decoder (CSV, JSON
// lines) appends each record's fields as text, one string column per column read; TakeBatch
// converts each column at once with the rules of SQL CAST and reports a value that does not convert
// with its 1-based line and the field's label. Buffers are reused from batch to batch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/batch/column.h"
#include "common/types/data_type.h"

namespace eddy {

// One field of a record: its text, or NULL.
struct FieldText {
  std::string_view text;
  bool null = false;
};

class TextRows {
 public:
  struct ColumnSpec {
    DataType type;
    std::string label;  // for messages: "field 2 (column 'cnt')", "field 'cnt'"
    bool raw = false;   // the raw format: a binary column takes the bytes as they are
  };

  TextRows() = default;
  explicit TextRows(std::vector<ColumnSpec> columns);

  size_t num_columns() const { return specs_.size(); }
  size_t num_rows() const { return lines_.size(); }
  const ColumnSpec& spec(size_t c) const { return specs_[c]; }

  // One record: values[c] for every column, starting at 1-based `line` of its file.
  void AppendRow(const FieldText* values, int64_t line);

  // The rows so far as a batch of +I rows (then empty again). A value that does not convert to
  // its column's type, or NULL in a NOT NULL column, is an error `line N, <label>: ...`; with
  // `ignore_errors` the value becomes NULL instead, and the row is dropped when its column is NOT
  // NULL.
  absl::StatusOr<ChangelogBatch> TakeBatch(bool ignore_errors);

 private:
  std::vector<ColumnSpec> specs_;
  std::vector<Column> text_;  // one STRING column per spec
  std::vector<int64_t> lines_;
};

}  // namespace eddy
