// Runs the word count (Q1), the aggregate over its changelog (Q2) and a 1,000,000-row keyed
// aggregation on a coordinator and three worker processes (each worker its own host where the
// machine allows) at parallelism 1, 2 and 4, and checks that the final tables agree with each other
// and with the same query computed directly.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <string>

#include "tests/integration/changelog_table.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

class DistributedAggregationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(FreshTestDir("dist"));
    cluster_ = new ProcessCluster(*dir_, ClusterOptions{.workers = 3, .slots_per_worker = 2});
    std::cout << cluster_->topology().description() << std::endl;
  }
  static void TearDownTestSuite() {
    delete cluster_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  void SetUp() override { ASSERT_TRUE(cluster_->ok()) << cluster_->error(); }

  // Runs `sql` (ending in one INSERT into print tables) at `parallelism` and replays what the
  // workers printed since the previous run.
  ChangelogTable Run(const std::string& sql, int parallelism, int key_fields) {
    std::vector<size_t> offsets;
    for (int i = 0; i < cluster_->workers(); ++i)
      offsets.push_back(cluster_->WorkerStdout(i).size());
    auto r = cluster_->Eddy(
        "SET 'table.dml-sync' = 'true';"
        "SET 'parallelism.default' = '" +
        std::to_string(parallelism) + "';" + sql);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string printed;
    printing_workers_ = 0;
    for (int i = 0; i < cluster_->workers(); ++i) {
      std::string mine = cluster_->WorkerStdout(i).substr(offsets[i]);
      printing_workers_ += mine.empty() ? 0 : 1;
      printed += mine;
    }
    ChangelogTable t = ReplayChangelog(printed, key_fields);
    for (size_t i = 0; i < t.errors.size() && i < 10; ++i) {
      ADD_FAILURE() << "parallelism " << parallelism << ": " << t.errors[i];
    }
    return t;
  }

  int printing_workers_ = 0;  // workers whose sink subtasks printed in the last Run
  static std::string* dir_;
  static ProcessCluster* cluster_;
};

std::string* DistributedAggregationTest::dir_ = nullptr;
ProcessCluster* DistributedAggregationTest::cluster_ = nullptr;

constexpr char kWords[] =
    "CREATE TEMPORARY VIEW words AS SELECT * FROM "
    "(VALUES ('a'), ('a'), ('b'), ('a'), ('c'), ('b')) AS t(word);";

TEST_F(DistributedAggregationTest, WordCountFinalTableIsTheSameAtEveryParallelism) {
  const std::map<std::string, std::string> expected = {{"a", "a, 3"}, {"b", "b, 2"}, {"c", "c, 1"}};
  for (int p : {1, 2, 4}) {
    auto t =
        Run(std::string(kWords) +
                "CREATE TEMPORARY TABLE word_counts (word STRING, cnt BIGINT) WITH ('connector' = "
                "'print');"
                "INSERT INTO word_counts SELECT word, COUNT(*) AS cnt FROM words GROUP BY word;",
            p, 1);
    EXPECT_EQ(t.rows, expected) << "parallelism " << p;
    EXPECT_EQ(t.messages, 9) << "parallelism " << p;  // Q1's changelog, in some order
  }
}

TEST_F(DistributedAggregationTest, AggregateOverAChangelogFinalTableIsTheSameAtEveryParallelism) {
  // Final word counts a=3, b=2, c=1: one word has each count.
  const std::map<std::string, std::string> expected = {{"1", "1, 1"}, {"2", "2, 1"}, {"3", "3, 1"}};
  for (int p : {1, 2, 4}) {
    auto t = Run(std::string(kWords) +
                     "CREATE TEMPORARY TABLE histogram (cnt BIGINT, num_words BIGINT) WITH "
                     "('connector' = 'print');"
                     "INSERT INTO histogram SELECT cnt, COUNT(*) AS num_words FROM "
                     "(SELECT word, COUNT(*) AS cnt FROM words GROUP BY word) GROUP BY cnt;",
                 p, 1);
    EXPECT_EQ(t.rows, expected) << "parallelism " << p;
  }
}

TEST_F(DistributedAggregationTest, MillionRowKeyedAggregationMatchesABatchComputation) {
  constexpr long long kRows = 1000000, kKeys = 1000;
  // The same query, computed directly: key = id % 1000 over ids 1..1,000,000.
  std::map<std::string, std::string> expected;
  {
    std::vector<long long> cnt(kKeys), sum(kKeys), lo(kKeys, kRows + 1), hi(kKeys, 0);
    for (long long id = 1; id <= kRows; ++id) {
      long long k = id % kKeys;
      ++cnt[k];
      sum[k] += id;
      lo[k] = std::min(lo[k], id);
      hi[k] = std::max(hi[k], id);
    }
    for (long long k = 0; k < kKeys; ++k) {
      std::string key = std::to_string(k);
      expected[key] = key + ", " + std::to_string(cnt[k]) + ", " + std::to_string(sum[k]) + ", " +
                      std::to_string(lo[k]) + ", " + std::to_string(hi[k]);
    }
  }
  const std::string sql =
      "CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = "
      "'1000000',"
      " 'rows-per-second' = '1000000000',"
      " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000000');"
      "CREATE TEMPORARY TABLE per_key (k BIGINT, cnt BIGINT, total BIGINT, lo BIGINT, hi BIGINT)"
      " WITH ('connector' = 'print');"
      "INSERT INTO per_key SELECT id % 1000 AS k, COUNT(*), SUM(id), MIN(id), MAX(id)"
      " FROM ids GROUP BY id % 1000;";
  std::map<int, std::map<std::string, std::string>> finals;
  for (int p : {1, 2, 4}) {
    auto t = Run(sql, p, 1);
    EXPECT_EQ(t.rows.size(), kKeys) << "parallelism " << p;
    // Slots are spread over the workers: a parallel job prints from more than one process.
    if (p > 1) {
      EXPECT_GE(printing_workers_, 2) << "parallelism " << p;
    }
    // Every input row changes its key's row: one +I per key, then a -U/+U pair per further row.
    EXPECT_EQ(t.messages, kKeys + 2 * (kRows - kKeys)) << "parallelism " << p;
    finals[p] = std::move(t.rows);
  }
  EXPECT_TRUE(finals[1] == expected) << "parallelism 1 differs from the batch computation";
  EXPECT_TRUE(finals[2] == finals[1]) << "parallelism 2 differs from parallelism 1";
  EXPECT_TRUE(finals[4] == finals[1]) << "parallelism 4 differs from parallelism 1";
}

}  // namespace
}  // namespace eddy::testing
