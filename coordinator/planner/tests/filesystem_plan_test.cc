// The filesystem connector in the planner: WITH option validation (every option and its errors),
// the FilesystemSource node of a scan (all table columns for CSV positions, the pruned ones read),
// the sink's column names, parallelism, reuse, and the append-only sink's planning error.
#include "coordinator/planner/job_graph.h"
#include "coordinator/planner/tests/planner_test_util.h"

namespace eddy::planner_test {
namespace {

class FilesystemPlanTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl(
        "CREATE TABLE words (word STRING, n INT, note STRING) WITH ('connector' = 'filesystem', "
        "'path' = 'in/words.csv', 'format' = 'csv', 'csv.field-delimiter' = ';')");
    MustDdl(
        "CREATE TABLE out (w STRING, cnt BIGINT) WITH ('connector' = 'filesystem', "
        "'path' = 'out', 'format' = 'json')");
    MustDdl("CREATE TABLE p (word STRING, n INT) WITH ('connector' = 'print')");
  }

  std::string Fs(const std::string& options, const std::string& name = "t") {
    return DdlError("CREATE TABLE " + name +
                    " (a INT, s STRING) WITH ('connector' = " + "'filesystem', " + options + ")");
  }
};

const std::string kT = "'default_catalog.default_database.t'";

TEST_F(FilesystemPlanTest, GoodOptions) {
  EXPECT_EQ(Fs("'path' = '/data', 'format' = 'csv', 'csv.field-delimiter' = '\\t', "
               "'csv.quote-character' = '''', 'csv.allow-comments' = 'true', "
               "'csv.ignore-parse-errors' = 'true', 'csv.null-literal' = '', "
               "'csv.ignore-first-line' = 'TRUE', 'sink.parallelism' = '2'"),
            "<OK>");
  EXPECT_EQ(Fs("'path' = '/data', 'format' = 'csv', 'csv.disable-quote-character' = 'true'", "t2"),
            "<OK>");
  EXPECT_EQ(Fs("'path' = '/data', 'format' = 'json', 'json.fail-on-missing-field' = 'true', "
               "'json.timestamp-format.standard' = 'ISO-8601'",
               "t3"),
            "<OK>");
}

