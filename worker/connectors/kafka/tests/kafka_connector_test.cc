// The kafka and upsert-kafka sources and sinks against librdkafka's mock cluster, in this process:
// round trips in each format, key fields and key prefixes, metadata columns, startup and bounded
// modes, sink partitioners, partitions spread over subtasks, offsets restored from a checkpoint,
// the upsert changelog and its normalisation (with metadata columns), the exactly-once sink's
// transactions and their replay after a restore, partition owners and the discovery of new topics
// while sources run.
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "common/expr/evaluator.h"
#include "common/expr/function_registry.h"
#include "common/types/collection_codec.h"
#include "common/types/type_proto.h"
#include "worker/connectors/kafka/kafka_partition_discovery.h"
#include "worker/connectors/kafka/kafka_sink.h"
#include "worker/connectors/kafka/kafka_source.h"
#include "worker/operators/operator_snapshot.h"

namespace eddy {
namespace {

class Collector : public Output {
 public:
  absl::Status Emit(const ChangelogBatch& batch) override { return absl::OkStatus(); }
};

class KafkaConnectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char error[256];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "log_level", "2", error, sizeof(error));
    host_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
    ASSERT_NE(host_, nullptr);
    cluster_ = rd_kafka_mock_cluster_new(host_, 1);
    ASSERT_NE(cluster_, nullptr);
    bootstrap_ = rd_kafka_mock_cluster_bootstraps(cluster_);
  }
  void TearDown() override {
    rd_kafka_mock_cluster_destroy(cluster_);
    rd_kafka_destroy(host_);
  }

  void CreateTopic(const std::string& name, int partitions) {
    ASSERT_EQ(rd_kafka_mock_topic_create(cluster_, name.c_str(), partitions, 1),
              RD_KAFKA_RESP_ERR_NO_ERROR);
  }

  // Writes records directly (no sink): key/value null when nullptr.
  void ProduceRaw(const std::string& topic, int32_t partition, const char* key, const char* value,
                  int64_t timestamp = 0) {
    char error[256];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap_.c_str(), error, sizeof(error));
    rd_kafka_t* p = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
    ASSERT_NE(p, nullptr);
    void* k = const_cast<char*>(key);
    const size_t key_size = key ? strlen(key) : 0;
    void* v = const_cast<char*>(value);
    const size_t value_size = value ? strlen(value) : 0;
    ASSERT_EQ(rd_kafka_producev(p, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
                                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                RD_KAFKA_V_KEY(k, key_size), RD_KAFKA_V_VALUE(v, value_size),
                                RD_KAFKA_V_TIMESTAMP(timestamp), RD_KAFKA_V_END),
              RD_KAFKA_RESP_ERR_NO_ERROR);
    rd_kafka_flush(p, 10000);
    rd_kafka_destroy(p);
  }

  std::map<std::string, std::string> Options(std::map<std::string, std::string> extra) {
    std::map<std::string, std::string> o = {{"properties.bootstrap.servers", bootstrap_}};
    for (auto& [k, v] : extra) o[k] = v;
    return o;
  }

  static v1::TableSource SourceSpec(const std::string& connector, const Schema& schema,
                                    const std::map<std::string, std::string>& options,
                                    std::vector<std::string> metadata = {},
                                    std::vector<int> primary_key = {}) {
    v1::TableSource spec;
    spec.set_connector(connector);
    spec.set_table_name("default_catalog.default_database.t");
    for (const auto& [k, v] : options) (*spec.mutable_options())[k] = v;
    SchemaToProto(schema, spec.mutable_table_schema());
    for (size_t c = 0; c < schema.size(); ++c) {
      spec.add_columns(static_cast<int>(c));
      spec.add_metadata_keys(c < metadata.size() ? metadata[c] : "");
    }
    for (int k : primary_key) spec.add_primary_key(k);
    return spec;
  }

  static v1::TableSink SinkSpec(const std::string& connector,
                                const std::map<std::string, std::string>& options,
                                std::vector<int> primary_key = {},
                                std::vector<std::string> metadata = {}) {
    v1::TableSink spec;
    spec.set_connector(connector);
    spec.set_table_name("default_catalog.default_database.out");
    for (const auto& [k, v] : options) (*spec.mutable_options())[k] = v;
    for (int k : primary_key) spec.add_primary_key(k);
    for (const std::string& m : metadata) spec.add_metadata_keys(m);
    return spec;
  }

  // Runs a sink over `batches` to its end; checkpoints between batches when `checkpoint_every`.
  absl::Status WriteAll(const v1::TableSink& spec, const Schema& schema,
                        std::vector<ChangelogBatch>& batches, bool checkpointing = false) {
    auto sink = KafkaSink::Create(spec, schema);
    if (!sink.ok()) return sink.status();
    Collector out;
    (*sink)->set_output(&out);
    OperatorContext ctx;
    ctx.job_id = "job";
    ctx.checkpointing = checkpointing;
    absl::Status s = (*sink)->Open(ctx);
    int64_t id = 0;
    for (auto& b : batches) {
      if (s.ok()) s = (*sink)->Process(0, b);
      if (s.ok() && checkpointing) {
        OperatorSnapshot snap;
        s = (*sink)->SnapshotState(++id, &snap);
        if (s.ok()) s = (*sink)->NotifyCheckpointComplete(id);
      }
    }
    if (s.ok()) s = (*sink)->Finish();
    while (s.ok() && (*sink)->HasUncommittedOutput()) {
      OperatorSnapshot snap;
      s = (*sink)->SnapshotState(++id, &snap);
      if (s.ok()) s = (*sink)->NotifyCheckpointComplete(id);
    }
    absl::Status closed = (*sink)->Close();
    return s.ok() ? closed : s;
  }

  // Every row a bounded source produces, printed; `snapshot` (when given) receives the source's
  // checkpoint after the first `stop_after` rows, and reading stops there.
  static absl::StatusOr<std::vector<std::string>> ReadAll(const v1::TableSource& spec,
                                                          int subtask = 0, int parallelism = 1,
                                                          const OperatorSnapshot* restore = nullptr,
                                                          OperatorSnapshot* snapshot = nullptr,
                                                          size_t stop_after = 0) {
    auto source = KafkaSource::Create(spec);
    if (!source.ok()) return source.status();
    OperatorContext ctx;
    ctx.job_id = "job";
    ctx.subtask_index = subtask;
    ctx.parallelism = parallelism;
    absl::Status s = (*source)->Open(ctx);
    if (s.ok() && restore != nullptr) s = (*source)->RestoreState(*restore);
    std::vector<std::string> rows;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (s.ok()) {
      ChangelogBatch batch;
      auto state = (*source)->Next(&batch);
      if (!state.ok()) {
        s = state.status();
        break;
      }
      if (*state == SourceState::kEnd) break;
      if (*state == SourceState::kIdle) {
        if (std::chrono::steady_clock::now() > deadline) {
          s = absl::DeadlineExceededError("the source never ended");
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        continue;
      }
      for (size_t r = 0; r < batch.num_rows(); ++r) rows.push_back(FormatRow(batch, r));
      if (snapshot != nullptr && rows.size() >= stop_after) {
        s = (*source)->SnapshotState(1, snapshot);
        break;
      }
    }
    absl::Status closed = (*source)->Close();
    if (!s.ok()) return s;
    if (!closed.ok()) return closed;
    return rows;
  }

  static std::vector<std::string> Sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  }

  rd_kafka_t* host_ = nullptr;
  rd_kafka_mock_cluster_t* cluster_ = nullptr;
  std::string bootstrap_;
};

