// Turns Kafka records into rows of a kafka or upsert-kafka table: the key's bytes fill the key
// columns through key.format, the value's bytes the value columns through value.format (csv, json
// or raw), and metadata columns come from the record itself (topic, partition, offset, timestamp,
// timestamp-type, headers). Rows collect until TakeBatch, which converts each column at once; the
// per-record work reuses the decoders' and the columns' buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/connectors/connector_factory.h"
#include "common/connectors/kafka_connector.h"
#include "worker/connectors/file_format.h"
#include "worker/connectors/kafka/kafka_headers.h"

struct rd_kafka_message_s;

namespace eddy {

// One format's half of a record (the key or the value).
class KafkaFormatReader {
 public:
  KafkaFormatReader(const FormatOptions& format, const Schema& schema);
  // Appends the bytes as one row; false when the format skipped them (an ignored parse error, an
  // empty CSV line). `offset` names the record in errors ("offset N, field ...").
  absl::StatusOr<bool> Append(std::string_view bytes, int64_t offset);
  // A row of NULLs (the value of a deleted key).
  void AppendNulls();
  size_t num_rows() const { return rows_.num_rows(); }
  absl::StatusOr<ChangelogBatch> TakeBatch();

 private:
  FormatOptions format_;
  std::unique_ptr<RecordDecoder> decoder_;  // null for raw
  TextRows rows_;
  std::vector<FieldText> nulls_;
  std::string scratch_;  // a JSON record's bytes with its line breaks made spaces
};

class KafkaRecordReader {
 public:
  // `columns`: the table columns read (indexes into table.columns), in output order.
  KafkaRecordReader(const ConnectorTable& table, const KafkaOptions& options,
                    const std::vector<int>& columns);

  // Appends the record as a row of kind `kind`, with `value` in place of its value (the row of a
  // deletion: value_null, its columns NULL), and the metadata `saved` holds (SaveMetadata) in place
  // of the record's when given. False when a format skipped it. Errors name the table, topic,
  // partition and offset.
  absl::StatusOr<bool> Append(const rd_kafka_message_s& message, std::string_view topic,
                              std::string_view value, bool value_null, RowKind kind,
                              std::optional<std::string_view> saved = std::nullopt);
  // Whether the columns read include metadata.
  bool reads_metadata() const { return reads_metadata_; }
  // Appends to *out the record's values of the metadata columns read, as Append takes them back
  // (the upsert-kafka source keeps them with each key's last value, for the row that retracts it).
  void SaveMetadata(const rd_kafka_message_s& message, std::string_view topic, std::string* out);
  size_t num_rows() const { return kinds_.size(); }
  // The rows so far, in the columns read (then empty again).
  absl::StatusOr<ChangelogBatch> TakeBatch();

 private:
  struct OutputColumn {
    enum Source { kKey, kValue, kMetadata } source;
    int index;         // into the key or value columns
    std::string meta;  // metadata key
  };
  absl::Status Where(const absl::Status& s, std::string_view topic, int32_t partition) const;
  void AppendMetadataOf(const rd_kafka_message_s& m, std::string_view topic);
  absl::Status AppendSavedMetadata(std::string_view saved);

  std::string table_name_;
  std::vector<DataType> types_;  // of the columns read
  std::vector<OutputColumn> plan_;
  std::unique_ptr<KafkaFormatReader> key_;
  std::unique_ptr<KafkaFormatReader> value_;
  std::vector<Column> metadata_;  // per plan_ entry (empty Column for non-metadata)
  std::vector<RowKind> kinds_;
  bool reads_metadata_ = false;
  KafkaHeadersEncoder headers_encoder_;
  std::string headers_;  // scratch of the headers column
};

}  // namespace eddy
