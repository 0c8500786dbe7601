#include <gtest/gtest.h>

#include "common/sql/tests/test_util.h"

namespace eddy::sql {
namespace {

using testing::Error;
using testing::Parse;

TEST(Statement, InsertFromValuesSubquery) {
  StatementPtr s = Parse("INSERT INTO sink SELECT * FROM (VALUES ('a'), ('b')) AS t(word)");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kInsert);
  EXPECT_EQ(s->insert->target.ToString(), "sink");
  EXPECT_FALSE(s->insert->overwrite);
  EXPECT_TRUE(s->insert->columns.empty());
  EXPECT_EQ(DebugString(*s->insert->query), "SELECT * FROM (VALUES ('a'), ('b')) AS t(word)");
}

TEST(Statement, InsertForms) {
  StatementPtr s = Parse("INSERT OVERWRITE db.sink (a, b) SELECT x, y FROM src");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->insert->overwrite);
  EXPECT_EQ(s->insert->target.ToString(), "db.sink");
  EXPECT_EQ(s->insert->columns, (std::vector<std::string>{"a", "b"}));
  s = Parse("INSERT INTO sink VALUES (1), (2)");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->insert->query->kind, Query::Kind::kValues);
  s = Parse("INSERT INTO sink (SELECT a FROM t)");  // parenthesized query, not a column list
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->insert->columns.empty());
  EXPECT_EQ(DebugString(*s->insert->query), "SELECT a FROM t");
  s = Parse("EXECUTE INSERT INTO sink SELECT 1");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kInsert);
}

TEST(Statement, ExecuteStatementSet) {
  StatementPtr s = Parse(
      "EXECUTE STATEMENT SET BEGIN\n"
      "  INSERT INTO a SELECT * FROM t;\n"
      "  INSERT INTO b SELECT * FROM u;\n"
      "END");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kStatementSet);
  ASSERT_EQ(s->statement_set->inserts.size(), 2u);
  EXPECT_EQ(s->statement_set->inserts[0].target.ToString(), "a");
  EXPECT_EQ(s->statement_set->inserts[1].target.ToString(), "b");
}

TEST(Statement, OlderBeginStatementSetForm) {
  absl::StatusOr<std::vector<StatementPtr>> script = ParseScript(
      "BEGIN STATEMENT SET;\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND;\nSELECT 3;");
  ASSERT_TRUE(script.ok()) << script.status();
  ASSERT_EQ(script->size(), 2u);
  EXPECT_EQ((*script)[0]->kind, StatementKind::kStatementSet);
  EXPECT_EQ((*script)[0]->statement_set->inserts.size(), 2u);
  EXPECT_EQ((*script)[0]->text,
            "BEGIN STATEMENT SET;\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND");
  EXPECT_EQ((*script)[1]->text, "SELECT 3");
}

TEST(Statement, CreateView) {
  StatementPtr s = Parse(
      "CREATE TEMPORARY VIEW IF NOT EXISTS v (w, c) AS\n  SELECT word, COUNT(*) FROM words GROUP "
      "BY "
      "word  ;");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kCreateView);
  const CreateView& v = *s->create_view;
  EXPECT_TRUE(v.temporary);
  EXPECT_TRUE(v.if_not_exists);
  EXPECT_EQ(v.name.ToString(), "v");
  EXPECT_EQ(v.column_aliases, (std::vector<std::string>{"w", "c"}));
  EXPECT_EQ(v.query_text, "SELECT word, COUNT(*) FROM words GROUP BY word");
  ASSERT_NE(v.query, nullptr);
  s = Parse("CREATE VIEW v AS SELECT 1");
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->create_view->temporary);
  EXPECT_TRUE(s->create_view->column_aliases.empty());
}