ChangelogBatch Rows(const Schema& schema, const std::vector<std::vector<Value>>& rows,
                    std::vector<RowKind> kinds = {}) {
  ChangelogBatch b(schema.Types());
  for (size_t i = 0; i < rows.size(); ++i) {
    b.AppendValues(rows[i], kinds.empty() ? RowKind::kInsert : kinds[i]);
  }
  return b;
}

const Schema kClaims{
    {{"id", DataType::BigInt()}, {"name", DataType::String()}, {"amount", DataType::Double()}}};

std::vector<std::vector<Value>> ClaimRows(int n) {
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < n; ++i) {
    rows.push_back({Value::Int(i), Value::String("c" + std::to_string(i) + (i % 3 ? "" : ", x")),
                    Value::Double(i * 1.5)});
  }
  return rows;
}

std::vector<std::string> Printed(const Schema& schema,
                                 const std::vector<std::vector<Value>>& rows) {
  ChangelogBatch b = Rows(schema, rows);
  std::vector<std::string> out;
  for (size_t r = 0; r < b.num_rows(); ++r) out.push_back(FormatRow(b, r));
  std::sort(out.begin(), out.end());
  return out;
}

TEST_F(KafkaConnectorTest, EachFormatRoundTripsThroughATopic) {
  for (const std::string format : {"json", "csv"}) {
    SCOPED_TRACE(format);
    const std::string topic = "claims-" + format;
    CreateTopic(topic, 3);
    std::vector<ChangelogBatch> batches;
    batches.push_back(Rows(kClaims, ClaimRows(500)));
    batches.push_back(Rows(kClaims, {{Value::Int(1000), Value::Null(), Value::Null()}}));
    ASSERT_TRUE(WriteAll(SinkSpec("kafka", Options({{"topic", topic}, {"format", format}})),
                         kClaims, batches)
                    .ok());
    auto rows = ReadAll(SourceSpec("kafka", kClaims,
                                   Options({{"topic", topic},
                                            {"format", format},
                                            {"scan.startup.mode", "earliest-offset"},
                                            {"scan.bounded.mode", "latest-offset"}})));
    ASSERT_TRUE(rows.ok()) << rows.status();
    std::vector<std::vector<Value>> expected = ClaimRows(500);
    // CSV writes a NULL string as an empty field, which reads back as the empty string.
    expected.push_back(
        {Value::Int(1000), format == "csv" ? Value::String("") : Value::Null(), Value::Null()});
    EXPECT_EQ(Sorted(*rows), Printed(kClaims, expected));
  }
}

