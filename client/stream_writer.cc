#include "client/stream_writer.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "client/eddy_client.h"
#include "common/base/status_macros.h"
#include "common/batch/batch_codec.h"
#include "common/types/type_proto.h"

namespace eddy {
namespace {

std::string QuoteName(const std::string& name) {
  return "`" + absl::StrReplaceAll(name, {{"`", "``"}}) + "`";
}

const char* ValueKind(const Value& v) {
  if (v.is_null()) return "NULL";
  if (v.is_bool()) return "a boolean";
  if (v.is_int()) return "an integer";
  if (v.is_double()) return "a double";
  return "a string";
}

absl::Status IntegerRange(const Value& v, int64_t lo, int64_t hi, const DataType& type,
                          const std::string& column) {
  if (v.int_value() >= lo && v.int_value() <= hi) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("column '", column, "' (", type.ToString(),
                                                 "): ", v.int_value(), " is out of range"));
}

}  // namespace

StreamSchema& StreamSchema::Column(std::string name, std::string sql_type) {
  columns_.emplace_back(std::move(name), std::move(sql_type));
  return *this;
}

StreamSchema& StreamSchema::Watermark(std::string column, std::string expression) {
  watermark_column_ = std::move(column);
  watermark_expr_ = std::move(expression);
  return *this;
}

std::string StreamSchema::ColumnsSql() const {
  std::vector<std::string> parts;
  for (const auto& [name, type] : columns_) parts.push_back(QuoteName(name) + " " + type);
  return absl::StrJoin(parts, ", ");
}

absl::Status CheckStreamValue(const Value& v, const DataType& type, const std::string& column) {
  if (v.is_null()) {
    if (type.nullable) return absl::OkStatus();
    return absl::InvalidArgumentError(
        absl::StrCat("column '", column, "' (", type.ToString(), ") cannot be NULL"));
  }
  bool fits = false;
  switch (type.id) {
    case TypeId::kBoolean:
      fits = v.is_bool();
      break;
    case TypeId::kTinyInt:
      if (v.is_int()) return IntegerRange(v, INT8_MIN, INT8_MAX, type, column);
      break;
    case TypeId::kSmallInt:
      if (v.is_int()) return IntegerRange(v, INT16_MIN, INT16_MAX, type, column);
      break;
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      if (v.is_int()) return IntegerRange(v, INT32_MIN, INT32_MAX, type, column);
      break;
    case TypeId::kBigInt:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      fits = v.is_int();
      break;
    case TypeId::kFloat:
    case TypeId::kDouble:
      fits = v.is_double();
      break;
    case TypeId::kString:
    case TypeId::kBinary:
      fits = v.is_string();
      break;
    case TypeId::kNull:
      fits = false;
      break;
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return absl::InvalidArgumentError(
          absl::StrCat("column '", column, "' (", type.ToString(),
                       "): a stream takes no ARRAY, MAP or ROW values yet"));
  }
  if (fits) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("column '", column, "' (", type.ToString(), ") cannot take ", ValueKind(v)));
}

absl::StatusOr<std::unique_ptr<StreamWriter>> StreamWriter::Open(EddyClient* client,
                                                                 const StreamSchema& schema,
                                                                 const StreamOptions& options) {
  if (options.batch_rows == 0) {
    return absl::InvalidArgumentError("FromStream: batch_rows must be positive");
  }
  std::unique_ptr<StreamWriter> w(new StreamWriter());
  w->client_ = client;
  w->options_ = options;
  w->stub_ = v1::StreamRelayService::NewStub(client->channel());
  v1::OpenStreamRequest req;
  req.set_session_id(client->session_id());
  req.set_table_name(options.table_name);
  req.set_columns(schema.ColumnsSql());
  req.set_watermark_column(schema.watermark_column());
  req.set_watermark_expr(schema.watermark_expr());
  req.set_buffer_batches(options.buffer_batches);
  v1::OpenStreamResponse resp;
  {
    grpc::ClientContext ctx;
    grpc::Status s = w->stub_->OpenStream(&ctx, req, &resp);
    if (!s.ok()) return client->CallError(s);
  }
  w->stream_id_ = resp.stream_id();
  w->table_path_ = resp.table_path();
  ASSIGN_OR_RETURN(w->schema_, SchemaFromProto(resp.schema()));
  w->pending_ = ChangelogBatch(w->schema_.Types());
  w->stream_ = w->stub_->WriteStream(&w->context_);
  v1::StreamWriteFrame hello;
  hello.set_stream_id(w->stream_id_);
  if (!w->stream_->Write(hello)) return w->StreamError("cannot start writing");
  w->first_frame_ = false;
  w->credit_reader_ = std::thread([raw = w.get()] { raw->ReadCredits(); });
  w->linger_thread_ = std::thread([raw = w.get()] { raw->ShipLingering(); });
  return w;
}