TEST(Statement, CreateDatabaseAndDrop) {
  StatementPtr s = Parse("CREATE DATABASE IF NOT EXISTS cat.db");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kCreateDatabase);
  EXPECT_TRUE(s->create_database->if_not_exists);
  EXPECT_EQ(s->create_database->name.ToString(), "cat.db");

  s = Parse("DROP TEMPORARY TABLE IF EXISTS t");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kDrop);
  EXPECT_EQ(s->drop->what, Drop::What::kTable);
  EXPECT_TRUE(s->drop->temporary);
  EXPECT_TRUE(s->drop->if_exists);
  s = Parse("DROP VIEW v");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->drop->what, Drop::What::kView);
  EXPECT_FALSE(s->drop->if_exists);
  s = Parse("drop database if exists db");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->drop->what, Drop::What::kDatabase);
  EXPECT_TRUE(s->drop->if_exists);
  EXPECT_EQ(
      Error("DROP TEMPORARY DATABASE db"),
      "SQL parse error at line 1, column 16: expected 'TABLE', 'VIEW', 'FUNCTION', 'MODEL' or "
      "'SYSTEM' but found 'DATABASE'");
  EXPECT_EQ(Error("CREATE FUNCTION f"),
            "SQL parse error at line 1, column 18: expected 'AS' but found end of input");
  EXPECT_EQ(Error("CREATE TEMPORARY SYSTEM TABLE t"),
            "SQL parse error at line 1, column 25: expected 'FUNCTION' but found 'TABLE'");
}

TEST(StatementTest, CreateAndDropFunction) {
  auto s = Parse(
      "CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS mask AS 'mask_digits' LANGUAGE CPP "
      "USING JAR '/tmp/libudfs.so'");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->kind, StatementKind::kCreateFunction);
  const CreateFunction& f = *s->create_function;
  EXPECT_TRUE(f.temporary);
  EXPECT_TRUE(f.system);
  EXPECT_TRUE(f.if_not_exists);
  EXPECT_EQ(f.name.ToString(), "mask");
  EXPECT_EQ(f.identifier, "mask_digits");
  EXPECT_EQ(f.language, "CPP");
  EXPECT_EQ(f.jars, std::vector<std::string>{"/tmp/libudfs.so"});
  s = Parse("create function db.f as 'sym' using jar 'a.so', jar 'b.so'");
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->create_function->temporary);
  EXPECT_EQ(s->create_function->name.ToString(), "db.f");
  EXPECT_EQ(s->create_function->jars.size(), 2u);
  EXPECT_EQ(s->create_function->language, "");
  s = Parse("DROP TEMPORARY SYSTEM FUNCTION IF EXISTS mask");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->drop->what, Drop::What::kFunction);
  EXPECT_TRUE(s->drop->temporary);
  EXPECT_TRUE(s->drop->system);
  EXPECT_TRUE(s->drop->if_exists);
  s = Parse("SHOW USER FUNCTIONS");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "USER FUNCTIONS");
}

TEST(Statement, Explain) {
  StatementPtr s = Parse("EXPLAIN SELECT a FROM t");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kExplain);
  EXPECT_TRUE(s->explain->details.empty());
  ASSERT_NE(s->explain->target, nullptr);
  EXPECT_EQ(s->explain->target->kind, StatementKind::kQuery);
  EXPECT_EQ(s->explain->target->text, "SELECT a FROM t");
  EXPECT_EQ(s->explain->target->pos.column, 9);

  s = Parse("EXPLAIN changelog_mode, ESTIMATED_COST, JSON_EXECUTION_PLAN INSERT INTO s SELECT 1");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->explain->details,
            (std::vector<std::string>{"CHANGELOG_MODE", "ESTIMATED_COST", "JSON_EXECUTION_PLAN"}));
  EXPECT_EQ(s->explain->target->kind, StatementKind::kInsert);

  s = Parse("EXPLAIN PLAN FOR SELECT 1");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->explain->target->kind, StatementKind::kQuery);

  s = Parse("EXPLAIN STATEMENT SET BEGIN INSERT INTO a SELECT 1; END");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->explain->target->kind, StatementKind::kStatementSet);
  s = Parse(
      "EXPLAIN EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2 END");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->explain->target->statement_set->inserts.size(), 2u);

  EXPECT_EQ(Error("EXPLAIN CHANGELOG_MODE, SELECT 1"),
            "SQL parse error at line 1, column 25: expected 'CHANGELOG_MODE', 'ESTIMATED_COST', "
            "'JSON_EXECUTION_PLAN' or 'PLAN_ADVICE' but found 'SELECT'");
  EXPECT_EQ(
      Error("EXPLAIN DROP TABLE t"),
      "SQL parse error at line 1, column 9: expected a query, INSERT or STATEMENT SET but found "
      "'DROP'");
}

