#include "common/connectors/kafka_connector.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/base/duration.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {

absl::Status TableError(const ConnectorConfig& config, const std::string& message) {
  return ConnectorConfig::Error(absl::StrCat("table '", config.table(), "' (connector '",
                                             config.connector(), "'): ", message));
}

std::vector<std::string> SplitList(const std::string& value) {
  std::vector<std::string> out;
  for (absl::string_view part : absl::StrSplit(value, ';', absl::SkipWhitespace())) {
    out.emplace_back(absl::StripAsciiWhitespace(part));
  }
  return out;
}

// "partition:0,offset:42;partition:1,offset:300"
absl::StatusOr<std::map<int32_t, int64_t>> ReadSpecificOffsets(ConnectorConfig& config,
                                                               const std::string& key) {
  ASSIGN_OR_RETURN(std::string value, config.Required(key));
  std::map<int32_t, int64_t> out;
  for (const std::string& entry : SplitList(value)) {
    std::vector<absl::string_view> parts = absl::StrSplit(entry, ',');
    int32_t partition = -1;
    int64_t offset = -1;
    if (parts.size() != 2 || !absl::ConsumePrefix(&parts[0], "partition:") ||
        !absl::ConsumePrefix(&parts[1], "offset:") ||
        !absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[0]), &partition) ||
        !absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[1]), &offset) || partition < 0 ||
        offset < 0) {
      return config.Bad(key, "'partition:<n>,offset:<n>' entries separated by ';'");
    }
    out[partition] = offset;
  }
  if (out.empty()) return config.Bad(key, "at least one 'partition:<n>,offset:<n>'");
  return out;
}

absl::StatusOr<int> ColumnNamed(const ConnectorTable& table, const ConnectorConfig& config,
                                const std::string& name, const std::string& option) {
  for (size_t c = 0; c < table.columns.size(); ++c) {
    if (table.columns.fields[c].name != name) continue;
    if (table.IsMetadata(c)) {
      return TableError(config, absl::StrCat("'", option, "' names metadata column '", name,
                                             "'; only physical columns can be key fields"));
    }
    return static_cast<int>(c);
  }
  return TableError(config, absl::StrCat("'", option, "' names column '", name,
                                         "', which the table does not have"));
}

// scan.topic-partition-discovery.interval: a duration; as in Flink, 0 or a negative one ("-1 s")
// turns discovery off.
absl::StatusOr<int64_t> ReadDiscoveryInterval(ConnectorConfig& config) {
  const std::string key = "scan.topic-partition-discovery.interval";
  std::optional<std::string> value = config.Get(key);
  if (!value) return kDefaultKafkaDiscoveryIntervalMs;
  absl::string_view text = absl::StripAsciiWhitespace(*value);
  const bool negative = absl::ConsumePrefix(&text, "-");
  std::optional<int64_t> ms = ParseDurationMillis(std::string_view(text.data(), text.size()));
  if (!ms || *ms < 0) return config.Bad(key, "a duration (e.g. 5 min; 0 disables discovery)");
  return negative ? 0 : *ms;
}

