// TableEnvironment::FromStream against a real cluster (a coordinator and three worker processes):
// a program's rows through the coordinator's relay into a window aggregate that fires as the
// watermark passes and at close; a small buffer and a query nobody reads block Write without losing
// a row; a worker SIGKILLed at a seeded moment while the program pushes leaves the result equal to
// the fault-free one; misuse of the writer is a clear error, and so is writing to a stream whose
// reading job ended.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <tuple>

#include "client/table_environment.h"
#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kBaseMs = 1709283600000;  // 2024-03-01 09:00:00 UTC

// Joins a producer thread when a test ends early (a failed assertion), cancelling its writer first
// so that a Write waiting for credit returns.
struct JoinProducer {
  StreamWriter* writer;
  std::thread* producer;
  ~JoinProducer() {
    if (!producer->joinable()) return;
    writer->Cancel();
    producer->join();
  }
};

class FromStreamTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ASSERT_NO_FATAL_FAILURE(StartCluster(FaultToleranceOptions()));
    env_ = TableEnvironment::Connect(cluster_->coordinator_address(), CurrentTestName());
  }
  void Set(const std::string& statement) {
    auto r = env_->ExecuteSql(statement);
    ASSERT_TRUE(r.ok()) << r.status();
  }
  std::unique_ptr<TableEnvironment> env_;
};

// Row i of the events the tests push: key i % 5, value i, one every 100 ms of event time.
std::vector<Value> Event(int64_t i) {
  return {Value::String("k" + std::to_string(i % 5)), Value::Int(i), Value::Int(kBaseMs + i * 100)};
}

StreamSchema EventSchema() {
  return StreamSchema()
      .Column("k", "STRING")
      .Column("v", "BIGINT")
      .Column("ts", "TIMESTAMP(3)")
      .Watermark("ts", "ts - INTERVAL '1' SECOND");
}

