// Kafka tables on a real cluster (coordinator and worker processes) against an eddy-kafka-mock
// process: a keyed aggregation from kafka into upsert-kafka, read back as a table and compared with
// the answer computed here; per-partition watermarks, where a quiet partition holds a tumbling
// window back until it goes idle; and the exactly-once sink across a worker killed (SIGKILL) at a
// moment drawn from a seed, its output read with isolation.level=read_committed; and a topic
// created while a job runs, found by partition discovery and aggregated with a worker killed
// meanwhile. The workers share loopback with the mock, which listens there only.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "tests/integration/changelog_table.h"
#include "tests/integration/cluster_test.h"
#include "tests/integration/kafka_test_support.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

constexpr char kCheckpointed[] =
    "SET 'execution.checkpointing.interval' = '500 ms';"
    "SET 'restart-strategy.type' = 'fixed-delay';"
    "SET 'restart-strategy.fixed-delay.attempts' = '5';"
    "SET 'restart-strategy.fixed-delay.delay' = '500 ms';"
    "SET 'parallelism.default' = '2';";

class KafkaTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();  // the seed first
    mock_dir_ = FreshTestDir("kafka-mock-" + CurrentTestName());
    std::filesystem::create_directories(mock_dir_);
    mock_ = std::make_unique<KafkaMockProcess>(
        mock_dir_, 3,
        std::vector<std::string>{"claims:4", "totals:3", "events:2", "eo-in:4", "eo-out:2",
                                 "meta:2", "stamped:1", "found-0:2", "found-totals:2"});
    ASSERT_TRUE(mock_->ok()) << mock_->error();
    ASSERT_NO_FATAL_FAILURE(StartCluster(ClusterOptions{.workers = 3,
                                                        .slots_per_worker = 2,
                                                        .heartbeat_timeout_ms = 3000,
                                                        .isolate_workers = false}));
  }
  void TearDown() override {
    ClusterTest::TearDown();
    mock_.reset();
    std::filesystem::remove_all(mock_dir_);
  }

  std::string Kafka(const std::string& topic, const std::string& extra) const {
    return "'connector' = 'kafka', 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '" +
           mock_->bootstrap() + "'" + (extra.empty() ? "" : ", " + extra);
  }
  std::string UpsertKafka(const std::string& topic, const std::string& extra) const {
    return "'connector' = 'upsert-kafka', 'topic' = '" + topic +
           "', 'properties.bootstrap.servers' = '" + mock_->bootstrap() +
           "', 'key.format' = 'json', 'value.format' = 'json'" +
           (extra.empty() ? "" : ", " + extra);
  }
  std::string Finished(const std::string& sql) {
    RunResult r = Eddy(sql);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::string job = JobIdIn(r.err);
    EXPECT_FALSE(job.empty()) << r.out << r.err;
    if (job.empty()) return "not submitted";
    return cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED", "CANCELED"},
                                      std::chrono::seconds(120));
  }

  std::string mock_dir_;
  std::unique_ptr<KafkaMockProcess> mock_;
};