TEST_F(KafkaConnectorTest, RawHoldsOneStringColumnAndKeyFieldsComeFromTheKey) {
  CreateTopic("lines", 2);
  const Schema schema{{{"line", DataType::String()}}};
  std::vector<ChangelogBatch> batches;
  batches.push_back(Rows(schema, {{Value::String("a,b \"c\"")}, {Value::String("")}}));
  ASSERT_TRUE(
      WriteAll(SinkSpec("kafka", Options({{"topic", "lines"}, {"format", "raw"}})), schema, batches)
          .ok());
  auto rows = ReadAll(SourceSpec("kafka", schema,
                                 Options({{"topic", "lines"},
                                          {"format", "raw"},
                                          {"scan.startup.mode", "earliest-offset"},
                                          {"scan.bounded.mode", "latest-offset"}})));
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(Sorted(*rows), (std::vector<std::string>{"+I[]", "+I[a,b \"c\"]"}));

  // key.fields with a prefix: the key is JSON {"id":..}, the value the other columns.
  CreateTopic("keyed", 2);
  const Schema keyed{{{"k_id", DataType::BigInt()}, {"name", DataType::String()}}};
  const auto options = Options({{"topic", "keyed"},
                                {"key.format", "json"},
                                {"key.fields", "k_id"},
                                {"key.fields-prefix", "k_"},
                                {"value.format", "json"},
                                {"value.fields-include", "EXCEPT_KEY"},
                                {"scan.startup.mode", "earliest-offset"},
                                {"scan.bounded.mode", "latest-offset"}});
  std::vector<ChangelogBatch> keyed_batches;
  keyed_batches.push_back(Rows(keyed, {{Value::Int(7), Value::String("seven")}}));
  ASSERT_TRUE(WriteAll(SinkSpec("kafka", options), keyed, keyed_batches).ok());
  auto keyed_rows = ReadAll(SourceSpec("kafka", keyed, options));
  ASSERT_TRUE(keyed_rows.ok()) << keyed_rows.status();
  EXPECT_EQ(*keyed_rows, std::vector<std::string>{"+I[7, seven]"});
  // What the topic holds, read as raw key and value.
  ProduceRaw("keyed", 0, "{\"id\":8}", "{\"name\":\"eight\"}");
  const Schema raw{{{"v", DataType::String()}}};
  auto values = ReadAll(SourceSpec("kafka", raw,
                                   Options({{"topic", "keyed"},
                                            {"format", "raw"},
                                            {"scan.startup.mode", "earliest-offset"},
                                            {"scan.bounded.mode", "latest-offset"}})));
  ASSERT_TRUE(values.ok()) << values.status();
  EXPECT_EQ(Sorted(*values),
            (std::vector<std::string>{"+I[{\"name\":\"eight\"}]", "+I[{\"name\":\"seven\"}]"}));
  auto both = ReadAll(SourceSpec("kafka", keyed, options));
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_EQ(Sorted(*both), (std::vector<std::string>{"+I[7, seven]", "+I[8, eight]"}));
}

TEST_F(KafkaConnectorTest, MetadataColumnsNameEachRecord) {
  CreateTopic("meta", 2);
  ProduceRaw("meta", 1, nullptr, "x", 1700000000123);
  const Schema schema{{{"v", DataType::String()},
                       {"topic", DataType::String()},
                       {"partition", DataType::Int()},
                       {"offset", DataType::BigInt()},
                       {"ts", DataType::Timestamp(3)},
                       {"headers", DataType::Map(DataType::String(), DataType::Bytes())}}};
  auto rows = ReadAll(SourceSpec("kafka", schema,
                                 Options({{"topic", "meta"},
                                          {"format", "raw"},
                                          {"scan.startup.mode", "earliest-offset"},
                                          {"scan.bounded.mode", "latest-offset"}}),
                                 {"", "topic", "partition", "offset", "timestamp", "headers"}));
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, std::vector<std::string>{"+I[x, meta, 1, 0, 2023-11-14 22:13:20.123, {}]"});
}

// The raw format carries a BYTES column's values as the records' bytes, unchanged both ways.
TEST_F(KafkaConnectorTest, RawBytesColumnHoldsTheRecordBytesUnchanged) {
  CreateTopic("blobs", 1);
  const Schema schema{{{"b", DataType::Bytes()}}};
  std::vector<ChangelogBatch> batches;
  batches.push_back(Rows(schema, {{Value::String(std::string("\x00\xff\n,\"", 5))}}));
  ASSERT_TRUE(
      WriteAll(SinkSpec("kafka", Options({{"topic", "blobs"}, {"format", "raw"}})), schema, batches)
          .ok());
  ProduceRaw("blobs", 0, nullptr, "text");
  auto rows = ReadAll(SourceSpec("kafka", schema,
                                 Options({{"topic", "blobs"},
                                          {"format", "raw"},
                                          {"scan.startup.mode", "earliest-offset"},
                                          {"scan.bounded.mode", "latest-offset"}})));
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (std::vector<std::string>{"+I[x'00ff0a2c22']", "+I[x'74657874']"}));
}

// A BINARY(4) column in the raw format: CAST(... AS BINARY(4)) pads a shorter value with zero bytes
// (and cuts a longer one), the record holds those 4 bytes, and they read back unchanged; the sink
// writes a value as it is (no padding at the sink, as for CHAR(n)).
TEST_F(KafkaConnectorTest, RawBinaryColumnRoundTripsTheCastsPaddedBytes) {
  CreateTopic("fixed-bytes", 1);
  const Schema schema{{{"b", DataType::Binary(4)}}};
  const Schema input{{{"v", DataType::Bytes()}}};
  ChangelogBatch values = Rows(input, {{Value::String(std::string("\x01", 1))},
                                       {Value::String("abcdef")},
                                       {Value::String(std::string("\x00\xff\x00\xff", 4))}});
  auto cast = Evaluate(*MakeCast(MakeColumnRef(0, DataType::Bytes()), DataType::Binary(4)), values);
  ASSERT_TRUE(cast.ok()) << cast.status();
  std::vector<ChangelogBatch> batches;
  batches.push_back(
      ChangelogBatch({*cast}, {RowKind::kInsert, RowKind::kInsert, RowKind::kInsert}));
  batches.push_back(Rows(schema, {{Value::String("xy")}}));  // not cast: written as it is
  ASSERT_TRUE(WriteAll(SinkSpec("kafka", Options({{"topic", "fixed-bytes"}, {"format", "raw"}})),
                       schema, batches)
                  .ok());
  auto rows = ReadAll(SourceSpec("kafka", schema,
                                 Options({{"topic", "fixed-bytes"},
                                          {"format", "raw"},
                                          {"scan.startup.mode", "earliest-offset"},
                                          {"scan.bounded.mode", "latest-offset"}})));
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (std::vector<std::string>{"+I[x'01000000']", "+I[x'61626364']",
                                             "+I[x'00ff00ff']", "+I[x'7879']"}));
}

