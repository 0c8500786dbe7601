// A Table's result as a stream of changes, as Flink's toChangelogStream / toRetractStream /
// toDataStream: the rows of the query in order, pulled from the cluster as they come (the query
// runs until the stream ends or is destroyed, which cancels it).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "client/table_result.h"

namespace eddy {

class Table;

// Rows with their change kind (+I, -U, +U, -D).
class ChangelogStream {
 public:
  explicit ChangelogStream(RowIterator rows) : rows_(std::move(rows)) {}
  // The next change: true, or false at the end; an error when the job fails.
  absl::StatusOr<bool> Next(ResultRow* row) { return rows_.Next(row); }

 private:
  RowIterator rows_;
};

// (bool, row) pairs: true adds the row (+I, +U), false retracts it (-U, -D).
class RetractStream {
 public:
  explicit RetractStream(RowIterator rows) : rows_(std::move(rows)) {}
  absl::StatusOr<bool> Next(bool* add, ResultRow* row);

 private:
  RowIterator rows_;
};

// Rows of an append-only table (each an insert).
class DataStream {
 public:
  explicit DataStream(RowIterator rows) : rows_(std::move(rows)) {}
  absl::StatusOr<bool> Next(ResultRow* row) { return rows_.Next(row); }

 private:
  RowIterator rows_;
};

// The node of an `EXPLAIN CHANGELOG_MODE` plan that produces updates closest to its root, or ""
// when its root is insert-only. Exposed for tests.
std::string FirstUpdatingNode(const std::string& explain_changelog_mode);

}  // namespace eddy