TEST_F(KafkaTest, AKeyedAggregationWrittenToUpsertKafkaReadsBackAsTheTable) {
  // Claims in, as JSON, spread over 4 partitions by key.
  std::vector<KafkaRecord> claims;
  std::map<std::string, std::pair<int64_t, int64_t>> expected;  // customer -> count, sum
  for (int i = 0; i < 3000; ++i) {
    const std::string customer = "cust" + std::to_string((i * 7) % 41);
    const int64_t amount = (i * 13) % 1000;
    claims.push_back({-1, std::to_string(i),
                      "{\"claim_id\":" + std::to_string(i) + ",\"customer\":\"" + customer +
                          "\",\"amount\":" + std::to_string(amount) + "}"});
    expected[customer].first += 1;
    expected[customer].second += amount;
  }
  ASSERT_EQ(ProduceRecords(mock_->bootstrap(), "claims", claims), "");
  ASSERT_EQ(
      Finished(std::string(kCheckpointed) +
               "CREATE TABLE claims (claim_id BIGINT, customer STRING NOT NULL, amount BIGINT) "
               "WITH (" +
               Kafka("claims",
                     "'format' = 'json', 'scan.startup.mode' = 'earliest-offset', "
                     "'scan.bounded.mode' = 'latest-offset'") +
               ");"
               "CREATE TABLE totals (customer STRING, n BIGINT, total BIGINT, "
               "PRIMARY KEY (customer) NOT ENFORCED) WITH (" +
               UpsertKafka("totals", "") +
               ");"
               "INSERT INTO totals SELECT customer, COUNT(*), SUM(amount) FROM claims "
               "GROUP BY customer;"),
      "FINISHED")
      << cluster_->CoordinatorLog();

  // The topic as a table, read here: the last value of each key.
  std::map<std::string, std::string> last;
  for (const KafkaRecord& r : ConsumeTopic(mock_->bootstrap(), "totals", false)) {
    ASSERT_TRUE(r.key.has_value());
    if (r.value) {
      last[*r.key] = *r.value;
    } else {
      last.erase(*r.key);
    }
  }
  std::map<std::string, std::string> wanted_topic, wanted_table;
  for (const auto& [customer, cs] : expected) {
    wanted_topic["{\"customer\":\"" + customer + "\"}"] =
        "{\"customer\":\"" + customer + "\",\"n\":" + std::to_string(cs.first) +
        ",\"total\":" + std::to_string(cs.second) + "}";
    wanted_table[customer] =
        customer + ", " + std::to_string(cs.first) + ", " + std::to_string(cs.second);
  }
  EXPECT_EQ(last, wanted_topic);

  // The same topic read by an upsert-kafka source: its changelog replays into the table.
  ASSERT_EQ(Finished("SET 'parallelism.default' = '2';"
                     "CREATE TABLE totals_read (customer STRING, n BIGINT, total BIGINT, "
                     "PRIMARY KEY (customer) NOT ENFORCED) WITH (" +
                     UpsertKafka("totals", "'scan.bounded.mode' = 'latest-offset'") +
                     ");"
                     "CREATE TABLE shown (customer STRING, n BIGINT, total BIGINT) WITH "
                     "('connector' = 'print', 'print-identifier' = 'totals');"
                     "INSERT INTO shown SELECT * FROM totals_read;"),
            "FINISHED")
      << cluster_->CoordinatorLog();
  ChangelogTable table = ReplayChangelog(cluster_->AllWorkerStdout(), 1);
  EXPECT_TRUE(table.errors.empty()) << table.errors.front();
  EXPECT_EQ(table.rows, wanted_table);
}

