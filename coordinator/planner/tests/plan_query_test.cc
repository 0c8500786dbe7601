// Query features through PlanInserts: projections and filters merged into one Calc, views, UNION
// ALL widening, VALUES typing, aggregates inside expressions, HAVING, DISTINCT, primary-key sinks,
// and the plan's expressions deserializing as a worker would.
#include "common/batch/batch_codec.h"
#include "common/expr/expr_proto.h"
#include "common/types/type_proto.h"
#include "coordinator/planner/tests/planner_test_util.h"

namespace eddy::planner_test {
namespace {

class QueryTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl(
        "CREATE TABLE words (word STRING, n INT, price DECIMAL(10, 2)) WITH ('connector' = "
        "'datagen', 'number-of-rows' = '10')");
    MustDdl("CREATE TABLE out (word STRING, cnt BIGINT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE out_i (word STRING, n INT) WITH ('connector' = 'print')");
    MustDdl("CREATE TABLE hole (word STRING, cnt BIGINT) WITH ('connector' = 'blackhole')");
  }

  // Every node's expressions deserialize against its input's schema, as the worker does.
  static void ExpectWorkerReadable(const PlannedJob& job) {
    std::map<int, const v1::PlanNode*> by_id;
    for (const auto& n : job.nodes) by_id[n.id()] = &n;
    for (const auto& n : job.nodes) {
      if (n.op_case() != v1::PlanNode::kCalc) continue;
      ASSERT_EQ(n.inputs_size(), 1);
      auto in = SchemaFromProto(by_id.at(n.inputs(0))->output_schema());
      ASSERT_TRUE(in.ok());
      auto out = SchemaFromProto(n.output_schema());
      ASSERT_TRUE(out.ok());
      ASSERT_EQ(out->size(), static_cast<size_t>(n.calc().projections_size()));
      for (int i = 0; i < n.calc().projections_size(); ++i) {
        auto e = ExprFromProto(n.calc().projections(i), in->Types());
        ASSERT_TRUE(e.ok()) << n.description() << ": " << e.status();
        EXPECT_TRUE((*e)->type.SameAs(out->fields[i].type)) << n.description();
      }
      if (n.calc().has_filter()) {
        auto f = ExprFromProto(n.calc().filter(), in->Types());
        ASSERT_TRUE(f.ok()) << n.description() << ": " << f.status();
      }
    }
  }
};

TEST_F(QueryTest, ProjectAndFilterMergeIntoOneCalc) {
  auto job = Plan(
      "INSERT INTO out_i SELECT w, n2 FROM (SELECT UPPER(word) AS w, n * 2 AS n2 FROM words "
      "WHERE n > 1) AS s WHERE n2 < 10");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,calc,sink");
  EXPECT_EQ(
      job->nodes[1].description(),
      "Calc(select=[UPPER(word) AS word, *(n, 2) AS n], where=[AND(>(n, 1), <(*(n, 2), 10))])");
  ExpectWorkerReadable(*job);
}

TEST_F(QueryTest, IdentityProjectionIsDropped) {
  MustDdl(
      "CREATE TABLE copy (word STRING, n INT, price DECIMAL(10, 2)) WITH ('connector' = "
      "'blackhole')");
  auto job = Plan("INSERT INTO copy SELECT * FROM (SELECT * FROM words) AS t");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,sink");
}

TEST_F(QueryTest, ExpressionsBind) {
  auto job = Plan(
      "INSERT INTO out_i SELECT CASE n WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE word END, "
      "CAST(TRY_CAST(word AS INT) AS INT) FROM words WHERE n IN (1, 2, 3) AND n BETWEEN -5 AND 5 "
      "AND word LIKE 'a%' AND word NOT LIKE 'b%' AND word IS NOT NULL AND (n > 0) IS TRUE "
      "AND (n < 0) IS NOT FALSE AND n NOT IN (4)");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,calc,sink");
  const std::string d = job->nodes[1].description();
  EXPECT_NE(d.find("CASE(=(n, 1), 'one', =(n, 2), 'two', word)"), std::string::npos) << d;
  EXPECT_NE(d.find("OR(=(n, 1), =(n, 2), =(n, 3))"), std::string::npos) << d;
  EXPECT_NE(d.find("AND(>=(n, -5), <=(n, 5))"), std::string::npos) << d;
  EXPECT_NE(d.find("LIKE(word, 'a%')"), std::string::npos) << d;
  ExpectWorkerReadable(*job);
}