// The sink writes the 'headers' (MAP<STRING, BYTES>) and 'timestamp' metadata columns into each
// record, and the source reads them back, on kafka and upsert-kafka alike.
TEST_F(KafkaConnectorTest, SinkWritesHeadersAndTimestampMetadata) {
  const DataType headers_type = DataType::Map(DataType::String(), DataType::Bytes());
  auto Headers = [](std::vector<std::pair<std::string, std::optional<std::string>>> entries) {
    std::string out;
    CollectionEncoder e;
    e.Begin(&out, static_cast<uint32_t>(entries.size() * 2));
    for (const auto& [k, v] : entries) {
      e.AppendVariable(k);
      if (v) {
        e.AppendVariable(*v);
      } else {
        e.AppendNull();
      }
    }
    e.Finish();
    return Value::String(out);
  };
  for (const std::string connector : {"kafka", "upsert-kafka"}) {
    const std::string topic = "hdr-" + connector;
    CreateTopic(topic, 1);
    const Schema schema{{{"id", DataType::Int().WithNullable(false)},
                         {"v", DataType::String()},
                         {"ts", DataType::Timestamp(3)},
                         {"h", headers_type}}};
    const std::vector<std::vector<Value>> rows = {
        {Value::Int(1), Value::String("a"), Value::Int(1700000000123),
         Headers({{"trace", std::string("\x00\xff", 2)}, {"empty", std::nullopt}})},
        {Value::Int(2), Value::String("b"), Value::Null(), Value::Null()}};
    std::map<std::string, std::string> options = {{"topic", topic}};
    if (connector == "kafka") {
      options["format"] = "json";
    } else {
      options["key.format"] = "json";
      options["value.format"] = "json";
    }
    const std::vector<int> key = connector == "kafka" ? std::vector<int>{} : std::vector<int>{0};
    std::vector<ChangelogBatch> batches;
    batches.push_back(Rows(schema, rows));
    ASSERT_TRUE(
        WriteAll(SinkSpec(connector, Options(options), key, {"", "", "timestamp", "headers"}),
                 schema, batches)
            .ok());
    options["scan.startup.mode"] = "earliest-offset";
    options["scan.bounded.mode"] = "latest-offset";
    const Schema read{{{"id", DataType::Int().WithNullable(false)},
                       {"ts", DataType::Timestamp(3)},
                       {"h", headers_type},
                       {"off", DataType::BigInt()}}};
    const std::vector<std::string> metadata = {"", "timestamp", "headers", "offset"};
    if (connector == "upsert-kafka") {
      auto upserted = ReadAll(SourceSpec(connector, read, Options(options), metadata, key));
      ASSERT_TRUE(upserted.ok()) << upserted.status();
      ASSERT_EQ(upserted->size(), 2u);
      EXPECT_EQ((*upserted)[0], "+I[1, 2023-11-14 22:13:20.123, {trace=x'00ff', empty=NULL}, 0]");
      EXPECT_TRUE(absl::EndsWith((*upserted)[1], ", {}, 1]")) << (*upserted)[1];
    }
    // The records as a kafka table reads them (the upsert sink wrote the whole row as the value).
    auto out = ReadAll(SourceSpec("kafka", read,
                                  Options({{"topic", topic},
                                           {"format", "json"},
                                           {"scan.startup.mode", "earliest-offset"},
                                           {"scan.bounded.mode", "latest-offset"}}),
                                  metadata));
    ASSERT_TRUE(out.ok()) << connector << ": " << out.status();
    ASSERT_EQ(out->size(), 2u) << connector;
    EXPECT_EQ((*out)[0], "+I[1, 2023-11-14 22:13:20.123, {trace=x'00ff', empty=NULL}, 0]")
        << connector;
    // No timestamp column value: the producer's clock; no headers: an empty map.
    EXPECT_TRUE(absl::EndsWith((*out)[1], ", {}, 1]")) << (*out)[1];
  }
}

TEST_F(KafkaConnectorTest, SinkPartitionersPickThePartitions) {
  const Schema schema{{{"v", DataType::String()}}};
  const Schema read{{{"v", DataType::String()}, {"p", DataType::Int()}}};
  auto PerPartition = [&](const std::string& topic, const std::string& partitioner) {
    CreateTopic(topic, 4);
    std::vector<ChangelogBatch> batches;
    std::vector<std::vector<Value>> rows;
    for (int i = 0; i < 8; ++i) rows.push_back({Value::String("r" + std::to_string(i))});
    batches.push_back(Rows(schema, rows));
    EXPECT_TRUE(WriteAll(SinkSpec("kafka", Options({{"topic", topic},
                                                    {"format", "raw"},
                                                    {"sink.partitioner", partitioner}})),
                         schema, batches)
                    .ok());
    auto out = ReadAll(SourceSpec("kafka", read,
                                  Options({{"topic", topic},
                                           {"format", "raw"},
                                           {"scan.startup.mode", "earliest-offset"},
                                           {"scan.bounded.mode", "latest-offset"}}),
                                  {"", "partition"}));
    EXPECT_TRUE(out.ok()) << out.status();
    std::map<int, int> counts;
    for (const std::string& row : out.ok() ? *out : std::vector<std::string>{}) {
      counts[row[row.size() - 2] - '0']++;  // "+I[r3, 2]"
    }
    return counts;
  };
  EXPECT_EQ(PerPartition("rr", "round-robin"),
            (std::map<int, int>{{0, 2}, {1, 2}, {2, 2}, {3, 2}}));
  EXPECT_EQ(PerPartition("fixed", "fixed"), (std::map<int, int>{{0, 8}}));  // subtask 0
}

