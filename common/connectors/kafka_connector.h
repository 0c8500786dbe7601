// The kafka and upsert-kafka connectors (Flink's), planning half: their options, read by one
// function for the planner (CREATE TABLE) and the worker (building the source or sink), and what
// each connector can do. kafka reads and appends records of one or more topics; upsert-kafka reads
// a topic as a table keyed by the PRIMARY KEY (a record with a null value deletes its key) and
// writes a changelog as such records. The runtime half is worker/connectors/kafka/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/connector_factory.h"
#include "common/connectors/format_options.h"

namespace eddy {

const ConnectorFactory& KafkaConnector();
const ConnectorFactory& UpsertKafkaConnector();

// scan.startup.mode
enum class KafkaStartupMode { kEarliest, kLatest, kGroupOffsets, kTimestamp, kSpecificOffsets };
// scan.bounded.mode
enum class KafkaBoundedMode { kUnbounded, kLatest, kGroupOffsets, kTimestamp, kSpecificOffsets };
// sink.delivery-guarantee
enum class KafkaDeliveryGuarantee { kNone, kAtLeastOnce, kExactlyOnce };
// sink.partitioner
enum class KafkaPartitioner { kDefault, kFixed, kRoundRobin };

// Flink's default of scan.topic-partition-discovery.interval: 5 minutes.
inline constexpr int64_t kDefaultKafkaDiscoveryIntervalMs = 5 * 60 * 1000;

struct KafkaOptions {
  bool upsert = false;              // the upsert-kafka connector
  std::vector<std::string> topics;  // 'topic' ("a;b"); empty when topic-pattern is set
  std::string topic_pattern;        // 'topic-pattern': a regular expression over topic names
  // properties.* without the prefix (bootstrap.servers at least), passed to librdkafka as they are.
  std::map<std::string, std::string> properties;

  std::optional<FormatOptions> key_format;  // unset: records are read and written without key
  FormatOptions value_format;
  // Table columns (indexes into ConnectorTable::columns) the key and the value hold, in order.
  std::vector<int> key_columns;
  std::vector<int> value_columns;
  std::string key_fields_prefix;  // key.fields-prefix: stripped from the key's field names

  KafkaStartupMode startup = KafkaStartupMode::kGroupOffsets;
  std::map<int32_t, int64_t> startup_offsets;  // scan.startup.specific-offsets, by partition
  int64_t startup_timestamp_ms = 0;            // scan.startup.timestamp-millis
  KafkaBoundedMode bounded = KafkaBoundedMode::kUnbounded;
  std::map<int32_t, int64_t> bounded_offsets;  // scan.bounded.specific-offsets
  int64_t bounded_timestamp_ms = 0;            // scan.bounded.timestamp-millis
  int64_t watermark_idle_timeout_ms = -1;      // scan.watermark.idle-timeout; -1: unset
  // scan.topic-partition-discovery.interval: how often an unbounded source looks for new
  // partitions (and, with topic-pattern, new topics); 0: never (always 0 for a bounded scan).
  int64_t discovery_interval_ms = kDefaultKafkaDiscoveryIntervalMs;

  KafkaPartitioner partitioner = KafkaPartitioner::kDefault;
  KafkaDeliveryGuarantee delivery = KafkaDeliveryGuarantee::kAtLeastOnce;
  std::string transactional_id_prefix;  // sink.transactional-id-prefix
};

// Reads and checks every option of a kafka (upsert = false) or upsert-kafka table; errors name
// the table and the option.
absl::StatusOr<KafkaOptions> ReadKafkaOptions(const ConnectorTable& table, ConnectorConfig& config,
                                              bool upsert);

// What only a scan of the table needs (a table only written need not set it): a group for
// 'group-offsets'.
absl::Status CheckKafkaSource(const KafkaOptions& options, const std::string& table);

// The columns a format of `options` encodes, named as the format names them (the key's without
// key.fields-prefix).
Schema KafkaKeySchema(const ConnectorTable& table, const KafkaOptions& options);
Schema KafkaValueSchema(const ConnectorTable& table, const KafkaOptions& options);

}  // namespace eddy
