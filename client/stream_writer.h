// A program's rows into a query, as Flink's fromDataStream / createTemporaryView(name, stream):
// TableEnvironment::FromStream declares a table with the given columns (and watermark, as in
// CREATE TABLE) and returns it with a StreamWriter that pushes rows into it. Rows travel in
// columnar batches to the coordinator, which relays them to the one source subtask that scans the
// table; credits bound what is in flight, so a slow query blocks Write. Close ends the stream (a
// query over it then finishes, as over a bounded table).
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/types/data_type.h"
#include "common/types/value.h"
#include "eddy/v1/stream_relay.grpc.pb.h"

namespace eddy {

class EddyClient;

// The columns of a stream's table, as Flink's Schema builder: Column("amount", "BIGINT") takes the
// SQL type of CREATE TABLE; Watermark("ts", "ts - INTERVAL '1' SECOND") is its WATERMARK FOR clause
// (the column a TIMESTAMP(3) or TIMESTAMP_LTZ(3)).
class StreamSchema {
 public:
  StreamSchema& Column(std::string name, std::string sql_type);
  StreamSchema& Watermark(std::string column, std::string expression);

  // `name TYPE, ...` with quoted names.
  std::string ColumnsSql() const;
  const std::string& watermark_column() const { return watermark_column_; }
  const std::string& watermark_expr() const { return watermark_expr_; }

 private:
  std::vector<std::pair<std::string, std::string>> columns_;
  std::string watermark_column_;
  std::string watermark_expr_;
};

struct StreamOptions {
  // The temporary table's name (an SQL identifier path, as CREATE TABLE takes); empty: a generated
  // name (`stream_<n>`).
  std::string table_name;
  // The coordinator's buffer for the stream, in batches; 0: its default (64). Batches a completed
  // checkpoint does not yet cover count against it (a restore reads them again).
  int buffer_batches = 0;
  // Rows per batch: a batch ships when it holds this many rows, or once its first row has waited
  // `linger` (a thread of the writer ships it while the program pauses); Flush and Close ship
  // what there is at once.
  size_t batch_rows = 1024;
  std::chrono::milliseconds linger{200};
};

class StreamWriter {
 public:
  // Opens the stream on the coordinator `client` talks to (OpenStream, then WriteStream).
  static absl::StatusOr<std::unique_ptr<StreamWriter>> Open(EddyClient* client,
                                                            const StreamSchema& schema,
                                                            const StreamOptions& options);
  // Without Close, the stream breaks: the job that reads it fails.
  ~StreamWriter();
  StreamWriter(const StreamWriter&) = delete;
  StreamWriter& operator=(const StreamWriter&) = delete;

  // Appends one row (an insert), a value per column in order: Value::Int for integer, DECIMAL
  // (unscaled), DATE (days since 1970-01-01) and TIMESTAMP(p) (units of 10^-p s since 1970-01-01)
  // columns, Value::Double for FLOAT and DOUBLE, Value::Bool, Value::String, Value::Null() for
  // NULL. A row that does not fit the columns is an error naming the column. Blocks while the
  // coordinator's buffer for the stream is full.
  absl::Status Write(const std::vector<Value>& row);
  // Appends a whole columnar batch (the columns of schema(), inserts only) after the rows written
  // before it: no per-row work, for programs that already hold their rows as columns. It goes as
  // one message, so keep it to thousands of rows.
  absl::Status WriteBatch(const ChangelogBatch& batch);
  // Ships the rows written so far.
  absl::Status Flush();
  // Ships the rest and ends the stream; returns once the coordinator has it all.
  absl::Status Close();
  // Breaks the stream from any thread: a Write blocked for credit returns an error, and the job
  // reading the stream fails. For a program that gives up (its consumer failed, say).
  void Cancel() { context_.TryCancel(); }

  // The stream's table: its quoted path (`default_catalog`.`default_database`.`stream_1`), and the
  // columns a row has.
  const std::string& table_path() const { return table_path_; }
  const Schema& schema() const { return schema_; }
  // Batches sent so far, and how many of them waited for a credit (back-pressure).
  int64_t batches_sent() const { return batches_sent_; }
  int64_t credit_waits() const { return credit_waits_; }

 private:
  StreamWriter() = default;
  absl::Status Ship();  // Ship, Send and StreamError run with write_mu_ held
  // The linger thread: ships a batch whose first row waited `linger` while the program pauses.
  void ShipLingering();
  void StopLingering();
  // Sends `batch` with one credit, waiting for one.
  absl::Status Send(const ChangelogBatch& batch);
  void ReadCredits();
  absl::Status StreamError(const std::string& what);

  EddyClient* client_ = nullptr;
  std::string stream_id_;
  std::string table_path_;
  Schema schema_;
  StreamOptions options_;
  std::unique_ptr<v1::StreamRelayService::Stub> stub_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::StreamWriteFrame, v1::StreamWriteCredit>> stream_;
  std::thread credit_reader_;
  std::thread linger_thread_;

  // Guards the batch being filled and the stream's state between the program's calls and the
  // linger thread.
  std::mutex write_mu_;
  std::condition_variable linger_cv_;
  bool stop_lingering_ = false;

  std::mutex mu_;  // guards what the credit reader shares
  std::condition_variable cv_;
  int64_t credits_ = 0;
  bool end_received_ = false;
  bool broken_ = false;  // the coordinator ended the stream
  std::string error_;    // why, when it said
  absl::Status failed_;  // the error that ended the stream: every later call returns it

  ChangelogBatch pending_;
  std::chrono::steady_clock::time_point first_pending_;
  bool first_frame_ = true;
  bool closed_ = false;
  int64_t rows_written_ = 0;
  int64_t batches_sent_ = 0;
  int64_t credit_waits_ = 0;
};

// Checks that `v` fits a column of type `type` (exposed for tests): the Value kind the type takes,
// NULL only in a nullable column, integers within the type's range.
absl::Status CheckStreamValue(const Value& v, const DataType& type, const std::string& column);

}  // namespace eddy
