// Statements other than CREATE TABLE: queries, INSERT, statement sets, CREATE VIEW / DATABASE,
// DROP, EXPLAIN, compiled plans, TRUNCATE, DELETE, UPDATE, CALL, and the SQL-client commands (SET,
// RESET, USE, SHOW, DESCRIBE, STOP JOB, HELP, CLEAR, QUIT).
#include <utility>

#include "common/base/status_macros.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {

absl::StatusOr<StatementPtr> Parser::ParseStatementWithText() {
  auto statement = std::make_unique<Statement>();
  statement->pos = Peek().pos;
  size_t begin = Peek().begin;
  RETURN_IF_ERROR(ParseStatementBody(*statement));
  statement->text = SourceText(begin, prev_end_);
  return statement;
}

absl::Status Parser::ParseStatementBody(Statement& stmt) {
  if (IsQueryStart()) {
    stmt.kind = StatementKind::kQuery;
    ASSIGN_OR_RETURN(stmt.query, ParseQuery());
    return absl::OkStatus();
  }
  const Token& first = Peek();
  std::string word = first.kind == TokenKind::kWord ? first.upper : "";
  if (word == "INSERT") {
    stmt.kind = StatementKind::kInsert;
    ASSIGN_OR_RETURN(stmt.insert, ParseInsert());
    return absl::OkStatus();
  }
  if (word == "COMPILE") return ParseCompilePlan(stmt);
  if (word == "EXECUTE" && PeekKeyword("PLAN", 1)) {
    Advance();
    Advance();
    stmt.kind = StatementKind::kCompiledPlan;
    stmt.compiled_plan = std::make_unique<CompiledPlanStatement>();
    stmt.compiled_plan->op = CompiledPlanStatement::Op::kExecute;
    ASSIGN_OR_RETURN(stmt.compiled_plan->path, ParseStringLiteral());
    return absl::OkStatus();
  }
  if (word == "TRUNCATE") {
    Advance();
    RETURN_IF_ERROR(ExpectKeyword("TABLE"));
    stmt.kind = StatementKind::kTruncateTable;
    stmt.truncate_table = std::make_unique<TruncateTable>();
    ASSIGN_OR_RETURN(stmt.truncate_table->table, ParseQualifiedName());
    return absl::OkStatus();
  }
  if (word == "DELETE" || word == "UPDATE") {
    Advance();
    stmt.kind = StatementKind::kRowLevelModification;
    stmt.modification = std::make_unique<RowLevelModification>();
    RowLevelModification& m = *stmt.modification;
    if (word == "DELETE") {
      m.kind = RowLevelModification::Kind::kDelete;
      RETURN_IF_ERROR(ExpectKeyword("FROM"));
      ASSIGN_OR_RETURN(m.table, ParseQualifiedName());
    } else {
      m.kind = RowLevelModification::Kind::kUpdate;
      ASSIGN_OR_RETURN(m.table, ParseQualifiedName());
      RETURN_IF_ERROR(ExpectKeyword("SET"));
      do {
        ASSIGN_OR_RETURN(std::string column, ParseIdentifier());
        RETURN_IF_ERROR(ExpectSymbol("="));
        ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
        m.assignments.emplace_back(std::move(column), std::move(value));
      } while (AcceptSymbol(","));
    }
    if (AcceptKeyword("WHERE")) {
      ASSIGN_OR_RETURN(m.where, ParseExpr());
    }
    return absl::OkStatus();
  }
  if (word == "CALL") {
    Advance();
    stmt.kind = StatementKind::kCall;
    stmt.call = std::make_unique<CallProcedure>();
    ASSIGN_OR_RETURN(stmt.call->name, ParseQualifiedName());
    RETURN_IF_ERROR(ExpectSymbol("("));
    if (!AcceptSymbol(")")) {
      do {
        ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
        stmt.call->args.push_back(std::move(arg));
      } while (AcceptSymbol(","));
      RETURN_IF_ERROR(ExpectSymbol(")"));
    }
    return absl::OkStatus();
  }
  if (word == "EXECUTE") {
    Advance();
    if (PeekKeyword("INSERT")) {  // EXECUTE INSERT INTO ...
      stmt.kind = StatementKind::kInsert;
      ASSIGN_OR_RETURN(stmt.insert, ParseInsert());
      return absl::OkStatus();
    }
    if (!PeekKeyword("STATEMENT")) return ErrorExpected("'STATEMENT' or 'INSERT'");
    Advance();
    RETURN_IF_ERROR(ExpectKeyword("SET"));
    RETURN_IF_ERROR(ExpectKeyword("BEGIN"));
    stmt.kind = StatementKind::kStatementSet;
    ASSIGN_OR_RETURN(stmt.statement_set, ParseStatementSetBody(/*allow_empty=*/false));
    return absl::OkStatus();
  }
  if (word == "BEGIN") {  // Flink's older form: BEGIN STATEMENT SET; INSERT ...; END
    Advance();
    RETURN_IF_ERROR(ExpectKeyword("STATEMENT"));
    RETURN_IF_ERROR(ExpectKeyword("SET"));
    stmt.kind = StatementKind::kStatementSet;
    ASSIGN_OR_RETURN(stmt.statement_set, ParseStatementSetBody(/*allow_empty=*/true));
    return absl::OkStatus();
  }
  if (word == "END") {
    return ErrorAt(Peek(),
                   "No Statement Set to submit, \"END;\" command should be used after \"BEGIN "
                   "STATEMENT SET;\".");
  }
  if (word == "CREATE") return ParseCreate(stmt);
  if (word == "REPLACE") {  // REPLACE TABLE t ... AS query
    Advance();
    if (!PeekKeyword("TABLE")) return ErrorExpected("'TABLE'");
    return ParseCreateTable(stmt, /*temporary=*/false, CreateTable::Replace::kReplace);
  }
  if (word == "DROP") return ParseDrop(stmt);
  if (word == "ALTER") return ParseAlter(stmt);
  if (word == "EXPLAIN") return ParseExplain(stmt);
  if (word == "SHOW") return ParseShow(stmt);
  if (word == "SET") {
    Advance();
    stmt.kind = StatementKind::kSet;
    stmt.set = std::make_unique<Set>();
    if (!AtStatementEnd()) {
      ASSIGN_OR_RETURN(stmt.set->key, ParseConfigWord("a key", /*until_equals=*/true));
      RETURN_IF_ERROR(ExpectSymbol("="));
      ASSIGN_OR_RETURN(stmt.set->value, ParseConfigWord("a value", /*until_equals=*/false));
      if (!AtStatementEnd()) return ErrorExpected("';'");
    }
    return absl::OkStatus();
  }
  if (word == "RESET") {
    Advance();
    stmt.kind = StatementKind::kReset;
    stmt.reset = std::make_unique<Reset>();
    if (!AtStatementEnd()) {
      ASSIGN_OR_RETURN(stmt.reset->key, ParseConfigWord("a key", /*until_equals=*/false));
      if (!AtStatementEnd()) return ErrorExpected("';'");
    }
    return absl::OkStatus();
  }
  if ((word == "LOAD" || word == "UNLOAD") && PeekKeyword("MODULE", 1)) {
    Advance();
    Advance();
    stmt.kind = StatementKind::kModule;
    stmt.module = std::make_unique<ModuleStatement>();
    stmt.module->op = word == "LOAD" ? ModuleStatement::Op::kLoad : ModuleStatement::Op::kUnload;
    ASSIGN_OR_RETURN(std::string name, ParseIdentifier());
    stmt.module->names.push_back(std::move(name));
    if (stmt.module->op == ModuleStatement::Op::kLoad && AcceptKeyword("WITH")) {
      RETURN_IF_ERROR(ParseProperties(stmt.module->properties));
    }
    return absl::OkStatus();
  }
  // `USE modules` alone names a database called modules.
  if (word == "USE" && PeekKeyword("MODULES", 1) && PeekIdentifier(2)) {
    Advance();
    Advance();
    stmt.kind = StatementKind::kModule;
    stmt.module = std::make_unique<ModuleStatement>();
    stmt.module->op = ModuleStatement::Op::kUse;
    do {
      ASSIGN_OR_RETURN(std::string name, ParseIdentifier());
      stmt.module->names.push_back(std::move(name));
    } while (AcceptSymbol(","));
    return absl::OkStatus();
  }
  if (word == "USE") {
    Advance();
    stmt.kind = StatementKind::kUse;
    stmt.use = std::make_unique<Use>();
    // `USE catalog` alone names a database called catalog.
    if (PeekKeyword("CATALOG") && PeekIdentifier(1)) {
      Advance();
      stmt.use->catalog = true;
    }
    ASSIGN_OR_RETURN(stmt.use->name, ParseQualifiedName());
    return absl::OkStatus();
  }
  if (word == "DESCRIBE" || word == "DESC") {
    Advance();
    stmt.kind = StatementKind::kDescribe;
    stmt.describe = std::make_unique<Describe>();
    if (PeekKeyword("JOB") && Peek(1).kind == TokenKind::kString) {
      Advance();
      ASSIGN_OR_RETURN(stmt.describe->job_id, ParseStringLiteral());
      return absl::OkStatus();
    }
    // `DESCRIBE catalog` (or function, or model) alone names a table called catalog.
    if (PeekKeyword("CATALOG") && (PeekIdentifier(1) || PeekKeyword("EXTENDED", 1))) {
      Advance();
      stmt.describe->catalog = true;
    } else if (PeekKeyword("FUNCTION") && (PeekIdentifier(1) || PeekKeyword("EXTENDED", 1))) {
      Advance();
      stmt.describe->function = true;
    } else if (PeekKeyword("MODEL") && PeekIdentifier(1)) {
      Advance();
      stmt.describe->model = true;
      ASSIGN_OR_RETURN(stmt.describe->name, ParseQualifiedName());
      return absl::OkStatus();
    }
    if (PeekKeyword("EXTENDED") && PeekIdentifier(1)) {
      Advance();
      stmt.describe->extended = true;
    }
    ASSIGN_OR_RETURN(stmt.describe->name, ParseQualifiedName());
    return absl::OkStatus();
  }
  if (word == "ANALYZE") {
    Advance();
    RETURN_IF_ERROR(ExpectKeyword("TABLE"));
    stmt.kind = StatementKind::kAnalyzeTable;
    stmt.analyze_table = std::make_unique<AnalyzeTable>();
    AnalyzeTable& analyze = *stmt.analyze_table;
    ASSIGN_OR_RETURN(analyze.table, ParseQualifiedName());
    if (AcceptKeyword("PARTITION")) {
      ASSIGN_OR_RETURN(analyze.partition, ParsePartitionSpec(/*values_optional=*/true));
    }
    RETURN_IF_ERROR(ExpectKeyword("COMPUTE"));
    RETURN_IF_ERROR(ExpectKeyword("STATISTICS"));
    if (AcceptKeyword("FOR")) {
      if (AcceptKeyword("ALL")) {
        RETURN_IF_ERROR(ExpectKeyword("COLUMNS"));
        analyze.all_columns = true;
      } else {
        RETURN_IF_ERROR(ExpectKeyword("COLUMNS"));
        analyze.columns_pos = Peek().pos;
        do {
          ASSIGN_OR_RETURN(std::string column, ParseIdentifier());
          analyze.columns.push_back(std::move(column));
        } while (AcceptSymbol(","));
      }
    }
    return absl::OkStatus();
  }
  if (word == "STOP") {
    Advance();
    RETURN_IF_ERROR(ExpectKeyword("JOB"));
    stmt.kind = StatementKind::kStopJob;
    stmt.stop_job = std::make_unique<StopJob>();
    ASSIGN_OR_RETURN(stmt.stop_job->job_id, ParseStringLiteral());
    // Flink's grammar: [WITH SAVEPOINT] [WITH DRAIN]. Draining only makes sense before a
    // savepoint (Flink would silently cancel instead), so WITH DRAIN alone is an error.
    if (AcceptKeyword("WITH")) {
      if (AcceptKeyword("SAVEPOINT")) {
        stmt.stop_job->with_savepoint = true;
        if (AcceptKeyword("WITH")) {
          RETURN_IF_ERROR(ExpectKeyword("DRAIN"));
          stmt.stop_job->drain = true;
        }
      } else if (PeekKeyword("DRAIN")) {
        return ErrorAt(Peek(),
                       "WITH DRAIN needs WITH SAVEPOINT before it: STOP JOB '<id>' WITH "
                       "SAVEPOINT WITH DRAIN");
      } else {
        return ErrorExpected("'SAVEPOINT' or 'DRAIN'");
      }
    }
    return absl::OkStatus();
  }
  if (word == "ADD" || word == "REMOVE") {  // ADD JAR '<path>', REMOVE JAR '<path>'
    Advance();
    RETURN_IF_ERROR(ExpectKeyword("JAR"));
    stmt.kind = StatementKind::kJar;
    stmt.jar = std::make_unique<JarStatement>();
    stmt.jar->remove = word == "REMOVE";
    ASSIGN_OR_RETURN(stmt.jar->path, ParseStringLiteral());
    return absl::OkStatus();
  }
  if (word == "HELP") {
    Advance();
    stmt.kind = StatementKind::kHelp;
    return absl::OkStatus();
  }
  if (word == "CLEAR") {
    Advance();
    stmt.kind = StatementKind::kClear;
    return absl::OkStatus();
  }
  if (word == "QUIT" || word == "EXIT") {
    Advance();
    stmt.kind = StatementKind::kQuit;
    return absl::OkStatus();
  }
  return ErrorExpected("a statement");
}