TEST(Statement, SetAndReset) {
  StatementPtr s = Parse("SET");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kSet);
  EXPECT_FALSE(s->set->key.has_value());
  s = Parse("SET 'parallelism.default' = '4';");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(*s->set->key, "parallelism.default");
  EXPECT_EQ(*s->set->value, "4");
  s = Parse("RESET");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kReset);
  EXPECT_FALSE(s->reset->key.has_value());
  s = Parse("reset 'parallelism.default'");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(*s->reset->key, "parallelism.default");
  EXPECT_EQ(Error("SET 'a' 'b'"),
            "SQL parse error at line 1, column 9: expected '=' but found ''b''");
}

TEST(Statement, SetAndResetTakeUnquotedKeysAndValues) {
  StatementPtr s = Parse("SET execution.runtime-mode = batch;");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(*s->set->key, "execution.runtime-mode");
  EXPECT_EQ(*s->set->value, "batch");
  s = Parse("SET table.exec.state.ttl=1 h");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(*s->set->key, "table.exec.state.ttl");
  EXPECT_EQ(*s->set->value, "1 h");
  s = Parse("SET 'pipeline.name' = my-job");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(*s->set->key, "pipeline.name");
  EXPECT_EQ(*s->set->value, "my-job");
  s = Parse("RESET parallelism.default;");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(*s->reset->key, "parallelism.default");
  EXPECT_EQ(Error("SET parallelism.default"),
            "SQL parse error at line 1, column 24: expected '=' but found end of input");
  EXPECT_EQ(Error("SET = 4"), "SQL parse error at line 1, column 5: expected a key but found '='");
  EXPECT_EQ(Error("SET a ="),
            "SQL parse error at line 1, column 8: expected a value but found end of input");
  EXPECT_EQ(Error("SET 'a' = 'b' 'c'"),
            "SQL parse error at line 1, column 15: expected ';' but found ''c''");
}

TEST(Statement, Use) {
  StatementPtr s = Parse("USE CATALOG my_cat");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kUse);
  EXPECT_TRUE(s->use->catalog);
  EXPECT_EQ(s->use->name.ToString(), "my_cat");
  s = Parse("USE db1");
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->use->catalog);
  EXPECT_EQ(s->use->name.ToString(), "db1");
  s = Parse("USE cat.db");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->use->name.parts.size(), 2u);
}