StreamWriter::~StreamWriter() {
  bool closed;
  {
    std::lock_guard<std::mutex> lock(write_mu_);
    closed = closed_;
  }
  if (!closed) context_.TryCancel();  // wakes a linger thread waiting for credit
  StopLingering();
  if (credit_reader_.joinable()) {
    credit_reader_.join();
    if (!closed_) (void)stream_->Finish();
  }
}

void StreamWriter::ShipLingering() {
  const auto period = std::max(std::chrono::milliseconds(1), options_.linger / 2);
  std::unique_lock<std::mutex> lock(write_mu_);
  while (!stop_lingering_) {
    linger_cv_.wait_for(lock, period);
    if (stop_lingering_ || closed_ || !failed_.ok() || pending_.num_rows() == 0) continue;
    if (std::chrono::steady_clock::now() - first_pending_ < options_.linger) continue;
    (void)Ship();  // an error stays in failed_, for the program's next call
  }
}

void StreamWriter::StopLingering() {
  {
    std::lock_guard<std::mutex> lock(write_mu_);
    stop_lingering_ = true;
  }
  linger_cv_.notify_all();
  if (linger_thread_.joinable()) linger_thread_.join();
}

void StreamWriter::ReadCredits() {
  v1::StreamWriteCredit credit;
  while (stream_->Read(&credit)) {
    std::lock_guard<std::mutex> lock(mu_);
    credits_ += credit.credits();
    if (credit.end_received()) end_received_ = true;
    cv_.notify_all();
    if (!credit.error().empty()) {
      error_ = credit.error();
      break;
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  broken_ = true;
  cv_.notify_all();
}

absl::Status StreamWriter::StreamError(const std::string& what) {
  // The stream's own status says why the coordinator ended it, unless it said so in a credit
  // message (then the call is still open, and ends here).
  if (credit_reader_.joinable()) credit_reader_.join();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!error_.empty()) context_.TryCancel();
  }
  grpc::Status s = stream_->Finish();
  closed_ = true;
  if (!error_.empty()) {
    failed_ = absl::FailedPreconditionError(
        absl::StrCat("stream table ", table_path_, ": ", what, ": ", error_));
    return failed_;
  }
  absl::Status why =
      s.ok() ? absl::UnavailableError("the coordinator ended the stream") : client_->CallError(s);
  failed_ = absl::Status(
      why.code(), absl::StrCat("stream table ", table_path_, ": ", what, ": ", why.message()));
  return failed_;
}

absl::Status StreamWriter::Write(const std::vector<Value>& row) {
  std::lock_guard<std::mutex> lock(write_mu_);
  if (!failed_.ok()) return failed_;
  if (closed_) {
    return absl::FailedPreconditionError(
        absl::StrCat("stream table ", table_path_, ": Write after Close"));
  }
  if (row.size() != schema_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("stream table ", table_path_, ": row ", rows_written_ + 1, " has ", row.size(),
                     " values, the table has ", schema_.size(), " columns"));
  }
  for (size_t c = 0; c < row.size(); ++c) {
    absl::Status s = CheckStreamValue(row[c], schema_.fields[c].type, schema_.fields[c].name);
    if (!s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("stream table ", table_path_, ": row ",
                                                     rows_written_ + 1, ": ", s.message()));
    }
  }
  if (pending_.num_rows() == 0) first_pending_ = std::chrono::steady_clock::now();
  for (size_t c = 0; c < row.size(); ++c) pending_.mutable_column(c).AppendValue(row[c]);
  pending_.mutable_kinds().push_back(RowKind::kInsert);
  ++rows_written_;
  if (pending_.num_rows() >= options_.batch_rows ||
      std::chrono::steady_clock::now() - first_pending_ >= options_.linger) {
    return Ship();
  }
  return absl::OkStatus();
}