TEST_F(QueryTest, ViewsAreInlinedWithColumnAliases) {
  MustDdl("CREATE VIEW v1 (w, k) AS SELECT word, n FROM words WHERE n > 0");
  MustDdl("CREATE TEMPORARY VIEW v2 AS SELECT w, k + 1 AS k1 FROM v1");
  auto job = Plan("INSERT INTO out_i SELECT v.w, v.k1 FROM v2 AS v");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,calc,sink");
  EXPECT_EQ(job->nodes[1].description(), "Calc(select=[word, +(n, 1) AS n], where=[>(n, 0)])");
  auto view = session_.FindView({"default_catalog", "default_database", "v1"});
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->schema.Names(), (std::vector<std::string>{"w", "k"}));
  EXPECT_EQ(view->query_text, "SELECT word, n FROM words WHERE n > 0");
}

TEST_F(QueryTest, UnionAllWidensTypes) {
  MustDdl("CREATE TABLE big (word STRING, n BIGINT) WITH ('connector' = 'print')");
  auto job = Plan(
      "INSERT INTO big SELECT word, n FROM words UNION ALL SELECT 'x', CAST(7 AS BIGINT) FROM "
      "words");
  ASSERT_TRUE(job.ok()) << job.status();
  // Both branches read `words`: one source (sub-plan reuse) feeds both Calcs.
  EXPECT_EQ(Ops(*job), "datagen,calc,calc,union_all,sink");
  auto u = NodesOf(*job, v1::PlanNode::kUnionAll);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0]->inputs_size(), 2);
  auto schema = SchemaFromProto(u[0]->output_schema());
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(schema->fields[1].type.ToString(), "BIGINT");  // INT widened to BIGINT
  EXPECT_EQ(schema->fields[0].name, "word");
  EXPECT_EQ(u[0]->description(), "Union(all=[true], union=[word, n])");
  EXPECT_EQ(job->nodes[1].description(), "Calc(select=[word, CAST(n AS BIGINT) AS n])");
  ExpectWorkerReadable(*job);
  EXPECT_EQ(PlanError("INSERT INTO big SELECT word, n FROM words UNION ALL SELECT word FROM words"),
            "Validation error at line 1, column 53: UNION ALL inputs have different numbers of "
            "columns (2 and 1)");
  EXPECT_EQ(PlanError("INSERT INTO big SELECT word, n FROM words UNION ALL SELECT n, n FROM words"),
            "Validation error at line 1, column 53: UNION ALL column 1 ('word') has incompatible "
            "types STRING and INT");
}

TEST_F(QueryTest, ValuesTyping) {
  MustDdl(
      "CREATE TABLE vout (a DECIMAL(5, 2), b STRING, c BIGINT, d DATE, e TIMESTAMP(3)) WITH "
      "('connector' = 'print')");
  auto job = Plan(
      "INSERT INTO vout SELECT * FROM (VALUES (1, 'a', 5, DATE '2024-01-31', TIMESTAMP "
      "'2024-01-31 10:00:00.123'), (2.25, 'bcd', 3000000000, DATE '1969-12-31', TIMESTAMP "
      "'1970-01-01 00:00:01'), (-3, CAST(NULL AS STRING), -5, DATE '2000-02-29', TIMESTAMP "
      "'2000-01-01 00:00:00')) AS t(a, b, c, d, e)");
  ASSERT_TRUE(job.ok()) << job.status();
  const auto& values = job->nodes[0];
  ASSERT_EQ(values.op_case(), v1::PlanNode::kValues);
  auto schema = SchemaFromProto(values.output_schema());
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(schema->fields[0].type.ToString(),
            "DECIMAL(12, 2) NOT NULL");                    // INT with DECIMAL(3, 2)
  EXPECT_EQ(schema->fields[1].type.ToString(), "STRING");  // with CAST(NULL AS STRING)
  EXPECT_EQ(schema->fields[2].type.ToString(), "BIGINT NOT NULL");
  EXPECT_EQ(schema->fields[3].type.ToString(), "DATE NOT NULL");
  EXPECT_EQ(schema->fields[4].type.ToString(), "TIMESTAMP(3) NOT NULL");
  auto batch = DecodeBatch(values.values().batches(0));
  ASSERT_TRUE(batch.ok()) << batch.status();
  EXPECT_EQ(FormatRow(*batch, 0), "+I[1.00, a, 5, 2024-01-31, 2024-01-31 10:00:00.123]");
  EXPECT_EQ(FormatRow(*batch, 1), "+I[2.25, bcd, 3000000000, 1969-12-31, 1970-01-01 00:00:01.000]");
  EXPECT_EQ(FormatRow(*batch, 2), "+I[-3.00, null, -5, 2000-02-29, 2000-01-01 00:00:00.000]");
  ExpectWorkerReadable(*job);
}