TEST_F(KafkaConnectorTest, StartupModesPickTheFirstOffsetOfEachPartition) {
  CreateTopic("modes", 2);
  for (int i = 0; i < 4; ++i) {
    ProduceRaw("modes", i % 2, nullptr, ("v" + std::to_string(i)).c_str(), 1000 + i * 1000);
  }
  const Schema schema{{{"v", DataType::String()}}};
  auto Read = [&](std::map<std::string, std::string> extra) {
    extra["topic"] = "modes";
    extra["format"] = "raw";
    extra.emplace("scan.bounded.mode", "latest-offset");
    auto rows = ReadAll(SourceSpec("kafka", schema, Options(extra)));
    EXPECT_TRUE(rows.ok()) << rows.status();
    return rows.ok() ? Sorted(*rows) : std::vector<std::string>{};
  };
  EXPECT_EQ(Read({{"scan.startup.mode", "earliest-offset"}}),
            (std::vector<std::string>{"+I[v0]", "+I[v1]", "+I[v2]", "+I[v3]"}));
  EXPECT_EQ(Read({{"scan.startup.mode", "latest-offset"}}), std::vector<std::string>{});
  EXPECT_EQ(Read({{"scan.startup.mode", "specific-offsets"},
                  {"scan.startup.specific-offsets", "partition:0,offset:1;partition:1,offset:0"}}),
            (std::vector<std::string>{"+I[v1]", "+I[v2]", "+I[v3]"}));
  EXPECT_EQ(Read({{"scan.startup.mode", "earliest-offset"},
                  {"scan.bounded.mode", "specific-offsets"},
                  {"scan.bounded.specific-offsets", "partition:0,offset:1"}}),
            (std::vector<std::string>{"+I[v0]", "+I[v1]", "+I[v3]"}));
  // group-offsets: where the group committed (offset 1 of each partition).
  char error[256];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap_.c_str(), error, sizeof(error));
  rd_kafka_conf_set(conf, "group.id", "readers", error, sizeof(error));
  rd_kafka_t* c = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof(error));
  ASSERT_NE(c, nullptr);
  rd_kafka_topic_partition_list_t* offsets = rd_kafka_topic_partition_list_new(2);
  rd_kafka_topic_partition_list_add(offsets, "modes", 0)->offset = 1;
  rd_kafka_topic_partition_list_add(offsets, "modes", 1)->offset = 1;
  ASSERT_EQ(rd_kafka_commit(c, offsets, 0), RD_KAFKA_RESP_ERR_NO_ERROR);
  rd_kafka_topic_partition_list_destroy(offsets);
  rd_kafka_destroy(c);
  EXPECT_EQ(Read({{"properties.group.id", "readers"}}),
            (std::vector<std::string>{"+I[v2]", "+I[v3]"}));
  // The mock cluster answers every offset-for-time lookup with the partition's end, so the
  // 'timestamp' modes can only be checked against a broker.
}

TEST_F(KafkaConnectorTest, SubtasksSplitThePartitionsAndACheckpointResumesEachPartition) {
  CreateTopic("split", 4);
  const Schema schema{{{"v", DataType::String()}}};
  for (int i = 0; i < 40; ++i) {
    ProduceRaw("split", i % 4, nullptr, ("r" + std::to_string(i)).c_str());
  }
  const auto options = Options({{"topic", "split"},
                                {"format", "raw"},
                                {"scan.startup.mode", "earliest-offset"},
                                {"scan.bounded.mode", "latest-offset"}});
  std::vector<std::string> all;
  for (int subtask = 0; subtask < 3; ++subtask) {
    auto rows = ReadAll(SourceSpec("kafka", schema, options), subtask, 3);
    ASSERT_TRUE(rows.ok()) << rows.status();
    all.insert(all.end(), rows->begin(), rows->end());
  }
  EXPECT_EQ(all.size(), 40u);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 40u);

  // Stop after some rows, restore from the snapshot: the rest, each once.
  OperatorSnapshot snapshot;
  auto first = ReadAll(SourceSpec("kafka", schema, options), 0, 1, nullptr, &snapshot, 5);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_GE(first->size(), 5u);
  auto rest = ReadAll(SourceSpec("kafka", schema, options), 0, 1, &snapshot);
  ASSERT_TRUE(rest.ok()) << rest.status();
  std::vector<std::string> joined = *first;
  joined.insert(joined.end(), rest->begin(), rest->end());
  EXPECT_EQ(Sorted(joined), Sorted(all));
}

TEST_F(KafkaConnectorTest, UpsertKafkaWritesTombstonesAndReadsBackANormalizedChangelog) {
  CreateTopic("totals", 2);
  const Schema schema{{{"name", DataType::String()}, {"total", DataType::BigInt()}}};
  const auto options = Options({{"topic", "totals"},
                                {"key.format", "json"},
                                {"value.format", "json"},
                                {"scan.bounded.mode", "latest-offset"}});
  std::vector<ChangelogBatch> batches;
  batches.push_back(Rows(schema,
                         {{Value::String("a"), Value::Int(1)},
                          {Value::String("b"), Value::Int(2)},
                          {Value::String("a"), Value::Int(1)},
                          {Value::String("a"), Value::Int(3)},
                          {Value::String("b"), Value::Int(2)},
                          {Value::String("c"), Value::Int(5)}},
                         {RowKind::kInsert, RowKind::kInsert, RowKind::kUpdateBefore,
                          RowKind::kUpdateAfter, RowKind::kDelete, RowKind::kInsert}));
  ASSERT_TRUE(WriteAll(SinkSpec("upsert-kafka", options, {0}), schema, batches).ok());
  // A repeated value changes nothing; a tombstone of an unknown key neither.
  ProduceRaw("totals", 0, "{\"name\":\"zz\"}", nullptr);
  auto rows = ReadAll(SourceSpec("upsert-kafka", schema, options, {}, {0}));
  ASSERT_TRUE(rows.ok()) << rows.status();
  // Per key in order: a: +I 1, -U 1, +U 3; b: +I 2, -D 2; c: +I 5.
  EXPECT_EQ(Sorted(*rows), (std::vector<std::string>{"+I[a, 1]", "+I[b, 2]", "+I[c, 5]", "+U[a, 3]",
                                                     "-D[b, 2]", "-U[a, 1]"}));
}

