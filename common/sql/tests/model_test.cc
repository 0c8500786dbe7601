// Parsing Flink 2.x's model statements (parse_model.cc), SHOW MODELS / SHOW CREATE MODEL /
// DESCRIBE MODEL, and ML_PREDICT's MODEL argument.
#include <gtest/gtest.h>

#include "common/sql/tests/test_util.h"

namespace eddy::sql {
namespace {

using testing::Error;
using testing::Parse;

TEST(Model, CreateWithEveryClause) {
  StatementPtr s = Parse(
      "CREATE TEMPORARY MODEL IF NOT EXISTS cat.db.m INPUT (`text` STRING COMMENT 'in', n INT NOT "
      "NULL) OUTPUT (label STRING) COMMENT 'c' WITH ('provider' = 'openai', 'model' = 'x')");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->kind, StatementKind::kModel);
  const ModelStatement& m = *s->model;
  EXPECT_EQ(m.op, ModelStatement::Op::kCreate);
  EXPECT_TRUE(m.temporary);
  EXPECT_TRUE(m.if_not_exists);
  EXPECT_EQ(m.name.ToString(), "cat.db.m");
  ASSERT_EQ(m.input.size(), 2u);
  EXPECT_EQ(m.input[0].name, "text");
  EXPECT_EQ(m.input[0].comment, "in");
  EXPECT_EQ(m.input[1].name, "n");
  EXPECT_TRUE(m.input[1].type.not_null);
  EXPECT_FALSE(m.input[1].comment.has_value());
  ASSERT_EQ(m.output.size(), 1u);
  EXPECT_EQ(m.output[0].name, "label");
  EXPECT_EQ(m.comment, "c");
  ASSERT_EQ(m.properties.entries.size(), 2u);
  EXPECT_EQ(m.properties.entries[0], (std::pair<std::string, std::string>{"provider", "openai"}));

  s = Parse("CREATE MODEL m WITH ('provider' = 'openai')");
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->model->temporary);
  EXPECT_TRUE(s->model->input.empty());
  EXPECT_TRUE(s->model->output.empty());
}

TEST(Model, CreateErrorsAreFlinks) {
  EXPECT_EQ(Error("CREATE MODEL m INPUT (a INT) WITH ('provider' = 'x')"),
            "SQL parse error at line 1, column 16: Output column list can not be empty with "
            "non-empty input column list.");
  EXPECT_EQ(Error("CREATE MODEL m OUTPUT (a INT) WITH ('provider' = 'x')"),
            "SQL parse error at line 1, column 16: Input column list can not be empty with "
            "non-empty output column list.");
  EXPECT_EQ(Error("CREATE MODEL m"),
            "SQL parse error at line 1, column 8: Model property list can not be empty.");
  EXPECT_EQ(Error("CREATE MODEL m WITH ()"),
            "SQL parse error at line 1, column 8: Model property list can not be empty.");
  EXPECT_NE(Error("CREATE MODEL m INPUT (a AS 1) OUTPUT (b INT) WITH ('provider' = 'x')")
                .find("Column `a` can only be a physical column"),
            std::string::npos);
  EXPECT_NE(Error("CREATE MODEL m INPUT (a INT METADATA) OUTPUT (b INT) WITH ('provider' = 'x')")
                .find("Column `a` can only be a physical column"),
            std::string::npos);
  EXPECT_NE(Error("CREATE MODEL m WITH ('provider' = 'x') AS SELECT 1")
                .find("CREATE MODEL ... AS query (a model trained from a query) is not supported"),
            std::string::npos);
}

TEST(Model, AlterAndDrop) {
  StatementPtr s = Parse("ALTER MODEL IF EXISTS m SET ('k' = 'v')");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->model->op, ModelStatement::Op::kSet);
  EXPECT_TRUE(s->model->if_exists);
  ASSERT_EQ(s->model->properties.entries.size(), 1u);
  s = Parse("ALTER MODEL db.m RESET ('k', 'j')");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->model->op, ModelStatement::Op::kReset);
  EXPECT_EQ(s->model->keys, (std::vector<std::string>{"k", "j"}));
  s = Parse("ALTER MODEL m RENAME TO db.n");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->model->op, ModelStatement::Op::kRename);
  EXPECT_EQ(s->model->new_name.ToString(), "db.n");
  EXPECT_EQ(Error("ALTER MODEL m"),
            "SQL parse error at line 1, column 14: expected 'SET', 'RESET' or 'RENAME' but found "
            "end of input");
  s = Parse("DROP TEMPORARY MODEL IF EXISTS m");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->model->op, ModelStatement::Op::kDrop);
  EXPECT_TRUE(s->model->temporary);
  EXPECT_TRUE(s->model->if_exists);
}

TEST(Model, ShowAndDescribe) {
  StatementPtr s = Parse("SHOW MODELS FROM cat.db NOT LIKE 'a%'");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "MODELS");
  ASSERT_TRUE(s->show->from.has_value());
  EXPECT_EQ(s->show->from->ToString(), "cat.db");
  EXPECT_TRUE(s->show->not_like);
  EXPECT_EQ(s->show->like, "a%");
  s = Parse("SHOW CREATE MODEL db.m");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->show->what, "CREATE MODEL");
  EXPECT_EQ(s->show->name.ToString(), "db.m");
  s = Parse("DESCRIBE MODEL m");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->describe->model);
  EXPECT_EQ(s->describe->name.ToString(), "m");
  // `DESCRIBE model` alone describes a table called model.
  s = Parse("DESCRIBE model");
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->describe->model);
  EXPECT_EQ(s->describe->name.ToString(), "model");
}

TEST(Model, PredictTakesAModelArgument) {
  StatementPtr s = Parse(
      "SELECT * FROM ML_PREDICT(TABLE reviews, MODEL db.sentiment, DESCRIPTOR(`text`), "
      "MAP['async', 'false'])");
  ASSERT_NE(s, nullptr);
  const TableRef& ref = *s->query->from;
  EXPECT_EQ(ref.kind, TableRefKind::kFunction);
  EXPECT_EQ(ref.name.ToString(), "ML_PREDICT");
  ASSERT_NE(ref.table_arg, nullptr);
  EXPECT_EQ(ref.table_arg->name.ToString(), "reviews");
  ASSERT_TRUE(ref.model_arg.has_value());
  EXPECT_EQ(ref.model_arg->ToString(), "db.sentiment");
  EXPECT_EQ(ref.descriptor_cols, std::vector<std::string>{"text"});
  EXPECT_EQ(ref.function_args.size(), 1u);
  EXPECT_NE(Error("SELECT * FROM ML_PREDICT(TABLE t, MODEL a, MODEL b, DESCRIPTOR(x))")
                .find("only one MODEL argument is supported"),
            std::string::npos);
  // A column called model is still a column.
  s = Parse("SELECT model FROM t");
  ASSERT_NE(s, nullptr);
}

}  // namespace
}  // namespace eddy::sql
