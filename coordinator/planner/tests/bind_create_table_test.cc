// CREATE TABLE binding: types, primary key, watermark, LIKE, and connector option validation with
// the exact messages users see.
#include "coordinator/planner/tests/planner_test_util.h"

namespace eddy::planner_test {
namespace {

class CreateTableTest : public PlannerTest {
 protected:
  std::shared_ptr<const CatalogTable> Table(const std::string& name) {
    return session_.FindTable({"default_catalog", "default_database", name});
  }
};

TEST_F(CreateTableTest, TypesAndPrimaryKey) {
  MustDdl(
      "CREATE TABLE t (id BIGINT, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, f FLOAT, d DOUBLE, "
      "dec DECIMAL(10, 2), dd DECIMAL, s STRING, v VARCHAR(5), c CHAR(3), dt DATE, ts "
      "TIMESTAMP(3), "
      "ts6 TIMESTAMP(6), nn INT NOT NULL, PRIMARY KEY (id) NOT ENFORCED) "
      "WITH ('connector' = 'blackhole')");
  auto t = Table("t");
  ASSERT_NE(t, nullptr);
  const Schema& s = t->schema;
  ASSERT_EQ(s.size(), 16u);
  EXPECT_EQ(s.fields[0].type.ToString(), "BIGINT NOT NULL");  // primary key columns are NOT NULL
  EXPECT_EQ(s.fields[1].type.ToString(), "BOOLEAN");
  EXPECT_EQ(s.fields[2].type.ToString(), "TINYINT");
  EXPECT_EQ(s.fields[3].type.ToString(), "SMALLINT");
  EXPECT_EQ(s.fields[4].type.ToString(), "INT");
  EXPECT_EQ(s.fields[5].type.ToString(), "FLOAT");
  EXPECT_EQ(s.fields[6].type.ToString(), "DOUBLE");
  EXPECT_EQ(s.fields[7].type.ToString(), "DECIMAL(10, 2)");
  EXPECT_EQ(s.fields[8].type.ToString(), "DECIMAL(10, 0)");
  EXPECT_EQ(s.fields[9].type.ToString(), "STRING");
  EXPECT_EQ(s.fields[10].type.ToString(), "VARCHAR(5)");
  EXPECT_EQ(s.fields[11].type.ToString(), "CHAR(3)");
  EXPECT_EQ(s.fields[12].type.ToString(), "DATE");
  EXPECT_EQ(s.fields[13].type.ToString(), "TIMESTAMP(3)");
  EXPECT_EQ(s.fields[14].type.ToString(), "TIMESTAMP(6)");  // every digit kept
  EXPECT_EQ(s.fields[15].type.ToString(), "INT NOT NULL");
  EXPECT_EQ(t->primary_key, std::vector<std::string>{"id"});
  EXPECT_EQ(t->connector(), "blackhole");
}

TEST_F(CreateTableTest, TypeErrors) {
  EXPECT_EQ(DdlError("CREATE TABLE t (a DECIMAL(38, 2)) WITH ('connector' = 'blackhole')"),
            "Validation error at line 1, column 19: DECIMAL precision 38 is not supported "
            "(maximum 18)");
  EXPECT_EQ(DdlError("CREATE TABLE t (a TIME(10)) WITH ('connector' = 'blackhole')"),
            "Validation error at line 1, column 19: TIME precision must be between 0 and 9");
  EXPECT_EQ(DdlError("CREATE TABLE times (a TIME, b TIME(3), c CHAR(2)) WITH ('connector' = "
                     "'blackhole')"),
            "<OK>");
  EXPECT_EQ(DdlError("CREATE TABLE t (a VARBINARY(0)) WITH ('connector' = 'blackhole')"),
            "Validation error at line 1, column 19: VARBINARY length must be positive");
  EXPECT_EQ(DdlError("CREATE TABLE b (a BYTES, c BINARY(3)) WITH ('connector' = 'blackhole')"),
            "<OK>");
  EXPECT_EQ(DdlError("CREATE TABLE t (a INT, a BIGINT) WITH ('connector' = 'blackhole')"),
            "Validation error at line 1, column 24: column 'a' is defined more than once in table "
            "'default_catalog.default_database.t'");
  // Identifiers are case-sensitive, as in Flink: `a` and `A` are two columns.
  EXPECT_EQ(DdlError("CREATE TABLE t (a INT, A BIGINT) WITH ('connector' = 'blackhole')"), "<OK>");
  EXPECT_EQ(DdlError("CREATE TABLE t (a INT, PRIMARY KEY (A) NOT ENFORCED) "
                     "WITH ('connector' = 'blackhole')"),
            "Validation error: primary key column 'A' of table "
            "'default_catalog.default_database.t' is not a column of the table");
  EXPECT_EQ(DdlError("CREATE TABLE t (a INT, PRIMARY KEY (b) NOT ENFORCED) "
                     "WITH ('connector' = 'blackhole')"),
            "Validation error: primary key column 'b' of table "
            "'default_catalog.default_database.t' is not a column of the table");
}

TEST_F(CreateTableTest, Watermark) {
  MustDdl(
      "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "
      "WITH ('connector' = 'datagen')");
  EXPECT_EQ(Table("t")->watermark_column, "ts");
  EXPECT_FALSE(Table("t")->watermark_expr.empty());
  EXPECT_NE(DdlError("CREATE TABLE u (ts TIMESTAMP(3), WATERMARK FOR x AS x) "
                     "WITH ('connector' = 'datagen')")
                .find("watermark column 'x' is not a column of table"),
            std::string::npos);
}

TEST_F(CreateTableTest, ConnectorRequiredAndKnown) {
  EXPECT_EQ(DdlError("CREATE TABLE t (a INT)"),
            "Validation error: table 'default_catalog.default_database.t' has no 'connector' "
            "option");
  EXPECT_EQ(DdlError("CREATE TABLE t (a INT) WITH ('connector' = 'foo')"),
            "Validation error: unknown connector 'foo' for table "
            "'default_catalog.default_database.t'; supported: blackhole, datagen, filesystem, "
            "kafka, nexmark, print, upsert-kafka");
}

TEST_F(CreateTableTest, DatagenGoodOptions) {
  MustDdl(
      "CREATE TABLE g (id BIGINT, name STRING, x DOUBLE) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '5.5', 'number-of-rows' = '0', 'fields.id.kind' = 'sequence', "
      "'fields.id.start' = '-3', 'fields.id.end' = '3', 'fields.name.length' = '4', "
      "'fields.name.null-rate' = '0.5', 'fields.x.min' = '-1.5', 'fields.x.max' = '2', "
      "'fields.x.kind' = 'random')");
  EXPECT_NE(Table("g"), nullptr);
}

struct BadOption {
  std::string options;
  std::string message;
};

TEST_F(CreateTableTest, DatagenBadOptions) {
  const std::string t = "'default_catalog.default_database.g'";
  const std::vector<BadOption> cases = {
      {"'foo' = '1'", "unsupported option 'foo' for connector 'datagen' of table " + t},
      {"'fields.nope.kind' = 'random'",
       "unsupported option 'fields.nope.kind' for connector 'datagen' of table " + t},
      {"'fields.id.colour' = 'red'",
       "unsupported option 'fields.id.colour' for connector 'datagen' of table " + t},
      {"'rows-per-second' = 'abc'",
       "option 'rows-per-second' of table " + t + " expects a positive number, got 'abc'"},
      {"'rows-per-second' = '0'",
       "option 'rows-per-second' of table " + t + " expects a positive number, got '0'"},
      {"'number-of-rows' = '-1'",
       "option 'number-of-rows' of table " + t + " expects a non-negative integer, got '-1'"},
      {"'number-of-rows' = '1.5'",
       "option 'number-of-rows' of table " + t + " expects a non-negative integer, got '1.5'"},
      {"'fields.id.kind' = 'zigzag'",
       "option 'fields.id.kind' of table " + t + " expects one of random, sequence, got 'zigzag'"},
      {"'fields.id.start' = 'x'",
       "option 'fields.id.start' of table " + t + " expects an integer, got 'x'"},
      {"'fields.id.min' = 'low'",
       "option 'fields.id.min' of table " + t + " expects a number, got 'low'"},
      {"'fields.name.length' = '0'",
       "option 'fields.name.length' of table " + t + " expects a positive integer, got '0'"},
      {"'fields.name.null-rate' = '1.5'", "option 'fields.name.null-rate' of table " + t +
                                              " expects a number between 0 and 1, got '1.5'"},
      {"'fields.id.kind' = 'sequence', 'fields.id.start' = '1'",
       "field 'id' of table " + t +
           " is a sequence and needs options 'fields.id.start' and 'fields.id.end'"},
      {"'fields.id.kind' = 'sequence', 'fields.id.start' = '9', 'fields.id.end' = '1'",
       "option 'fields.id.start' of table " + t +
           " must not be greater than 'fields.id.end' (9 > 1)"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(DdlError("CREATE TABLE g (id BIGINT, name STRING) WITH ('connector' = 'datagen', " +
                       c.options + ")"),
              "Validation error: " + c.message)
        << c.options;
  }
}

TEST_F(CreateTableTest, PrintAndBlackholeOptions) {
  MustDdl(
      "CREATE TABLE p (a INT) WITH ('connector' = 'print', 'print-identifier' = 'X', "
      "'standard-error' = 'TRUE', 'sink.parallelism' = '2')");
  const std::string t = "'default_catalog.default_database.q'";
  EXPECT_EQ(DdlError("CREATE TABLE q (a INT) WITH ('connector' = 'print', 'standard-error' = "
                     "'maybe')"),
            "Validation error: option 'standard-error' of table " + t +
                " expects true or false, got 'maybe'");
  EXPECT_EQ(DdlError("CREATE TABLE q (a INT) WITH ('connector' = 'print', 'sink.parallelism' = "
                     "'0')"),
            "Validation error: option 'sink.parallelism' of table " + t +
                " expects a positive integer, got '0'");
  EXPECT_EQ(DdlError("CREATE TABLE q (a INT) WITH ('connector' = 'print', 'path' = '/tmp')"),
            "Validation error: unsupported option 'path' for connector 'print' of table " + t);
  EXPECT_EQ(DdlError("CREATE TABLE q (a INT) WITH ('connector' = 'blackhole', "
                     "'print-identifier' = 'x')"),
            "Validation error: unsupported option 'print-identifier' for connector 'blackhole' "
            "of table " +
                t);
}

TEST_F(CreateTableTest, LikeCopiesColumnsKeyAndOptions) {
  MustDdl(
      "CREATE TABLE src (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH "
      "('connector' = 'datagen', 'number-of-rows' = '10')");
  MustDdl("CREATE TABLE copy1 WITH ('number-of-rows' = '20') LIKE src");
  auto c1 = Table("copy1");
  ASSERT_NE(c1, nullptr);
  EXPECT_EQ(c1->schema.Names(), (std::vector<std::string>{"id", "name"}));
  EXPECT_EQ(c1->primary_key, std::vector<std::string>{"id"});
  EXPECT_EQ(c1->connector(), "datagen");
  ASSERT_NE(c1->FindOption("number-of-rows"), nullptr);
  EXPECT_EQ(*c1->FindOption("number-of-rows"), "20");  // the new table's entry wins

  MustDdl("CREATE TABLE snk (extra INT) WITH ('connector' = 'print') LIKE src (EXCLUDING OPTIONS)");
  auto s = Table("snk");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->schema.Names(), (std::vector<std::string>{"id", "name", "extra"}));
  EXPECT_EQ(s->connector(), "print");
  EXPECT_EQ(s->FindOption("number-of-rows"), nullptr);
  EXPECT_EQ(s->options.size(), 1u);

  // EXCLUDING OPTIONS without a connector of its own: the copy has none.
  EXPECT_EQ(DdlError("CREATE TABLE bare LIKE src (EXCLUDING OPTIONS)"),
            "Validation error: table 'default_catalog.default_database.bare' has no 'connector' "
            "option");
  EXPECT_EQ(DdlError("CREATE TABLE x WITH ('connector' = 'print') LIKE nowhere"),
            "Validation error at line 1, column 50: table "
            "'default_catalog.default_database.nowhere' not found");
}

}  // namespace
}  // namespace eddy::planner_test