TEST(Statement, Show) {
  for (const char* what :
       {"CATALOGS", "DATABASES", "TABLES", "VIEWS", "FUNCTIONS", "JOBS", "WORKERS"}) {
    StatementPtr s = Parse(std::string("show ") + what);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->kind, StatementKind::kShow);
    EXPECT_EQ(s->show->what, what);
  }
  StatementPtr s = Parse("SHOW CREATE TABLE db.t");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "CREATE TABLE");
  EXPECT_EQ(s->show->name.ToString(), "db.t");
  s = Parse("SHOW CREATE VIEW v");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "CREATE VIEW");
  s = Parse("SHOW CURRENT DATABASE");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "CURRENT DATABASE");
  EXPECT_EQ(Error("SHOW STUFF"),
            "SQL parse error at line 1, column 6: expected 'CATALOGS', 'DATABASES', 'TABLES', "
            "'VIEWS', 'COLUMNS', 'FUNCTIONS', 'USER FUNCTIONS', 'MODULES', 'FULL MODULES', "
            "'PROCEDURES', 'MODELS', 'JOBS', 'WORKERS', 'JARS', 'PARTITIONS', 'CURRENT' or "
            "'CREATE' but found 'STUFF'");
  s = Parse("SHOW PARTITIONS db.t PARTITION (a = 'x', b = -1)");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "PARTITIONS");
  ASSERT_EQ(s->show->partition.size(), 2u);
  EXPECT_EQ(s->show->partition[0].value, "x");
  EXPECT_EQ(s->show->partition[1].value, "-1");
  s = Parse("SHOW TABLES IN c.db NOT ILIKE 'o\\_%'");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "TABLES");
  ASSERT_TRUE(s->show->from.has_value());
  EXPECT_EQ(s->show->from->ToString(), "c.db");
  EXPECT_EQ(s->show->like, "o\\_%");
  EXPECT_TRUE(s->show->not_like);
  EXPECT_TRUE(s->show->ilike);
  s = Parse("SHOW COLUMNS FROM db.t LIKE 'a%'");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->name.ToString(), "db.t");
  EXPECT_EQ(s->show->like, "a%");
  EXPECT_FALSE(s->show->not_like);
}

TEST(Statement, DescribeStopHelpQuit) {
  StatementPtr s = Parse("DESCRIBE db.t");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kDescribe);
  EXPECT_EQ(s->describe->name.ToString(), "db.t");
  s = Parse("DESC t");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kDescribe);

  s = Parse("STOP JOB 'abc123' WITH SAVEPOINT");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kStopJob);
  EXPECT_EQ(s->stop_job->job_id, "abc123");
  EXPECT_TRUE(s->stop_job->with_savepoint);
  EXPECT_FALSE(s->stop_job->drain);
  s = Parse("STOP JOB 'abc123'");
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->stop_job->with_savepoint);
  s = Parse("stop job 'abc123' with savepoint with drain");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->stop_job->with_savepoint);
  EXPECT_TRUE(s->stop_job->drain);

  s = Parse("HELP");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kHelp);
  s = Parse("clear");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kClear);
  s = Parse("quit");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kQuit);
  s = Parse("EXIT;");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kQuit);
}

TEST(Statement, ModuleStatementsNameTheirModules) {
  auto s = Parse("LOAD MODULE core WITH ('k' = 'v')");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kModule);
  EXPECT_EQ(s->module->op, ModuleStatement::Op::kLoad);
  EXPECT_EQ(s->module->names, std::vector<std::string>{"core"});
  ASSERT_EQ(s->module->properties.entries.size(), 1u);
  s = Parse("unload module core");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->module->op, ModuleStatement::Op::kUnload);
  s = Parse("USE MODULES hive, core");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->module->op, ModuleStatement::Op::kUse);
  EXPECT_EQ(s->module->names, (std::vector<std::string>{"hive", "core"}));
  // USE modules (one word) is still a database called modules.
  s = Parse("USE modules");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kUse);
  EXPECT_EQ(Error("LOAD MODULE 'hive'"),
            "SQL parse error at line 1, column 13: expected identifier but found ''hive''");
}

TEST(Statement, DescribeCatalogAndExtended) {
  auto s = Parse("DESCRIBE CATALOG EXTENDED c");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->describe->catalog);
  EXPECT_TRUE(s->describe->extended);
  EXPECT_EQ(s->describe->name.ToString(), "c");
  s = Parse("DESC catalog");  // a table called catalog
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->describe->catalog);
  EXPECT_EQ(s->describe->name.ToString(), "catalog");
  s = Parse("DESCRIBE EXTENDED t");
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->describe->catalog);
  EXPECT_TRUE(s->describe->extended);
  s = Parse("SHOW CREATE CATALOG c");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "CREATE CATALOG");
  s = Parse("SHOW PROCEDURES FROM c.db NOT LIKE 'x%'");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "PROCEDURES");
  EXPECT_TRUE(s->show->not_like);
}

