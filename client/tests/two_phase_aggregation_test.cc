// Two-phase (local-global) aggregation on an embedded cluster at parallelism 2, across a real hash
// shuffle: every query's materialized result is the same with mini-batch off, one phase and two
// phases, every retraction retracts a row that is there, and with two phases far fewer rows cross
// the exchange (the job's row counters).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "client/eddy_client.h"
#include "client/embedded/embedded_environment.h"
#include "client/table_environment.h"

namespace eddy {
namespace {

class TwoPhaseAggregationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto env = StartEmbeddedEnvironment({.workers = 2, .slots = 2});
    ASSERT_TRUE(env.ok()) << env.status();
    env_ = std::move(*env);
    Run("SET 'parallelism.default' = '2'");
    // 20,000 rows, 1,000 keys; every 7th value NULL.
    Run("CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen', "
        "'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', "
        "'fields.id.start' = '1', 'fields.id.end' = '20000')");
    Run("CREATE TEMPORARY VIEW t AS SELECT id % 1000 AS k, "
        "CASE WHEN id % 7 = 0 THEN CAST(NULL AS INT) ELSE CAST(id % 97 AS INT) END AS n, "
        "CAST(id % 13 AS DECIMAL(10, 2)) / 4 AS d FROM ids");
  }

  void Run(const std::string& sql) {
    auto r = env_->ExecuteSql(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status();
  }

  void Mode(const std::string& mode) {
    if (mode == "off") {
      Run("SET 'table.exec.mini-batch.enabled' = 'false'");
      return;
    }
    Run("SET 'table.exec.mini-batch.enabled' = 'true'");
    Run("SET 'table.exec.mini-batch.allow-latency' = '50 ms'");
    Run("SET 'table.exec.mini-batch.size' = '500'");
    Run("SET 'table.optimizer.agg-phase-strategy' = '" + mode + "'");
  }

  // The query's result as a table: each +I/+U adds a row, each -U/-D removes one that must be
  // there. Sorted rows as the print sink shows them.
  std::vector<std::string> Materialized(const std::string& query) {
    std::map<std::string, int> rows;
    auto result = env_->ExecuteSql(query);
    EXPECT_TRUE(result.ok()) << result.status();
    if (!result.ok()) return {};
    auto it = result->Collect();
    EXPECT_TRUE(it.ok()) << it.status();
    if (!it.ok()) return {};
    ResultRow row;
    while (true) {
      auto more = it->Next(&row);
      EXPECT_TRUE(more.ok()) << more.status();
      if (!more.ok() || !*more) break;
      std::string text = row.ToString().substr(2);  // without the kind
      if (row.kind == RowKind::kInsert || row.kind == RowKind::kUpdateAfter) {
        ++rows[text];
      } else {
        auto found = rows.find(text);
        EXPECT_NE(found, rows.end()) << "retraction of a missing row: " << row.ToString();
        if (found != rows.end() && --found->second == 0) rows.erase(found);
      }
    }
    std::vector<std::string> out;
    for (const auto& [text, n] : rows) out.insert(out.end(), n, text);
    return out;
  }

  void ExpectSameInEveryMode(const std::string& query, size_t expected_rows) {
    Mode("off");
    const std::vector<std::string> reference = Materialized(query);
    EXPECT_EQ(reference.size(), expected_rows);
    for (const char* mode : {"ONE_PHASE", "TWO_PHASE"}) {
      Mode(mode);
      EXPECT_EQ(Materialized(query), reference) << mode << ": " << query;
    }
  }

  std::unique_ptr<TableEnvironment> env_;
};

TEST_F(TwoPhaseAggregationTest, KeyedAggregatesMatchOnePhase) {
  ExpectSameInEveryMode(
      "SELECT k, COUNT(*), COUNT(n), SUM(n), AVG(n), MIN(n), MAX(n), SUM(d), AVG(d) FROM t "
      "GROUP BY k",
      1000);
}

TEST_F(TwoPhaseAggregationTest, AggregateOverARetractingAggregateMatchesOnePhase) {
  // The outer aggregate's input retracts: its partials are signed deltas with row counts.
  ExpectSameInEveryMode(
      "SELECT c, COUNT(*), SUM(s), AVG(s), SUM(sd) FROM "
      "(SELECT k % 37 AS k, COUNT(*) AS c, SUM(n) AS s, SUM(d) AS sd FROM t GROUP BY k % 37) "
      "GROUP BY c",
      2);
  // Without COUNT(*) the local aggregate adds a row-count field, so that groups can still go.
  ExpectSameInEveryMode(
      "SELECT s % 3, SUM(c), AVG(sd) FROM "
      "(SELECT k % 37 AS k, COUNT(*) AS c, SUM(n) AS s, SUM(d) AS sd FROM t GROUP BY k % 37) "
      "GROUP BY s % 3",
      3);
}

TEST_F(TwoPhaseAggregationTest, GlobalAggregateMatchesOnePhase) {
  ExpectSameInEveryMode("SELECT COUNT(*), SUM(n), MIN(d), MAX(d) FROM t", 1);
}

TEST_F(TwoPhaseAggregationTest, FewerRowsCrossTheExchange) {
  Run("CREATE TEMPORARY TABLE hole (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = "
      "'blackhole')");
  auto run = [&](const std::string& mode) {
    Mode(mode);
    auto r = env_->ExecuteSql(
        "INSERT INTO hole SELECT id % 10, COUNT(*), SUM(id) FROM ids GROUP BY id % 10");
    EXPECT_TRUE(r.ok()) << r.status();
    std::map<std::string, v1::OperatorMetrics> by_name;  // by the node's name
    if (!r.ok()) return by_name;
    auto info = env_->client()->WaitJob(r->job_id(), 60000);
    EXPECT_TRUE(info.ok()) << info.status();
    if (!info.ok()) return by_name;
    EXPECT_EQ(info->status(), v1::JOB_STATUS_FINISHED) << info->error();
    for (const auto& m : info->operators()) {
      by_name[m.description().substr(0, m.description().find('('))] = m;
    }
    return by_name;
  };

  auto one = run("ONE_PHASE");
  ASSERT_TRUE(one.count("GroupAggregate"));
  EXPECT_EQ(one["GroupAggregate"].rows_in(), 20000);  // every row crosses the shuffle

  auto two = run("TWO_PHASE");
  ASSERT_TRUE(two.count("LocalGroupAggregate") && two.count("GlobalGroupAggregate"));
  EXPECT_EQ(two.count("GroupAggregate"), 0u);
  EXPECT_EQ(two["LocalGroupAggregate"].rows_in(), 20000);
  // What crosses is what the local aggregates emitted: per subtask and mini-batch of 500 rows
  // one partial per key (10), so about 400 in all; the timer may cut a few more mini-batches.
  const int64_t crossed = two["GlobalGroupAggregate"].rows_in();
  EXPECT_EQ(crossed, two["LocalGroupAggregate"].rows_out());
  EXPECT_GE(crossed, 400);
  EXPECT_LE(crossed, 2000);
}

}  // namespace
}  // namespace eddy
