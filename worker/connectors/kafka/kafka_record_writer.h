// Turns rows into Kafka records: the key columns into the key's bytes through key.format, the
// value columns into the value's bytes through value.format (csv, json or raw), and the writable
// metadata (timestamp) into the record's timestamp. A batch is encoded at once into one buffer per
// format, which each row's bytes then point into: no allocation per row.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "common/batch/changelog_batch.h"
#include "common/connectors/connector_factory.h"
#include "common/connectors/kafka_connector.h"
#include "worker/connectors/file_format.h"

namespace eddy {

// One format's half of the records of a batch.
class KafkaFormatWriter {
 public:
  // `columns`: the input columns this format holds, in order.
  KafkaFormatWriter(const FormatOptions& format, const Schema& schema, std::vector<int> columns);
  absl::Status Encode(const ChangelogBatch& batch);
  std::string_view record(size_t row) const {
    return std::string_view(buffer_).substr(begin_[row], end_[row] - begin_[row]);
  }
  bool null(size_t row) const { return null_[row]; }

 private:
  FormatOptions format_;
  std::vector<int> columns_;
  std::unique_ptr<RecordEncoder> encoder_;  // null for raw
  std::string buffer_;
  std::vector<uint32_t> begin_, end_;
  std::vector<bool> null_;
};

class KafkaRecordWriter {
 public:
  // `table`: the sink's input columns as the table's columns.
  KafkaRecordWriter(const ConnectorTable& table, const KafkaOptions& options);
  absl::Status Encode(const ChangelogBatch& batch);

  bool has_key() const { return key_ != nullptr; }
  std::string_view key(size_t row) const { return key_->record(row); }
  bool key_null(size_t row) const { return key_->null(row); }
  std::string_view value(size_t row) const { return value_->record(row); }
  bool value_null(size_t row) const { return value_->null(row); }
  // The record's timestamp (the 'timestamp' metadata column), 0: none (the producer's clock).
  int64_t timestamp(const ChangelogBatch& batch, size_t row) const;
  // The record's headers (the 'headers' metadata column, an encoded MAP<STRING, BYTES>); nullopt:
  // none.
  std::optional<std::string_view> headers(const ChangelogBatch& batch, size_t row) const;

 private:
  std::unique_ptr<KafkaFormatWriter> key_;
  std::unique_ptr<KafkaFormatWriter> value_;
  int timestamp_column_ = -1;
  int headers_column_ = -1;
};

}  // namespace eddy