TEST(Statement, AlterFunctionAndDescribeFunctionAndJob) {
  auto s = Parse("ALTER TEMPORARY SYSTEM FUNCTION IF EXISTS f AS 'sym' LANGUAGE CPP");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kCreateFunction);
  EXPECT_TRUE(s->create_function->alter);
  EXPECT_TRUE(s->create_function->if_exists);
  EXPECT_TRUE(s->create_function->temporary);
  EXPECT_TRUE(s->create_function->system);
  EXPECT_EQ(s->create_function->identifier, "sym");
  s = Parse("DESCRIBE FUNCTION EXTENDED db.f");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->describe->function);
  EXPECT_TRUE(s->describe->extended);
  EXPECT_EQ(s->describe->name.ToString(), "db.f");
  s = Parse("DESC JOB 'abc'");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->describe->job_id, "abc");
  EXPECT_EQ(Error("ALTER TEMPORARY TABLE t RENAME TO u"),
            "SQL parse error at line 1, column 17: expected 'FUNCTION' or 'SYSTEM' but found "
            "'TABLE'");
}

TEST(Statement, JarStatementsNameOneLibrary) {
  auto s = Parse("ADD JAR '/opt/udfs/libudfs.so'");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, StatementKind::kJar);
  EXPECT_FALSE(s->jar->remove);
  EXPECT_EQ(s->jar->path, "/opt/udfs/libudfs.so");
  s = Parse("remove jar 'x.so'");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->jar->remove);
  EXPECT_EQ(s->jar->path, "x.so");
  s = Parse("SHOW JARS");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "JARS");
  EXPECT_EQ(Error("ADD JAR x.so"),
            "SQL parse error at line 1, column 9: expected string literal but found 'x'");
  EXPECT_EQ(Error("ADD FILE 'x'"),
            "SQL parse error at line 1, column 5: expected 'JAR' but found 'FILE'");
}

TEST(Statement, StopJobClausesOutOfPlaceAreErrors) {
  EXPECT_EQ(ParseStatement("STOP JOB 'j' WITH DRAIN").status().message(),
            "SQL parse error at line 1, column 19: WITH DRAIN needs WITH SAVEPOINT before it: "
            "STOP JOB '<id>' WITH SAVEPOINT WITH DRAIN");
  EXPECT_EQ(ParseStatement("STOP JOB 'j' WITH").status().message(),
            "SQL parse error at line 1, column 18: expected 'SAVEPOINT' or 'DRAIN' but found end "
            "of input");
  EXPECT_EQ(ParseStatement("STOP JOB 'j' WITH SAVEPOINT WITH").status().message(),
            "SQL parse error at line 1, column 33: expected 'DRAIN' but found end of input");
  EXPECT_EQ(ParseStatement("STOP JOB 'j' WITH SAVEPOINT DRAIN").status().message(),
            "SQL parse error at line 1, column 29: expected end of input but found 'DRAIN'");
  EXPECT_EQ(ParseStatement("STOP JOB j").status().message(),
            "SQL parse error at line 1, column 10: expected string literal but found 'j'");
}

TEST(Statement, ParseStatementRejectsASecondStatement) {
  absl::StatusOr<StatementPtr> s = ParseStatement("SELECT 1; SELECT 2");
  EXPECT_EQ(s.status().message(),
            "SQL parse error at line 1, column 11: expected end of input but found 'SELECT'");
  s = ParseStatement("");
  EXPECT_EQ(s.status().message(),
            "SQL parse error at line 1, column 1: expected a statement but found end of input");
}