// COMPILE [AND EXECUTE] PLAN ['file'] [IF NOT EXISTS] FOR <insert | STATEMENT SET BEGIN ... END>,
// Flink's grammar; the file may be left out of COMPILE PLAN only.
absl::Status Parser::ParseCompilePlan(Statement& stmt) {
  RETURN_IF_ERROR(ExpectKeyword("COMPILE"));
  stmt.kind = StatementKind::kCompiledPlan;
  stmt.compiled_plan = std::make_unique<CompiledPlanStatement>();
  CompiledPlanStatement& plan = *stmt.compiled_plan;
  if (AcceptKeyword("AND")) {
    RETURN_IF_ERROR(ExpectKeyword("EXECUTE"));
    plan.op = CompiledPlanStatement::Op::kCompileAndExecute;
  }
  RETURN_IF_ERROR(ExpectKeyword("PLAN"));
  if (Peek().kind == TokenKind::kString || plan.op != CompiledPlanStatement::Op::kCompile) {
    ASSIGN_OR_RETURN(plan.path, ParseStringLiteral());
  }
  if (plan.op == CompiledPlanStatement::Op::kCompile && plan.path) {
    ASSIGN_OR_RETURN(plan.if_not_exists, ParseIfNotExists());
  }
  RETURN_IF_ERROR(ExpectKeyword("FOR"));
  if (PeekKeyword("STATEMENT")) {
    Advance();
    RETURN_IF_ERROR(ExpectKeyword("SET"));
    RETURN_IF_ERROR(ExpectKeyword("BEGIN"));
    ASSIGN_OR_RETURN(std::unique_ptr<StatementSet> set,
                     ParseStatementSetBody(/*allow_empty=*/false));
    plan.inserts = std::move(set->inserts);
    return absl::OkStatus();
  }
  if (!PeekKeyword("INSERT")) return ErrorExpected("'INSERT' or 'STATEMENT SET'");
  ASSIGN_OR_RETURN(std::unique_ptr<Insert> insert, ParseInsert());
  plan.inserts.push_back(std::move(*insert));
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Insert>> Parser::ParseInsert() {
  RETURN_IF_ERROR(ExpectKeyword("INSERT"));
  auto insert = std::make_unique<Insert>();
  if (AcceptKeyword("OVERWRITE")) {
    insert->overwrite = true;
  } else if (!AcceptKeyword("INTO")) {
    return ErrorExpected("'INTO' or 'OVERWRITE'");
  }
  ASSIGN_OR_RETURN(insert->target, ParseQualifiedName());
  if (PeekSymbol("/*+")) {
    ASSIGN_OR_RETURN(insert->target_hints, ParseHints());
  }
  if (AcceptKeyword("PARTITION")) {
    ASSIGN_OR_RETURN(insert->partition, ParsePartitionSpec());
  }
  if (PeekSymbol("(") && !IsQueryStart()) {
    ASSIGN_OR_RETURN(insert->columns, ParseIdentifierList());
  }
  ASSIGN_OR_RETURN(insert->query, ParseQuery());
  return insert;
}

absl::StatusOr<std::vector<PartitionValueDef>> Parser::ParsePartitionSpec(bool values_optional) {
  std::vector<PartitionValueDef> spec;
  RETURN_IF_ERROR(ExpectSymbol("("));
  do {
    PartitionValueDef value;
    value.pos = Peek().pos;
    ASSIGN_OR_RETURN(value.column, ParseIdentifier());
    for (const PartitionValueDef& earlier : spec) {
      if (earlier.column == value.column) {
        return ErrorAt(Peek(), "partition column '" + value.column + "' is given twice");
      }
    }
    if (values_optional && (PeekSymbol(",") || PeekSymbol(")"))) {
      value.any = true;
      spec.push_back(std::move(value));
      continue;
    }
    RETURN_IF_ERROR(ExpectSymbol("="));
    const bool negative = AcceptSymbol("-");
    const Token& literal = Peek();
    if (literal.kind == TokenKind::kString && !negative) {
      value.value = literal.text;
    } else if (literal.kind == TokenKind::kInteger || literal.kind == TokenKind::kDecimal ||
               literal.kind == TokenKind::kDouble) {
      value.value = (negative ? "-" : "") + literal.text;
    } else if (!negative && (PeekKeyword("TRUE") || PeekKeyword("FALSE"))) {
      value.value = literal.upper;
    } else if (!negative && PeekKeyword("NULL")) {
      value.null = true;
    } else {
      return ErrorExpected("a literal partition value");
    }
    Advance();
    spec.push_back(std::move(value));
  } while (AcceptSymbol(","));
  RETURN_IF_ERROR(ExpectSymbol(")"));
  return spec;
}

absl::StatusOr<std::unique_ptr<StatementSet>> Parser::ParseStatementSetBody(bool allow_empty) {
  auto set = std::make_unique<StatementSet>();
  while (true) {
    while (AcceptSymbol(";")) {
    }
    if (PeekKeyword("END")) {
      if (set->inserts.empty() && !allow_empty) {
        return ErrorAt(Peek(), "a statement set needs at least one INSERT");
      }
      Advance();
      return set;
    }
    if (Peek().kind == TokenKind::kEnd) return ErrorExpected("'INSERT' or 'END'");
    if (!PeekKeyword("INSERT")) {
      return ErrorAt(Peek(), "Only INSERT statement is allowed in Statement Set.");
    }
    ASSIGN_OR_RETURN(std::unique_ptr<Insert> insert, ParseInsert());
    set->inserts.push_back(std::move(*insert));
    if (!PeekSymbol(";") && !PeekKeyword("END")) return ErrorExpected("';'");
  }
}

absl::StatusOr<bool> Parser::ParseIfNotExists() {
  if (!(PeekKeyword("IF") && PeekKeyword("NOT", 1))) return false;
  Advance();
  Advance();
  RETURN_IF_ERROR(ExpectKeyword("EXISTS"));
  return true;
}

absl::StatusOr<bool> Parser::ParseIfExists() {
  if (!(PeekKeyword("IF") && PeekKeyword("EXISTS", 1))) return false;
  Advance();
  Advance();
  return true;
}

absl::Status Parser::ParseCreate(Statement& stmt) {
  Advance();                  // CREATE
  if (AcceptKeyword("OR")) {  // CREATE OR REPLACE TABLE t ... AS query
    RETURN_IF_ERROR(ExpectKeyword("REPLACE"));
    if (PeekKeyword("MATERIALIZED")) {
      return ParseCreateMaterializedTable(stmt, /*temporary=*/false, /*or_replace=*/true);
    }
    if (!PeekKeyword("TABLE")) return ErrorExpected("'TABLE'");
    return ParseCreateTable(stmt, /*temporary=*/false, CreateTable::Replace::kCreateOrReplace);
  }
  bool temporary = AcceptKeyword("TEMPORARY");
  const bool system = temporary && AcceptKeyword("SYSTEM");
  if (system || PeekKeyword("FUNCTION")) {
    if (!PeekKeyword("FUNCTION")) return ErrorExpected("'FUNCTION'");
    return ParseCreateFunction(stmt, temporary, system);
  }
  if (PeekKeyword("TABLE")) return ParseCreateTable(stmt, temporary);
  if (PeekKeyword("MATERIALIZED") && PeekKeyword("TABLE", 1)) {
    return ParseCreateMaterializedTable(stmt, temporary, /*or_replace=*/false);
  }
  if (PeekKeyword("VIEW")) return ParseCreateView(stmt, temporary);
  if (PeekKeyword("MODEL")) return ParseCreateModel(stmt, temporary);
  if (!temporary && AcceptKeyword("DATABASE")) {
    stmt.kind = StatementKind::kCreateDatabase;
    stmt.create_database = std::make_unique<CreateDatabase>();
    CreateDatabase& db = *stmt.create_database;
    ASSIGN_OR_RETURN(db.if_not_exists, ParseIfNotExists());
    ASSIGN_OR_RETURN(db.name, ParseQualifiedName());
    if (AcceptKeyword("COMMENT")) {
      ASSIGN_OR_RETURN(db.comment, ParseStringLiteral());
    }
    if (AcceptKeyword("WITH")) RETURN_IF_ERROR(ParseProperties(db.properties));
    return absl::OkStatus();
  }
  if (!temporary && PeekKeyword("CATALOG")) return ParseCreateCatalog(stmt);
  return ErrorExpected(temporary ? "'TABLE', 'VIEW', 'FUNCTION', 'MODEL' or 'SYSTEM'"
                                 : "'TABLE', 'VIEW', 'FUNCTION', 'MODEL', 'DATABASE' or 'CATALOG'");
}

absl::Status Parser::ParseCreateFunction(Statement& stmt, bool temporary, bool system, bool alter) {
  Advance();  // FUNCTION
  stmt.kind = StatementKind::kCreateFunction;
  stmt.create_function = std::make_unique<CreateFunction>();
  CreateFunction& fn = *stmt.create_function;
  fn.temporary = temporary;
  fn.system = system;
  fn.alter = alter;
  if (alter) {
    ASSIGN_OR_RETURN(fn.if_exists, ParseIfExists());
  } else {
    ASSIGN_OR_RETURN(fn.if_not_exists, ParseIfNotExists());
  }
  ASSIGN_OR_RETURN(fn.name, ParseQualifiedName());
  RETURN_IF_ERROR(ExpectKeyword("AS"));
  ASSIGN_OR_RETURN(fn.identifier, ParseStringLiteral());
  if (AcceptKeyword("LANGUAGE")) {
    if (Peek().kind != TokenKind::kWord) return ErrorExpected("a language (CPP)");
    fn.language = Advance().upper;
  }
  if (AcceptKeyword("USING")) {
    do {
      RETURN_IF_ERROR(ExpectKeyword("JAR"));
      ASSIGN_OR_RETURN(std::string path, ParseStringLiteral());
      fn.jars.push_back(std::move(path));
    } while (AcceptSymbol(","));
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseCreateView(Statement& stmt, bool temporary) {
  Advance();  // VIEW
  stmt.kind = StatementKind::kCreateView;
  stmt.create_view = std::make_unique<CreateView>();
  CreateView& view = *stmt.create_view;
  view.temporary = temporary;
  ASSIGN_OR_RETURN(view.if_not_exists, ParseIfNotExists());
  ASSIGN_OR_RETURN(view.name, ParseQualifiedName());
  if (PeekSymbol("(")) {
    ASSIGN_OR_RETURN(view.column_aliases, ParseIdentifierList());
  }
  RETURN_IF_ERROR(ExpectKeyword("AS"));
  size_t begin = Peek().begin;
  ASSIGN_OR_RETURN(view.query, ParseQuery());
  view.query_text = SourceText(begin, prev_end_);
  return absl::OkStatus();
}

absl::Status Parser::ParseDrop(Statement& stmt) {
  Advance();  // DROP
  stmt.kind = StatementKind::kDrop;
  stmt.drop = std::make_unique<Drop>();
  Drop& drop = *stmt.drop;
  drop.temporary = AcceptKeyword("TEMPORARY");
  drop.system = drop.temporary && AcceptKeyword("SYSTEM");
  if (!drop.system && PeekKeyword("MATERIALIZED") && PeekKeyword("TABLE", 1)) {
    const bool temporary = drop.temporary;
    stmt.drop.reset();
    return ParseDropMaterializedTable(stmt, temporary);
  }
  if (!drop.system && PeekKeyword("MODEL")) {
    const bool temporary = drop.temporary;
    stmt.drop.reset();
    return ParseDropModel(stmt, temporary);
  }
  if (AcceptKeyword("FUNCTION")) {
    drop.what = Drop::What::kFunction;
  } else if (drop.system) {
    return ErrorExpected("'FUNCTION'");
  } else if (AcceptKeyword("TABLE")) {
    drop.what = Drop::What::kTable;
  } else if (AcceptKeyword("VIEW")) {
    drop.what = Drop::What::kView;
  } else if (!drop.temporary && AcceptKeyword("DATABASE")) {
    drop.what = Drop::What::kDatabase;
  } else if (!drop.temporary && AcceptKeyword("CATALOG")) {
    drop.what = Drop::What::kCatalog;
  } else {
    return ErrorExpected(drop.temporary
                             ? "'TABLE', 'VIEW', 'FUNCTION', 'MODEL' or 'SYSTEM'"
                             : "'TABLE', 'VIEW', 'FUNCTION', 'MODEL', 'DATABASE' or 'CATALOG'");
  }
  ASSIGN_OR_RETURN(drop.if_exists, ParseIfExists());
  ASSIGN_OR_RETURN(drop.name, ParseQualifiedName());
  if (drop.what == Drop::What::kDatabase) {
    if (AcceptKeyword("CASCADE")) {
      drop.cascade = true;
    } else {
      AcceptKeyword("RESTRICT");
    }
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseExplain(Statement& stmt) {
  Advance();  // EXPLAIN
  stmt.kind = StatementKind::kExplain;
  stmt.explain = std::make_unique<Explain>();
  Explain& explain = *stmt.explain;
  auto is_detail = [this] {
    const Token& t = Peek();
    return t.kind == TokenKind::kWord &&
           (t.upper == "CHANGELOG_MODE" || t.upper == "ESTIMATED_COST" ||
            t.upper == "JSON_EXECUTION_PLAN" || t.upper == "PLAN_ADVICE");
  };
  if (PeekKeyword("PLAN") && PeekKeyword("FOR", 1)) {
    Advance();
    Advance();
  } else if (is_detail()) {
    explain.details.push_back(Advance().upper);
    while (AcceptSymbol(",")) {
      if (!is_detail()) {
        return ErrorExpected(
            "'CHANGELOG_MODE', 'ESTIMATED_COST', 'JSON_EXECUTION_PLAN' or 'PLAN_ADVICE'");
      }
      explain.details.push_back(Advance().upper);
    }
  }

  auto target = std::make_unique<Statement>();
  target->pos = Peek().pos;
  size_t begin = Peek().begin;
  if (IsQueryStart()) {
    target->kind = StatementKind::kQuery;
    ASSIGN_OR_RETURN(target->query, ParseQuery());
  } else if (PeekKeyword("INSERT")) {
    target->kind = StatementKind::kInsert;
    ASSIGN_OR_RETURN(target->insert, ParseInsert());
  } else if (PeekKeyword("STATEMENT") || (PeekKeyword("EXECUTE") && PeekKeyword("STATEMENT", 1))) {
    AcceptKeyword("EXECUTE");
    Advance();  // STATEMENT
    RETURN_IF_ERROR(ExpectKeyword("SET"));
    RETURN_IF_ERROR(ExpectKeyword("BEGIN"));
    target->kind = StatementKind::kStatementSet;
    ASSIGN_OR_RETURN(target->statement_set, ParseStatementSetBody(/*allow_empty=*/false));
  } else {
    return ErrorExpected("a query, INSERT or STATEMENT SET");
  }
  target->text = SourceText(begin, prev_end_);
  explain.target = std::move(target);
  return absl::OkStatus();
}

}  // namespace eddy::sql
