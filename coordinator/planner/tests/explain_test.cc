// EXPLAIN text end to end: Flink's three sections for Q1/Q2 (word count, counts) into retracting
// and upsert sinks (changelog modes), bare queries, and the two-sink statement set whose shared
// filter prints once in the execution plan with reuse markers.
#include "coordinator/planner/tests/planner_test_util.h"

namespace eddy::planner_test {
namespace {

constexpr char kQ1[] = "SELECT word, COUNT(*) AS cnt FROM words GROUP BY word";
constexpr char kQ2[] =
    "SELECT cnt, COUNT(*) AS num_words FROM (SELECT word, COUNT(*) AS cnt FROM words GROUP BY "
    "word) GROUP BY cnt";

class ExplainTest : public PlannerTest {
 protected:
  void SetUp() override {
    // NOT NULL so that the word can be a sink's primary key.
    MustDdl("CREATE TABLE words (word STRING NOT NULL) WITH ('connector' = 'datagen')");
    MustDdl("CREATE TABLE out1 (word STRING, cnt BIGINT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE hole (word STRING, cnt BIGINT) WITH ('connector' = 'blackhole')");
    MustDdl(
        "CREATE TABLE hole_pk (word STRING, cnt BIGINT, PRIMARY KEY (word) NOT ENFORCED) WITH "
        "('connector' = 'blackhole')");
    MustDdl("CREATE TABLE out2 (cnt BIGINT, num_words BIGINT) WITH ('connector' = 'print')");
  }
};

TEST_F(ExplainTest, Q1IntoPrint) {
  EXPECT_EQ(Explain(std::string("EXPLAIN CHANGELOG_MODE INSERT INTO out1 ") + kQ1),
            R"(== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.out1], fields=[word, cnt])
+- LogicalAggregate(group=[{0}], cnt=[COUNT()])
   +- LogicalTableScan(table=[[default_catalog, default_database, words]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.out1], fields=[word, cnt], changelogMode=[NONE])
+- GroupAggregate(groupBy=[word], select=[word, COUNT(*) AS cnt], changelogMode=[I,UB,UA])
   +- Exchange(distribution=[hash[word]], changelogMode=[I])
      +- TableSourceScan(table=[[default_catalog, default_database, words]], fields=[word], changelogMode=[I])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.out1], fields=[word, cnt])
+- GroupAggregate(groupBy=[word], select=[word, COUNT(*) AS cnt])
   +- Exchange(distribution=[hash[word]])
      +- TableSourceScan(table=[[default_catalog, default_database, words]], fields=[word])
)");
}

TEST_F(ExplainTest, WithoutChangelogModeTheModesAreLeftOut) {
  std::string text = Explain(std::string("EXPLAIN INSERT INTO out1 ") + kQ1);
  EXPECT_EQ(text.find("changelogMode"), std::string::npos) << text;
  EXPECT_NE(text.find("GroupAggregate(groupBy=[word], select=[word, COUNT(*) AS cnt])\n"),
            std::string::npos)
      << text;
  // PLAN FOR is the same statement.
  EXPECT_EQ(Explain(std::string("EXPLAIN PLAN FOR INSERT INTO out1 ") + kQ1), text);
}

TEST_F(ExplainTest, Q1IntoBlackholeIsUpsert) {
  std::string text = Explain(std::string("EXPLAIN CHANGELOG_MODE INSERT INTO hole ") + kQ1);
  EXPECT_NE(text.find("GroupAggregate(groupBy=[word], select=[word, COUNT(*) AS cnt], "
                      "changelogMode=[I,UA])"),
            std::string::npos)
      << text;
  text = Explain(std::string("EXPLAIN CHANGELOG_MODE INSERT INTO hole_pk ") + kQ1);
  EXPECT_NE(text.find("Sink(table=[default_catalog.default_database.hole_pk], fields=[word, cnt], "
                      "changelogMode=[NONE])\n+- GroupAggregate(groupBy=[word], select=[word, "
                      "COUNT(*) AS cnt], changelogMode=[I,UA])"),
            std::string::npos)
      << text;
}