TEST_F(FromStreamTest, AWindowAggregateFiresAsTheWatermarkPassesAndTheLastWindowsAtClose) {
  constexpr int64_t kRows = 1000;  // 100 s of event time: ten 10-second windows
  ASSERT_NO_FATAL_FAILURE(Set("SET 'parallelism.default' = '2'"));
  auto stream = env_->FromStream(EventSchema(), {.batch_rows = 64});
  ASSERT_TRUE(stream.ok()) << stream.status();
  auto changes = env_->SqlQuery(
                         "SELECT k, window_start, COUNT(*) AS c, SUM(v) AS s FROM "
                         "TABLE(TUMBLE(TABLE " +
                         stream->writer->table_path() +
                         ", DESCRIPTOR(ts), INTERVAL '10' SECOND)) "
                         "GROUP BY k, window_start, window_end")
                     .ToChangelogStream();
  ASSERT_TRUE(changes.ok()) << changes.status();

  std::atomic<int> received{0};
  absl::Status pushed;
  std::atomic<bool> fired_before_close{false};
  std::thread producer([&] {
    StreamWriter& w = *stream->writer;
    // The first 30 s: the watermark (29.9 s - 1 s) passes the end of the first two windows, whose
    // ten rows come out while the stream is still open.
    for (int64_t i = 0; i < 300 && pushed.ok(); ++i) pushed = w.Write(Event(i));
    if (pushed.ok()) pushed = w.Flush();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (received.load() < 10 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    fired_before_close = received.load() >= 10;
    for (int64_t i = 300; i < kRows && pushed.ok(); ++i) pushed = w.Write(Event(i));
    if (pushed.ok()) pushed = w.Close();
  });
  JoinProducer join_producer{stream->writer.get(), &producer};

  std::map<std::string, std::pair<int64_t, int64_t>> got;  // key and window -> count, sum
  ResultRow row;
  while (true) {
    auto more = changes->Next(&row);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    EXPECT_EQ(row.kind, RowKind::kInsert) << row.ToString();
    got[row.text[0] + " " + row.text[1]] = {row.values[2].int_value(), row.values[3].int_value()};
    received.fetch_add(1);
  }
  producer.join();
  ASSERT_TRUE(pushed.ok()) << pushed;
  EXPECT_TRUE(fired_before_close.load());
  EXPECT_EQ(received.load(), 50);  // each window and key once

  // The fault-free answer: window w holds rows 100w .. 100w + 99, key k those with i % 5 == k.
  std::map<std::string, std::pair<int64_t, int64_t>> expected;
  for (int64_t i = 0; i < kRows; ++i) {
    const int64_t w = i / 100;
    char start[32];
    std::snprintf(start, sizeof(start), "2024-03-01 09:%02d:%02d.000",
                  static_cast<int>(w * 10 / 60), static_cast<int>(w * 10 % 60));
    auto& e = expected["k" + std::to_string(i % 5) + " " + start];
    e.first += 1;
    e.second += i;
  }
  EXPECT_EQ(got, expected);
}

TEST_F(FromStreamTest, ASmallBufferAndAQueryNobodyReadsBlockWriteAndLoseNoRow) {
  constexpr int64_t kRows = 200000;
  auto stream = env_->FromStream(StreamSchema().Column("id", "BIGINT").Column("pad", "STRING"),
                                 {.buffer_batches = 2, .batch_rows = 500});
  ASSERT_TRUE(stream.ok()) << stream.status();
  auto rows = env_->SqlQuery("SELECT id, pad FROM " + stream->writer->table_path()).ToDataStream();
  ASSERT_TRUE(rows.ok()) << rows.status();

  std::atomic<int64_t> written{0};
  absl::Status pushed;
  const std::string pad(200, 'x');
  std::thread producer([&] {
    StreamWriter& w = *stream->writer;
    for (int64_t i = 0; i < kRows && pushed.ok(); ++i) {
      pushed = w.Write({Value::Int(i), Value::String(pad)});
      written.store(i + 1);
    }
    if (pushed.ok()) pushed = w.Close();
  });
  JoinProducer join_producer{stream->writer.get(), &producer};
  // Nobody reads: once the buffers between the relay and this client are full, Write blocks.
  int64_t before = -1;
  for (int i = 0; i < 100; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const int64_t now = written.load();
    if (now == before) break;
    before = now;
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const int64_t stalled = written.load();
  EXPECT_EQ(stalled, before) << "Write did not block";
  EXPECT_LT(stalled, kRows);
  std::cout << "Write blocked after " << stalled << " of " << kRows << " rows" << std::endl;

  std::vector<bool> seen(kRows, false);
  int64_t count = 0;
  ResultRow row;
  while (true) {
    auto more = rows->Next(&row);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    const int64_t id = row.values[0].int_value();
    ASSERT_TRUE(id >= 0 && id < kRows && !seen[id]) << row.ToString();
    seen[id] = true;
    ++count;
  }
  producer.join();
  ASSERT_TRUE(pushed.ok()) << pushed;
  EXPECT_EQ(count, kRows);
  EXPECT_GT(stream->writer->credit_waits(), 0);
}

TEST_F(FromStreamTest, AWorkerKilledWhileTheProgramPushesLeavesTheFaultFreeResult) {
  constexpr int64_t kRows = 60000;
  ASSERT_NO_FATAL_FAILURE(Set("SET 'parallelism.default' = '2'"));
  ASSERT_NO_FATAL_FAILURE(Set("SET 'execution.checkpointing.interval' = '500 ms'"));
  ASSERT_NO_FATAL_FAILURE(Set("SET 'restart-strategy.type' = 'fixed-delay'"));
  ASSERT_NO_FATAL_FAILURE(Set("SET 'restart-strategy.fixed-delay.attempts' = '3'"));
  ASSERT_NO_FATAL_FAILURE(Set("SET 'restart-strategy.fixed-delay.delay' = '500 ms'"));
  auto stream = env_->FromStream(EventSchema(), {.table_name = "events", .batch_rows = 500});
  ASSERT_TRUE(stream.ok()) << stream.status();
  auto changes = env_->SqlQuery("SELECT k, COUNT(*) AS c, SUM(v) AS s FROM events GROUP BY k")
                     .ToChangelogStream();
  ASSERT_TRUE(changes.ok()) << changes.status();

  // The program pushes for about six seconds, while a worker dies.
  absl::Status pushed;
  std::atomic<bool> pushed_all{false};
  std::thread producer([&] {
    StreamWriter& w = *stream->writer;
    for (int64_t i = 0; i < kRows && pushed.ok(); ++i) {
      pushed = w.Write(Event(i));
      if (i % 500 == 499) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    pushed_all = true;
    if (pushed.ok()) pushed = w.Close();
  });
  JoinProducer join_producer{stream->writer.get(), &producer};
  // Kill only once a checkpoint completed, so that the restart restores one.
  std::string job;
  for (int i = 0; i < 200 && job.empty(); ++i) {
    auto jobs = env_->client()->ListJobs();
    ASSERT_TRUE(jobs.ok()) << jobs.status();
    for (const auto& j : *jobs) {
      if (j.status() == v1::JOB_STATUS_RUNNING) job = j.job_id();
    }
    if (job.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_FALSE(job.empty());
  EXPECT_FALSE(WaitForACompletedCheckpoint(job).empty()) << cluster_->CoordinatorLog();
  const int victim = KillAWorkerRunningSubtasks();
  EXPECT_GE(victim, 0);
  EXPECT_FALSE(pushed_all.load()) << "the worker died after the program had pushed every row";

  std::map<std::string, std::pair<int64_t, int64_t>> table;  // the changelog, materialized
  ResultRow row;
  absl::Status read;
  while (true) {
    auto more = changes->Next(&row);
    if (!more.ok()) {
      read = more.status();
      break;
    }
    if (!*more) break;
    if (row.kind == RowKind::kInsert || row.kind == RowKind::kUpdateAfter) {
      table[row.text[0]] = {row.values[1].int_value(), row.values[2].int_value()};
    } else if (row.kind == RowKind::kDelete) {
      table.erase(row.text[0]);
    }
  }
  producer.join();
  ASSERT_TRUE(read.ok()) << read << "\n" << cluster_->CoordinatorLog();
  ASSERT_TRUE(pushed.ok()) << pushed;
  EXPECT_THAT(cluster_->CoordinatorLog(),
              ::testing::ContainsRegex("attempt [2-6] deployed: .*, restored from checkpoint"));

  std::map<std::string, std::pair<int64_t, int64_t>> expected;
  for (int64_t i = 0; i < kRows; ++i) {
    auto& e = expected["k" + std::to_string(i % 5)];
    e.first += 1;
    e.second += i;
  }
  EXPECT_EQ(table, expected);
}

TEST_F(FromStreamTest, MisusedWritersAndBadSchemasAreClearErrors) {
  auto stream =
      env_->FromStream(StreamSchema().Column("id", "BIGINT NOT NULL").Column("name", "STRING"),
                       {.table_name = "people"});
  ASSERT_TRUE(stream.ok()) << stream.status();
  StreamWriter& w = *stream->writer;
  EXPECT_EQ(w.table_path(), "`default_catalog`.`default_database`.`people`");

  absl::Status s = w.Write({Value::Int(1)});
  EXPECT_THAT(std::string(s.message()), HasSubstr("row 1 has 1 values, the table has 2 columns"));
  s = w.Write({Value::String("one"), Value::String("x")});
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("row 1: column 'id' (BIGINT NOT NULL) cannot take a string"));
  s = w.Write({Value::Null(), Value::String("x")});
  EXPECT_THAT(std::string(s.message()), HasSubstr("column 'id' (BIGINT NOT NULL) cannot be NULL"));
  ASSERT_TRUE(w.Write({Value::Int(1), Value::Null()}).ok());
  // Whole columnar batches: checked against the columns as a whole, sent after the rows before.
  ChangelogBatch ids({w.schema().fields[0].type});
  ids.mutable_column(0).AppendValue(Value::Int(2));
  ids.mutable_kinds().push_back(RowKind::kInsert);
  s = w.WriteBatch(ids);
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("batch of rows 2..: it has 1 columns, the table has 2"));
  ChangelogBatch two(w.schema().Types());
  for (int64_t id : {2, 3}) {
    two.mutable_column(0).AppendValue(Value::Int(id));
    two.mutable_column(1).AppendValue(Value::String(id == 2 ? "two" : "three"));
    two.mutable_kinds().push_back(RowKind::kInsert);
  }
  ASSERT_TRUE(w.WriteBatch(two).ok());
  ASSERT_TRUE(w.Close().ok());
  s = w.Write({Value::Int(2), Value::String("y")});
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.message()), HasSubstr("people`: Write after Close"));

  // The closed stream still reads to its end, as a bounded table.
  auto rows = env_->From("people").ToDataStream();
  ASSERT_TRUE(rows.ok()) << rows.status();
  ResultRow row;
  auto more = rows->Next(&row);
  ASSERT_TRUE(more.ok() && *more) << more.status();
  EXPECT_EQ(row.ToString(), "+I[1, null]");
  for (const char* expected : {"+I[2, two]", "+I[3, three]"}) {
    more = rows->Next(&row);
    ASSERT_TRUE(more.ok() && *more) << more.status();
    EXPECT_EQ(row.ToString(), expected);
  }
  more = rows->Next(&row);
  ASSERT_TRUE(more.ok()) << more.status();
  EXPECT_FALSE(*more);

  // A stream feeds one job.
  auto again = env_->From("people").ToDataStream();
  ASSERT_TRUE(again.ok()) << again.status();
  more = again->Next(&row);
  ASSERT_FALSE(more.ok());
  EXPECT_THAT(std::string(more.status().message()), HasSubstr("feeds one job"));

  // A schema that CREATE TABLE would refuse, refused the same way.
  auto bad = env_->FromStream(StreamSchema().Column("id", "BIGNUM"));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("FromStream: "));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("BIGNUM"));
  auto no_column = env_->FromStream(StreamSchema().Column("id", "BIGINT").Watermark("ts", "ts"));
  ASSERT_FALSE(no_column.ok());
  EXPECT_THAT(std::string(no_column.status().message()),
              HasSubstr("watermark column 'ts' is not a column"));

  // The connector is the coordinator's own: DDL cannot name it.
  auto ddl = env_->ExecuteSql(
      "CREATE TABLE t (id BIGINT) WITH ('connector' = 'client-stream', 'stream-id' = 'stream-1')");
  ASSERT_FALSE(ddl.ok());
  EXPECT_THAT(std::string(ddl.status().message()), HasSubstr("unknown connector 'client-stream'"));
}

