// What TableEnvironment::ExecuteSql and Table::Execute / ExecuteInsert return, as Flink's
// TableResult: the statement's kind, a job id for INSERTs and queries, and for a query its rows,
// pulled from the cluster as they come (Collect) or printed as the shell prints them (Print).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/eddy_client.h"
#include "common/batch/changelog_batch.h"
#include "common/types/data_type.h"
#include "common/types/time_zone.h"

namespace eddy {

// One change of a query's result.
struct ResultRow {
  RowKind kind = RowKind::kInsert;
  std::vector<Value> values;  // ARRAY, MAP and ROW values as their text, as in `text`
  // Each value as the print sink shows it (`null` for NULL; a TIMESTAMP_LTZ in the session zone).
  std::vector<std::string> text;
  std::string ToString() const;  // as the print sink: +I[a, 1]
};

// Iterates a query's changes in order; the job is cancelled when the iterator is destroyed before
// the end.
class RowIterator {
 public:
  // `zone`: the session's table.local-time-zone, in which `text` shows TIMESTAMP_LTZ values.
  RowIterator(EddyClient* client, std::string job_id, Schema schema, std::optional<int64_t> limit,
              SessionTimeZone zone = SessionTimeZone());
  ~RowIterator();
  RowIterator(RowIterator&& o) noexcept;
  RowIterator& operator=(RowIterator&&) = delete;

  // Fills `row` with the next change: true, or false at the end; an error when the job fails.
  absl::StatusOr<bool> Next(ResultRow* row);

  // Next() in steps that each wait at most one fetch (~200 ms) for rows, so that a caller can do
  // other work (a live view, checking for Ctrl-C) while a quiet query runs.
  enum class Step { kRow, kEnd, kNoRowYet };
  absl::StatusOr<Step> TryNext(ResultRow* row);

  const SessionTimeZone& zone() const { return zone_; }

 private:
  EddyClient* client_;
  std::string job_id_;
  Schema schema_;
  std::optional<int64_t> limit_;
  SessionTimeZone zone_;
  int64_t delivered_ = 0;
  std::vector<ChangelogBatch> batches_;
  size_t batch_ = 0, row_ = 0;
  bool ended_ = false;
};

class TableResult {
 public:
  TableResult(EddyClient* client, v1::ExecuteStatementResponse response)
      : client_(client), response_(std::move(response)) {}

  v1::ExecuteStatementResponse::Kind kind() const { return response_.kind(); }
  // The job of an INSERT, a statement set or a query; empty otherwise.
  const std::string& job_id() const { return response_.job_id(); }
  const v1::ExecuteStatementResponse& response() const { return response_; }

  // A query's changes (an error for other statements).
  absl::StatusOr<RowIterator> Collect() const;
  // Prints the result as the shell does: a query in the session's result mode, tables, plans and
  // messages; a job's id. Runs a query to its end, or until `interrupted` is set (then the rows
  // so far are closed off, the query is cancelled and the result is a Cancelled error).
  // `time_cost_since`: a query's closing line ends with the seconds since then
  // (sql-client.display.print-time-cost).
  absl::Status Print(
      FILE* out = stdout, const std::atomic<bool>* interrupted = nullptr,
      std::optional<std::chrono::steady_clock::time_point> time_cost_since = std::nullopt) const;
  // Waits for the job of an INSERT to finish; an error when it fails.
  absl::Status Await(int64_t timeout_ms = 3600 * 1000) const;

 private:
  EddyClient* client_;
  v1::ExecuteStatementResponse response_;
};

}  // namespace eddy