// The upsert-kafka source reads metadata columns: the normaliser keeps each key's metadata with its
// value, so a -U or -D carries the metadata of the row it retracts (a tombstone after an update
// retracts the update's row, offset and timestamp included), as Flink's ChangelogNormalize over
// the full row does; a record repeating a value is a change when the metadata read differs.
TEST_F(KafkaConnectorTest, UpsertKafkaRetractionsCarryTheMetadataOfTheRowTheyRetract) {
  CreateTopic("upsert-meta", 1);
  ProduceRaw("upsert-meta", 0, "{\"name\":\"a\"}", "{\"name\":\"a\",\"total\":1}", 1001);
  ProduceRaw("upsert-meta", 0, "{\"name\":\"a\"}", "{\"name\":\"a\",\"total\":2}", 2002);
  ProduceRaw("upsert-meta", 0, "{\"name\":\"a\"}", nullptr, 3003);
  ProduceRaw("upsert-meta", 0, "{\"name\":\"b\"}", "{\"name\":\"b\",\"total\":5}", 4004);
  ProduceRaw("upsert-meta", 0, "{\"name\":\"b\"}", "{\"name\":\"b\",\"total\":5}", 5005);
  const auto options = Options({{"topic", "upsert-meta"},
                                {"key.format", "json"},
                                {"value.format", "json"},
                                {"scan.bounded.mode", "latest-offset"}});
  const Schema schema{{{"name", DataType::String().WithNullable(false)},
                       {"total", DataType::BigInt()},
                       {"off", DataType::BigInt()},
                       {"ts", DataType::Timestamp(3)}}};
  auto rows =
      ReadAll(SourceSpec("upsert-kafka", schema, options, {"", "", "offset", "timestamp"}, {0}));
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (std::vector<std::string>{
                       "+I[a, 1, 0, 1970-01-01 00:00:01.001]",
                       "-U[a, 1, 0, 1970-01-01 00:00:01.001]",
                       "+U[a, 2, 1, 1970-01-01 00:00:02.002]",
                       "-D[a, 2, 1, 1970-01-01 00:00:02.002]",
                       "+I[b, 5, 3, 1970-01-01 00:00:04.004]",
                       "-U[b, 5, 3, 1970-01-01 00:00:04.004]",
                       "+U[b, 5, 4, 1970-01-01 00:00:05.005]",
                   }));
  // Reading only the partition: b's repeated value changes nothing.
  const Schema by_partition{{{"name", DataType::String().WithNullable(false)},
                             {"total", DataType::BigInt()},
                             {"p", DataType::Int()}}};
  auto partition_rows =
      ReadAll(SourceSpec("upsert-kafka", by_partition, options, {"", "", "partition"}, {0}));
  ASSERT_TRUE(partition_rows.ok()) << partition_rows.status();
  EXPECT_EQ(*partition_rows, (std::vector<std::string>{"+I[a, 1, 0]", "-U[a, 1, 0]", "+U[a, 2, 0]",
                                                       "-D[a, 2, 0]", "+I[b, 5, 0]"}));
}

TEST_F(KafkaConnectorTest,
       ExactlyOnceWritesAtCheckpointCompletionAndReplaysOnlyWhatWasNotCommitted) {
  CreateTopic("eo", 1);
  const Schema schema{{{"v", DataType::String()}}};
  const auto sink_options = Options({{"topic", "eo"},
                                     {"format", "raw"},
                                     {"sink.delivery-guarantee", "exactly-once"},
                                     {"sink.transactional-id-prefix", "eo-test"}});
  const auto read_options = Options({{"topic", "eo"},
                                     {"format", "raw"},
                                     {"properties.isolation.level", "read_committed"},
                                     {"scan.startup.mode", "earliest-offset"},
                                     {"scan.bounded.mode", "latest-offset"}});
  auto Topic = [&] {
    auto rows = ReadAll(SourceSpec("kafka", schema, read_options));
    EXPECT_TRUE(rows.ok()) << rows.status();
    return rows.ok() ? Sorted(*rows) : std::vector<std::string>{};
  };
  Collector out;
  OperatorContext ctx;
  ctx.job_id = "job";
  ctx.checkpointing = true;
  OperatorSnapshot snap1, snap2;
  {
    auto sink = KafkaSink::Create(SinkSpec("kafka", sink_options), schema);
    ASSERT_TRUE(sink.ok()) << sink.status();
    (*sink)->set_output(&out);
    ASSERT_TRUE((*sink)->Open(ctx).ok());
    ASSERT_TRUE((*sink)->Process(0, Rows(schema, {{Value::String("a")}})).ok());
    ASSERT_TRUE((*sink)->SnapshotState(1, &snap1).ok());
    EXPECT_EQ(Topic(), std::vector<std::string>{});  // not before the checkpoint completes
    ASSERT_TRUE((*sink)->NotifyCheckpointComplete(1).ok());
    EXPECT_EQ(Topic(), std::vector<std::string>{"+I[a]"});
    ASSERT_TRUE((*sink)->Process(0, Rows(schema, {{Value::String("b")}})).ok());
    ASSERT_TRUE((*sink)->SnapshotState(2, &snap2).ok());
    ASSERT_TRUE((*sink)->Close().ok());  // dies before checkpoint 2's notification
  }
  // Restored from checkpoint 1 (committed): nothing is written again.
  for (const OperatorSnapshot* restore : {&snap1, &snap2, &snap2}) {
    auto sink = KafkaSink::Create(SinkSpec("kafka", sink_options), schema);
    ASSERT_TRUE(sink.ok());
    (*sink)->set_output(&out);
    ASSERT_TRUE((*sink)->Open(ctx).ok());
    ASSERT_TRUE((*sink)->RestoreState(*restore).ok());
    ASSERT_TRUE((*sink)->Close().ok());
  }
  // Restored from checkpoint 2 (completed, never notified): b is written once.
  EXPECT_EQ(Topic(), (std::vector<std::string>{"+I[a]", "+I[b]"}));
}