absl::Status StreamWriter::Ship() {
  if (pending_.num_rows() == 0) return absl::OkStatus();
  RETURN_IF_ERROR(Send(pending_));
  pending_ = ChangelogBatch(schema_.Types());
  return absl::OkStatus();
}

absl::Status StreamWriter::WriteBatch(const ChangelogBatch& batch) {
  std::lock_guard<std::mutex> lock(write_mu_);
  if (!failed_.ok()) return failed_;
  if (closed_) {
    return absl::FailedPreconditionError(
        absl::StrCat("stream table ", table_path_, ": WriteBatch after Close"));
  }
  auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat("stream table ", table_path_, ": batch of rows ",
                                                   rows_written_ + 1, "..: ", why));
  };
  if (batch.num_columns() != schema_.size()) {
    return bad(
        absl::StrCat("it has ", batch.num_columns(), " columns, the table has ", schema_.size()));
  }
  for (size_t c = 0; c < schema_.size(); ++c) {
    const DataType& type = schema_.fields[c].type;
    const DataType& given = batch.column(c).type();
    if (!given.SameAs(type)) {
      return bad(absl::StrCat("column '", schema_.fields[c].name, "' (", type.ToString(),
                              ") is given as ", given.ToString()));
    }
    if (!type.nullable && batch.column(c).HasNulls()) {
      return bad(absl::StrCat("column '", schema_.fields[c].name, "' (", type.ToString(),
                              ") has NULL values"));
    }
  }
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      return bad(absl::StrCat("row ", r + 1, " of the batch is not an insert (+I)"));
    }
  }
  RETURN_IF_ERROR(Ship());
  if (batch.num_rows() == 0) return absl::OkStatus();
  RETURN_IF_ERROR(Send(batch));
  rows_written_ += static_cast<int64_t>(batch.num_rows());
  return absl::OkStatus();
}

absl::Status StreamWriter::Send(const ChangelogBatch& batch) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (credits_ == 0 && !broken_) ++credit_waits_;
    cv_.wait(lock, [&] { return credits_ > 0 || broken_; });
    if (credits_ == 0) {
      lock.unlock();
      return StreamError("cannot send a batch");
    }
    --credits_;
  }
  v1::StreamWriteFrame frame;
  EncodeBatch(batch, frame.mutable_batch());
  if (!stream_->Write(frame)) return StreamError("cannot send a batch");
  ++batches_sent_;
  return absl::OkStatus();
}

absl::Status StreamWriter::Flush() {
  std::lock_guard<std::mutex> lock(write_mu_);
  if (!failed_.ok()) return failed_;
  if (closed_) {
    return absl::FailedPreconditionError(
        absl::StrCat("stream table ", table_path_, ": Flush after Close"));
  }
  return Ship();
}

absl::Status StreamWriter::Close() {
  StopLingering();  // from here on the program's thread alone sends
  std::lock_guard<std::mutex> lock(write_mu_);
  if (!failed_.ok()) return failed_;
  if (closed_) {
    return absl::FailedPreconditionError(
        absl::StrCat("stream table ", table_path_, ": Close after Close"));
  }
  RETURN_IF_ERROR(Ship());
  v1::StreamWriteFrame end;
  end.set_end(true);
  if (!stream_->Write(end)) return StreamError("cannot send the end of the stream");
  stream_->WritesDone();
  {
    std::unique_lock<std::mutex> credit_lock(mu_);
    cv_.wait(credit_lock, [&] { return end_received_ || broken_; });
  }
  credit_reader_.join();
  closed_ = true;
  grpc::Status s = stream_->Finish();
  if (!s.ok() || !end_received_) {
    absl::Status why = s.ok() ? absl::UnavailableError("no answer to the end of the stream")
                              : client_->CallError(s);
    return absl::Status(why.code(),
                        absl::StrCat("stream table ", table_path_, ": Close: ", why.message()));
  }
  return absl::OkStatus();
}

}  // namespace eddy