TEST_F(QueryTest, LargeValuesAreBatched) {
  std::string rows;
  for (int i = 0; i < 2500; ++i)
    rows += (i ? ", " : "") + std::string("('w', ") + std::to_string(i) + ")";
  auto job = Plan("INSERT INTO out_i VALUES " + rows);
  ASSERT_TRUE(job.ok()) << job.status();
  ASSERT_EQ(job->nodes[0].values().batches_size(), 3);
  auto last = DecodeBatch(job->nodes[0].values().batches(2));
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->num_rows(), 2500u - 2048u);
}

TEST_F(QueryTest, ValuesErrors) {
  EXPECT_EQ(PlanError("INSERT INTO out_i VALUES ('a', 1), ('b')"),
            "Validation error at line 1, column 37: VALUES rows have different numbers of columns "
            "(2 and 1)");
  EXPECT_EQ(PlanError("INSERT INTO out_i VALUES ('a', 1), (2, 'b')"),
            "Validation error at line 1, column 37: VALUES column 1 has incompatible types "
            "VARCHAR(1) and INT");
}

TEST_F(QueryTest, AggregatesInsideExpressionsAndHaving) {
  MustDdl(
      "CREATE TABLE shaped (label STRING, v DECIMAL(18, 2), c BIGINT) WITH ('connector' = "
      "'print')");
  auto job = Plan(
      "INSERT INTO shaped SELECT UPPER(word) AS label, ROUND(AVG(price), 2) + SUM(price) * 2, "
      "COUNT(DISTINCT n) FROM words WHERE n > 0 GROUP BY word HAVING COUNT(*) > 1 AND "
      "MAX(n) < 100");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,calc,group_aggregate,calc,sink");
  const auto& agg = job->nodes[2].group_aggregate();
  ASSERT_EQ(agg.calls_size(), 5);
  EXPECT_EQ(agg.calls(0).function(), "AVG");
  EXPECT_EQ(agg.calls(1).function(), "SUM");
  EXPECT_EQ(agg.calls(2).function(), "COUNT");
  EXPECT_TRUE(agg.calls(2).distinct());
  EXPECT_TRUE(agg.calls(3).count_star());
  EXPECT_EQ(agg.calls(4).function(), "MAX");
  // AVG and SUM share the projected price column; COUNT(DISTINCT n) and MAX(n) share n.
  EXPECT_EQ(agg.calls(0).arg(), agg.calls(1).arg());
  EXPECT_EQ(agg.calls(2).arg(), agg.calls(4).arg());
  // A filter over updates needs retractions even though print would anyway.
  EXPECT_TRUE(agg.generate_update_before());
  const std::string calc = job->nodes[3].description();
  EXPECT_NE(calc.find("where=[AND(>($f4, 1), <($f5, 100))]"), std::string::npos) << calc;
  EXPECT_NE(calc.find("+(ROUND($f1, 2), *($f2, 2)) AS v"), std::string::npos) << calc;
  EXPECT_NE(calc.find("UPPER(word) AS label"), std::string::npos) << calc;
  ExpectWorkerReadable(*job);
}