absl::Status ReadScan(ConnectorConfig& config, KafkaOptions* o) {
  if (!o->upsert) {
    ASSIGN_OR_RETURN(std::string mode,
                     config.Enum("scan.startup.mode",
                                 {"earliest-offset", "latest-offset", "group-offsets", "timestamp",
                                  "specific-offsets"},
                                 "group-offsets"));
    if (mode == "earliest-offset") o->startup = KafkaStartupMode::kEarliest;
    if (mode == "latest-offset") o->startup = KafkaStartupMode::kLatest;
    if (mode == "group-offsets") o->startup = KafkaStartupMode::kGroupOffsets;
    if (mode == "timestamp") {
      o->startup = KafkaStartupMode::kTimestamp;
      ASSIGN_OR_RETURN(std::string ts, config.Required("scan.startup.timestamp-millis"));
      ASSIGN_OR_RETURN(o->startup_timestamp_ms, config.Int("scan.startup.timestamp-millis", 0, 0));
    }
    if (mode == "specific-offsets") {
      o->startup = KafkaStartupMode::kSpecificOffsets;
      ASSIGN_OR_RETURN(o->startup_offsets,
                       ReadSpecificOffsets(config, "scan.startup.specific-offsets"));
    }
    if (mode != "timestamp" && config.Has("scan.startup.timestamp-millis")) {
      return TableError(config,
                        "'scan.startup.timestamp-millis' needs 'scan.startup.mode' = 'timestamp'");
    }
    if (mode != "specific-offsets" && config.Has("scan.startup.specific-offsets")) {
      return TableError(
          config, "'scan.startup.specific-offsets' needs 'scan.startup.mode' = 'specific-offsets'");
    }
  } else {
    o->startup = KafkaStartupMode::kEarliest;  // a table is read from its beginning
  }
  ASSIGN_OR_RETURN(std::string bounded, config.Enum("scan.bounded.mode",
                                                    {"unbounded", "latest-offset", "group-offsets",
                                                     "timestamp", "specific-offsets"},
                                                    "unbounded"));
  if (bounded == "latest-offset") o->bounded = KafkaBoundedMode::kLatest;
  if (bounded == "group-offsets") {
    o->bounded = KafkaBoundedMode::kGroupOffsets;
    if (!o->properties.count("group.id")) {
      return TableError(config,
                        "'scan.bounded.mode' = 'group-offsets' needs 'properties.group.id'");
    }
  }
  if (bounded == "timestamp") {
    o->bounded = KafkaBoundedMode::kTimestamp;
    RETURN_IF_ERROR(config.Required("scan.bounded.timestamp-millis").status());
    ASSIGN_OR_RETURN(o->bounded_timestamp_ms, config.Int("scan.bounded.timestamp-millis", 0, 0));
  }
  if (bounded == "specific-offsets") {
    o->bounded = KafkaBoundedMode::kSpecificOffsets;
    ASSIGN_OR_RETURN(o->bounded_offsets,
                     ReadSpecificOffsets(config, "scan.bounded.specific-offsets"));
  }
  if (bounded != "timestamp" && config.Has("scan.bounded.timestamp-millis")) {
    return TableError(config,
                      "'scan.bounded.timestamp-millis' needs 'scan.bounded.mode' = 'timestamp'");
  }
  if (bounded != "specific-offsets" && config.Has("scan.bounded.specific-offsets")) {
    return TableError(
        config, "'scan.bounded.specific-offsets' needs 'scan.bounded.mode' = 'specific-offsets'");
  }
  if (!o->upsert) {
    ASSIGN_OR_RETURN(o->discovery_interval_ms, ReadDiscoveryInterval(config));
  }
  if (o->bounded != KafkaBoundedMode::kUnbounded) o->discovery_interval_ms = 0;
  if (config.Has("scan.watermark.idle-timeout")) {
    ASSIGN_OR_RETURN(o->watermark_idle_timeout_ms,
                     config.NonNegativeDurationMs("scan.watermark.idle-timeout", 0));
  }
  return absl::OkStatus();
}

absl::Status ReadSink(ConnectorConfig& config, KafkaOptions* o) {
  RETURN_IF_ERROR(config.Int("sink.parallelism", 1, 1).status());
  if (!o->upsert) {
    ASSIGN_OR_RETURN(
        std::string partitioner,
        config.Enum("sink.partitioner", {"default", "fixed", "round-robin"}, "default"));
    if (partitioner == "fixed") o->partitioner = KafkaPartitioner::kFixed;
    if (partitioner == "round-robin") o->partitioner = KafkaPartitioner::kRoundRobin;
  }
  ASSIGN_OR_RETURN(std::string delivery,
                   config.Enum("sink.delivery-guarantee", {"none", "at-least-once", "exactly-once"},
                               "at-least-once"));
  if (delivery == "none") o->delivery = KafkaDeliveryGuarantee::kNone;
  if (delivery == "exactly-once") o->delivery = KafkaDeliveryGuarantee::kExactlyOnce;
  if (std::optional<std::string> prefix = config.Get("sink.transactional-id-prefix")) {
    o->transactional_id_prefix = *prefix;
  }
  if (o->delivery == KafkaDeliveryGuarantee::kExactlyOnce && o->transactional_id_prefix.empty()) {
    return TableError(config,
                      "'sink.delivery-guarantee' = 'exactly-once' needs "
                      "'sink.transactional-id-prefix' (unique among the applications writing to "
                      "the cluster)");
  }
  for (const char* reserved :
       {"transactional.id", "enable.idempotence", "key.deserializer", "value.deserializer",
        "key.serializer", "value.serializer", "enable.auto.commit"}) {
    if (o->properties.count(reserved)) {
      return TableError(config, absl::StrCat("'properties.", reserved,
                                             "' is set by the connector and cannot be given"));
    }
  }
  return absl::OkStatus();
}