TEST_F(FromStreamTest, WhenTheJobReadingAStreamEndsWriteSaysSoInsteadOfWaiting) {
  auto stream = env_->FromStream(StreamSchema().Column("id", "BIGINT"),
                                 {.buffer_batches = 2, .batch_rows = 10});
  ASSERT_TRUE(stream.ok()) << stream.status();
  StreamWriter& w = *stream->writer;
  {
    auto result = stream->table.Execute();
    ASSERT_TRUE(result.ok()) << result.status();
    auto rows = result->Collect();
    ASSERT_TRUE(rows.ok()) << rows.status();
    // Fewer rows than a batch, and no Flush: they ship once they waited the linger time.
    for (int64_t i = 0; i < 5; ++i) ASSERT_TRUE(w.Write({Value::Int(i)}).ok());
    ResultRow row;
    auto more = rows->Next(&row);
    ASSERT_TRUE(more.ok() && *more) << more.status();
    EXPECT_EQ(row.ToString(), "+I[0]");
  }  // the iterator cancels the query
  absl::Status s;
  for (int64_t i = 5; i < 1000000 && s.ok(); ++i) s = w.Write({Value::Int(i)});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("ended (CANCELED"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("the stream takes no more rows"));
  // The writer stays failed.
  EXPECT_EQ(w.Close().message(), s.message());
}

}  // namespace
}  // namespace eddy::testing