TEST_F(ExplainTest, Q2InnerAggregateRetracts) {
  EXPECT_EQ(Explain(std::string("EXPLAIN CHANGELOG_MODE INSERT INTO out2 ") + kQ2),
            R"(== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.out2], fields=[cnt, num_words])
+- LogicalAggregate(group=[{0}], num_words=[COUNT()])
   +- LogicalProject(cnt=[$1])
      +- LogicalAggregate(group=[{0}], cnt=[COUNT()])
         +- LogicalTableScan(table=[[default_catalog, default_database, words]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.out2], fields=[cnt, num_words], changelogMode=[NONE])
+- GroupAggregate(groupBy=[cnt], select=[cnt, COUNT(*) AS num_words], changelogMode=[I,UB,UA,D])
   +- Exchange(distribution=[hash[cnt]], changelogMode=[I,UB,UA])
      +- Calc(select=[cnt], changelogMode=[I,UB,UA])
         +- GroupAggregate(groupBy=[word], select=[word, COUNT(*) AS cnt], changelogMode=[I,UB,UA])
            +- Exchange(distribution=[hash[word]], changelogMode=[I])
               +- TableSourceScan(table=[[default_catalog, default_database, words]], fields=[word], changelogMode=[I])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.out2], fields=[cnt, num_words])
+- GroupAggregate(groupBy=[cnt], select=[cnt, COUNT(*) AS num_words])
   +- Exchange(distribution=[hash[cnt]])
      +- Calc(select=[cnt])
         +- GroupAggregate(groupBy=[word], select=[word, COUNT(*) AS cnt])
            +- Exchange(distribution=[hash[word]])
               +- TableSourceScan(table=[[default_catalog, default_database, words]], fields=[word])
)");
}

TEST_F(ExplainTest, BareQueryHasNoSinkAndRetracts) {
  std::string text = Explain(std::string("EXPLAIN CHANGELOG_MODE ") + kQ1);
  EXPECT_EQ(text.find("Sink"), std::string::npos) << text;
  EXPECT_EQ(
      text.rfind("== Abstract Syntax Tree ==\nLogicalAggregate(group=[{0}], cnt=[COUNT()])\n", 0),
      0u)
      << text;
  // A client collecting the result needs retractions, as Flink assumes for a query root.
  EXPECT_NE(text.find("GroupAggregate(groupBy=[word], select=[word, COUNT(*) AS cnt], "
                      "changelogMode=[I,UB,UA])"),
            std::string::npos)
      << text;
}

TEST_F(ExplainTest, GlobalAggregateIsSingleExchange) {
  std::string text = Explain("EXPLAIN SELECT COUNT(*) AS c FROM words");
  EXPECT_NE(text.find("== Optimized Execution Plan ==\nGroupAggregate(select=[COUNT(*) AS c])\n+- "
                      "Exchange(distribution=[single])\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("LogicalAggregate(group=[{}], c=[COUNT()])"), std::string::npos) << text;
}

TEST_F(ExplainTest, ValuesFilterAndProject) {
  std::string text = Explain(
      "EXPLAIN SELECT UPPER(w) AS u FROM (VALUES ('a'), ('bb')) AS t(w) WHERE CHAR_LENGTH(w) > 1");
  EXPECT_NE(text.find(R"(== Abstract Syntax Tree ==
LogicalProject(u=[UPPER($0)])
+- LogicalFilter(condition=[>(CHAR_LENGTH($0), 1)])
   +- LogicalProject(w=[$0])
      +- LogicalValues(tuples=[[{ 'a' }, { 'bb' }]])
)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(R"(== Optimized Execution Plan ==
Calc(select=[UPPER(EXPR$0) AS u], where=[>(CHAR_LENGTH(EXPR$0), 1)])
+- Values(tuples=[[{ 'a' }, { 'bb' }]], values=[EXPR$0])
)"),
            std::string::npos)
      << text;
}

class ExplainStatementSetTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl("CREATE TABLE MyTable1 (`count` BIGINT, word STRING) WITH ('connector' = 'datagen')");
    MustDdl("CREATE TABLE MyTable2 (`count` BIGINT, word STRING) WITH ('connector' = 'datagen')");
    MustDdl("CREATE TABLE MySink1 (`count` BIGINT, word STRING) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE MySink2 (`count` BIGINT, word STRING) WITH ('connector' = 'print')");
  }

  static constexpr char kStatementSet[] =
      "EXPLAIN STATEMENT SET BEGIN "
      "INSERT INTO MySink1 SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%'; "
      "INSERT INTO MySink2 SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%' "
      "UNION ALL SELECT `count`, word FROM MyTable2; END";
};

