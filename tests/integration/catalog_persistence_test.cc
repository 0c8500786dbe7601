// The permanent catalog across sessions and coordinator restarts, on real processes: tables, views,
// models and databases created in one `eddy` session are visible to the next one and survive the
// coordinator being killed and started again on its data dir; temporary objects stay in their
// session and shadow a permanent object of the same name there only. A partitioned table keeps its
// PARTITIONED BY columns. An altered persistent catalog keeps its new options.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(CatalogPersistenceTest, PermanentObjectsOutliveSessionsAndRestartsTemporaryOnesDoNot) {
  const std::string dir = FreshTestDir("catalog-persistence");
  ClusterOptions options;
  options.workers = 1;
  options.isolate_workers = false;
  {
    ProcessCluster cluster(dir, options);
    ASSERT_TRUE(cluster.ok()) << cluster.error();
    RunResult created = cluster.Eddy(
        "CREATE DATABASE shop;"
        "CREATE TABLE shop.orders (id BIGINT, amount INT) WITH ('connector' = 'datagen', "
        "  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10', "
        "  'fields.amount.min' = '1', 'fields.amount.max' = '1');"
        "CREATE VIEW shop.`big orders` AS SELECT id FROM shop.orders WHERE id > 7;"
        "CREATE TABLE shop.daily (id BIGINT COMMENT 'the order', day STRING) PARTITIONED BY (day) "
        "WITH ("
        "  'connector' = 'filesystem', 'path' = 'daily', 'format' = 'csv');"
        "CREATE TEMPORARY TABLE scratch (x INT) WITH ('connector' = 'blackhole');"
        "CREATE CATALOG kept WITH ('type' = 'eddy');"
        "ALTER CATALOG kept SET ('default-database' = 'sales');"
        "ALTER CATALOG kept COMMENT 'altered';"
        "CREATE MODEL shop.sentiment INPUT (`text` STRING COMMENT 'a review') OUTPUT (label "
        "  STRING) WITH ('provider' = 'openai', 'model' = 'gpt-4o');"
        "ALTER MODEL shop.sentiment SET ('model' = 'gpt-5');"
        "CREATE TEMPORARY MODEL scratch_model WITH ('provider' = 'openai');"
        "SHOW TABLES;");
    ASSERT_EQ(created.exit_code, 0) << created.err;
    EXPECT_THAT(created.out, HasSubstr("scratch"));

    // Another session: the permanent objects, not the other session's temporary table.
    RunResult other = cluster.Eddy("USE shop; SHOW TABLES; SHOW VIEWS;");
    ASSERT_EQ(other.exit_code, 0) << other.err;
    EXPECT_THAT(other.out, HasSubstr("orders"));
    EXPECT_THAT(other.out, HasSubstr("big orders"));
    EXPECT_THAT(cluster.Eddy("SHOW TABLES;").out, Not(HasSubstr("scratch")));

    // A temporary table shadows the permanent one in its own session only.
    RunResult shadow = cluster.Eddy(
        "CREATE TEMPORARY TABLE shop.orders (other_column STRING) WITH ('connector' = "
        "'blackhole'); DESCRIBE shop.orders;");
    ASSERT_EQ(shadow.exit_code, 0) << shadow.err;
    EXPECT_THAT(shadow.out, HasSubstr("other_column"));
    EXPECT_THAT(cluster.Eddy("DESCRIBE shop.orders;").out, HasSubstr("amount"));
    // The cluster goes away with SIGKILL: what was acknowledged is on disk already.
  }
  ProcessCluster restarted(dir, options);
  ASSERT_TRUE(restarted.ok()) << restarted.error();
  RunResult listed = restarted.Eddy("SHOW DATABASES; USE shop; SHOW TABLES; SHOW VIEWS;");
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("shop"));
  EXPECT_THAT(listed.out, HasSubstr("orders"));
  EXPECT_THAT(listed.out, HasSubstr("big orders"));
  EXPECT_THAT(restarted.Eddy("SHOW TABLES;").out, Not(HasSubstr("scratch")));
  // A partitioned table keeps its partition columns, and its column comments.
  const std::string daily = restarted.Eddy("SHOW CREATE TABLE shop.daily;").out;
  EXPECT_THAT(daily, HasSubstr("PARTITIONED BY (`day`)"));
  EXPECT_THAT(daily, HasSubstr("`id` BIGINT COMMENT 'the order',"));
  // ALTER CATALOG of a persistent catalog is stored: its options, comment and new database.
  const std::string kept =
      restarted.Eddy("SHOW CREATE CATALOG kept; USE CATALOG kept; SHOW CURRENT DATABASE;").out;
  EXPECT_THAT(kept, HasSubstr("COMMENT 'altered'"));
  EXPECT_THAT(kept, HasSubstr("'default-database' = 'sales'"));
  EXPECT_THAT(kept, HasSubstr("| sales "));
  // A model comes back as ALTER MODEL left it; a temporary one does not.
  const std::string model = restarted.Eddy("SHOW CREATE MODEL shop.sentiment; SHOW MODELS;").out;
  EXPECT_THAT(model, HasSubstr("INPUT (`text` STRING COMMENT 'a review')"));
  EXPECT_THAT(model, HasSubstr("'model' = 'gpt-5'"));
  EXPECT_THAT(model, Not(HasSubstr("scratch_model")));
  // The restored view runs.
  RunResult rows = restarted.Eddy("SELECT id FROM shop.`big orders`;");
  ASSERT_EQ(rows.exit_code, 0) << rows.err;
  EXPECT_THAT(rows.out, HasSubstr("|                    8 |"));
  EXPECT_THAT(rows.out, HasSubstr("|                   10 |"));
  EXPECT_THAT(rows.out, HasSubstr("Received a total of 3 rows"));
  // DROP is permanent too.
  ASSERT_EQ(restarted.Eddy("DROP VIEW shop.`big orders`;").exit_code, 0);
  EXPECT_THAT(restarted.Eddy("USE shop; SHOW VIEWS;").out, Not(HasSubstr("big orders")));
}

}  // namespace
}  // namespace eddy::testing
