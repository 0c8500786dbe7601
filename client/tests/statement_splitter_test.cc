// StatementSplitter: statements end at ';' outside literals, quoted identifiers and comments, and
// may span lines.
#include "client/statement_splitter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace eddy {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(StatementSplitterTest, SplitsAtSemicolonsOutsideQuotesAndComments) {
  StatementSplitter s;
  EXPECT_THAT(s.Add("SELECT 'a;b', `c;d`, \"e;f\" -- g;h\n"), IsEmpty());
  EXPECT_TRUE(s.pending());
  EXPECT_THAT(
      s.Add("FROM t /* i;j */; SELECT 'it''s;'; \n"),
      ElementsAre("SELECT 'a;b', `c;d`, \"e;f\" -- g;h\nFROM t /* i;j */", "SELECT 'it''s;'"));
  EXPECT_FALSE(s.pending());
}

TEST(StatementSplitterTest, DropsEmptyStatementsAndLeadingWhitespace) {
  StatementSplitter s;
  EXPECT_THAT(s.Add(";;  \n-- only a comment\n"), IsEmpty());
  EXPECT_FALSE(s.pending());
  EXPECT_THAT(s.Add("\n  QUIT;\n"), ElementsAre("QUIT"));
}

TEST(StatementSplitterTest, KeepsAnUnfinishedStatementForTheEnd) {
  StatementSplitter s;
  EXPECT_THAT(s.Add("SHOW TABLES\n"), IsEmpty());
  EXPECT_TRUE(s.pending());
  EXPECT_EQ(s.TakeRest(), "SHOW TABLES\n");
  EXPECT_FALSE(s.pending());
  // An open literal keeps the statement pending across lines.
  EXPECT_THAT(s.Add("SELECT 'a\n"), IsEmpty());
  EXPECT_THAT(s.Add(";b';\n"), ElementsAre("SELECT 'a\n;b'"));
}

TEST(StatementSplitterTest, AStatementSetIsOneStatementUpToTheSemicolonAfterEnd) {
  StatementSplitter s;
  EXPECT_THAT(s.Add("execute Statement SET\n"), IsEmpty());
  EXPECT_THAT(s.Add("BEGIN\n"), IsEmpty());
  EXPECT_THAT(s.Add("INSERT INTO a SELECT 'END;' FROM t;\n"), IsEmpty());
  EXPECT_TRUE(s.pending());
  EXPECT_THAT(s.Add("INSERT INTO b SELECT x AS end_x FROM t; -- END;\n"), IsEmpty());
  EXPECT_THAT(s.Add("END; SHOW TABLES;\n"),
              ElementsAre("execute Statement SET\nBEGIN\nINSERT INTO a SELECT 'END;' FROM t;\n"
                          "INSERT INTO b SELECT x AS end_x FROM t; -- END;\nEND",
                          "SHOW TABLES"));
  EXPECT_FALSE(s.pending());
  // Not a statement set: the words only appear later in the statement.
  EXPECT_THAT(s.Add("SELECT 1 AS execute; SELECT 2;\n"),
              ElementsAre("SELECT 1 AS execute", "SELECT 2"));
}

TEST(StatementSplitterTest, AnExplainedStatementSetIsOneStatementToo) {
  StatementSplitter s;
  EXPECT_THAT(s.Add("EXPLAIN CHANGELOG_MODE, ESTIMATED_COST STATEMENT SET BEGIN\n"), IsEmpty());
  EXPECT_THAT(s.Add("INSERT INTO a SELECT 1;\n"), IsEmpty());
  EXPECT_THAT(s.Add("END;\n"),
              ElementsAre("EXPLAIN CHANGELOG_MODE, ESTIMATED_COST STATEMENT SET BEGIN\n"
                          "INSERT INTO a SELECT 1;\nEND"));
  EXPECT_THAT(s.Add("EXPLAIN SELECT 1; SELECT 2;\n"), ElementsAre("EXPLAIN SELECT 1", "SELECT 2"));
}

TEST(StatementSplitterTest, ACompiledStatementSetIsOneStatementToo) {
  StatementSplitter s;
  EXPECT_THAT(s.Add("COMPILE PLAN '/p; q.json' IF NOT EXISTS FOR STATEMENT SET BEGIN\n"),
              IsEmpty());
  EXPECT_THAT(s.Add("INSERT INTO a SELECT 1;\n"), IsEmpty());
  EXPECT_THAT(s.Add("END;\n"),
              ElementsAre("COMPILE PLAN '/p; q.json' IF NOT EXISTS FOR STATEMENT SET BEGIN\n"
                          "INSERT INTO a SELECT 1;\nEND"));
  EXPECT_THAT(s.Add("COMPILE AND EXECUTE PLAN 'p' FOR STATEMENT SET BEGIN INSERT INTO a "
                    "SELECT 1; END; EXECUTE PLAN 'p';\n"),
              ElementsAre("COMPILE AND EXECUTE PLAN 'p' FOR STATEMENT SET BEGIN INSERT INTO a "
                          "SELECT 1; END",
                          "EXECUTE PLAN 'p'"));
}

TEST(StatementSplitterTest, OnlyALoneEndClosesAStatementSet) {
  StatementSplitter s;
  EXPECT_THAT(s.Add("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT CASE WHEN x THEN 1 END;\n"),
              IsEmpty());
  EXPECT_THAT(
      s.Add("INSERT INTO b SELECT 2; end ;\n"),
      ElementsAre("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT CASE WHEN x THEN 1 END;\n"
                  "INSERT INTO b SELECT 2; end "));
  // A set with no INSERT at all still ends at its END.
  EXPECT_THAT(s.Add("EXECUTE STATEMENT SET BEGIN END; SELECT 3;\n"),
              ElementsAre("EXECUTE STATEMENT SET BEGIN END", "SELECT 3"));
}

TEST(StatementSplitterTest, DiscardDropsThePendingStatementSet) {
  StatementSplitter s;
  EXPECT_THAT(s.Add("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1;\n"), IsEmpty());
  s.Discard();
  EXPECT_FALSE(s.pending());
  EXPECT_THAT(s.Add("SELECT 2;\n"), ElementsAre("SELECT 2"));
}

TEST(StatementSplitterTest, SplitStatementsSplitsAWholeScriptAndKeepsItsUnfinishedRest) {
  EXPECT_THAT(SplitStatements("SELECT 1;\n-- a comment\nSELECT\n  2; SELECT 3"),
              ElementsAre("SELECT 1", "SELECT\n  2", "SELECT 3\n"));
  EXPECT_THAT(SplitStatements(""), IsEmpty());
}

}  // namespace
}  // namespace eddy