TEST(Statement, AnalyzeTable) {
  auto stmt = ParseStatement(
      "ANALYZE TABLE c.d.sales PARTITION (region = 'eu', `day`) COMPUTE STATISTICS FOR COLUMNS "
      "amount, `day`");
  ASSERT_TRUE(stmt.ok()) << stmt.status();
  ASSERT_EQ((*stmt)->kind, StatementKind::kAnalyzeTable);
  const AnalyzeTable& a = *(*stmt)->analyze_table;
  EXPECT_EQ(a.table.ToString(), "c.d.sales");
  ASSERT_EQ(a.partition.size(), 2u);
  EXPECT_EQ(a.partition[0].column, "region");
  EXPECT_EQ(a.partition[0].value, "eu");
  EXPECT_FALSE(a.partition[0].any);
  EXPECT_EQ(a.partition[1].column, "day");
  EXPECT_TRUE(a.partition[1].any);
  EXPECT_FALSE(a.all_columns);
  EXPECT_EQ(a.columns, (std::vector<std::string>{"amount", "day"}));

  auto all = ParseStatement("analyze table t compute statistics for all columns");
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_TRUE((*all)->analyze_table->all_columns);
  EXPECT_TRUE((*all)->analyze_table->partition.empty());
  auto table_only = ParseStatement("ANALYZE TABLE t COMPUTE STATISTICS");
  ASSERT_TRUE(table_only.ok()) << table_only.status();
  EXPECT_TRUE(table_only.value()->analyze_table->columns.empty());

  // Only ANALYZE's PARTITION clause may leave a value out.
  EXPECT_FALSE(ParseStatement("INSERT INTO t PARTITION (a) SELECT 1").ok());
  EXPECT_EQ(ParseStatement("ANALYZE TABLE t COMPUTE STATISTICS FOR COLUMNS").status().message(),
            "SQL parse error at line 1, column 47: expected identifier but found end of input");
  EXPECT_EQ(ParseStatement("ANALYZE t COMPUTE STATISTICS").status().message(),
            "SQL parse error at line 1, column 9: expected 'TABLE' but found 't'");
}

TEST(Statement, CompilePlan) {
  using Op = CompiledPlanStatement::Op;
  auto file = ParseStatement(
      "COMPILE PLAN 'file:///tmp/p.json' IF NOT EXISTS FOR INSERT INTO s SELECT * FROM t");
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_EQ((*file)->kind, StatementKind::kCompiledPlan);
  const CompiledPlanStatement& c = *(*file)->compiled_plan;
  EXPECT_EQ(c.op, Op::kCompile);
  EXPECT_EQ(c.path, "file:///tmp/p.json");
  EXPECT_TRUE(c.if_not_exists);
  ASSERT_EQ(c.inserts.size(), 1u);
  EXPECT_EQ(c.inserts[0].target.ToString(), "s");

  auto inline_plan = ParseStatement(
      "compile plan for statement set begin insert into a select 1; insert into b select 2; end");
  ASSERT_TRUE(inline_plan.ok()) << inline_plan.status();
  EXPECT_FALSE((*inline_plan)->compiled_plan->path.has_value());
  ASSERT_EQ((*inline_plan)->compiled_plan->inserts.size(), 2u);
  EXPECT_EQ((*inline_plan)->compiled_plan->inserts[1].target.ToString(), "b");

  auto both = ParseStatement("COMPILE AND EXECUTE PLAN 'p.json' FOR INSERT INTO s SELECT 1");
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_EQ((*both)->compiled_plan->op, Op::kCompileAndExecute);
  EXPECT_EQ((*both)->compiled_plan->path, "p.json");

  auto execute = ParseStatement("EXECUTE PLAN 'p.json'");
  ASSERT_TRUE(execute.ok()) << execute.status();
  EXPECT_EQ((*execute)->compiled_plan->op, Op::kExecute);
  EXPECT_TRUE((*execute)->compiled_plan->inserts.empty());
  // EXECUTE INSERT and EXECUTE STATEMENT SET still parse as before.
  EXPECT_EQ(ParseStatement("EXECUTE INSERT INTO s SELECT 1").value()->kind, StatementKind::kInsert);

  EXPECT_EQ(ParseStatement("COMPILE PLAN 'p' FOR SELECT 1").status().message(),
            "SQL parse error at line 1, column 22: expected 'INSERT' or 'STATEMENT SET' but "
            "found 'SELECT'");
  EXPECT_EQ(
      ParseStatement("COMPILE AND EXECUTE PLAN FOR INSERT INTO s SELECT 1").status().message(),
      "SQL parse error at line 1, column 26: expected string literal but found 'FOR'");
  EXPECT_EQ(ParseStatement("EXECUTE PLAN").status().message(),
            "SQL parse error at line 1, column 13: expected string literal but found end of input");
}