TEST_F(QueryTest, HavingOverUpsertSinkRequiresUpdateBefore) {
  auto job = Plan(
      "INSERT INTO hole SELECT word, COUNT(*) AS cnt FROM words GROUP BY word HAVING COUNT(*) > 1");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_TRUE(
      NodesOf(*job, v1::PlanNode::kGroupAggregate)[0]->group_aggregate().generate_update_before());
}

TEST_F(QueryTest, GlobalAggregateAndGeneralGroupKeys) {
  auto job = Plan("INSERT INTO out SELECT 'all', COUNT(*) FROM words");
  ASSERT_TRUE(job.ok()) << job.status();
  auto agg = NodesOf(*job, v1::PlanNode::kGroupAggregate)[0];
  EXPECT_EQ(agg->group_aggregate().group_keys_size(), 0);
  EXPECT_EQ(agg->description(), "GroupAggregate(select=[COUNT(*) AS EXPR$1])");

  job = Plan("INSERT INTO out SELECT UPPER(word) || '!', COUNT(n) FROM words GROUP BY UPPER(word)");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "datagen,calc,group_aggregate,calc,sink");
  ExpectWorkerReadable(*job);
}

TEST_F(QueryTest, SelectDistinctIsAnAggregate) {
  MustDdl("CREATE TABLE dist (word STRING) WITH ('connector' = 'print')");
  auto job = Plan("INSERT INTO dist SELECT DISTINCT word FROM words");
  ASSERT_TRUE(job.ok()) << job.status();
  // The scan reads only `word`, so no Calc is left between it and the aggregate.
  EXPECT_EQ(Ops(*job), "datagen,group_aggregate,sink");
  auto agg = NodesOf(*job, v1::PlanNode::kGroupAggregate)[0];
  EXPECT_EQ(agg->group_aggregate().calls_size(), 0);
  EXPECT_EQ(agg->group_aggregate().group_keys_size(), 1);
}

TEST_F(QueryTest, PrimaryKeySinks) {
  MustDdl(
      "CREATE TABLE pk_ok (word STRING, cnt BIGINT, PRIMARY KEY (word) NOT ENFORCED) WITH "
      "('connector' = 'blackhole')");
  MustDdl(
      "CREATE TABLE pk_bad (word STRING, cnt BIGINT NOT NULL, PRIMARY KEY (cnt) NOT ENFORCED) "
      "WITH ('connector' = 'blackhole')");
  MustDdl("CREATE TEMPORARY VIEW named AS SELECT * FROM (VALUES ('a'), ('b')) AS t(word)");
  const std::string q = " SELECT word, COUNT(*) AS cnt FROM named GROUP BY word";
  auto ok = Plan("INSERT INTO pk_ok" + q);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_FALSE(
      NodesOf(*ok, v1::PlanNode::kGroupAggregate)[0]->group_aggregate().generate_update_before());
  auto bad = Plan("INSERT INTO pk_bad" + q);
  ASSERT_TRUE(bad.ok()) << bad.status();
  EXPECT_TRUE(
      NodesOf(*bad, v1::PlanNode::kGroupAggregate)[0]->group_aggregate().generate_update_before());
}

TEST_F(QueryTest, InsertColumnListAndImplicitCasts) {
  MustDdl("CREATE TABLE wide (a BIGINT, b STRING, c DOUBLE) WITH ('connector' = 'print')");
  auto job = Plan("INSERT INTO wide (c, a) SELECT n, n FROM words");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->nodes[1].description(),
            "Calc(select=[CAST(n AS BIGINT) AS a, NULL AS b, CAST(n AS DOUBLE) AS c])");
  ExpectWorkerReadable(*job);
}

TEST_F(QueryTest, SelectWithoutFrom) {
  auto job = Plan("INSERT INTO out_i SELECT 'x', -5");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(Ops(*job), "values,sink");
  auto batch = DecodeBatch(job->nodes[0].values().batches(0));
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(FormatRow(*batch, 0), "+I[x, -5]");
}

}  // namespace
}  // namespace eddy::planner_test
