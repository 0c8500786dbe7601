// Every planning error users can hit, with its exact message: names, grouping, clause support,
// source/sink capabilities and the INSERT column checks. Also changelog-mode errors.
#include "coordinator/planner/changelog_mode.h"
#include "coordinator/planner/logical_plan.h"
#include "coordinator/planner/tests/planner_test_util.h"

namespace eddy::planner_test {
namespace {

class ErrorsTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl(
        "CREATE TABLE words (word STRING, n INT) WITH ('connector' = 'datagen', "
        "'number-of-rows' = '3')");
    MustDdl("CREATE TABLE out (word STRING, cnt INT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE strict (word STRING NOT NULL, n INT) WITH ('connector' = 'print')");
    MustDdl("CREATE VIEW v AS SELECT word, n FROM words");
  }
};

TEST_F(ErrorsTest, Names) {
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM missing"),
            "Validation error at line 1, column 37: table "
            "'default_catalog.default_database.missing' not found");
  EXPECT_EQ(PlanError("INSERT INTO nowhere SELECT word, n FROM words"),
            "Validation error at line 1, column 13: table "
            "'default_catalog.default_database.nowhere' not found");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT wrd, n FROM words"),
            "Validation error at line 1, column 24: column 'wrd' not found in any table");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT t.foo, n FROM words AS t"),
            "Validation error at line 1, column 24: column 'foo' not found in table 't'");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT x.word, n FROM words AS t"),
            "Validation error at line 1, column 24: table 'x' not found in the FROM clause");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT x.* FROM words"),
            "Validation error at line 1, column 24: table 'x' not found in the FROM clause");
  // The table name qualifies its columns. Identifiers are case-sensitive, as in Flink: tables and
  // columns alike.
  EXPECT_EQ(PlanError("INSERT INTO out SELECT words.word, n FROM words"), "<planned OK>");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT WORDS.word, n FROM words"),
            "Validation error at line 1, column 24: table 'WORDS' not found in the FROM clause");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT Word, n FROM words"),
            "Validation error at line 1, column 24: column 'Word' not found in any table");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM Words"),
            "Validation error at line 1, column 37: table "
            "'default_catalog.default_database.Words' not found");
}

TEST_F(ErrorsTest, Expressions) {
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n + 'x' FROM words"),
            "Validation error at line 1, column 30: Cannot apply '+' to arguments of type <INT> "
            "and <VARCHAR(1)>");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, FOO(n) FROM words"),
            "Validation error at line 1, column 30: Unknown function 'FOO'");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM words WHERE n"),
            "Validation error at line 1, column 49: WHERE clause must be a BOOLEAN expression, got "
            "INT");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, CAST(TRUE AS DATE) FROM words"),
            "Validation error at line 1, column 30: Cast from BOOLEAN to DATE is not supported");
}

TEST_F(ErrorsTest, Grouping) {
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM words GROUP BY word"),
            "Validation error at line 1, column 30: expression 'n' is not being grouped");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, COUNT(*) + n FROM words GROUP BY word"),
            "Validation error at line 1, column 41: expression 'n' is not being grouped");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT * FROM words GROUP BY word"),
            "Validation error at line 1, column 24: expression 'n' is not being grouped");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM words WHERE COUNT(*) > 1"),
            "Validation error at line 1, column 49: aggregate function COUNT is not allowed in "
            "WHERE clause");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, SUM(COUNT(*)) FROM words GROUP BY word"),
            "Validation error at line 1, column 34: aggregate function calls cannot be nested");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, SUM(word) FROM words GROUP BY word"),
            "Validation error at line 1, column 30: Cannot apply 'SUM' to arguments of type "
            "<STRING>");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM words GROUP BY COUNT(*)"),
            "Validation error at line 1, column 52: aggregate functions are not allowed in GROUP "
            "BY clause");
}

TEST_F(ErrorsTest, UnsupportedClauses) {
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM words ORDER BY word"),
            "Validation error at line 1, column 52: Sort on a non-time-attribute field is not "
            "supported.");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM words ORDER BY 3 LIMIT 1"),
            "Validation error at line 1, column 52: ORDER BY position 3 is not in the select list "
            "(1 to 2)");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM words LIMIT 0"),
            "Validation error at line 1, column 17: LIMIT needs at least one row and OFFSET "
            "cannot be negative");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT a.word, a.n FROM words AS a JOIN words AS b"),
            "Validation error at line 1, column 41: INNER JOIN needs an ON condition");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM words WHERE n > 1 OR word IN (SELECT "
                      "word FROM words)"),
            "Validation error at line 1, column 66: IN (subquery) is supported as a conjunct of a "
            "WHERE clause (it becomes a semi or anti join), not here");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n FROM words WHERE word IN (SELECT word, n "
                      "FROM words)"),
            "Validation error at line 1, column 49: the subquery of IN must return one column, it "
            "returns 2");
}

TEST_F(ErrorsTest, SourcesAndSinks) {
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, cnt FROM out"),
            "Validation error: table 'default_catalog.default_database.out' (connector 'print') "
            "cannot be read; it is a sink");
  EXPECT_EQ(PlanError("INSERT INTO words SELECT word, n FROM words"),
            "Validation error: table 'default_catalog.default_database.words' (connector "
            "'datagen') cannot be written; it is a source");
  EXPECT_EQ(PlanError("INSERT INTO v SELECT word, n FROM words"),
            "Validation error at line 1, column 13: view 'default_catalog.default_database.v' "
            "cannot be the target of INSERT INTO; only tables can be written");
}