TEST(Statement, AlterCatalog) {
  auto set = ParseStatement("ALTER CATALOG c SET ('default-database' = 'db', 'type' = 'eddy')");
  ASSERT_TRUE(set.ok()) << set.status();
  ASSERT_EQ((*set)->kind, StatementKind::kAlterCatalog);
  EXPECT_EQ((*set)->alter_catalog->name, "c");
  EXPECT_EQ((*set)->alter_catalog->action, AlterCatalog::Action::kSet);
  EXPECT_EQ((*set)->alter_catalog->properties.entries.size(), 2u);
  auto reset = ParseStatement("alter catalog c reset ('a', 'b')");
  ASSERT_TRUE(reset.ok()) << reset.status();
  EXPECT_EQ((*reset)->alter_catalog->keys, (std::vector<std::string>{"a", "b"}));
  auto comment = ParseStatement("ALTER CATALOG c COMMENT 'words'");
  ASSERT_TRUE(comment.ok()) << comment.status();
  EXPECT_EQ((*comment)->alter_catalog->comment, "words");
  EXPECT_FALSE(ParseStatement("ALTER CATALOG c RESET ()").ok());
  EXPECT_FALSE(ParseStatement("ALTER CATALOG c.d COMMENT 'x'").ok());
}

TEST(Statement, TruncateTableAndCall) {
  auto truncate = ParseStatement("TRUNCATE TABLE c.d.t");
  ASSERT_TRUE(truncate.ok()) << truncate.status();
  ASSERT_EQ((*truncate)->kind, StatementKind::kTruncateTable);
  EXPECT_EQ((*truncate)->truncate_table->table.ToString(), "c.d.t");
  EXPECT_EQ(ParseStatement("TRUNCATE t").status().message(),
            "SQL parse error at line 1, column 10: expected 'TABLE' but found 't'");

  auto call = ParseStatement("CALL `system`.compact('t', 1 + 1)");
  ASSERT_TRUE(call.ok()) << call.status();
  ASSERT_EQ((*call)->kind, StatementKind::kCall);
  EXPECT_EQ((*call)->call->name.ToString(), "system.compact");
  EXPECT_EQ((*call)->call->args.size(), 2u);
  EXPECT_TRUE(ParseStatement("CALL p()").ok());
  EXPECT_FALSE(ParseStatement("CALL p").ok());
}

TEST(Statement, DeleteAndUpdate) {
  auto del = ParseStatement("DELETE FROM d.t WHERE a = 1");
  ASSERT_TRUE(del.ok()) << del.status();
  ASSERT_EQ((*del)->kind, StatementKind::kRowLevelModification);
  EXPECT_EQ((*del)->modification->kind, RowLevelModification::Kind::kDelete);
  EXPECT_EQ((*del)->modification->table.ToString(), "d.t");
  EXPECT_NE((*del)->modification->where, nullptr);
  auto all = ParseStatement("delete from t");
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ((*all)->modification->where, nullptr);

  auto update = ParseStatement("UPDATE t SET a = a + 1, `b` = 'x' WHERE a > 2");
  ASSERT_TRUE(update.ok()) << update.status();
  const RowLevelModification& u = *(*update)->modification;
  EXPECT_EQ(u.kind, RowLevelModification::Kind::kUpdate);
  ASSERT_EQ(u.assignments.size(), 2u);
  EXPECT_EQ(u.assignments[1].first, "b");
  EXPECT_NE(u.where, nullptr);
  EXPECT_FALSE(ParseStatement("UPDATE t WHERE a = 1").ok());
}

}  // namespace
}  // namespace eddy::sql
