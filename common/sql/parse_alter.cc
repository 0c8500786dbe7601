// ALTER TABLE (RENAME, SET/RESET options, ADD/MODIFY/DROP columns, primary key and watermark,
// ADD/DROP PARTITION, ADD/MODIFY/DROP DISTRIBUTION, COMPACT), ALTER VIEW (RENAME TO, AS query),
// ALTER DATABASE ... SET, ALTER CATALOG (SET, RESET, COMMENT), ALTER FUNCTION (parsed as CREATE
// FUNCTION's alter form), ALTER MODEL (parse_model.cc) and CREATE CATALOG, in Flink's syntax.
#include <utility>

#include "common/base/status_macros.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {

absl::Status Parser::ParseAlter(Statement& stmt) {
  Advance();  // ALTER
  if (PeekKeyword("TABLE")) return ParseAlterTable(stmt);
  if (PeekKeyword("MATERIALIZED") && PeekKeyword("TABLE", 1))
    return ParseAlterMaterializedTable(stmt);
  if (PeekKeyword("MODEL")) return ParseAlterModel(stmt);
  if (AcceptKeyword("VIEW")) {
    stmt.kind = StatementKind::kAlterView;
    stmt.alter_view = std::make_unique<AlterView>();
    AlterView& alter = *stmt.alter_view;
    ASSIGN_OR_RETURN(alter.name, ParseQualifiedName());
    if (AcceptKeyword("RENAME")) {
      RETURN_IF_ERROR(ExpectKeyword("TO"));
      ASSIGN_OR_RETURN(alter.new_name, ParseQualifiedName());
      return absl::OkStatus();
    }
    if (!AcceptKeyword("AS")) return ErrorExpected("'RENAME' or 'AS'");
    const size_t begin = Peek().begin;
    ASSIGN_OR_RETURN(alter.query, ParseQuery());
    alter.query_text = SourceText(begin, prev_end_);
    return absl::OkStatus();
  }
  if (AcceptKeyword("DATABASE")) {
    stmt.kind = StatementKind::kAlterDatabase;
    stmt.alter_database = std::make_unique<AlterDatabase>();
    ASSIGN_OR_RETURN(stmt.alter_database->name, ParseQualifiedName());
    RETURN_IF_ERROR(ExpectKeyword("SET"));
    return ParseProperties(stmt.alter_database->properties);
  }
  if (AcceptKeyword("CATALOG")) {
    stmt.kind = StatementKind::kAlterCatalog;
    stmt.alter_catalog = std::make_unique<AlterCatalog>();
    AlterCatalog& alter = *stmt.alter_catalog;
    ASSIGN_OR_RETURN(alter.name, ParseIdentifier());
    if (AcceptKeyword("SET")) {
      alter.action = AlterCatalog::Action::kSet;
      return ParseProperties(alter.properties);
    }
    if (AcceptKeyword("RESET")) {
      alter.action = AlterCatalog::Action::kReset;
      return ParseOptionKeys(alter.keys);
    }
    if (AcceptKeyword("COMMENT")) {
      alter.action = AlterCatalog::Action::kComment;
      ASSIGN_OR_RETURN(alter.comment, ParseStringLiteral());
      return absl::OkStatus();
    }
    return ErrorExpected("'SET', 'RESET' or 'COMMENT'");
  }
  // ALTER [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] f AS 'symbol' [LANGUAGE l] [USING JAR '...']
  const bool temporary = AcceptKeyword("TEMPORARY");
  const bool system = temporary && AcceptKeyword("SYSTEM");
  if (PeekKeyword("FUNCTION")) return ParseCreateFunction(stmt, temporary, system, /*alter=*/true);
  if (temporary) return ErrorExpected("'FUNCTION' or 'SYSTEM'");
  return ErrorExpected("'TABLE', 'VIEW', 'DATABASE', 'CATALOG' or 'FUNCTION'");
}