TEST_F(KafkaTest, MetadataColumnsReadEachRecordsTopicPartitionOffsetAndTimestampAndWriteItsTime) {
  ASSERT_EQ(ProduceRecords(mock_->bootstrap(), "meta",
                           {{0, std::nullopt, "a", 1700000000000},
                            {1, std::nullopt, "b", 1700000001000},
                            {1, std::nullopt, "c", 1700000002000}}),
            "");
  // table.dml-sync: each INSERT's statement ends when its job has finished.
  RunResult r = Eddy(
      "SET 'parallelism.default' = '1';"
      "SET 'table.dml-sync' = 'true';"
      "CREATE TABLE meta (v STRING, p INT METADATA FROM 'partition' VIRTUAL, "
      "o BIGINT METADATA FROM 'offset' VIRTUAL, t STRING METADATA FROM 'topic' VIRTUAL, "
      "ts TIMESTAMP(3) METADATA FROM 'timestamp') WITH (" +
      Kafka("meta",
            "'format' = 'raw', 'scan.startup.mode' = 'earliest-offset', "
            "'scan.bounded.mode' = 'latest-offset'") +
      ");"
      "CREATE TABLE stamped (v STRING, ts TIMESTAMP(3) METADATA FROM 'timestamp') WITH (" +
      Kafka("stamped", "'format' = 'raw'") +
      ");"
      "CREATE TABLE shown (v STRING, p INT, o BIGINT, t STRING, ts TIMESTAMP(3)) WITH "
      "('connector' = 'print', 'print-identifier' = 'meta');"
      "INSERT INTO shown SELECT v, p, o, t, ts FROM meta;"
      "INSERT INTO stamped SELECT v, ts + INTERVAL '1' HOUR FROM meta;");
  ASSERT_EQ(r.exit_code, 0) << r.err << cluster_->CoordinatorLog();
  const std::string done = "[INFO] Complete execution of the SQL update statement.";
  ASSERT_NE(r.err.find(done), std::string::npos) << r.err;
  ASSERT_NE(r.err.find(done, r.err.find(done) + 1), std::string::npos) << r.err;  // both INSERTs
  const std::string out = cluster_->AllWorkerStdout();
  EXPECT_THAT(out, ::testing::HasSubstr("meta> +I[a, 0, 0, meta, 2023-11-14 22:13:20.000]"));
  EXPECT_THAT(out, ::testing::HasSubstr("meta> +I[b, 1, 0, meta, 2023-11-14 22:13:21.000]"));
  EXPECT_THAT(out, ::testing::HasSubstr("meta> +I[c, 1, 1, meta, 2023-11-14 22:13:22.000]"));
  // The sink wrote each record's timestamp from its 'timestamp' column.
  std::map<std::string, int64_t> stamps;
  for (const KafkaRecord& r : ConsumeTopic(mock_->bootstrap(), "stamped", false)) {
    stamps[r.value.value_or("")] = r.timestamp;
  }
  EXPECT_EQ(stamps, (std::map<std::string, int64_t>{
                        {"a", 1700003600000}, {"b", 1700003601000}, {"c", 1700003602000}}));
}

TEST_F(KafkaTest, PerPartitionWatermarksWaitForAQuietPartitionUntilItIsIdle) {
  // Events in partition 0 only, up to 25 s: the window [0 s, 10 s) is complete there. Partition 1
  // holds none, so without idleness it holds event time back.
  std::vector<KafkaRecord> events;
  for (int s : {1, 2, 3, 4, 5, 25}) {
    events.push_back({0, std::nullopt,
                      "{\"k\":\"a\",\"ts\":\"1970-01-01 00:00:" + std::string(s < 10 ? "0" : "") +
                          std::to_string(s) + "\"}"});
  }
  ASSERT_EQ(ProduceRecords(mock_->bootstrap(), "events", events), "");
  auto Submit = [&](const std::string& name, const std::string& idle) {
    RunResult r = Eddy(
        "SET 'parallelism.default' = '1';"
        "CREATE TABLE ev_" +
        name + " (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH (" +
        Kafka("events", "'format' = 'json', 'scan.startup.mode' = 'earliest-offset'" + idle) +
        ");"
        "CREATE TABLE out_" +
        name + " (ws TIMESTAMP(3), c BIGINT) WITH ('connector' = 'print', 'print-identifier' = '" +
        name +
        "');"
        "INSERT INTO out_" +
        name + " SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE ev_" + name +
        ", DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end;");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return JobIdIn(r.err);
  };
  const std::string stalled = Submit("stalled", "");
  const std::string idle = Submit("idle", ", 'scan.watermark.idle-timeout' = '1 s'");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline &&
         cluster_->AllWorkerStdout().find("idle> ") == std::string::npos) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const std::string out = cluster_->AllWorkerStdout();
  EXPECT_THAT(out, ::testing::HasSubstr("idle> +I[1970-01-01 00:00:00.000, 5]"));
  EXPECT_THAT(out, ::testing::Not(::testing::HasSubstr("idle> +I[1970-01-01 00:00:10")));
  EXPECT_THAT(out, ::testing::Not(::testing::HasSubstr("stalled> ")));
  Eddy("STOP JOB '" + stalled + "';");
  Eddy("STOP JOB '" + idle + "';");
}

