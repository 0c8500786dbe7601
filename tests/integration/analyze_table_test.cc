// ANALYZE TABLE on a cluster of processes: the statistics a batch job computes (row counts, per
// column null counts, distinct counts, ranges, lengths, boolean counts, per partition) are what
// the data holds, they survive a coordinator killed with SIGKILL (read back from its catalog
// store on disk, and used by EXPLAIN ESTIMATED_COST), and a worker killed at a seeded moment while
// the statistics job runs changes nothing in them.
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "coordinator/catalog/catalog_store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/cluster_test.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;

void WriteFile(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class AnalyzeTableTest : public ClusterTest {
 protected:
  void SetUp() override {
    Random();  // the seed first, so that it is printed even if the cluster does not start
    ASSERT_NO_FATAL_FAILURE(StartCluster(FaultToleranceOptions()));
  }

  // The tables as the catalog store on disk holds them, once the cluster is gone.
  CatalogStore::Contents StoredCatalog() {
    const std::string path = cluster_->coordinator_data_dir() + "/catalog";
    cluster_.reset();
    absl::StatusOr<std::unique_ptr<CatalogStore>> store = CatalogStore::Open(path);
    EXPECT_TRUE(store.ok()) << store.status();
    absl::StatusOr<CatalogStore::Contents> contents = (*store)->Load();
    EXPECT_TRUE(contents.ok()) << contents.status();
    return *std::move(contents);
  }

  static const CatalogTable* Find(const CatalogStore::Contents& c, const std::string& name) {
    for (const CatalogTable& t : c.tables) {
      if (t.path.object == name) return &t;
    }
    return nullptr;
  }
};

TEST_F(AnalyzeTableTest, StatisticsMatchTheDataAndSurviveACoordinatorKill) {
  WriteFile(files_ + "/orders/data.csv",
            "1,alice,10.5,true\n"
            "2,bob,,false\n"
            "3,alice,7.25,\n"
            "4,,3.0,true\n"
            "5,carol,3.0,true\n");
  WriteFile(files_ + "/sales/day=2024-01-01/part-0.csv", "1,10\n2,20\n3,\n");
  WriteFile(files_ + "/sales/day=2024-01-02/part-0.csv", "4,40\n");
  const std::string tables =
      "CREATE TABLE orders (id BIGINT, name STRING, amount DOUBLE, paid BOOLEAN, "
      "  twice AS amount * 2) WITH ('connector' = 'filesystem', 'path' = '" +
      files_ + "/orders', 'format' = 'csv');" +
      "CREATE TABLE sales (id INT, amount INT, `day` STRING) PARTITIONED BY (`day`) WITH ("
      "  'connector' = 'filesystem', 'path' = '" +
      files_ + "/sales', 'format' = 'csv');";
  RunResult created = Eddy(tables);
  ASSERT_EQ(created.exit_code, 0) << created.err;

  // Flink's rules: batch mode only, computed columns refused, every partition column named.
  RunResult streaming = Eddy("ANALYZE TABLE orders COMPUTE STATISTICS;");
  EXPECT_THAT(streaming.err, HasSubstr("ANALYZE TABLE is not supported for streaming mode now"));
  RunResult computed = Eddy(
      "SET 'execution.runtime-mode' = 'batch'; ANALYZE TABLE orders COMPUTE STATISTICS FOR "
      "COLUMNS twice;");
  EXPECT_THAT(computed.err, HasSubstr("Column: twice is a computed column"));
  RunResult no_partition =
      Eddy("SET 'execution.runtime-mode' = 'batch'; ANALYZE TABLE sales COMPUTE STATISTICS;");
  EXPECT_THAT(no_partition.err,
              HasSubstr("The given partition keys: [] are not match the target partition keys: "
                        "[day]."));

  RunResult analyzed = Eddy(
      "SET 'execution.runtime-mode' = 'batch';"
      "ANALYZE TABLE orders COMPUTE STATISTICS FOR ALL COLUMNS;"
      "ANALYZE TABLE sales PARTITION (`day` = '2024-01-01') COMPUTE STATISTICS FOR COLUMNS "
      "amount;");
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;

  // EXPLAIN reads them, also after the coordinator was killed and started again.
  ASSERT_TRUE(cluster_->RestartCoordinator()) << cluster_->CoordinatorLog();
  WaitForWorkers([](const std::vector<WorkerRow>& rows) { return rows.size() == 3; },
                 std::chrono::seconds(30));
  RunResult explained = Eddy(
      "SET 'execution.runtime-mode' = 'batch';"
      "EXPLAIN ESTIMATED_COST SELECT name, COUNT(*) FROM orders GROUP BY name;"
      "EXPLAIN ESTIMATED_COST SELECT * FROM sales WHERE `day` = '2024-01-01';");
  ASSERT_EQ(explained.exit_code, 0) << explained.err;
  // 5 rows; 4 distinct names (an empty CSV field is an empty string).
  EXPECT_THAT(explained.out, HasSubstr("fields=[name]): rowcount = 5.0,"));
  EXPECT_THAT(explained.out, HasSubstr("HashAggregate(isMerge=[false], groupBy=[name], "
                                       "select=[name, COUNT(*) AS EXPR$1]): rowcount = 4.0,"));
  EXPECT_THAT(explained.out, HasSubstr("rowcount = 3.0, cumulative cost = {3.0 rows"));

  const CatalogStore::Contents stored = StoredCatalog();
  const CatalogTable* orders = Find(stored, "orders");
  ASSERT_NE(orders, nullptr);
  ASSERT_TRUE(orders->statistics.has_value());
  const TableStatistics& stats = *orders->statistics;
  EXPECT_EQ(stats.row_count, 5);
  ASSERT_EQ(stats.columns.size(), 4u);  // not the computed column
  const ColumnStatistics& id = stats.columns.at("id");
  EXPECT_EQ(id.null_count, 0);
  EXPECT_EQ(id.ndv, 5);
  EXPECT_EQ(id.min, "1");
  EXPECT_EQ(id.max, "5");
  const ColumnStatistics& name = stats.columns.at("name");
  EXPECT_EQ(name.null_count, 0);
  EXPECT_EQ(name.ndv, 4);
  EXPECT_EQ(name.avg_length, (5.0 + 3 + 5 + 0 + 5) / 5);
  EXPECT_EQ(name.max_length, 5);
  EXPECT_FALSE(name.min.has_value());
  const ColumnStatistics& amount = stats.columns.at("amount");
  EXPECT_EQ(amount.null_count, 1);
  EXPECT_EQ(amount.ndv, 3);
  EXPECT_EQ(amount.min, "3.0");
  EXPECT_EQ(amount.max, "10.5");
  const ColumnStatistics& paid = stats.columns.at("paid");
  EXPECT_EQ(paid.null_count, 1);
  EXPECT_EQ(paid.true_count, 3);
  EXPECT_EQ(paid.false_count, 1);
  EXPECT_FALSE(paid.ndv.has_value());

  const CatalogTable* sales = Find(stored, "sales");
  ASSERT_NE(sales, nullptr);
  EXPECT_FALSE(sales->statistics.has_value());
  ASSERT_EQ(sales->partition_statistics.size(), 1u);  // only the partition asked for
  const TableStatistics& day1 = sales->partition_statistics.at("day=2024-01-01");
  EXPECT_EQ(day1.row_count, 3);
  ASSERT_EQ(day1.columns.size(), 1u);
  EXPECT_EQ(day1.columns.at("amount").null_count, 1);
  EXPECT_EQ(day1.columns.at("amount").ndv, 2);
  EXPECT_EQ(day1.columns.at("amount").max, "20");
}

TEST_F(AnalyzeTableTest, AWorkerKilledDuringTheStatisticsJobChangesNothingInThem) {
  constexpr int64_t kRows = 12000;  // 3 s at the source's 4000 rows a second
  RunResult created = Eddy(
      "CREATE TABLE seq (id BIGINT, bucket AS id % 7) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '4000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '" +
      std::to_string(kRows) + "');");
  ASSERT_EQ(created.exit_code, 0) << created.err;
  RunResult analyzed;
  std::thread analyze([&] {
    analyzed = Eddy(
        "SET 'execution.runtime-mode' = 'batch';"
        "SET 'restart-strategy.type' = 'fixed-delay';"
        "SET 'restart-strategy.fixed-delay.attempts' = '5';"
        "SET 'restart-strategy.fixed-delay.delay' = '500 ms';"
        "SET 'parallelism.default' = '2';"
        "ANALYZE TABLE seq COMPUTE STATISTICS FOR COLUMNS id;");
  });
  const int killed = KillAWorkerRunningSubtasks();
  analyze.join();
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err << cluster_->CoordinatorLog();
  if (killed >= 0) {
    EXPECT_THAT(cluster_->CoordinatorLog(), ::testing::ContainsRegex("attempt [2-6] deployed"));
  }

  const CatalogStore::Contents stored = StoredCatalog();
  const CatalogTable* seq = Find(stored, "seq");
  ASSERT_NE(seq, nullptr);
  ASSERT_TRUE(seq->statistics.has_value());
  EXPECT_EQ(seq->statistics->row_count, kRows);
  const ColumnStatistics& id = seq->statistics->columns.at("id");
  EXPECT_EQ(id.ndv, kRows);
  EXPECT_EQ(id.null_count, 0);
  EXPECT_EQ(id.min, "1");
  EXPECT_EQ(id.max, std::to_string(kRows));
}

}  // namespace
}  // namespace eddy::testing