absl::Status Parser::ParseAlterTable(Statement& stmt) {
  Advance();  // TABLE
  stmt.kind = StatementKind::kAlterTable;
  stmt.alter_table = std::make_unique<AlterTable>();
  AlterTable& alter = *stmt.alter_table;
  ASSIGN_OR_RETURN(alter.if_exists, ParseIfExists());
  ASSIGN_OR_RETURN(alter.name, ParseQualifiedName());
  alter.pos = Peek().pos;
  using Action = AlterTable::Action;
  if (PeekKeyword("COMPACT") || (PeekKeyword("PARTITION") && PeekSymbol("(", 1))) {
    alter.action = Action::kCompact;
    if (AcceptKeyword("PARTITION")) {
      ASSIGN_OR_RETURN(std::vector<PartitionValueDef> spec, ParsePartitionSpec());
      alter.partitions.push_back(std::move(spec));
    }
    return ExpectKeyword("COMPACT");
  }
  if (AcceptKeyword("RENAME")) {
    if (AcceptKeyword("TO")) {
      alter.action = Action::kRename;
      ASSIGN_OR_RETURN(alter.new_name, ParseQualifiedName());
      return absl::OkStatus();
    }
    alter.action = Action::kRenameColumn;
    ASSIGN_OR_RETURN(alter.column, ParseIdentifier());
    RETURN_IF_ERROR(ExpectKeyword("TO"));
    ASSIGN_OR_RETURN(alter.new_column, ParseIdentifier());
    return absl::OkStatus();
  }
  if (AcceptKeyword("SET")) {
    alter.action = Action::kSetOptions;
    return ParseProperties(alter.options);
  }
  if (AcceptKeyword("RESET")) {
    alter.action = Action::kResetOptions;
    return ParseOptionKeys(alter.keys);
  }
  // ADD | MODIFY DISTRIBUTION BY ... | INTO n BUCKETS (a column called distribution is added with
  // its type after the name).
  const bool distribution_next =
      PeekKeyword("DISTRIBUTION", 1) && (PeekKeyword("BY", 2) || PeekKeyword("INTO", 2));
  if (distribution_next && (PeekKeyword("ADD") || PeekKeyword("MODIFY"))) {
    alter.action =
        Advance().upper == "ADD" ? Action::kAddDistribution : Action::kModifyDistribution;
    ASSIGN_OR_RETURN(alter.elements.distribution, ParseDistribution(Advance()));
    return absl::OkStatus();
  }
  if (AcceptKeyword("ADD")) {
    if (PeekKeyword("PARTITION") || (PeekKeyword("IF") && PeekKeyword("NOT", 1))) {
      return ParseAddPartitions(alter);
    }
    alter.action = Action::kAdd;
    return ParseAlterTableElements(alter);
  }
  if (AcceptKeyword("MODIFY")) {
    alter.action = Action::kModify;
    return ParseAlterTableElements(alter);
  }
  if (AcceptKeyword("DROP")) {
    if (PeekKeyword("PARTITION") || (PeekKeyword("IF") && PeekKeyword("EXISTS", 1))) {
      return ParseDropPartitions(alter);
    }
    if (PeekKeyword("PRIMARY") && PeekKeyword("KEY", 1)) {
      Advance();
      Advance();
      alter.action = Action::kDropPrimaryKey;
      return absl::OkStatus();
    }
    if (AcceptKeyword("CONSTRAINT")) {
      alter.action = Action::kDropPrimaryKey;
      ASSIGN_OR_RETURN(alter.column, ParseIdentifier());  // the constraint's name
      return absl::OkStatus();
    }
    if (AcceptKeyword("WATERMARK")) {
      alter.action = Action::kDropWatermark;
      return absl::OkStatus();
    }
    if (PeekKeyword("DISTRIBUTION") && (PeekSymbol(";", 1) || Peek(1).kind == TokenKind::kEnd)) {
      Advance();
      alter.action = Action::kDropDistribution;
      return absl::OkStatus();
    }
    alter.action = Action::kDropColumns;
    if (PeekSymbol("(")) {
      ASSIGN_OR_RETURN(alter.keys, ParseIdentifierList());
    } else {
      ASSIGN_OR_RETURN(std::string column, ParseIdentifier());
      alter.keys.push_back(std::move(column));
    }
    return absl::OkStatus();
  }
  return ErrorExpected("'RENAME', 'SET', 'RESET', 'ADD', 'MODIFY' or 'DROP'");
}

