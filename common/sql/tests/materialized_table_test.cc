// Parsing CREATE / ALTER / DROP MATERIALIZED TABLE (parse_materialized_table.cc).
#include <gtest/gtest.h>

#include "common/sql/tests/test_util.h"

namespace eddy::sql {
namespace {

using testing::Error;
using testing::Parse;

TEST(MaterializedTable, CreateWithEveryClause) {
  StatementPtr s = Parse(
      "CREATE MATERIALIZED TABLE IF NOT EXISTS cat.db.mt (CONSTRAINT pk PRIMARY KEY (a, b) NOT "
      "ENFORCED) COMMENT 'c' PARTITIONED BY (h) WITH ('connector' = 'blackhole') FRESHNESS = "
      "INTERVAL '3' MINUTE REFRESH_MODE = CONTINUOUS AS SELECT a, b, h FROM src");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->kind, StatementKind::kMaterializedTable);
  const MaterializedTableStatement& mt = *s->materialized_table;
  EXPECT_EQ(mt.op, MaterializedTableStatement::Op::kCreate);
  EXPECT_TRUE(mt.if_not_exists);
  EXPECT_EQ(mt.name.ToString(), "cat.db.mt");
  EXPECT_EQ(mt.primary_key, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(mt.comment, "c");
  EXPECT_EQ(mt.partition_keys, (std::vector<std::string>{"h"}));
  ASSERT_EQ(mt.properties.entries.size(), 1u);
  EXPECT_EQ(mt.properties.entries[0].second, "blackhole");
  EXPECT_EQ(mt.freshness_text, "3");
  EXPECT_EQ(mt.freshness_unit, "MINUTE");
  EXPECT_FALSE(mt.freshness_negative);
  EXPECT_EQ(mt.refresh_mode, "CONTINUOUS");
  EXPECT_EQ(mt.query_text, "SELECT a, b, h FROM src");
  ASSERT_NE(mt.query, nullptr);
}

TEST(MaterializedTable, FreshnessAsWritten) {
  StatementPtr s =
      Parse("CREATE MATERIALIZED TABLE mt FRESHNESS = INTERVAL -'30' SECOND AS SELECT 1");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->materialized_table->freshness_negative);
  EXPECT_FALSE(s->materialized_table->refresh_mode.has_value());
  s = Parse("CREATE MATERIALIZED TABLE mt FRESHNESS = INTERVAL '1' DAY TO HOUR AS SELECT 1");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->materialized_table->freshness_unit, "DAY TO HOUR");
}

TEST(MaterializedTable, CreateErrors) {
  EXPECT_EQ(Error("CREATE MATERIALIZED TABLE mt FRESHNESS = 123 AS SELECT 1"),
            "SQL parse error at line 1, column 42: MATERIALIZED TABLE only supports define "
            "interval type FRESHNESS, please refer to the materialized table document.");
  EXPECT_EQ(Error("CREATE MATERIALIZED TABLE mt FRESHNESS = INTERVAL 1 DAY AS SELECT 1"),
            "SQL parse error at line 1, column 51: MATERIALIZED TABLE only supports define "
            "interval type FRESHNESS, please refer to the materialized table document.");
  EXPECT_EQ(Error("CREATE MATERIALIZED TABLE mt AS SELECT 1"),
            "SQL parse error at line 1, column 30: expected 'FRESHNESS' but found 'AS'");
  EXPECT_EQ(Error("CREATE TEMPORARY MATERIALIZED TABLE mt FRESHNESS = INTERVAL '1' SECOND AS "
                  "SELECT 1"),
            "SQL parse error at line 1, column 18: CREATE TEMPORARY MATERIALIZED TABLE is not "
            "supported.");
  EXPECT_EQ(Error("CREATE OR REPLACE MATERIALIZED TABLE mt FRESHNESS = INTERVAL '1' SECOND AS "
                  "SELECT 1"),
            "SQL parse error at line 1, column 19: REPLACE MATERIALIZED TABLE is not supported.");
  EXPECT_NE(Error("CREATE MATERIALIZED TABLE mt (a INT) FRESHNESS = INTERVAL '1' SECOND AS "
                  "SELECT 1")
                .find("a materialized table's columns come from its query"),
            std::string::npos);
  EXPECT_NE(Error("CREATE MATERIALIZED TABLE mt FRESHNESS = INTERVAL '1' SECOND "
                  "REFRESH_MODE = NONE AS SELECT 1")
                .find("expected 'CONTINUOUS' or 'FULL'"),
            std::string::npos);
}

TEST(MaterializedTable, AlterAndDrop) {
  StatementPtr s = Parse("ALTER MATERIALIZED TABLE mt SUSPEND");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->materialized_table->op, MaterializedTableStatement::Op::kSuspend);
  s = Parse("ALTER MATERIALIZED TABLE db.mt RESUME WITH ('k' = 'v')");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->materialized_table->op, MaterializedTableStatement::Op::kResume);
  EXPECT_EQ(s->materialized_table->name.ToString(), "db.mt");
  ASSERT_EQ(s->materialized_table->properties.entries.size(), 1u);
  s = Parse("ALTER MATERIALIZED TABLE mt REFRESH PARTITION (ds = '2024-01-01', h = 3)");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->materialized_table->op, MaterializedTableStatement::Op::kRefresh);
  ASSERT_EQ(s->materialized_table->partition.size(), 2u);
  EXPECT_EQ(s->materialized_table->partition[1].value, "3");
  s = Parse("DROP MATERIALIZED TABLE IF EXISTS mt");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->materialized_table->op, MaterializedTableStatement::Op::kDrop);
  EXPECT_TRUE(s->materialized_table->if_exists);
  EXPECT_EQ(Error("ALTER MATERIALIZED TABLE mt"),
            "SQL parse error at line 1, column 28: expected 'SUSPEND', 'RESUME' or 'REFRESH' but "
            "found end of input");
  EXPECT_EQ(Error("ALTER MATERIALIZED TABLE mt SUSPEND PARTITION"),
            "SQL parse error at line 1, column 37: expected ';' but found 'PARTITION'");
  EXPECT_EQ(Error("DROP TEMPORARY MATERIALIZED TABLE mt"),
            "SQL parse error at line 1, column 16: DROP TEMPORARY MATERIALIZED TABLE is not "
            "supported.");
  s = Parse("SHOW CREATE MATERIALIZED TABLE mt");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "CREATE MATERIALIZED TABLE");
}

}  // namespace
}  // namespace eddy::sql