TEST_F(FilesystemPlanTest, BadOptionsNameTheOptionAndTable) {
  EXPECT_EQ(Fs("'format' = 'csv'"),
            "Validation error: table " + kT + " (connector 'filesystem') needs option 'path'");
  EXPECT_EQ(Fs("'path' = '/d'"),
            "Validation error: table " + kT +
                " (connector 'filesystem') needs option 'format' ('csv' or 'json')");
  EXPECT_EQ(
      Fs("'path' = '/d', 'format' = 'avro'"),
      "Validation error: option 'format' of table " + kT + " expects one of csv, json, got 'avro'");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'csv.field-delimiter' = ';;'"),
            "Validation error: option 'csv.field-delimiter' of table " + kT +
                " expects a single character, got ';;'");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'csv.quote-character' = ''"),
            "Validation error: option 'csv.quote-character' of table " + kT +
                " expects a single character, got ''");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'csv.ignore-parse-errors' = 'yes'"),
            "Validation error: option 'csv.ignore-parse-errors' of table " + kT +
                " expects true or false, got 'yes'");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'csv.quote-character' = ','"),
            "Validation error: options 'csv.field-delimiter' and 'csv.quote-character' of table " +
                kT + " must differ");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'csv.quote-character' = '''', "
               "'csv.disable-quote-character' = 'true'"),
            "Validation error: table " + kT +
                " cannot set both 'csv.quote-character' and 'csv.disable-quote-character' = "
                "'true'");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'json', 'csv.field-delimiter' = ';'"),
            "Validation error: unsupported option 'csv.field-delimiter' for connector "
            "'filesystem' of table " +
                kT);
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'json.ignore-parse-errors' = 'true'"),
            "Validation error: unsupported option 'json.ignore-parse-errors' for connector "
            "'filesystem' of table " +
                kT);
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'sink.partition-commit.policy.kind' = 'x'"),
            "Validation error: option 'sink.partition-commit.policy.kind' of table " + kT +
                " expects a comma-separated list of 'success-file' and 'metastore' (the policies "
                "implemented), got 'x'");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'partition.time-extractor.kind' = 'custom'"),
            "Validation error: option 'partition.time-extractor.kind' of table " + kT +
                " expects one of default, got 'custom'");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'partition.time-extractor.class' = 'a.B'"),
            "Validation error: unsupported option 'partition.time-extractor.class' for "
            "connector 'filesystem' of table " +
                kT);
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'sink.rolling-policy.file-size' = '1 lb'"),
            "Validation error: option 'sink.rolling-policy.file-size' of table " + kT +
                " expects a positive memory size (e.g. 128mb), got '1 lb'");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'sink.rolling-policy.check-interval' = '0 s'"),
            "Validation error: option 'sink.rolling-policy.check-interval' of table " + kT +
                " expects a positive duration (e.g. 30 min), got '0 s'");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'json', 'json.timestamp-format.standard' = 'RFC'"),
            "Validation error: option 'json.timestamp-format.standard' of table " + kT +
                " expects one of SQL, ISO-8601, got 'RFC'");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'json', 'json.fail-on-missing-field' = 'true', "
               "'json.ignore-parse-errors' = 'true'"),
            "Validation error: table " + kT +
                " cannot set both 'json.fail-on-missing-field' and 'json.ignore-parse-errors' "
                "to true");
  EXPECT_EQ(Fs("'path' = '/d', 'format' = 'csv', 'sink.parallelism' = '0'"),
            "Validation error: option 'sink.parallelism' of table " + kT +
                " expects a positive integer, got '0'");
}

TEST_F(FilesystemPlanTest, ScanReadsTheUsedColumnsOfTheWholeLine) {
  auto job = Plan("INSERT INTO p SELECT note, n FROM words WHERE n > 1");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_TRUE(job->bounded);
  auto scans = ScansOf(*job, "filesystem");
  ASSERT_EQ(scans.size(), 1u);
  const v1::TableSource& src = scans[0]->table_source();
  EXPECT_EQ(src.table_name(), "default_catalog.default_database.words");
  EXPECT_EQ(src.options().at("path"), "in/words.csv");  // resolved by the coordinator service
  EXPECT_EQ(src.options().at("csv.field-delimiter"), ";");
  EXPECT_EQ(src.options().count("connector"), 0u);
  EXPECT_EQ(src.table_schema().fields_size(), 3);
  EXPECT_EQ(std::vector<int>(src.columns().begin(), src.columns().end()), (std::vector<int>{1, 2}));
  EXPECT_EQ(scans[0]->output_schema().fields_size(), 2);
  EXPECT_EQ(
      scans[0]->description(),
      "TableSourceScan(table=[[default_catalog, default_database, words]], fields=[n, note])");
}

TEST_F(FilesystemPlanTest, SinkColumnsAreTheTablesAndScansRunAtTheDefaultParallelism) {
  config_["parallelism.default"] = "3";
  auto job = Plan("INSERT INTO out SELECT word AS renamed, CAST(n AS BIGINT) FROM words");
  ASSERT_TRUE(job.ok()) << job.status();
  auto sinks = NodesOf(*job, v1::PlanNode::kSink);
  ASSERT_EQ(sinks.size(), 1u);
  EXPECT_EQ(sinks[0]->sink().connector(), "filesystem");
  EXPECT_EQ(sinks[0]->sink().options().at("format"), "json");
  EXPECT_EQ(sinks[0]->output_schema().fields(0).name(), "w");
  EXPECT_EQ(sinks[0]->output_schema().fields(1).name(), "cnt");
  auto graph = BuildJobGraph(job->nodes, config_);
  ASSERT_TRUE(graph.ok()) << graph.status();
  ASSERT_EQ(graph->stages.size(), 1u);  // scan, calc and sink chained
  EXPECT_EQ(graph->stages[0].parallelism, 3);
}

TEST_F(FilesystemPlanTest, ScansOfOneTableAreReused) {
  auto job = Plan(
      "EXECUTE STATEMENT SET BEGIN INSERT INTO p SELECT word, n FROM words; "
      "INSERT INTO out SELECT word, CAST(n AS BIGINT) FROM words; END");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(ScansOf(*job, "filesystem").size(), 1u);
  config_["table.optimizer.reuse-source-enabled"] = "false";
  job = Plan(
      "EXECUTE STATEMENT SET BEGIN INSERT INTO p SELECT word, n FROM words; "
      "INSERT INTO out SELECT word, CAST(n AS BIGINT) FROM words; END");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(ScansOf(*job, "filesystem").size(), 2u);
}

TEST_F(FilesystemPlanTest, UpdatingQueryIntoTheAppendOnlySinkIsAPlanningError) {
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, COUNT(*) FROM words GROUP BY word"),
            "Validation error: Table sink 'default_catalog.default_database.out' doesn't support "
            "consuming update changes which is produced by node GroupAggregate(groupBy=[word], "
            "select=[word, COUNT(*) AS EXPR$1])");
  EXPECT_EQ(PlanError("INSERT INTO out SELECT word, CAST(n AS BIGINT) FROM words"), "<planned OK>");
}

}  // namespace
}  // namespace eddy::planner_test