// ADD [IF NOT EXISTS] PARTITION (k = v, ...) [WITH ('k' = 'v', ...)] [PARTITION ...]*, as Flink.
absl::Status Parser::ParseAddPartitions(AlterTable& alter) {
  alter.action = AlterTable::Action::kAddPartitions;
  ASSIGN_OR_RETURN(alter.partition_if, ParseIfNotExists());
  if (!PeekKeyword("PARTITION")) return ErrorExpected("'PARTITION'");
  while (AcceptKeyword("PARTITION")) {
    ASSIGN_OR_RETURN(std::vector<PartitionValueDef> spec, ParsePartitionSpec());
    alter.partitions.push_back(std::move(spec));
    PropertyList properties;
    if (AcceptKeyword("WITH")) RETURN_IF_ERROR(ParseProperties(properties));
    alter.partition_properties.push_back(std::move(properties));
  }
  return absl::OkStatus();
}

// DROP [IF EXISTS] PARTITION (k = v, ...) [, PARTITION (k = v, ...)]*, as Flink.
absl::Status Parser::ParseDropPartitions(AlterTable& alter) {
  alter.action = AlterTable::Action::kDropPartitions;
  ASSIGN_OR_RETURN(alter.partition_if, ParseIfExists());
  do {
    RETURN_IF_ERROR(ExpectKeyword("PARTITION"));
    ASSIGN_OR_RETURN(std::vector<PartitionValueDef> spec, ParsePartitionSpec());
    alter.partitions.push_back(std::move(spec));
  } while (AcceptSymbol(","));
  return absl::OkStatus();
}

// One element, or a parenthesized list of them; a column may be followed by FIRST or AFTER c.
absl::Status Parser::ParseAlterTableElements(AlterTable& alter) {
  const bool list = AcceptSymbol("(");
  do {
    const size_t columns_before = alter.elements.columns.size();
    RETURN_IF_ERROR(ParseTableElement(alter.elements));
    if (alter.elements.columns.size() == columns_before) continue;  // a key or watermark
    AlterTable::Position position;
    if (AcceptKeyword("FIRST")) {
      position.first = true;
    } else if (AcceptKeyword("AFTER")) {
      ASSIGN_OR_RETURN(position.after, ParseIdentifier());
    }
    alter.positions.push_back(std::move(position));
  } while (list && AcceptSymbol(","));
  if (list) return ExpectSymbol(")");
  return absl::OkStatus();
}

absl::Status Parser::ParseCreateCatalog(Statement& stmt) {
  Advance();  // CATALOG
  stmt.kind = StatementKind::kCreateCatalog;
  stmt.create_catalog = std::make_unique<CreateCatalog>();
  CreateCatalog& catalog = *stmt.create_catalog;
  ASSIGN_OR_RETURN(catalog.if_not_exists, ParseIfNotExists());
  ASSIGN_OR_RETURN(catalog.name, ParseIdentifier());
  if (AcceptKeyword("COMMENT")) {
    ASSIGN_OR_RETURN(catalog.comment, ParseStringLiteral());
  }
  RETURN_IF_ERROR(ExpectKeyword("WITH"));
  return ParseProperties(catalog.properties);
}

// RESET's ('k1', 'k2', ...): at least one quoted key.
absl::Status Parser::ParseOptionKeys(std::vector<std::string>& keys) {
  RETURN_IF_ERROR(ExpectSymbol("("));
  do {
    ASSIGN_OR_RETURN(std::string key, ParseStringLiteral());
    keys.push_back(std::move(key));
  } while (AcceptSymbol(","));
  return ExpectSymbol(")");
}

}  // namespace eddy::sql
