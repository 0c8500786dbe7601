#include <gtest/gtest.h>

#include "common/sql/tests/test_util.h"

namespace eddy::sql {
namespace {

using testing::Error;
using testing::Parse;

TEST(CreateTable, FullForm) {
  StatementPtr s = Parse(R"sql(
    CREATE TEMPORARY TABLE IF NOT EXISTS cat.db.orders (
      id BIGINT NOT NULL COMMENT 'order id',
      price DECIMAL(10, 2),
      `user` STRING,
      ts TIMESTAMP(3),
      total AS price * 2,
      PRIMARY KEY (id) NOT ENFORCED,
      WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
    ) COMMENT 'all orders'
    WITH ('connector' = 'kafka', 'topic' = 'orders')
  )sql");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kCreateTable);
  const CreateTable& t = *s->create_table;
  EXPECT_TRUE(t.temporary);
  EXPECT_TRUE(t.if_not_exists);
  EXPECT_EQ(t.name.parts, (std::vector<std::string>{"cat", "db", "orders"}));
  ASSERT_EQ(t.columns.size(), 5u);
  EXPECT_EQ(t.columns[0].name, "id");
  EXPECT_EQ(DebugString(t.columns[0].type), "BIGINT NOT NULL");
  EXPECT_EQ(*t.columns[0].comment, "order id");
  EXPECT_EQ(t.columns[0].pos.line, 3);
  EXPECT_EQ(t.columns[0].pos.column, 7);
  EXPECT_EQ(DebugString(t.columns[1].type), "DECIMAL(10, 2)");
  EXPECT_EQ(t.columns[2].name, "user");
  EXPECT_EQ(DebugString(t.columns[3].type), "TIMESTAMP(3)");
  EXPECT_EQ(t.columns[4].name, "total");
  ASSERT_NE(t.columns[4].computed, nullptr);
  EXPECT_EQ(DebugString(*t.columns[4].computed), "(price * 2)");
  EXPECT_TRUE(t.columns[4].type.name.empty());
  EXPECT_EQ(t.primary_key, std::vector<std::string>{"id"});
  ASSERT_TRUE(t.watermark.has_value());
  EXPECT_EQ(t.watermark->column, "ts");
  EXPECT_EQ(DebugString(*t.watermark->expr), "(ts - INTERVAL '5' SECOND)");
  EXPECT_EQ(t.watermark->pos.line, 9);
  EXPECT_EQ(*t.comment, "all orders");
  ASSERT_EQ(t.properties.entries.size(), 2u);
  EXPECT_EQ(t.properties.entries[0], (std::pair<std::string, std::string>{"connector", "kafka"}));
  EXPECT_EQ(t.properties.entries[1], (std::pair<std::string, std::string>{"topic", "orders"}));
  ASSERT_EQ(t.properties.positions.size(), 2u);
  EXPECT_EQ(t.properties.positions[1].line, 11);
  EXPECT_EQ(t.properties.positions[1].column, 34);
  EXPECT_FALSE(t.like.has_value());
}

TEST(CreateTable, MinimalForm) {
  StatementPtr s = Parse("CREATE TABLE words (word STRING)");
  ASSERT_NE(s, nullptr);
  const CreateTable& t = *s->create_table;
  EXPECT_FALSE(t.temporary);
  EXPECT_FALSE(t.if_not_exists);
  ASSERT_EQ(t.columns.size(), 1u);
  EXPECT_FALSE(t.columns[0].type.not_null);
  EXPECT_TRUE(t.properties.entries.empty());
}

TEST(CreateTable, ColumnLevelPrimaryKey) {
  StatementPtr s = Parse("CREATE TABLE t (k INT PRIMARY KEY NOT ENFORCED COMMENT 'key', v STRING)");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->create_table->primary_key, std::vector<std::string>{"k"});
  EXPECT_EQ(*s->create_table->columns[0].comment, "key");
  s = Parse("CREATE TABLE t (a INT, b INT, CONSTRAINT pk PRIMARY KEY (a, b) NOT ENFORCED)");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->create_table->primary_key, (std::vector<std::string>{"a", "b"}));
}

