#include "client/table_result.h"

#include <unistd.h>

#include <chrono>

#include "absl/strings/str_cat.h"
#include "client/result_printer.h"
#include "client/table_printer.h"
#include "common/base/status_macros.h"
#include "common/batch/batch_codec.h"
#include "common/types/type_proto.h"

namespace eddy {

std::string ResultRow::ToString() const {
  std::string out(RowKindShortString(kind));
  out += '[';
  for (size_t i = 0; i < text.size(); ++i) {
    if (i > 0) out += ", ";
    out += text[i];
  }
  return out + "]";
}

RowIterator::RowIterator(EddyClient* client, std::string job_id, Schema schema,
                         std::optional<int64_t> limit, SessionTimeZone zone)
    : client_(client),
      job_id_(std::move(job_id)),
      schema_(std::move(schema)),
      limit_(limit),
      zone_(std::move(zone)) {}

RowIterator::RowIterator(RowIterator&& o) noexcept
    : client_(o.client_),
      job_id_(std::move(o.job_id_)),
      schema_(std::move(o.schema_)),
      limit_(o.limit_),
      zone_(std::move(o.zone_)),
      delivered_(o.delivered_),
      batches_(std::move(o.batches_)),
      batch_(o.batch_),
      row_(o.row_),
      ended_(o.ended_) {
  o.client_ = nullptr;  // the moved-from iterator cancels nothing
}

RowIterator::~RowIterator() {
  if (client_ != nullptr && !ended_ && !job_id_.empty()) (void)client_->CancelJob(job_id_);
}

absl::StatusOr<bool> RowIterator::Next(ResultRow* row) {
  while (true) {
    ASSIGN_OR_RETURN(Step step, TryNext(row));
    if (step != Step::kNoRowYet) return step == Step::kRow;
  }
}

absl::StatusOr<RowIterator::Step> RowIterator::TryNext(ResultRow* row) {
  bool fetched_once = false;
  while (true) {
    if (limit_ && delivered_ >= *limit_) {
      if (!ended_) (void)client_->CancelJob(job_id_);
      ended_ = true;
      return Step::kEnd;
    }
    if (batch_ < batches_.size()) {
      const ChangelogBatch& b = batches_[batch_];
      if (row_ < b.num_rows()) {
        row->kind = b.kind(row_);
        row->values.clear();
        row->text.clear();
        for (size_t c = 0; c < b.num_columns(); ++c) {
          row->values.push_back(b.column(c).GetValue(row_));
          row->text.push_back(FormatValueInZone(row->values.back(), b.column(c).type(), zone_));
          // An ARRAY, MAP or ROW value as its text, [1, 2], {a=1}, (1, x), not its encoding.
          if (b.column(c).type().IsCollection() && !row->values.back().is_null()) {
            row->values.back() = Value::String(row->text.back());
          }
        }
        ++row_;
        ++delivered_;
        return Step::kRow;
      }
      ++batch_;
      row_ = 0;
      continue;
    }
    if (ended_) return Step::kEnd;
    if (fetched_once) return Step::kNoRowYet;
    batches_.clear();
    batch_ = row_ = 0;
    ASSIGN_OR_RETURN(v1::FetchResultsResponse fetched, client_->FetchResults(job_id_, 200));
    fetched_once = true;
    for (const auto& encoded : fetched.batches()) {
      ASSIGN_OR_RETURN(ChangelogBatch b, DecodeBatch(encoded));
      batches_.push_back(std::move(b));
    }
    ended_ = fetched.end();
  }
}

absl::StatusOr<RowIterator> TableResult::Collect() const {
  if (response_.kind() != v1::ExecuteStatementResponse::QUERY) {
    return absl::FailedPreconditionError("only a query's result has rows to collect");
  }
  ASSIGN_OR_RETURN(Schema schema, SchemaFromProto(response_.result_schema()));
  std::optional<int64_t> limit;
  if (response_.has_limit()) limit = response_.limit();
  SessionTimeZone zone;
  if (!response_.local_time_zone().empty()) {
    ASSIGN_OR_RETURN(zone, SessionTimeZone::Parse(response_.local_time_zone()));
  }
  return RowIterator(client_, response_.job_id(), std::move(schema), limit, std::move(zone));
}

absl::Status TableResult::Print(
    FILE* out, const std::atomic<bool>* interrupted,
    std::optional<std::chrono::steady_clock::time_point> time_cost_since) const {
  switch (response_.kind()) {
    case v1::ExecuteStatementResponse::QUERY: {
      ASSIGN_OR_RETURN(Schema schema, SchemaFromProto(response_.result_schema()));
      std::unique_ptr<ResultPrinter> printer = MakeResultPrinter(
          response_.result_mode(), schema, out, isatty(fileno(out)) == 1, response_.batch(),
          response_.max_column_width() > 0 ? response_.max_column_width() : kDefaultMaxColumnWidth,
          response_.max_table_rows());
      if (time_cost_since) printer->PrintTimeCostSince(*time_cost_since);
      ASSIGN_OR_RETURN(RowIterator rows, Collect());
      printer->Begin();
      ResultRow row;
      // TIMESTAMP_LTZ columns are printed as the session zone's wall clock: TIMESTAMP values.
      std::vector<DataType> shown = schema.Types();
      std::vector<int> ltz;
      for (size_t c = 0; c < shown.size(); ++c) {
        // Rows give ARRAY, MAP and ROW values as their text already.
        if (shown[c].IsCollection()) shown[c] = DataType::String().WithNullable(shown[c].nullable);
        if (shown[c].id != TypeId::kTimestampLtz) continue;
        shown[c].id = TypeId::kTimestamp;
        ltz.push_back(static_cast<int>(c));
      }
      ChangelogBatch one(shown);
      const SessionTimeZone& zone = rows.zone();
      while (true) {
        if (interrupted != nullptr && interrupted->load()) {
          printer->End();
          return absl::CancelledError("Query terminated by the user; its job was cancelled");
        }
        ASSIGN_OR_RETURN(RowIterator::Step step, rows.TryNext(&row));
        if (step == RowIterator::Step::kEnd) break;
        if (step == RowIterator::Step::kRow) {
          one.Clear();
          for (int c : ltz) {
            if (row.values[c].is_int()) {
              row.values[c] =
                  Value::Int(zone.ToLocal(row.values[c].int_value(), shown[c].precision));
            }
          }
          one.AppendValues(row.values, row.kind);
          printer->Add(one);
        }
        printer->Refresh(std::chrono::steady_clock::now());
      }
      printer->End();
      return absl::OkStatus();
    }
    case v1::ExecuteStatementResponse::TABLE:
      std::fputs(FormatTextTable(response_.table()).c_str(), out);
      return absl::OkStatus();
    case v1::ExecuteStatementResponse::EXPLAIN:
    case v1::ExecuteStatementResponse::TEXT:
      std::fputs(response_.message().c_str(), out);
      return absl::OkStatus();
    case v1::ExecuteStatementResponse::JOB_SUBMITTED:
      std::fprintf(out, "Job ID: %s\n", response_.job_id().c_str());
      return absl::OkStatus();
    default:
      std::fprintf(out, "%s\n", response_.message().c_str());
      return absl::OkStatus();
  }
}

absl::Status TableResult::Await(int64_t timeout_ms) const {
  if (response_.job_id().empty()) return absl::OkStatus();
  ASSIGN_OR_RETURN(v1::JobInfo info, client_->WaitJob(response_.job_id(), timeout_ms));
  if (info.status() == v1::JOB_STATUS_FINISHED) return absl::OkStatus();
  if (info.status() == v1::JOB_STATUS_FAILED) {
    return absl::AbortedError(absl::StrCat("Job ", info.job_id(), " failed: ", info.error()));
  }
  if (info.status() == v1::JOB_STATUS_CANCELED) {
    return absl::CancelledError(absl::StrCat("Job ", info.job_id(), " was cancelled"));
  }
  return absl::DeadlineExceededError(
      absl::StrCat("Job ", info.job_id(), " still running after ", timeout_ms, " ms"));
}

}  // namespace eddy