TEST_F(ErrorsTest, InsertColumns) {
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, n, n FROM words"),
            "Validation error: column count of query (3) and sink "
            "'default_catalog.default_database.out' (2) do not match");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, COUNT(*) AS cnt FROM words GROUP BY word"),
            "Validation error: column types of query result and sink for "
            "'default_catalog.default_database.out' do not match. Cannot assign BIGINT to INT for "
            "column 'cnt'");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, word FROM words"),
            "Validation error: column types of query result and sink for "
            "'default_catalog.default_database.out' do not match. Cannot assign STRING to INT for "
            "column 'cnt'");
  // A nullable value for a NOT NULL column is planned: the sink enforces it at run time.
  EXPECT_EQ(PlanError("INSERT INTO strict SELECT word, n FROM words"), "<planned OK>");
  EXPECT_EQ(PlanError("INSERT INTO strict SELECT CAST(NULL AS STRING), n FROM words"),
            "<planned OK>");
  EXPECT_EQ(PlanError("INSERT INTO strict SELECT COALESCE(word, ''), n FROM words"),
            "<planned OK>");
  EXPECT_EQ(PlanError("INSERT INTO strict (n) SELECT n FROM words"),
            "Validation error: Column 'word' of sink 'default_catalog.default_database.strict' has "
            "no default value and does not allow NULLs");
  EXPECT_EQ(PlanError("INSERT INTO out (nope) SELECT n FROM words"),
            "Validation error: column 'nope' not found in table "
            "'default_catalog.default_database.out'");
}

TEST_F(ErrorsTest, ViewErrorsNameTheView) {
  MustDdl("CREATE TABLE tmp_src (a INT) WITH ('connector' = 'datagen')");
  MustDdl("CREATE TEMPORARY VIEW over_tmp AS SELECT a FROM tmp_src");
  ASSERT_TRUE(
      session_.DropTable({"default_catalog", "default_database", "tmp_src"}, false, false).ok());
  EXPECT_EQ(PlanError("INSERT INTO out SELECT 'x', a FROM over_tmp"),
            "Validation error at line 1, column 15: table "
            "'default_catalog.default_database.tmp_src' not found (in view "
            "'default_catalog.default_database.over_tmp')");
}

TEST_F(ErrorsTest, AppendOnlySinkFedUpdatesNamesTheNode) {
  // No append-only connector is registered yet; an unknown one is treated as append-only.
  auto src = std::make_shared<CatalogTable>();
  src->path = {"default_catalog", "default_database", "words"};
  src->schema.fields = {{"word", DataType::String()}};
  auto sink_table = std::make_shared<CatalogTable>();
  sink_table->path = {"default_catalog", "default_database", "files"};
  sink_table->schema.fields = {{"word", DataType::String()}, {"cnt", DataType::BigInt()}};
  sink_table->options = {{"connector", "filesystem"}};
  planner::LogicalAggCall count;
  count.kind = AggKind::kCountStar;
  count.result_type = DataType::BigInt().WithNullable(false);
  auto agg = planner::MakeAggregate(planner::MakeTableScan(src), {0}, {count}, {"word", "cnt"});
  auto sink = planner::MakeSink(agg, sink_table);
  absl::Status s = planner::InferChangelogModes({sink});
  EXPECT_EQ(s.message(),
            "Validation error: Table sink 'default_catalog.default_database.files' doesn't support "
            "consuming update changes which is produced by node GroupAggregate(groupBy=[word], "
            "select=[word, COUNT(*) AS cnt])");
  // Insert-only input is fine.
  auto plain = planner::MakeSink(planner::MakeTableScan(src), sink_table);
  EXPECT_TRUE(planner::InferChangelogModes({plain}).ok());
  EXPECT_EQ(plain->mode.ToString(), "[I]");
}

TEST_F(ErrorsTest, ChangelogModesAreKeptOnLogicalNodes) {
  auto src = std::make_shared<CatalogTable>();
  src->path = {"default_catalog", "default_database", "words"};
  src->schema.fields = {{"word", DataType::String()}};
  src->options = {{"connector", "datagen"}};
  auto print = std::make_shared<CatalogTable>();
  print->path = {"default_catalog", "default_database", "p"};
  print->schema.fields = {{"cnt", DataType::BigInt()}, {"n", DataType::BigInt()}};
  print->options = {{"connector", "print"}};
  auto hole = std::make_shared<CatalogTable>(*print);
  hole->options = {{"connector", "blackhole"}};
  planner::LogicalAggCall count;
  count.kind = AggKind::kCountStar;
  count.result_type = DataType::BigInt().WithNullable(false);
  auto scan = planner::MakeTableScan(src);
  auto inner = planner::MakeAggregate(scan, {0}, {count}, {"word", "cnt"});
  auto proj = planner::MakeProject(inner, {MakeColumnRef(1, count.result_type)}, {"cnt"});
  auto outer = planner::MakeAggregate(proj, {0}, {count}, {"cnt", "n"});
  auto sink = planner::MakeSink(outer, hole);
  ASSERT_TRUE(planner::InferChangelogModes({sink}).ok());
  EXPECT_EQ(scan->mode.ToString(), "[I]");
  EXPECT_EQ(inner->mode.ToString(), "[I,UB,UA]");
  EXPECT_EQ(proj->mode.ToString(), "[I,UB,UA]");
  EXPECT_EQ(outer->mode.ToString(), "[I,UA,D]");
  EXPECT_EQ(sink->mode.ToString(), "[I,UA,D]");
  // The same plan into print: every aggregate retracts.
  auto sink2 = planner::MakeSink(outer, print);
  ASSERT_TRUE(planner::InferChangelogModes({sink2}).ok());
  EXPECT_EQ(outer->mode.ToString(), "[I,UB,UA,D]");
}

}  // namespace
}  // namespace eddy::planner_test