TEST(CreateTable, Types) {
  struct Case {
    const char* written;
    const char* canonical;
  };
  const Case cases[] = {
      {"BOOLEAN", "BOOLEAN"},
      {"TINYINT", "TINYINT"},
      {"SMALLINT", "SMALLINT"},
      {"int", "INT"},
      {"INTEGER", "INT"},
      {"BIGINT", "BIGINT"},
      {"FLOAT", "FLOAT"},
      {"DOUBLE", "DOUBLE"},
      {"DOUBLE PRECISION", "DOUBLE"},
      {"DECIMAL", "DECIMAL"},
      {"DEC(5)", "DECIMAL(5)"},
      {"NUMERIC(38, 18)", "DECIMAL(38, 18)"},
      {"STRING", "STRING"},
      {"VARCHAR(20)", "VARCHAR(20)"},
      {"CHAR(1)", "CHAR(1)"},
      {"DATE", "DATE"},
      {"TIME", "TIME"},
      {"TIMESTAMP", "TIMESTAMP"},
      {"TIMESTAMP(3)", "TIMESTAMP(3)"},
      {"TIMESTAMP(3) WITHOUT TIME ZONE", "TIMESTAMP(3)"},
      {"TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)"},
      {"TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(3)"},
      {"BYTES", "BYTES"},
      {"BIGINT NOT NULL", "BIGINT NOT NULL"},
      {"STRING NULL", "STRING"},
  };
  for (const Case& c : cases) {
    std::string sql = std::string("CREATE TABLE t (c ") + c.written + ")";
    StatementPtr s = Parse(sql);
    ASSERT_NE(s, nullptr) << sql;
    EXPECT_EQ(DebugString(s->create_table->columns[0].type), c.canonical) << sql;
  }
}

TEST(CreateTable, WithAndLikeWithoutColumns) {
  StatementPtr s = Parse(
      "CREATE TABLE t2 WITH ('connector' = 'print') LIKE t1 (EXCLUDING OPTIONS INCLUDING "
      "WATERMARKS)");
  ASSERT_NE(s, nullptr);
  const CreateTable& t = *s->create_table;
  EXPECT_TRUE(t.columns.empty());
  EXPECT_EQ(t.properties.entries.size(), 1u);
  ASSERT_TRUE(t.like.has_value());
  EXPECT_EQ(t.like->source.ToString(), "t1");
  ASSERT_EQ(t.like->options.size(), 2u);
  EXPECT_EQ(t.like->options[0], (std::pair<std::string, std::string>{"EXCLUDING", "OPTIONS"}));
  EXPECT_EQ(t.like->options[1], (std::pair<std::string, std::string>{"INCLUDING", "WATERMARKS"}));

  s = Parse("CREATE TABLE t2 (extra INT) WITH ('a' = 'b') LIKE db.t1 (including all)");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->create_table->like->options[0],
            (std::pair<std::string, std::string>{"INCLUDING", "ALL"}));
  s = Parse("CREATE TABLE t2 LIKE t1");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->create_table->like->options.empty());
}

TEST(CreateTable, NonReservedColumnNames) {
  StatementPtr s = Parse(
      "CREATE TABLE t (key STRING, value BIGINT, comment STRING COMMENT 'c', data BYTES, "
      "`timestamp` TIMESTAMP(3), type INT, status STRING, name STRING)");
  ASSERT_NE(s, nullptr);
  std::vector<std::string> names;
  for (const ColumnDef& c : s->create_table->columns) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"key", "value", "comment", "data", "timestamp", "type",
                                             "status", "name"}));
}

TEST(CreateTable, Errors) {
  EXPECT_EQ(Error("CREATE TABLE t (a INT) WITH ('connector' = 'x',\n  'connector' = 'y')"),
            "SQL parse error at line 2, column 3: duplicate key 'connector' in WITH options");
  EXPECT_EQ(Error("CREATE TABLE t (a INT, PRIMARY KEY (a))"),
            "SQL parse error at line 1, column 39: expected 'NOT ENFORCED' but found ')'");
  EXPECT_EQ(Error("CREATE TABLE t (a FOO)"),
            "SQL parse error at line 1, column 19: unknown type 'FOO'");
  EXPECT_EQ(Error("CREATE TABLE t (a INT b INT)"),
            "SQL parse error at line 1, column 23: expected ')' but found 'b'");
  EXPECT_EQ(Error("CREATE TABLE t (a VARCHAR(x))"),
            "SQL parse error at line 1, column 27: expected integer literal but found 'x'");
  EXPECT_EQ(Error("CREATE TABLE t (a INT) WITH (connector = 'x')"),
            "SQL parse error at line 1, column 30: expected string literal but found 'connector'");
  EXPECT_EQ(Error("CREATE TABLE t (a INT PRIMARY KEY NOT ENFORCED, PRIMARY KEY (a) NOT ENFORCED)"),
            "SQL parse error at line 1, column 49: a table can have only one PRIMARY KEY");
  EXPECT_EQ(Error("CREATE TABLE t2 LIKE t1 (EXCLUDING EVERYTHING)"),
            "SQL parse error at line 1, column 36: expected 'ALL', 'CONSTRAINTS', 'DISTRIBUTION', "
            "'PARTITIONS', 'GENERATED', 'METADATA', 'OPTIONS' or 'WATERMARKS' but found "
            "'EVERYTHING'");
  EXPECT_EQ(Error("CREATE TABLE t (a INT) AS SELECT 1"),
            "SQL parse error at line 1, column 24: CREATE TABLE AS SELECT syntax does not support "
            "to specify explicit columns yet.");
  StatementPtr ctas = Parse("CREATE TABLE t WITH ('connector' = 'blackhole') AS SELECT 1 AS x");
  ASSERT_NE(ctas, nullptr);
  EXPECT_NE(ctas->create_table->as_query, nullptr);
  EXPECT_TRUE(ctas->create_table->columns.empty());
}

}  // namespace
}  // namespace eddy::sql

