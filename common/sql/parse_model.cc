// Model statements in Flink 2.x's grammar:
//   CREATE [TEMPORARY] MODEL [IF NOT EXISTS] name
//     [INPUT (col type [COMMENT '...'], ...) OUTPUT (col type [COMMENT '...'], ...)]
//     [COMMENT '...'] [WITH ('k' = 'v', ...)]
//   ALTER MODEL [IF EXISTS] name SET ('k' = 'v', ...) | RESET ('k', ...) | RENAME TO new_name
//   DROP [TEMPORARY] MODEL [IF EXISTS] name
// The checks Flink's parser makes (both column lists or neither, a non-empty WITH) are made here
// with its messages; what the catalog holds is checked when they run
// (coordinator/service/model_ddl.h).
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {
namespace {

// Starts `stmt` as a model statement of `op`, MODEL being `keyword`.
ModelStatement& StartModelStatement(Statement& stmt, ModelStatement::Op op, const Token& keyword) {
  stmt.kind = StatementKind::kModel;
  stmt.model = std::make_unique<ModelStatement>();
  stmt.model->op = op;
  stmt.model->pos = keyword.pos;
  return *stmt.model;
}

std::string NotPhysical(const std::string& column) {
  return absl::StrCat("Column `", column,
                      "` can only be a physical column: a model's INPUT and OUTPUT columns have a "
                      "name and a type");
}

}  // namespace

absl::StatusOr<std::vector<ModelColumnDef>> Parser::ParseModelColumns() {
  RETURN_IF_ERROR(ExpectSymbol("("));
  std::vector<ModelColumnDef> columns;
  do {
    ModelColumnDef column;
    column.pos = Peek().pos;
    ASSIGN_OR_RETURN(column.name, ParseIdentifier());
    if (PeekKeyword("AS")) return ErrorAt(Peek(), NotPhysical(column.name));
    ASSIGN_OR_RETURN(column.type, ParseType());
    ASSIGN_OR_RETURN(column.type, ParseTypeNullability(std::move(column.type)));
    if (PeekKeyword("METADATA") || PeekKeyword("PRIMARY")) {
      return ErrorAt(Peek(), NotPhysical(column.name));
    }
    if (AcceptKeyword("COMMENT")) {
      ASSIGN_OR_RETURN(column.comment, ParseStringLiteral());
    }
    columns.push_back(std::move(column));
  } while (AcceptSymbol(","));
  RETURN_IF_ERROR(ExpectSymbol(")"));
  return columns;
}

absl::Status Parser::ParseCreateModel(Statement& stmt, bool temporary) {
  const Token& model_keyword = Advance();  // MODEL
  ModelStatement& model = StartModelStatement(stmt, ModelStatement::Op::kCreate, model_keyword);
  model.temporary = temporary;
  ASSIGN_OR_RETURN(model.if_not_exists, ParseIfNotExists());
  ASSIGN_OR_RETURN(model.name, ParseQualifiedName());
  const Token input_keyword = Peek();
  if (AcceptKeyword("INPUT")) {
    ASSIGN_OR_RETURN(model.input, ParseModelColumns());
  }
  const Token output_keyword = Peek();
  if (AcceptKeyword("OUTPUT")) {
    ASSIGN_OR_RETURN(model.output, ParseModelColumns());
  }
  if (!model.input.empty() && model.output.empty()) {
    return ErrorAt(input_keyword,
                   "Output column list can not be empty with non-empty input column list.");
  }
  if (model.input.empty() && !model.output.empty()) {
    return ErrorAt(output_keyword,
                   "Input column list can not be empty with non-empty output column list.");
  }
  if (AcceptKeyword("COMMENT")) {
    ASSIGN_OR_RETURN(model.comment, ParseStringLiteral());
  }
  if (AcceptKeyword("WITH")) RETURN_IF_ERROR(ParseProperties(model.properties));
  if (PeekKeyword("AS")) {
    return ErrorAt(Peek(),
                   "CREATE MODEL ... AS query (a model trained from a query) is not supported: "
                   "a model names a provider that serves it");
  }
  if (model.properties.entries.empty()) {
    return ErrorAt(model_keyword, "Model property list can not be empty.");
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseAlterModel(Statement& stmt) {
  // The operation is set once known.
  ModelStatement& model = StartModelStatement(stmt, ModelStatement::Op::kSet, Advance());
  ASSIGN_OR_RETURN(model.if_exists, ParseIfExists());
  ASSIGN_OR_RETURN(model.name, ParseQualifiedName());
  if (AcceptKeyword("SET")) {
    model.op = ModelStatement::Op::kSet;
    return ParseProperties(model.properties);
  }
  if (AcceptKeyword("RESET")) {
    model.op = ModelStatement::Op::kReset;
    // `RESET ()` parses, as in Flink, and is refused with its message when it runs.
    if (PeekSymbol("(") && PeekSymbol(")", 1)) {
      Advance();
      Advance();
      return absl::OkStatus();
    }
    return ParseOptionKeys(model.keys);
  }
  if (AcceptKeyword("RENAME")) {
    model.op = ModelStatement::Op::kRename;
    RETURN_IF_ERROR(ExpectKeyword("TO"));
    ASSIGN_OR_RETURN(model.new_name, ParseQualifiedName());
    return absl::OkStatus();
  }
  return ErrorExpected("'SET', 'RESET' or 'RENAME'");
}

absl::Status Parser::ParseDropModel(Statement& stmt, bool temporary) {
  ModelStatement& model = StartModelStatement(stmt, ModelStatement::Op::kDrop, Advance());
  model.temporary = temporary;
  ASSIGN_OR_RETURN(model.if_exists, ParseIfExists());
  ASSIGN_OR_RETURN(model.name, ParseQualifiedName());
  return absl::OkStatus();
}

}  // namespace eddy::sql