// The example of Flink's StatementSet.explain() documentation, statement for statement.
TEST_F(ExplainStatementSetTest, SharedFilterPrintsOnceWithReuse) {
  EXPECT_EQ(Explain(kStatementSet), R"(== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.MySink1], fields=[count, word])
+- LogicalProject(count=[$0], word=[$1])
   +- LogicalFilter(condition=[LIKE($1, 'F%')])
      +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])

LogicalSink(table=[default_catalog.default_database.MySink2], fields=[count, word])
+- LogicalUnion(all=[true])
   :- LogicalProject(count=[$0], word=[$1])
   :  +- LogicalFilter(condition=[LIKE($1, 'F%')])
   :     +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])
   +- LogicalProject(count=[$0], word=[$1])
      +- LogicalTableScan(table=[[default_catalog, default_database, MyTable2]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.MySink1], fields=[count, word])
+- Calc(select=[count, word], where=[LIKE(word, 'F%')])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])

Sink(table=[default_catalog.default_database.MySink2], fields=[count, word])
+- Union(all=[true], union=[count, word])
   :- Calc(select=[count, word], where=[LIKE(word, 'F%')])
   :  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])

== Optimized Execution Plan ==
Calc(select=[count, word], where=[LIKE(word, 'F%')])(reuse_id=[1])
+- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])

Sink(table=[default_catalog.default_database.MySink1], fields=[count, word])
+- Reused(reference_id=[1])

Sink(table=[default_catalog.default_database.MySink2], fields=[count, word])
+- Union(all=[true], union=[count, word])
   :- Reused(reference_id=[1])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])
)");
}

TEST_F(ExplainStatementSetTest, ReuseDisabledRepeatsTheSharedPart) {
  config_["table.optimizer.reuse-sub-plan-enabled"] = "false";
  std::string text = Explain(kStatementSet);
  const std::string exec = text.substr(text.find("== Optimized Execution Plan =="));
  EXPECT_EQ(exec.find("Reused"), std::string::npos) << exec;
  EXPECT_EQ(exec.find("reuse_id"), std::string::npos) << exec;
  EXPECT_EQ(exec, R"(== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.MySink1], fields=[count, word])
+- Calc(select=[count, word], where=[LIKE(word, 'F%')])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])

Sink(table=[default_catalog.default_database.MySink2], fields=[count, word])
+- Union(all=[true], union=[count, word])
   :- Calc(select=[count, word], where=[LIKE(word, 'F%')])
   :  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])
   +- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])
)");
}

TEST_F(ExplainStatementSetTest, CostsAndAdviceTogetherAndUnknownTargets) {
  // The advice tag leads the attributes, the mode closes them, the estimates follow.
  const std::string out = Explain(
      "EXPLAIN ESTIMATED_COST, CHANGELOG_MODE, PLAN_ADVICE "
      "SELECT word, COUNT(*) FROM MyTable1 GROUP BY word");
  EXPECT_NE(out.find("== Optimized Physical Plan With Advice ==\n"
                     "GroupAggregate(advice=[1], groupBy=[word], select=[word, COUNT(*) AS "
                     "EXPR$1], changelogMode=[I,UB,UA]): rowcount = 9516258.19640405, "
                     "cumulative cost = {2.0951625819640404E8 rows, 1.6909516258196404E10 cpu, "
                     "1.2E9 io, 1.2E9 network, 0.0 memory}\n"
                     "+- Exchange(distribution=[hash[word]], changelogMode=[I]): rowcount = "
                     "1.0E8, cumulative cost = {2.0E8 rows, 1.69E10 cpu, 1.2E9 io, 1.2E9 network, "
                     "0.0 memory}\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\nadvice[1]: [ADVICE] You might want to enable local-global two-phase "
                     "optimization by configuring ('table.exec.mini-batch.enabled' to 'true', "
                     "'table.exec.mini-batch.allow-latency' to a positive long value).\n\n"
                     "== Optimized Execution Plan ==\n"
                     "GroupAggregate(groupBy=[word], select=[word, COUNT(*) AS EXPR$1])\n"),
            std::string::npos)
      << out;
  EXPECT_EQ(Explain("EXPLAIN INSERT INTO missing SELECT word FROM MyTable1"),
            "Validation error at line 1, column 21: table "
            "'default_catalog.default_database.missing' not found");
}

}  // namespace
}  // namespace eddy::planner_test