// Flink's owner: start = ((topic.hashCode() * 31) & 0x7FFFFFFF) % p, then round-robin over the
// partitions. "a".hashCode() is 97: start 97 * 31 % 4 = 3; "disc-b".hashCode() overflows to a
// negative int (-1331559894): start 2 of 4.
TEST(KafkaSplitOwnerTest, IsFlinksFunctionOfTheTopicHashAndThePartition) {
  EXPECT_EQ(KafkaSplitOwner("a", 0, 4), 3);
  EXPECT_EQ(KafkaSplitOwner("a", 1, 4), 0);
  EXPECT_EQ(KafkaSplitOwner("a", 2, 3), 0);
  EXPECT_EQ(KafkaSplitOwner("claim-input", 0, 3), 2);
  EXPECT_EQ(KafkaSplitOwner("disc-b", 0, 4), 2);
  EXPECT_EQ(KafkaSplitOwner("disc-b", 3, 4), 1);
  // A partition added later gets an owner without moving any other: the next in the round.
  for (int p = 1; p < 40; ++p) {
    EXPECT_EQ(KafkaSplitOwner("claims", p, 3), (KafkaSplitOwner("claims", p - 1, 3) + 1) % 3);
  }
  EXPECT_EQ(KafkaSplitOwner("claims", 5, 1), 0);
}

// An unbounded source subtask, polled by the test.
class RunningSource {
 public:
  RunningSource(const v1::TableSource& spec, int subtask, int parallelism,
                const OperatorSnapshot* restore = nullptr) {
    auto source = KafkaSource::Create(spec);
    status_ = source.status();
    if (!status_.ok()) return;
    source_ = *std::move(source);
    OperatorContext ctx;
    ctx.job_id = "job";
    ctx.subtask_index = subtask;
    ctx.parallelism = parallelism;
    status_ = source_->Open(ctx);
    if (status_.ok() && restore != nullptr) status_ = source_->RestoreState(*restore);
  }
  ~RunningSource() {
    if (source_) (void)source_->Close();
  }
  // Reads what is there now (a few idle polls in a row end it); rows are printed.
  void Poll(std::vector<std::string>* rows) {
    int idle = 0;
    while (status_.ok() && idle < 20) {
      ChangelogBatch batch;
      auto state = source_->Next(&batch);
      if (!state.ok()) {
        status_ = state.status();
        return;
      }
      if (*state != SourceState::kData) {
        ++idle;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        continue;
      }
      idle = 0;
      for (size_t r = 0; r < batch.num_rows(); ++r) rows->push_back(FormatRow(batch, r));
    }
  }
  OperatorSnapshot Snapshot() {
    OperatorSnapshot snapshot;
    if (status_.ok()) status_ = source_->SnapshotState(1, &snapshot);
    return snapshot;
  }
  const absl::Status& status() const { return status_; }

 private:
  std::unique_ptr<KafkaSource> source_;
  absl::Status status_;
};