namespace eddy::sql {
namespace {

TEST(CreateTable, CollectionTypes) {
  StatementPtr s = testing::Parse(
      "CREATE TABLE t (a ARRAY<INT NOT NULL>, m MAP<STRING, ARRAY<ROW<x INT, `y z` STRING 'a "
      "description'>>> NOT NULL, r ROW(a BIGINT, b ROW<c DATE>))");
  ASSERT_NE(s, nullptr);
  const CreateTable& t = *s->create_table;
  ASSERT_EQ(t.columns.size(), 3u);
  EXPECT_EQ(DebugString(t.columns[0].type), "ARRAY<INT NOT NULL>");
  EXPECT_EQ(DebugString(t.columns[1].type), "MAP<STRING, ARRAY<ROW<x INT, y z STRING>>> NOT NULL");
  EXPECT_EQ(DebugString(t.columns[2].type), "ROW<a BIGINT, b ROW<c DATE>>");
  EXPECT_EQ(testing::Error("CREATE TABLE t (a MAP<INT>)"),
            "SQL parse error at line 1, column 22: MAP takes 2 types, found 1");
  EXPECT_EQ(testing::Error("CREATE TABLE t (a ARRAY<INT, INT>)"),
            "SQL parse error at line 1, column 24: ARRAY takes 1 type, found 2");
}

// DISTRIBUTED BY in CREATE TABLE, and ALTER TABLE's ADD / MODIFY / DROP DISTRIBUTION.
TEST(CreateTable, Distribution) {
  StatementPtr s = Parse(
      "CREATE TABLE t (a INT, b STRING) COMMENT 'c' DISTRIBUTED BY HASH(a, b) INTO 4 BUCKETS "
      "PARTITIONED BY (b) WITH ('connector' = 'blackhole')");
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->create_table->distribution.has_value());
  const DistributionDef& d = *s->create_table->distribution;
  EXPECT_EQ(d.kind, "HASH");
  EXPECT_EQ(d.keys, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(d.buckets, 4);
  EXPECT_EQ(s->create_table->partition_keys, std::vector<std::string>{"b"});

  s = Parse("CREATE TABLE t (a INT) DISTRIBUTED BY (a) WITH ('connector' = 'blackhole')");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->create_table->distribution->kind, "");
  EXPECT_FALSE(s->create_table->distribution->buckets.has_value());
  s = Parse("CREATE TABLE t (a INT) DISTRIBUTED INTO 3 BUCKETS WITH ('connector' = 'blackhole')");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->create_table->distribution->keys.empty());
  EXPECT_EQ(s->create_table->distribution->buckets, 3);
  EXPECT_NE(Error("CREATE TABLE t (a INT) DISTRIBUTED INTO 0 BUCKETS WITH ()")
                .find("the number of buckets must be a positive integer, not 0"),
            std::string::npos);
  EXPECT_NE(Error("CREATE TABLE t (a INT) DISTRIBUTED a WITH ()").find("expected 'BY' or 'INTO'"),
            std::string::npos);

  s = Parse("ALTER TABLE t ADD DISTRIBUTION BY RANGE(a) INTO 2 BUCKETS");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->alter_table->action, AlterTable::Action::kAddDistribution);
  EXPECT_EQ(s->alter_table->elements.distribution->kind, "RANGE");
  s = Parse("ALTER TABLE t MODIFY DISTRIBUTION INTO 8 BUCKETS");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->alter_table->action, AlterTable::Action::kModifyDistribution);
  EXPECT_EQ(s->alter_table->elements.distribution->buckets, 8);
  s = Parse("ALTER TABLE t DROP DISTRIBUTION");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->alter_table->action, AlterTable::Action::kDropDistribution);
  // A column called distribution is still a column.
  s = Parse("ALTER TABLE t ADD distribution INT");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->alter_table->action, AlterTable::Action::kAdd);
  s = Parse("ALTER TABLE t DROP (distribution)");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->alter_table->action, AlterTable::Action::kDropColumns);
}

}  // namespace
}  // namespace eddy::sql