TEST_F(KafkaTest, TheExactlyOnceSinkWritesEveryRowOnceAcrossAKilledWorker) {
  constexpr int kPartitions = 4;
  constexpr int kPerPartition = 6000;
  std::string stops;
  for (int p = 0; p < kPartitions; ++p) {
    stops += (p ? ";" : "") + std::string("partition:") + std::to_string(p) +
             ",offset:" + std::to_string(kPerPartition);
  }
  RunResult submitted =
      Eddy(std::string(kCheckpointed) + "CREATE TABLE src (id BIGINT, payload STRING) WITH (" +
           Kafka("eo-in",
                 "'format' = 'json', 'scan.startup.mode' = 'earliest-offset', "
                 "'scan.bounded.mode' = 'specific-offsets', 'scan.bounded.specific-offsets' = '" +
                     stops + "'") +
           ");"
           "CREATE TABLE dst (id BIGINT, payload STRING) WITH (" +
           Kafka("eo-out",
                 "'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once', "
                 "'sink.transactional-id-prefix' = 'eo-test'") +
           ");"
           "INSERT INTO dst SELECT id, UPPER(payload) FROM src;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);

  // The input arrives while the job runs, about 4 s long.
  std::atomic<bool> producing_failed{false};
  std::thread producer([&] {
    for (int chunk = 0; chunk < kPerPartition / 150; ++chunk) {
      std::vector<KafkaRecord> records;
      for (int p = 0; p < kPartitions; ++p) {
        for (int i = 0; i < 150; ++i) {
          const int64_t id = static_cast<int64_t>(p) * kPerPartition + chunk * 150 + i;
          records.push_back(
              {p, std::nullopt,
               "{\"id\":" + std::to_string(id) + ",\"payload\":\"p" + std::to_string(id) + "\"}"});
        }
      }
      if (!ProduceRecords(mock_->bootstrap(), "eo-in", records).empty()) producing_failed = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  // Once a checkpoint completed (so that the restart restores one), at a seeded random moment.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<std::string> row = cluster_->JobRow(job);
    if (row.size() > 5 && !row[5].empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const int victim =
      KillAWorkerRunningSubtasks(std::chrono::milliseconds(0), std::chrono::milliseconds(2500));
  producer.join();
  ASSERT_FALSE(producing_failed);
  ASSERT_GE(victim, 0);
  ASSERT_EQ(cluster_->WaitForJobStatus(job, {"FINISHED", "FAILED"}, std::chrono::seconds(120)),
            "FINISHED")
      << cluster_->CoordinatorLog();
  EXPECT_THAT(cluster_->CoordinatorLog(), ::testing::ContainsRegex("restored from checkpoint"));

  std::string error;
  std::map<int64_t, int> seen;
  for (const KafkaRecord& r : ConsumeTopic(mock_->bootstrap(), "eo-out", true, &error)) {
    ASSERT_TRUE(r.value.has_value());
    long long id = -1;
    ASSERT_EQ(std::sscanf(r.value->c_str(), "{\"id\":%lld,", &id), 1) << *r.value;
    EXPECT_EQ(*r.value,
              "{\"id\":" + std::to_string(id) + ",\"payload\":\"P" + std::to_string(id) + "\"}");
    ++seen[id];
  }
  EXPECT_EQ(error, "");
  int duplicates = 0;
  for (const auto& [id, n] : seen) duplicates += n > 1;
  EXPECT_EQ(duplicates, 0);
  EXPECT_EQ(seen.size(), static_cast<size_t>(kPartitions * kPerPartition));
}

// A job reads topic-pattern 'found-[0-9]+' with a 300 ms discovery interval into a keyed
// aggregation written to upsert-kafka. Topic found-1 is created while it runs and written to (some
// records before the job can have found it): with no failure yet, the output reaches the totals of
// both topics, so the running job found found-1 and read it from its beginning. Then found-2 is
// created while more records arrive and a worker is killed (SIGKILL) at a seeded moment: the final
// value of every key is still the count and sum over all records, each once.
TEST_F(KafkaTest, TopicsCreatedWhileTheJobRunsAreFoundAndReadAcrossAKilledWorker) {
  RunResult submitted =
      Eddy(std::string(kCheckpointed) +
           "CREATE TABLE src (id BIGINT, k STRING NOT NULL, amount BIGINT) " +
           "WITH ('connector' = 'kafka', 'topic-pattern' = 'found-[0-9]+', " +
           "'properties.bootstrap.servers' = '" + mock_->bootstrap() +
           "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset', "
           "'scan.topic-partition-discovery.interval' = '300 ms');"
           "CREATE TABLE totals (k STRING, n BIGINT, total BIGINT, PRIMARY KEY (k) NOT ENFORCED) "
           "WITH (" +
           UpsertKafka("found-totals", "") +
           ");"
           "INSERT INTO totals SELECT k, COUNT(*), SUM(amount) FROM src GROUP BY k;");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.err;
  const std::string job = JobIdIn(submitted.err);

  std::map<std::string, std::pair<int64_t, int64_t>> expected;  // k -> count, sum
  std::mutex expected_mu;
  int next_id = 0;
  // Writes `count` new records to `topic`.
  auto Produce = [&](const std::string& topic, int count) {
    std::vector<KafkaRecord> records;
    std::lock_guard<std::mutex> lock(expected_mu);
    for (int i = 0; i < count; ++i, ++next_id) {
      const std::string k = "k" + std::to_string(next_id % 13);
      const int64_t amount = (next_id * 7) % 100;
      expected[k].first += 1;
      expected[k].second += amount;
      records.push_back({-1, std::to_string(next_id),
                         "{\"id\":" + std::to_string(next_id) + ",\"k\":\"" + k +
                             "\",\"amount\":" + std::to_string(amount) + "}"});
    }
    return ProduceRecords(mock_->bootstrap(), topic, records).empty();
  };
  // Waits until the output topic, read as a table, holds the expected totals; false after 90 s.
  std::map<std::string, std::string> last, wanted;
  auto ReachesTheTotals = [&] {
    wanted.clear();
    for (const auto& [k, cs] : expected) {
      wanted["{\"k\":\"" + k + "\"}"] = "{\"k\":\"" + k + "\",\"n\":" + std::to_string(cs.first) +
                                        ",\"total\":" + std::to_string(cs.second) + "}";
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    while (std::chrono::steady_clock::now() < deadline) {
      last.clear();
      for (const KafkaRecord& r : ConsumeTopic(mock_->bootstrap(), "found-totals", false)) {
        if (!r.key) continue;
        if (r.value) {
          last[*r.key] = *r.value;
        } else {
          last.erase(*r.key);
        }
      }
      if (last == wanted) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    return false;
  };

  ASSERT_TRUE(Produce("found-0", 500));
  ASSERT_EQ(mock_->CreateTopic("found-1", 3), "");
  ASSERT_TRUE(Produce("found-1", 500));
  EXPECT_TRUE(ReachesTheTotals()) << cluster_->CoordinatorLog();
  EXPECT_EQ(last, wanted);
  ASSERT_THAT(cluster_->CoordinatorLog(),
              ::testing::Not(::testing::ContainsRegex("restored from checkpoint")));

  std::atomic<bool> producing_failed{false};
  std::thread producer([&] {
    for (int chunk = 0; chunk < 30; ++chunk) {
      if (chunk == 10 && !mock_->CreateTopic("found-2", 2).empty()) producing_failed = true;
      for (const char* topic : {"found-0", "found-1", "found-2"}) {
        if (chunk < 10 && std::string(topic) == "found-2") continue;
        if (!Produce(topic, 50)) producing_failed = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  const int victim =
      KillAWorkerRunningSubtasks(std::chrono::milliseconds(0), std::chrono::milliseconds(3000));
  producer.join();
  ASSERT_FALSE(producing_failed) << ReadFileToString(mock_dir_ + "/kafka-mock.err");
  ASSERT_GE(victim, 0);
  EXPECT_TRUE(ReachesTheTotals()) << cluster_->CoordinatorLog();
  EXPECT_EQ(last, wanted);
  EXPECT_THAT(cluster_->CoordinatorLog(), ::testing::ContainsRegex("restored from checkpoint"));
  Eddy("STOP JOB '" + job + "';");
}

}  // namespace
}  // namespace eddy::testing