absl::Status ReadColumns(const ConnectorTable& table, ConnectorConfig& config, KafkaOptions* o) {
  const std::string value_format_key = config.Has("format") ? "format" : "value.format";
  if (config.Has("format") && config.Has("value.format")) {
    return TableError(config, "set 'format' or 'value.format', not both");
  }
  if (o->upsert && !config.Has("key.format")) {
    RETURN_IF_ERROR(config.Required("key.format", "'csv', 'json' or 'raw'").status());
  }
  if (o->upsert && !config.Has("value.format")) {
    RETURN_IF_ERROR(config.Required("value.format", "'csv', 'json' or 'raw'").status());
  }
  ASSIGN_OR_RETURN(o->value_format,
                   ReadFormat(config, value_format_key,
                              {FormatKind::kCsv, FormatKind::kJson, FormatKind::kRaw}));
  if (config.Has("key.format")) {
    ASSIGN_OR_RETURN(
        o->key_format,
        ReadFormat(config, "key.format", {FormatKind::kCsv, FormatKind::kJson, FormatKind::kRaw}));
    if (o->key_format->ignore_parse_errors()) {
      return TableError(config,
                        "the key format cannot ignore parse errors: a record whose key "
                        "does not parse fails the job");
    }
  }
  if (std::optional<std::string> prefix = config.Get("key.fields-prefix")) {
    o->key_fields_prefix = *prefix;
  }
  if (o->upsert) {
    if (table.primary_key.empty()) {
      return TableError(config,
                        "an upsert-kafka table needs a PRIMARY KEY: its columns are the record "
                        "key");
    }
    if (config.Has("key.fields")) {
      return TableError(config,
                        "'key.fields' is not an option of upsert-kafka: the PRIMARY KEY "
                        "columns are the key");
    }
    o->key_columns = table.primary_key;
  } else if (std::optional<std::string> fields = config.Get("key.fields")) {
    for (const std::string& name : SplitList(*fields)) {
      ASSIGN_OR_RETURN(int c, ColumnNamed(table, config, name, "key.fields"));
      o->key_columns.push_back(c);
    }
    if (o->key_columns.empty()) return config.Bad("key.fields", "column names separated by ';'");
    if (!o->key_format) {
      return TableError(config, "'key.fields' needs 'key.format'");
    }
  } else if (o->key_format) {
    return TableError(config, "'key.format' needs 'key.fields' (the columns the key holds)");
  }
  ASSIGN_OR_RETURN(std::string include,
                   config.Enum("value.fields-include", {"ALL", "EXCEPT_KEY"}, "ALL"));
  if (!o->key_fields_prefix.empty() && include != "EXCEPT_KEY") {
    return TableError(config, "'key.fields-prefix' needs 'value.fields-include' = 'EXCEPT_KEY'");
  }
  for (int c : o->key_columns) {
    const std::string& name = table.columns.fields[c].name;
    if (!o->key_fields_prefix.empty() && name.rfind(o->key_fields_prefix, 0) != 0) {
      return TableError(config, absl::StrCat("key column '", name, "' does not start with '",
                                             o->key_fields_prefix, "' ('key.fields-prefix')"));
    }
  }
  for (int c : table.PhysicalColumnIndexes()) {
    const bool in_key =
        std::find(o->key_columns.begin(), o->key_columns.end(), c) != o->key_columns.end();
    if (include == "EXCEPT_KEY" && in_key) continue;
    o->value_columns.push_back(c);
  }
  if (o->key_format) {
    RETURN_IF_ERROR(CheckFormatColumns(*o->key_format, KafkaKeySchema(table, *o), config.table(),
                                       "the key columns"));
  }
  return CheckFormatColumns(o->value_format, KafkaValueSchema(table, *o), config.table(),
                            "the value columns");
}