// Polls the subtasks until they have read `count` rows in all or 20 s passed; each subtask's rows
// must come from partitions it owns (the rows are "+I[value, topic, partition]").
std::vector<std::string> PollUntil(std::vector<std::unique_ptr<RunningSource>>& subtasks,
                                   size_t count, std::vector<std::string> rows = {}) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (rows.size() < count && std::chrono::steady_clock::now() < deadline) {
    for (size_t i = 0; i < subtasks.size(); ++i) {
      std::vector<std::string> read;
      subtasks[i]->Poll(&read);
      EXPECT_TRUE(subtasks[i]->status().ok()) << subtasks[i]->status();
      for (const std::string& row : read) {
        const std::string inner = row.substr(3, row.size() - 4);
        std::vector<std::string> parts = absl::StrSplit(inner, ", ");
        EXPECT_EQ(parts.size(), 3u) << row;
        if (parts.size() == 3) {
          EXPECT_EQ(
              KafkaSplitOwner(parts[1], std::stoi(parts[2]), static_cast<int>(subtasks.size())),
              static_cast<int>(i))
              << row;
        }
      }
      rows.insert(rows.end(), read.begin(), read.end());
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// topic-pattern with scan.topic-partition-discovery.interval: a topic created while the sources
// run is found and read from its earliest offset (records written before it was found included),
// each partition by its one owner; a checkpoint taken before the topic existed restores to sources
// that read it from its beginning and the earlier topic from the saved offsets.
TEST_F(KafkaConnectorTest, DiscoveryFindsATopicCreatedWhileRunningAndReadsItFromItsEarliestOffset) {
  CreateTopic("disc-a", 2);
  for (int i = 0; i < 4; ++i)
    ProduceRaw("disc-a", i % 2, nullptr, ("a" + std::to_string(i)).c_str());
  const Schema schema{
      {{"v", DataType::String()}, {"topic", DataType::String()}, {"p", DataType::Int()}}};
  const auto spec = SourceSpec("kafka", schema,
                               Options({{"topic-pattern", "disc-.*"},
                                        {"format", "raw"},
                                        {"scan.startup.mode", "earliest-offset"},
                                        {"scan.topic-partition-discovery.interval", "100 ms"}}),
                               {"", "topic", "partition"});
  std::vector<std::unique_ptr<RunningSource>> subtasks;
  for (int i = 0; i < 2; ++i) subtasks.push_back(std::make_unique<RunningSource>(spec, i, 2));
  for (auto& s : subtasks) ASSERT_TRUE(s->status().ok()) << s->status();
  std::vector<std::string> first = PollUntil(subtasks, 4);
  ASSERT_EQ(first, (std::vector<std::string>{"+I[a0, disc-a, 0]", "+I[a1, disc-a, 1]",
                                             "+I[a2, disc-a, 0]", "+I[a3, disc-a, 1]"}));
  std::vector<OperatorSnapshot> before_b;
  for (auto& s : subtasks) before_b.push_back(s->Snapshot());

  CreateTopic("disc-b", 3);
  CreateTopic("other", 1);  // not matched
  ProduceRaw("other", 0, nullptr, "o0");
  std::vector<std::string> expected_b;
  for (int i = 0; i < 6; ++i) {
    const std::string v = "b" + std::to_string(i);
    ProduceRaw("disc-b", i % 3, nullptr, v.c_str());
    expected_b.push_back("+I[" + v + ", disc-b, " + std::to_string(i % 3) + "]");
  }
  std::vector<std::string> all = PollUntil(subtasks, 10, first);
  std::vector<std::string> expected = first;
  expected.insert(expected.end(), expected_b.begin(), expected_b.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all, expected);
  subtasks.clear();

  // Restored from the checkpoint taken before disc-b existed: disc-b from its beginning, disc-a
  // from the saved offsets (nothing new there).
  for (int i = 0; i < 2; ++i) {
    subtasks.push_back(std::make_unique<RunningSource>(spec, i, 2, &before_b[i]));
  }
  std::sort(expected_b.begin(), expected_b.end());
  EXPECT_EQ(PollUntil(subtasks, 6), expected_b);
}

// The upsert normaliser's kept metadata is part of the checkpoint: a tombstone read after a restore
// retracts the row with the metadata of the record read before it.
TEST_F(KafkaConnectorTest, UpsertKafkaMetadataOfKeptRowsSurvivesARestore) {
  CreateTopic("upsert-restore", 1);
  ProduceRaw("upsert-restore", 0, "{\"name\":\"a\"}", "{\"name\":\"a\",\"total\":1}", 1001);
  ProduceRaw("upsert-restore", 0, "{\"name\":\"a\"}", "{\"name\":\"a\",\"total\":2}", 2002);
  const Schema schema{{{"name", DataType::String().WithNullable(false)},
                       {"total", DataType::BigInt()},
                       {"off", DataType::BigInt()},
                       {"ts", DataType::Timestamp(3)}}};
  const auto spec = SourceSpec(
      "upsert-kafka", schema,
      Options({{"topic", "upsert-restore"}, {"key.format", "json"}, {"value.format", "json"}}),
      {"", "", "offset", "timestamp"}, {0});
  OperatorSnapshot snapshot;
  {
    RunningSource source(spec, 0, 1);
    std::vector<std::string> rows;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (rows.size() < 3 && std::chrono::steady_clock::now() < deadline) source.Poll(&rows);
    ASSERT_TRUE(source.status().ok()) << source.status();
    EXPECT_EQ(rows, (std::vector<std::string>{"+I[a, 1, 0, 1970-01-01 00:00:01.001]",
                                              "-U[a, 1, 0, 1970-01-01 00:00:01.001]",
                                              "+U[a, 2, 1, 1970-01-01 00:00:02.002]"}));
    snapshot = source.Snapshot();
  }
  ProduceRaw("upsert-restore", 0, "{\"name\":\"a\"}", nullptr, 3003);
  RunningSource restored(spec, 0, 1, &snapshot);
  std::vector<std::string> rows;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (rows.empty() && std::chrono::steady_clock::now() < deadline) restored.Poll(&rows);
  ASSERT_TRUE(restored.status().ok()) << restored.status();
  EXPECT_EQ(rows, std::vector<std::string>{"-D[a, 2, 1, 1970-01-01 00:00:02.002]"});
}

// Discovery off ('0'): a topic created after the start is not read.
TEST_F(KafkaConnectorTest, DiscoveryIntervalZeroReadsOnlyTheTopicsFoundAtTheStart) {
  CreateTopic("fixed-a", 1);
  ProduceRaw("fixed-a", 0, nullptr, "a0");
  const Schema schema{
      {{"v", DataType::String()}, {"topic", DataType::String()}, {"p", DataType::Int()}}};
  const auto spec = SourceSpec("kafka", schema,
                               Options({{"topic-pattern", "fixed-.*"},
                                        {"format", "raw"},
                                        {"scan.startup.mode", "earliest-offset"},
                                        {"scan.topic-partition-discovery.interval", "0"}}),
                               {"", "topic", "partition"});
  std::vector<std::unique_ptr<RunningSource>> subtasks;
  subtasks.push_back(std::make_unique<RunningSource>(spec, 0, 1));
  ASSERT_EQ(PollUntil(subtasks, 1), std::vector<std::string>{"+I[a0, fixed-a, 0]"});
  CreateTopic("fixed-b", 1);
  ProduceRaw("fixed-b", 0, nullptr, "b0");
  ProduceRaw("fixed-a", 0, nullptr, "a1");
  EXPECT_EQ(PollUntil(subtasks, 1), std::vector<std::string>{"+I[a1, fixed-a, 0]"});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::vector<std::string> rows;
  subtasks[0]->Poll(&rows);
  EXPECT_EQ(rows, std::vector<std::string>{});
}

}  // namespace
}  // namespace eddy
