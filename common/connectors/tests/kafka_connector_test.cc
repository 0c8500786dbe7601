// The kafka and upsert-kafka options as CREATE TABLE checks them: what each option becomes, and a
// clear error naming the option for each kind of bad table.
#include "common/connectors/kafka_connector.h"

#include <map>
#include <string>

#include "common/connectors/connector_registry.h"
#include "gtest/gtest.h"

namespace eddy {
namespace {

ConnectorTable Table(std::vector<int> primary_key = {}) {
  ConnectorTable t;
  t.name = "cat.db.claims";
  t.columns = Schema{{{"id", DataType::BigInt()},
                      {"name", DataType::String()},
                      {"amount", DataType::Double()},
                      {"part", DataType::Int()}}};
  t.metadata_keys = {"", "", "", "partition"};
  t.metadata_virtual = {false, false, false, true};
  t.primary_key = std::move(primary_key);
  return t;
}

std::map<std::string, std::string> Kafka(std::map<std::string, std::string> extra) {
  std::map<std::string, std::string> o = {{"connector", "kafka"},
                                          {"topic", "claim-input"},
                                          {"properties.bootstrap.servers", "localhost:9092"},
                                          {"properties.group.id", "g"},
                                          {"format", "json"}};
  for (auto& [k, v] : extra) {
    if (v == "<unset>") {
      o.erase(k);
    } else {
      o[k] = v;
    }
  }
  return o;
}

std::string Error(const ConnectorTable& table, const std::map<std::string, std::string>& options) {
  absl::Status s = ValidateConnectorTable(table, options);
  return s.ok() ? "OK" : std::string(s.message());
}

TEST(KafkaConnector, ReadsTheOptionsOfAKafkaTable) {
  std::map<std::string, std::string> options =
      Kafka({{"key.format", "csv"},
             {"key.fields", "id"},
             {"value.fields-include", "EXCEPT_KEY"},
             {"scan.startup.mode", "specific-offsets"},
             {"scan.startup.specific-offsets", "partition:0,offset:42;partition:1,offset:300"},
             {"scan.bounded.mode", "latest-offset"},
             {"scan.watermark.idle-timeout", "5 s"},
             {"sink.partitioner", "round-robin"},
             {"sink.delivery-guarantee", "exactly-once"},
             {"sink.transactional-id-prefix", "claims"},
             {"properties.client.id", "c1"}});
  ASSERT_EQ(Error(Table(), options), "OK");
  options.erase("connector");
  ConnectorConfig config("kafka", "cat.db.claims", options);
  auto o = ReadKafkaOptions(Table(), config, false);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->topics, std::vector<std::string>{"claim-input"});
  EXPECT_EQ(o->properties.at("client.id"), "c1");
  EXPECT_EQ(o->key_columns, std::vector<int>{0});
  EXPECT_EQ(o->value_columns, (std::vector<int>{1, 2}));
  EXPECT_EQ(o->startup, KafkaStartupMode::kSpecificOffsets);
  EXPECT_EQ(o->startup_offsets, (std::map<int32_t, int64_t>{{0, 42}, {1, 300}}));
  EXPECT_EQ(o->bounded, KafkaBoundedMode::kLatest);
  EXPECT_EQ(o->watermark_idle_timeout_ms, 5000);
  EXPECT_EQ(o->partitioner, KafkaPartitioner::kRoundRobin);
  EXPECT_EQ(o->delivery, KafkaDeliveryGuarantee::kExactlyOnce);
  EXPECT_TRUE(KafkaConnector().Bounded(Table(), config));
}

TEST(KafkaConnector, BadOptionsAreClearErrors) {
  const ConnectorTable t = Table();
  EXPECT_EQ(Error(t, Kafka({{"properties.bootstrap.servers", "<unset>"}})),
            "table 'cat.db.claims' (connector 'kafka') needs option 'properties.bootstrap.servers' "
            "(host:port,...)");
  EXPECT_EQ(Error(t, Kafka({{"topic-pattern", "claims-.*"}})),
            "table 'cat.db.claims' (connector 'kafka'): set 'topic' or 'topic-pattern', not both");
  EXPECT_EQ(Error(t, Kafka({{"scan.startup.mode", "earliest"}})),
            "option 'scan.startup.mode' of table 'cat.db.claims' expects one of earliest-offset, "
            "latest-offset, group-offsets, timestamp, specific-offsets, got 'earliest'");
  EXPECT_EQ(
      Error(t, Kafka({{"scan.startup.mode", "timestamp"}})),
      "table 'cat.db.claims' (connector 'kafka') needs option 'scan.startup.timestamp-millis'");
  EXPECT_EQ(Error(t, Kafka({{"scan.startup.mode", "specific-offsets"},
                            {"scan.startup.specific-offsets", "0:42"}})),
            "option 'scan.startup.specific-offsets' of table 'cat.db.claims' expects "
            "'partition:<n>,offset:<n>' entries separated by ';', got '0:42'");
  // A table only written needs no group; a scan with group-offsets does.
  EXPECT_EQ(Error(t, Kafka({{"properties.group.id", "<unset>"}})), "OK");
  {
    std::map<std::string, std::string> options = Kafka({{"properties.group.id", "<unset>"}});
    options.erase("connector");
    ConnectorConfig config("kafka", "cat.db.claims", options);
    auto o = ReadKafkaOptions(t, config, false);
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(CheckKafkaSource(*o, "cat.db.claims").message(),
              "table 'cat.db.claims' (connector 'kafka'): reading it with 'scan.startup.mode' = "
              "'group-offsets' (the default) needs 'properties.group.id'; or set another "
              "'scan.startup.mode'");
  }
  EXPECT_EQ(Error(t, Kafka({{"key.fields", "id"}})),
            "table 'cat.db.claims' (connector 'kafka'): 'key.fields' needs 'key.format'");
  EXPECT_EQ(Error(t, Kafka({{"key.format", "json"}, {"key.fields", "nope"}})),
            "table 'cat.db.claims' (connector 'kafka'): 'key.fields' names column 'nope', which "
            "the table does not have");
  EXPECT_EQ(
      Error(t, Kafka({{"format", "raw"}})),
      "table 'cat.db.claims': the 'raw' format holds exactly one STRING or BYTES column, but the "
      "value columns are [id BIGINT, name STRING, amount DOUBLE]");
  EXPECT_EQ(Error(t, Kafka({{"format", "avro"}})),
            "option 'format' of table 'cat.db.claims' expects one of csv, json, raw, got 'avro'");
  EXPECT_EQ(Error(t, Kafka({{"sink.delivery-guarantee", "exactly-once"}})),
            "table 'cat.db.claims' (connector 'kafka'): 'sink.delivery-guarantee' = "
            "'exactly-once' needs 'sink.transactional-id-prefix' (unique among the applications "
            "writing to the cluster)");
  EXPECT_EQ(Error(t, Kafka({{"sink.partitioner", "hash"}})),
            "option 'sink.partitioner' of table 'cat.db.claims' expects one of default, fixed, "
            "round-robin, got 'hash'");
  EXPECT_EQ(Error(t, Kafka({{"scan.topic-partition-discovery.interval", "often"}})),
            "option 'scan.topic-partition-discovery.interval' of table 'cat.db.claims' expects a "
            "duration (e.g. 5 min; 0 disables discovery), got 'often'");
  EXPECT_EQ(Error(t, Kafka({{"properties.transactional.id", "x"}})),
            "table 'cat.db.claims' (connector 'kafka'): 'properties.transactional.id' is set by "
            "the connector and cannot be given");
}

// Flink's default is 5 minutes; 0 or a negative duration turns discovery off, and a bounded scan
// never discovers.
TEST(KafkaConnector, PartitionDiscoveryIntervalDefaultsToFiveMinutesAndZeroOrLessDisablesIt) {
  const ConnectorTable t = Table();
  auto Interval = [&](std::map<std::string, std::string> extra) -> int64_t {
    std::map<std::string, std::string> options = Kafka(std::move(extra));
    options.erase("connector");
    ConnectorConfig config("kafka", "cat.db.claims", options);
    auto o = ReadKafkaOptions(t, config, false);
    EXPECT_TRUE(o.ok()) << o.status();
    return o.ok() ? o->discovery_interval_ms : -2;
  };
  EXPECT_EQ(Interval({}), 300000);
  EXPECT_EQ(Interval({{"scan.topic-partition-discovery.interval", "10 s"}}), 10000);
  EXPECT_EQ(Interval({{"scan.topic-partition-discovery.interval", "0"}}), 0);
  EXPECT_EQ(Interval({{"scan.topic-partition-discovery.interval", "-1 s"}}), 0);
  EXPECT_EQ(Interval({{"scan.topic-partition-discovery.interval", "10 s"},
                      {"scan.bounded.mode", "latest-offset"}}),
            0);
  EXPECT_EQ(Error(t, Kafka({{"scan.topic-partition-discovery.interval", "-x"}})),
            "option 'scan.topic-partition-discovery.interval' of table 'cat.db.claims' expects a "
            "duration (e.g. 5 min; 0 disables discovery), got '-x'");
}

TEST(UpsertKafkaConnector, NeedsAPrimaryKeyAndBothFormats) {
  std::map<std::string, std::string> options = {{"connector", "upsert-kafka"},
                                                {"topic", "totals"},
                                                {"properties.bootstrap.servers", "b:9092"},
                                                {"key.format", "json"},
                                                {"value.format", "json"}};
  ConnectorTable t = Table({0});
  t.columns.fields.pop_back();
  t.metadata_keys.pop_back();
  t.metadata_virtual.pop_back();
  EXPECT_EQ(Error(t, options), "OK");
  EXPECT_EQ(UpsertKafkaConnector().source_changes(), SourceChanges::kUpsert);
  EXPECT_EQ(UpsertKafkaConnector().sink_changes(), SinkChanges::kUpsert);
  ConnectorTable no_key = t;
  no_key.primary_key.clear();
  EXPECT_EQ(Error(no_key, options),
            "table 'cat.db.claims' (connector 'upsert-kafka'): an upsert-kafka table needs a "
            "PRIMARY KEY: its columns are the record key");
  options.erase("key.format");
  EXPECT_EQ(Error(t, options),
            "table 'cat.db.claims' (connector 'upsert-kafka') needs option 'key.format' ('csv', "
            "'json' or 'raw')");
}

}  // namespace
}  // namespace eddy
