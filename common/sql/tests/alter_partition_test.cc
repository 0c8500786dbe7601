// ALTER TABLE ... ADD [IF NOT EXISTS] PARTITION (...) [WITH (...)] ... and
// ALTER TABLE ... DROP [IF EXISTS] PARTITION (...) [, PARTITION (...)], in Flink's syntax.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/sql/tests/test_util.h"

namespace eddy::sql::testing {
namespace {

// `k=v, k2=v2` of one parsed spec; NULL as `k=NULL`.
std::string Spec(const std::vector<PartitionValueDef>& spec) {
  std::string out;
  for (const PartitionValueDef& v : spec) {
    if (!out.empty()) out += ", ";
    out += v.column + "=" + (v.null ? "NULL" : v.value);
  }
  return out;
}

TEST(AlterPartition, AddPartitions) {
  StatementPtr s = Parse(
      "ALTER TABLE cat.db.logs ADD PARTITION (dt = '2024-01-01', hr = 10) "
      "PARTITION (dt = '2024-01-02', hr = NULL) WITH ('k' = 'v')");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->kind, StatementKind::kAlterTable);
  const AlterTable& alter = *s->alter_table;
  EXPECT_EQ(alter.name.ToString(), "cat.db.logs");
  EXPECT_EQ(alter.action, AlterTable::Action::kAddPartitions);
  EXPECT_FALSE(alter.partition_if);
  ASSERT_EQ(alter.partitions.size(), 2u);
  EXPECT_EQ(Spec(alter.partitions[0]), "dt=2024-01-01, hr=10");
  EXPECT_EQ(Spec(alter.partitions[1]), "dt=2024-01-02, hr=NULL");
  ASSERT_EQ(alter.partition_properties.size(), 2u);
  EXPECT_TRUE(alter.partition_properties[0].entries.empty());
  ASSERT_EQ(alter.partition_properties[1].entries.size(), 1u);
  EXPECT_EQ(alter.partition_properties[1].entries[0].first, "k");
  EXPECT_EQ(alter.partition_properties[1].entries[0].second, "v");

  s = Parse("ALTER TABLE IF EXISTS logs ADD IF NOT EXISTS PARTITION (dt = '2024-01-01')");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->alter_table->if_exists);
  EXPECT_TRUE(s->alter_table->partition_if);
  EXPECT_EQ(s->alter_table->action, AlterTable::Action::kAddPartitions);
}

TEST(AlterPartition, DropPartitions) {
  StatementPtr s =
      Parse("ALTER TABLE logs DROP IF EXISTS PARTITION (dt = '2024-01-01'), PARTITION (dt = 5)");
  ASSERT_NE(s, nullptr);
  const AlterTable& alter = *s->alter_table;
  EXPECT_EQ(alter.action, AlterTable::Action::kDropPartitions);
  EXPECT_TRUE(alter.partition_if);
  ASSERT_EQ(alter.partitions.size(), 2u);
  EXPECT_EQ(Spec(alter.partitions[0]), "dt=2024-01-01");
  EXPECT_EQ(Spec(alter.partitions[1]), "dt=5");

  s = Parse("ALTER TABLE logs DROP PARTITION (dt = '2024-01-01')");
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->alter_table->partition_if);
  // DROP of a column is still a column.
  s = Parse("ALTER TABLE logs DROP note");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->alter_table->action, AlterTable::Action::kDropColumns);
}

TEST(AlterPartition, MalformedSpecsAreErrors) {
  EXPECT_NE(Error("ALTER TABLE logs ADD IF NOT EXISTS (dt = '1')").find("'PARTITION'"),
            std::string::npos);
  EXPECT_NE(Error("ALTER TABLE logs ADD PARTITION ()").find("identifier"), std::string::npos);
  EXPECT_NE(Error("ALTER TABLE logs ADD PARTITION (dt)").find("'='"), std::string::npos);
  EXPECT_NE(Error("ALTER TABLE logs ADD PARTITION (dt = '1', dt = '2')")
                .find("partition column 'dt' is given twice"),
            std::string::npos);
  EXPECT_NE(Error("ALTER TABLE logs DROP PARTITION (dt = '1') WITH ('k' = 'v')").find("WITH"),
            std::string::npos);
  EXPECT_NE(Error("ALTER TABLE logs DROP PARTITION (dt = '1'), (dt = '2')").find("PARTITION"),
            std::string::npos);
}

// ALTER TABLE t [PARTITION (...)] COMPACT.
TEST(AlterPartition, Compact) {
  StatementPtr s = Parse("ALTER TABLE t COMPACT");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->alter_table->action, AlterTable::Action::kCompact);
  EXPECT_TRUE(s->alter_table->partitions.empty());
  s = Parse("ALTER TABLE t PARTITION (dt = '2024-01-01') COMPACT");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->alter_table->action, AlterTable::Action::kCompact);
  ASSERT_EQ(s->alter_table->partitions.size(), 1u);
  EXPECT_EQ(s->alter_table->partitions[0][0].value, "2024-01-01");
  EXPECT_NE(Error("ALTER TABLE t PARTITION (dt = 'x')").find("expected 'COMPACT'"),
            std::string::npos);
}

}  // namespace
}  // namespace eddy::sql::testing
