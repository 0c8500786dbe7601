#include <gtest/gtest.h>

#include "common/sql/tests/test_util.h"

namespace eddy::sql {
namespace {

using testing::Error;

TEST(Script, StatementsWithTexts) {
  absl::StatusOr<std::vector<StatementPtr>> script = ParseScript(
      "-- word count\n"
      "CREATE TABLE words (word STRING) WITH ('connector' = 'datagen');;\n"
      "\n"
      "  SET 'parallelism.default' = '2' ;\n"
      "/* the job */ INSERT INTO sink\n"
      "  SELECT word, COUNT(*) FROM words GROUP BY word -- trailing\n");
  ASSERT_TRUE(script.ok()) << script.status();
  ASSERT_EQ(script->size(), 3u);
  EXPECT_EQ((*script)[0]->kind, StatementKind::kCreateTable);
  EXPECT_EQ((*script)[0]->text, "CREATE TABLE words (word STRING) WITH ('connector' = 'datagen')");
  EXPECT_EQ((*script)[0]->pos.line, 2);
  EXPECT_EQ((*script)[1]->kind, StatementKind::kSet);
  EXPECT_EQ((*script)[1]->text, "SET 'parallelism.default' = '2'");
  EXPECT_EQ((*script)[1]->pos.line, 4);
  EXPECT_EQ((*script)[1]->pos.column, 3);
  EXPECT_EQ((*script)[2]->kind, StatementKind::kInsert);
  EXPECT_EQ((*script)[2]->text,
            "INSERT INTO sink\n  SELECT word, COUNT(*) FROM words GROUP BY word");
  EXPECT_EQ((*script)[2]->pos.line, 5);
  EXPECT_EQ((*script)[2]->pos.column, 15);
}

TEST(Script, EmptyScripts) {
  for (const char* sql : {"", ";", " ;; ; ", "-- only a comment", "/* c */ ;"}) {
    absl::StatusOr<std::vector<StatementPtr>> script = ParseScript(sql);
    ASSERT_TRUE(script.ok()) << sql << ": " << script.status();
    EXPECT_TRUE(script->empty()) << sql;
  }
}

TEST(Script, StatementSetKeepsItsInnerSemicolons) {
  absl::StatusOr<std::vector<StatementPtr>> script = ParseScript(
      "SET 'a' = 'b';\n"
      "EXECUTE STATEMENT SET BEGIN\n"
      "  INSERT INTO a SELECT * FROM t;\n"
      "  INSERT INTO b SELECT * FROM t;\n"
      "END;\n"
      "SHOW JOBS");
  ASSERT_TRUE(script.ok()) << script.status();
  ASSERT_EQ(script->size(), 3u);
  EXPECT_EQ((*script)[1]->kind, StatementKind::kStatementSet);
  EXPECT_EQ((*script)[1]->statement_set->inserts.size(), 2u);
  EXPECT_EQ((*script)[1]->text,
            "EXECUTE STATEMENT SET BEGIN\n"
            "  INSERT INTO a SELECT * FROM t;\n"
            "  INSERT INTO b SELECT * FROM t;\n"
            "END");
  EXPECT_EQ((*script)[2]->kind, StatementKind::kShow);
}

TEST(Script, Errors) {
  // Missing ')'.
  EXPECT_EQ(Error("SELECT a FROM t;\nSELECT b\n  FROM u WHERE f(x\n  GROUP BY b"),
            "SQL parse error at line 4, column 3: expected ')' but found 'GROUP'");
  // Unexpected token.
  EXPECT_EQ(Error("SELECT a, FROM t"),
            "SQL parse error at line 1, column 11: expected expression but found 'FROM'");
  // Unterminated string: the position where it started.
  EXPECT_EQ(Error("SELECT 1;\nSELECT * FROM t WHERE s = 'abc;\nSELECT 2;"),
            "SQL parse error at line 2, column 27: unterminated string literal");
  // Unknown statement start.
  EXPECT_EQ(Error("SELECT 1;\n  FROBNICATE t;"),
            "SQL parse error at line 2, column 3: expected a statement but found 'FROBNICATE'");
  // Trailing garbage after a complete statement.
  EXPECT_EQ(Error("SHOW TABLES extra"),
            "SQL parse error at line 1, column 13: expected ';' but found 'extra'");
  EXPECT_EQ(Error("SELECT a FROM t x y"),
            "SQL parse error at line 1, column 19: expected ';' but found 'y'");
  EXPECT_EQ(Error("DROP TABLE t )"),
            "SQL parse error at line 1, column 14: expected ';' but found ')'");
  // Duplicate WITH key.
  EXPECT_EQ(Error("CREATE TABLE t (a INT) WITH ('k' = '1', 'k' = '2')"),
            "SQL parse error at line 1, column 41: duplicate key 'k' in WITH options");
  // Statement sets.
  EXPECT_EQ(Error("EXECUTE STATEMENT SET BEGIN SELECT 1; END"),
            "SQL parse error at line 1, column 29: Only INSERT statement is allowed in Statement "
            "Set.");
  EXPECT_EQ(Error("BEGIN STATEMENT SET;\nBEGIN STATEMENT SET;\nEND;"),
            "SQL parse error at line 2, column 1: Only INSERT statement is allowed in Statement "
            "Set.");
  EXPECT_EQ(Error("SELECT 1;\nEND;"),
            "SQL parse error at line 2, column 1: No Statement Set to submit, \"END;\" command "
            "should be used after \"BEGIN STATEMENT SET;\".");
  // The SQL client's form may be empty (nothing is submitted); EXECUTE STATEMENT SET may not.
  auto empty = ParseScript("BEGIN STATEMENT SET;\nEND;");
  ASSERT_TRUE(empty.ok()) << empty.status();
  ASSERT_EQ(empty->size(), 1u);
  EXPECT_TRUE((*empty)[0]->statement_set->inserts.empty());
  EXPECT_EQ(Error("EXECUTE STATEMENT SET BEGIN END"),
            "SQL parse error at line 1, column 29: a statement set needs at least one INSERT");
  EXPECT_EQ(
      Error("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1;"),
      "SQL parse error at line 1, column 52: expected 'INSERT' or 'END' but found end of input");
  // Unterminated comment.
  EXPECT_EQ(Error("SELECT 1; /* never\nclosed"),
            "SQL parse error at line 1, column 11: unterminated comment");
}

}  // namespace
}  // namespace eddy::sql
