// ChangelogBatch: the unit of data between operators and on the wire. Equal-length typed columns
// plus one RowKind per row. Move-only: a batch has one owner; operators read their input by const
// reference and build new batches for their output.
#pragma once

#include <string>
#include <vector>

#include "common/batch/column.h"
#include "common/batch/row_kind.h"
#include "common/types/data_type.h"

namespace eddy {

class ChangelogBatch {
 public:
  ChangelogBatch() = default;
  explicit ChangelogBatch(const std::vector<DataType>& types);
  ChangelogBatch(std::vector<Column> columns, std::vector<RowKind> kinds);

  ChangelogBatch(ChangelogBatch&&) noexcept = default;
  ChangelogBatch& operator=(ChangelogBatch&&) noexcept = default;
  ChangelogBatch(const ChangelogBatch&) = delete;
  ChangelogBatch& operator=(const ChangelogBatch&) = delete;

  size_t num_rows() const { return kinds_.size(); }
  size_t num_columns() const { return columns_.size(); }
  bool empty() const { return kinds_.empty(); }

  const Column& column(size_t i) const { return columns_[i]; }
  Column& mutable_column(size_t i) { return columns_[i]; }
  const std::vector<Column>& columns() const { return columns_; }
  std::vector<Column>& mutable_columns() { return columns_; }
  RowKind kind(size_t row) const { return kinds_[row]; }
  const std::vector<RowKind>& kinds() const { return kinds_; }
  std::vector<RowKind>& mutable_kinds() { return kinds_; }
  std::vector<DataType> Types() const;

  void Reserve(size_t rows);
  void Clear();
  // Appends row `row` of `src` (same column types) with the given kind.
  void AppendRow(const ChangelogBatch& src, size_t row, RowKind kind);
  // Appends a boxed row (cold paths: VALUES, tests).
  void AppendValues(const std::vector<Value>& values, RowKind kind);

  // Explicit deep copy, for the rare places that need one.
  ChangelogBatch Clone() const;

  // Rough in-memory size, for flush thresholds.
  size_t ByteSize() const;

 private:
  std::vector<Column> columns_;
  std::vector<RowKind> kinds_;
};

// Flink's print format for one row: `+I[a, 1]`, nulls as `null`.
std::string FormatRow(const ChangelogBatch& batch, size_t row);

}  // namespace eddy
