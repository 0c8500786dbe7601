#include "worker/connectors/kafka/kafka_record_reader.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/connectors/json_lines_format.h"
#include "worker/operators/accumulator_codec.h"

namespace eddy {
namespace {

std::vector<int> AllColumns(const Schema& schema) {
  std::vector<int> out;
  for (size_t i = 0; i < schema.size(); ++i) out.push_back(static_cast<int>(i));
  return out;
}

// "line N, ..." of a decoder names the record's offset here.
std::string OffsetWording(absl::string_view message) {
  if (absl::StartsWith(message, "line ")) return absl::StrCat("offset ", message.substr(5));
  return std::string(message);
}

}  // namespace

KafkaFormatReader::KafkaFormatReader(const FormatOptions& format, const Schema& schema)
    : format_(format), rows_(MakeTextRows(format, schema, AllColumns(schema))) {
  if (format.kind != FormatKind::kRaw)
    decoder_ = MakeRecordDecoder(format, schema, AllColumns(schema));
  nulls_.assign(schema.size(), FieldText{{}, true});
}

absl::StatusOr<bool> KafkaFormatReader::Append(std::string_view bytes, int64_t offset) {
  const size_t before = rows_.num_rows();
  if (decoder_ == nullptr) {  // raw: the bytes are the one column
    FieldText field{bytes, false};
    rows_.AppendRow(&field, offset);
    return true;
  }
  if (format_.kind == FormatKind::kJson && bytes.find('\n') != std::string_view::npos) {
    scratch_.assign(bytes.data(), bytes.size());
    std::replace(scratch_.begin(), scratch_.end(), '\n', ' ');
    bytes = scratch_;
  }
  decoder_->ResumeFile(offset);
  ASSIGN_OR_RETURN(size_t consumed, decoder_->Decode(bytes, /*eof=*/true, before + 1, &rows_));
  (void)consumed;
  return rows_.num_rows() > before;
}

void KafkaFormatReader::AppendNulls() { rows_.AppendRow(nulls_.data(), 0); }

absl::StatusOr<ChangelogBatch> KafkaFormatReader::TakeBatch() {
  return rows_.TakeBatch(format_.ignore_parse_errors());
}

KafkaRecordReader::KafkaRecordReader(const ConnectorTable& table, const KafkaOptions& options,
                                     const std::vector<int>& columns)
    : table_name_(table.name) {
  if (options.key_format) {
    key_ = std::make_unique<KafkaFormatReader>(*options.key_format, KafkaKeySchema(table, options));
  }
  value_ =
      std::make_unique<KafkaFormatReader>(options.value_format, KafkaValueSchema(table, options));
  for (int c : columns) {
    types_.push_back(table.columns.fields[c].type);
    OutputColumn out{OutputColumn::kValue, -1, ""};
    if (table.IsMetadata(c)) {
      out = {OutputColumn::kMetadata, -1, table.metadata_keys[c]};
      reads_metadata_ = true;
    } else {
      auto k = std::find(options.key_columns.begin(), options.key_columns.end(), c);
      if (key_ && k != options.key_columns.end()) {
        out = {OutputColumn::kKey, static_cast<int>(k - options.key_columns.begin()), ""};
      } else {
        auto v = std::find(options.value_columns.begin(), options.value_columns.end(), c);
        out.index = static_cast<int>(v - options.value_columns.begin());
      }
    }
    plan_.push_back(std::move(out));
    metadata_.emplace_back(plan_.back().source == OutputColumn::kMetadata ? types_.back()
                                                                          : DataType::Null());
  }
}

absl::Status KafkaRecordReader::Where(const absl::Status& s, std::string_view topic,
                                      int32_t partition) const {
  return absl::Status(s.code(),
                      absl::StrCat("table '", table_name_, "': topic '", std::string(topic),
                                   "' partition ", partition, ": ", OffsetWording(s.message())));
}

absl::StatusOr<bool> KafkaRecordReader::Append(const rd_kafka_message_s& m, std::string_view topic,
                                               std::string_view value, bool value_null,
                                               RowKind kind,
                                               std::optional<std::string_view> saved) {
  if (value_null) {
    value_->AppendNulls();
  } else {
    absl::StatusOr<bool> appended = value_->Append(value, m.offset);
    if (!appended.ok()) return Where(appended.status(), topic, m.partition);
    if (!*appended) return false;
  }
  if (key_) {
    if (m.key == nullptr) {
      return Where(absl::InvalidArgumentError(absl::StrCat(
                       "offset ", m.offset, ": the record has no key, but the table reads one")),
                   topic, m.partition);
    }
    absl::StatusOr<bool> appended =
        key_->Append(std::string_view(static_cast<const char*>(m.key), m.key_len), m.offset);
    if (!appended.ok()) return Where(appended.status(), topic, m.partition);
    if (!*appended) {
      return Where(absl::InvalidArgumentError(
                       absl::StrCat("offset ", m.offset, ": the key holds no record")),
                   topic, m.partition);
    }
  }
  if (saved) {
    RETURN_IF_ERROR(AppendSavedMetadata(*saved));
  } else {
    AppendMetadataOf(m, topic);
  }
  kinds_.push_back(kind);
  return true;
}

void KafkaRecordReader::AppendMetadataOf(const rd_kafka_message_s& m, std::string_view topic) {
  for (size_t i = 0; i < plan_.size(); ++i) {
    if (plan_[i].source != OutputColumn::kMetadata) continue;
    Column& col = metadata_[i];
    const std::string& key = plan_[i].meta;
    if (key == "topic") {
      col.AppendString(topic);
    } else if (key == "partition") {
      col.Append<int32_t>(m.partition);
    } else if (key == "offset") {
      col.Append<int64_t>(m.offset);
    } else if (key == "timestamp" || key == "timestamp-type") {
      rd_kafka_timestamp_type_t type;
      const int64_t ts = rd_kafka_message_timestamp(&m, &type);
      if (key == "timestamp") {
        if (ts < 0) {
          col.AppendNull();
        } else {
          col.Append<int64_t>(ts);
        }
      } else {
        col.AppendString(type == RD_KAFKA_TIMESTAMP_CREATE_TIME       ? "CreateTime"
                         : type == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME ? "LogAppendTime"
                                                                      : "NoTimestampType");
      }
    } else {  // headers: MAP<STRING, BYTES>
      headers_encoder_.Encode(m, &headers_);
      col.AppendString(headers_);
    }
  }
}

// Saved as one entry per metadata column read, in their order: a varint null flag, then the value
// (a string's bytes length-prefixed, a number as a signed varint).
void KafkaRecordReader::SaveMetadata(const rd_kafka_message_s& m, std::string_view topic,
                                     std::string* out) {
  for (size_t i = 0; i < plan_.size(); ++i) {
    if (plan_[i].source != OutputColumn::kMetadata) continue;
    const std::string& key = plan_[i].meta;
    if (key == "topic") {
      agg_codec::PutString(topic, out);
    } else if (key == "partition") {
      agg_codec::PutSigned(m.partition, out);
    } else if (key == "offset") {
      agg_codec::PutSigned(m.offset, out);
    } else if (key == "timestamp" || key == "timestamp-type") {
      rd_kafka_timestamp_type_t type;
      const int64_t ts = rd_kafka_message_timestamp(&m, &type);
      agg_codec::PutSigned(key == "timestamp" ? ts : static_cast<int64_t>(type), out);
    } else {
      headers_encoder_.Encode(m, &headers_);
      agg_codec::PutString(headers_, out);
    }
  }
}

absl::Status KafkaRecordReader::AppendSavedMetadata(std::string_view saved) {
  agg_codec::Reader in(saved);
  for (size_t i = 0; i < plan_.size(); ++i) {
    if (plan_[i].source != OutputColumn::kMetadata) continue;
    Column& col = metadata_[i];
    const std::string& key = plan_[i].meta;
    if (key == "topic" || key == "headers") {
      col.AppendString(in.String());
    } else if (key == "partition") {
      col.Append<int32_t>(static_cast<int32_t>(in.Signed()));
    } else if (key == "offset") {
      col.Append<int64_t>(in.Signed());
    } else if (key == "timestamp") {
      const int64_t ts = in.Signed();
      if (ts < 0) {
        col.AppendNull();
      } else {
        col.Append<int64_t>(ts);
      }
    } else {  // timestamp-type
      const int64_t type = in.Signed();
      col.AppendString(type == RD_KAFKA_TIMESTAMP_CREATE_TIME       ? "CreateTime"
                       : type == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME ? "LogAppendTime"
                                                                    : "NoTimestampType");
    }
  }
  if (!in.ok()) {
    return absl::DataLossError(
        absl::StrCat("table '", table_name_, "': the saved metadata of a key is truncated"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ChangelogBatch> KafkaRecordReader::TakeBatch() {
  ChangelogBatch key_batch, value_batch;
  if (key_) {
    ASSIGN_OR_RETURN(key_batch, key_->TakeBatch());
    if (key_batch.num_rows() != kinds_.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "table '", table_name_, "': a key value does not convert to its NOT NULL column"));
    }
  }
  ASSIGN_OR_RETURN(value_batch, value_->TakeBatch());
  if (value_batch.num_rows() != kinds_.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "table '", table_name_,
        "': a value does not convert to its NOT NULL column (the row cannot be skipped here)"));
  }
  std::vector<Column> columns;
  columns.reserve(plan_.size());
  for (size_t i = 0; i < plan_.size(); ++i) {
    switch (plan_[i].source) {
      case OutputColumn::kKey:
        columns.push_back(key_batch.column(static_cast<size_t>(plan_[i].index)));
        break;
      case OutputColumn::kValue:
        columns.push_back(value_batch.column(static_cast<size_t>(plan_[i].index)));
        break;
      case OutputColumn::kMetadata:
        columns.push_back(std::move(metadata_[i]));
        metadata_[i] = Column(types_[i]);
        break;
    }
  }
  std::vector<RowKind> kinds;
  kinds.swap(kinds_);
  return ChangelogBatch(std::move(columns), std::move(kinds));
}

}  // namespace eddy