class Kafka : public ConnectorFactory {
 public:
  explicit Kafka(bool upsert) : upsert_(upsert) {}
  std::string_view name() const override { return upsert_ ? "upsert-kafka" : "kafka"; }
  bool can_read() const override { return true; }
  bool can_write() const override { return true; }
  absl::Status Validate(const ConnectorTable& table, ConnectorConfig& config) const override {
    return ReadKafkaOptions(table, config, upsert_).status();
  }
  SourceChanges source_changes() const override {
    return upsert_ ? SourceChanges::kUpsert : SourceChanges::kInsertOnly;
  }
  SinkChanges sink_changes() const override {
    return upsert_ ? SinkChanges::kUpsert : SinkChanges::kInsertOnly;
  }
  bool Bounded(const ConnectorTable& table, ConnectorConfig& config) const override {
    auto o = ReadKafkaOptions(table, config, upsert_);
    return o.ok() && o->bounded != KafkaBoundedMode::kUnbounded;
  }
  // The same keys on both connectors, as Flink's upsert-kafka offers kafka's.
  std::vector<MetadataSpec> metadata() const override {
    return {
        {"topic", DataType::String()},
        {"partition", DataType::Int()},
        {"offset", DataType::BigInt()},
        {"timestamp", DataType::Timestamp(3), /*writable=*/true},
        {"timestamp-type", DataType::String()},
        {"headers", DataType::Map(DataType::String(), DataType::Bytes()), /*writable=*/true},
    };
  }

 private:
  bool upsert_;
};

}  // namespace

const ConnectorFactory& KafkaConnector() {
  static const Kafka kKafka(false);
  return kKafka;
}

const ConnectorFactory& UpsertKafkaConnector() {
  static const Kafka kUpsertKafka(true);
  return kUpsertKafka;
}

absl::StatusOr<KafkaOptions> ReadKafkaOptions(const ConnectorTable& table, ConnectorConfig& config,
                                              bool upsert) {
  KafkaOptions o;
  o.upsert = upsert;
  o.properties = config.WithPrefix("properties.");
  if (!o.properties.count("bootstrap.servers")) {
    RETURN_IF_ERROR(config.Required("properties.bootstrap.servers", "host:port,...").status());
  }
  const bool has_topic = config.Has("topic");
  if (has_topic && config.Has("topic-pattern")) {
    return TableError(config, "set 'topic' or 'topic-pattern', not both");
  }
  if (!upsert && config.Has("topic-pattern")) {
    o.topic_pattern = *config.Get("topic-pattern");
    if (o.topic_pattern.empty()) return config.Bad("topic-pattern", "a regular expression");
  } else {
    ASSIGN_OR_RETURN(std::string topic, config.Required("topic"));
    o.topics = SplitList(topic);
    if (o.topics.empty()) return config.Bad("topic", "a topic name, or names separated by ';'");
    if (upsert && o.topics.size() > 1) return config.Bad("topic", "one topic name");
  }
  RETURN_IF_ERROR(ReadColumns(table, config, &o));
  RETURN_IF_ERROR(ReadScan(config, &o));
  RETURN_IF_ERROR(ReadSink(config, &o));
  return o;
}

absl::Status CheckKafkaSource(const KafkaOptions& options, const std::string& table) {
  if (!options.upsert && options.startup == KafkaStartupMode::kGroupOffsets &&
      !options.properties.count("group.id")) {
    return ConnectorConfig::Error(absl::StrCat(
        "table '", table,
        "' (connector 'kafka'): reading it with 'scan.startup.mode' = 'group-offsets' (the "
        "default) needs 'properties.group.id'; or set another 'scan.startup.mode'"));
  }
  return absl::OkStatus();
}

Schema KafkaKeySchema(const ConnectorTable& table, const KafkaOptions& options) {
  Schema s;
  for (int c : options.key_columns) {
    Field f = table.columns.fields[c];
    f.name = f.name.substr(options.key_fields_prefix.size());
    s.fields.push_back(std::move(f));
  }
  return s;
}

Schema KafkaValueSchema(const ConnectorTable& table, const KafkaOptions& options) {
  Schema s;
  for (int c : options.value_columns) s.fields.push_back(table.columns.fields[c]);
  return s;
}

}  // namespace eddy
