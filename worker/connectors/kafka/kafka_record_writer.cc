#include "worker/connectors/kafka/kafka_record_writer.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

KafkaFormatWriter::KafkaFormatWriter(const FormatOptions& format, const Schema& schema,
                                     std::vector<int> columns)
    : format_(format), columns_(std::move(columns)) {
  if (format.kind != FormatKind::kRaw) encoder_ = MakeRecordEncoder(format, schema);
}

absl::Status KafkaFormatWriter::Encode(const ChangelogBatch& batch) {
  const size_t n = batch.num_rows();
  buffer_.clear();
  begin_.assign(n, 0);
  end_.assign(n, 0);
  null_.assign(n, false);
  if (encoder_ == nullptr) {  // raw: the one STRING column's bytes; NULL: a null record
    const Column& c = batch.column(static_cast<size_t>(columns_[0]));
    for (size_t r = 0; r < n; ++r) {
      begin_[r] = static_cast<uint32_t>(buffer_.size());
      if (c.IsNull(r)) {
        null_[r] = true;
      } else {
        const std::string_view s = c.GetString(r);
        buffer_.append(s.data(), s.size());
      }
      end_[r] = static_cast<uint32_t>(buffer_.size());
    }
    return absl::OkStatus();
  }
  std::vector<Column> columns;
  columns.reserve(columns_.size());
  for (int c : columns_) columns.push_back(batch.column(static_cast<size_t>(c)));
  ChangelogBatch part(std::move(columns), std::vector<RowKind>(n, RowKind::kInsert));
  RETURN_IF_ERROR(encoder_->Encode(part, &buffer_));
  // One record per line: a line ends at a line break outside quotes (a CSV field may hold one).
  const bool csv_quotes = format_.kind == FormatKind::kCsv && format_.csv.quoting;
  const char quote = format_.csv.quote_character;
  size_t row = 0, start = 0;
  bool quoted = false;
  for (size_t i = 0; i < buffer_.size(); ++i) {
    const char ch = buffer_[i];
    if (csv_quotes && ch == quote) quoted = !quoted;
    if (ch != '\n' || quoted) continue;
    if (row == n) break;
    size_t end = i;
    if (end > start && buffer_[end - 1] == '\r') --end;
    begin_[row] = static_cast<uint32_t>(start);
    end_[row] = static_cast<uint32_t>(end);
    ++row;
    start = i + 1;
  }
  if (row != n) {
    return absl::InternalError(absl::StrCat("the ", std::string(FormatName(format_.kind)),
                                            " encoder wrote ", row, " records for ", n, " rows"));
  }
  return absl::OkStatus();
}

KafkaRecordWriter::KafkaRecordWriter(const ConnectorTable& table, const KafkaOptions& options) {
  if (options.key_format) {
    key_ = std::make_unique<KafkaFormatWriter>(*options.key_format, KafkaKeySchema(table, options),
                                               options.key_columns);
  }
  value_ = std::make_unique<KafkaFormatWriter>(
      options.value_format, KafkaValueSchema(table, options), options.value_columns);
  for (size_t c = 0; c < table.columns.size(); ++c) {
    if (table.IsMetadata(c) && table.metadata_keys[c] == "timestamp") {
      timestamp_column_ = static_cast<int>(c);
    }
    if (table.IsMetadata(c) && table.metadata_keys[c] == "headers") {
      headers_column_ = static_cast<int>(c);
    }
  }
}

absl::Status KafkaRecordWriter::Encode(const ChangelogBatch& batch) {
  if (key_) RETURN_IF_ERROR(key_->Encode(batch));
  return value_->Encode(batch);
}

std::optional<std::string_view> KafkaRecordWriter::headers(const ChangelogBatch& batch,
                                                           size_t row) const {
  if (headers_column_ < 0) return std::nullopt;
  const Column& c = batch.column(static_cast<size_t>(headers_column_));
  if (c.IsNull(row)) return std::nullopt;
  return c.GetString(row);
}

int64_t KafkaRecordWriter::timestamp(const ChangelogBatch& batch, size_t row) const {
  if (timestamp_column_ < 0) return 0;
  const Column& c = batch.column(static_cast<size_t>(timestamp_column_));
  return c.IsNull(row) ? 0 : c.Get<int64_t>(row);
}

}  // namespace eddy
