// CREATE TABLE (columns, computed columns, primary key, watermark, COMMENT, WITH options, LIKE,
// AS query) and SQL types.
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {

absl::Status Parser::ParseCreateTable(Statement& stmt, bool temporary,
                                      CreateTable::Replace replace) {
  Advance();  // TABLE
  stmt.kind = StatementKind::kCreateTable;
  stmt.create_table = std::make_unique<CreateTable>();
  CreateTable& table = *stmt.create_table;
  table.temporary = temporary;
  table.replace = replace;
  if (replace == CreateTable::Replace::kNo) {
    ASSIGN_OR_RETURN(table.if_not_exists, ParseIfNotExists());
  }
  ASSIGN_OR_RETURN(table.name, ParseQualifiedName());
  if (AcceptSymbol("(")) {
    do {
      RETURN_IF_ERROR(ParseTableElement(table));
    } while (AcceptSymbol(","));
    RETURN_IF_ERROR(ExpectSymbol(")"));
  }
  if (AcceptKeyword("COMMENT")) {
    ASSIGN_OR_RETURN(table.comment, ParseStringLiteral());
  }
  if (PeekKeyword("DISTRIBUTED")) {
    ASSIGN_OR_RETURN(table.distribution, ParseDistribution(Advance()));
  }
  if (PeekKeyword("PARTITIONED")) {
    table.partition_pos = Advance().pos;
    RETURN_IF_ERROR(ExpectKeyword("BY"));
    ASSIGN_OR_RETURN(table.partition_keys, ParseIdentifierList());
  }
  if (AcceptKeyword("WITH")) {
    RETURN_IF_ERROR(ParseProperties(table.properties));
  }
  if (AcceptKeyword("LIKE")) {
    ASSIGN_OR_RETURN(table.like, ParseLikeClause());
  }
  const char* const syntax = replace == CreateTable::Replace::kNo ? "CREATE TABLE AS SELECT"
                             : replace == CreateTable::Replace::kReplace
                                 ? "REPLACE TABLE AS SELECT"
                                 : "CREATE OR REPLACE TABLE AS SELECT";
  if (PeekKeyword("AS")) {
    // CREATE TABLE ... AS SELECT: the columns come from the query, as in Flink, where explicit
    // columns, LIKE and temporary tables are refused with it.
    const Token& as = Advance();
    if (!table.columns.empty() || !table.primary_key.empty() || table.watermark) {
      return ErrorAt(
          as, absl::StrCat(syntax, " syntax does not support to specify explicit columns yet."));
    }
    if (table.like) {
      return ErrorAt(as, absl::StrCat(syntax, " syntax does not support to use LIKE clause yet."));
    }
    if (temporary) {
      return ErrorAt(
          as, absl::StrCat(syntax, " syntax does not support to create temporary table yet."));
    }
    if (table.if_not_exists) {
      return ErrorAt(as,
                     absl::StrCat(syntax, " syntax does not support IF NOT EXISTS statement yet."));
    }
    ASSIGN_OR_RETURN(table.as_query, ParseQuery());
  } else if (replace != CreateTable::Replace::kNo) {
    return ErrorExpected(absl::StrCat("'AS' and a query (", syntax, ")"));
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseTableElement(CreateTable& table) {
  if (PeekKeyword("CONSTRAINT") && PeekIdentifier(1)) {
    Advance();
    RETURN_IF_ERROR(ParseIdentifier().status());  // the constraint's name is not kept
    if (!PeekKeyword("PRIMARY")) return ErrorExpected("'PRIMARY'");
  }
  if (PeekKeyword("PRIMARY") && PeekKeyword("KEY", 1)) {
    const Token& primary = Advance();
    Advance();
    if (!table.primary_key.empty())
      return ErrorAt(primary, "a table can have only one PRIMARY KEY");
    ASSIGN_OR_RETURN(table.primary_key, ParseIdentifierList());
    return ParseNotEnforced();
  }
  if (PeekKeyword("WATERMARK") && PeekKeyword("FOR", 1)) {
    const Token& watermark = Advance();
    Advance();
    if (table.watermark.has_value()) {
      return ErrorAt(watermark, "a table can have only one WATERMARK");
    }
    WatermarkDef def;
    def.pos = watermark.pos;
    ASSIGN_OR_RETURN(def.column, ParseIdentifier());
    RETURN_IF_ERROR(ExpectKeyword("AS"));
    ASSIGN_OR_RETURN(def.expr, ParseExpr());
    table.watermark = std::move(def);
    return absl::OkStatus();
  }
  return ParseColumn(table);
}

absl::Status Parser::ParseColumn(CreateTable& table) {
  ColumnDef column;
  column.pos = Peek().pos;
  ASSIGN_OR_RETURN(column.name, ParseIdentifier());
  if (AcceptKeyword("AS")) {
    ASSIGN_OR_RETURN(column.computed, ParseExpr());
  } else {
    ASSIGN_OR_RETURN(column.type, ParseType());
    if (AcceptKeyword("METADATA")) {
      column.metadata = column.name;
      if (AcceptKeyword("FROM")) {
        ASSIGN_OR_RETURN(column.metadata, ParseStringLiteral());
      }
      column.metadata_virtual = AcceptKeyword("VIRTUAL");
    }
    if (PeekKeyword("PRIMARY") && PeekKeyword("KEY", 1)) {
      const Token& primary = Advance();
      Advance();
      if (!table.primary_key.empty()) {
        return ErrorAt(primary, "a table can have only one PRIMARY KEY");
      }
      RETURN_IF_ERROR(ParseNotEnforced());
      table.primary_key.push_back(column.name);
    }
  }
  if (AcceptKeyword("COMMENT")) {
    ASSIGN_OR_RETURN(column.comment, ParseStringLiteral());
  }
  table.columns.push_back(std::move(column));
  return absl::OkStatus();
}

absl::Status Parser::ParseNotEnforced() {
  // Flink only has NOT ENFORCED primary keys: it never checks them, it trusts them.
  if (!(PeekKeyword("NOT") && PeekKeyword("ENFORCED", 1))) return ErrorExpected("'NOT ENFORCED'");
  Advance();
  Advance();
  return absl::OkStatus();
}

absl::StatusOr<DistributionDef> Parser::ParseDistribution(const Token& keyword) {
  DistributionDef distribution;
  distribution.pos = keyword.pos;
  if (AcceptKeyword("BY")) {
    if (PeekKeyword("HASH") || PeekKeyword("RANGE")) distribution.kind = Advance().upper;
    ASSIGN_OR_RETURN(distribution.keys, ParseIdentifierList());
    if (!AcceptKeyword("INTO")) return distribution;
  } else if (!AcceptKeyword("INTO")) {
    return ErrorExpected("'BY' or 'INTO'");
  }
  const Token& count = Peek();
  ASSIGN_OR_RETURN(int64_t buckets, ParseIntegerLiteral());
  if (buckets <= 0) {
    return ErrorAt(count,
                   absl::StrCat("the number of buckets must be a positive integer, not ", buckets));
  }
  distribution.buckets = buckets;
  RETURN_IF_ERROR(ExpectKeyword("BUCKETS"));
  return distribution;
}

absl::Status Parser::ParseProperties(PropertyList& properties) {
  RETURN_IF_ERROR(ExpectSymbol("("));
  if (AcceptSymbol(")")) return absl::OkStatus();
  do {
    const Token& key_token = Peek();
    ASSIGN_OR_RETURN(std::string key, ParseStringLiteral());
    for (const auto& [existing, value] : properties.entries) {
      if (existing == key) {
        return ErrorAt(key_token, "duplicate key '" + key + "' in WITH options");
      }
    }
    RETURN_IF_ERROR(ExpectSymbol("="));
    ASSIGN_OR_RETURN(std::string value, ParseStringLiteral());
    properties.entries.emplace_back(std::move(key), std::move(value));
    properties.positions.push_back(key_token.pos);
  } while (AcceptSymbol(","));
  return ExpectSymbol(")");
}

absl::StatusOr<LikeClause> Parser::ParseLikeClause() {
  LikeClause like;
  ASSIGN_OR_RETURN(like.source, ParseQualifiedName());
  if (!AcceptSymbol("(")) return like;
  do {
    const Token& how = Peek();
    if (!(PeekKeyword("INCLUDING") || PeekKeyword("EXCLUDING") || PeekKeyword("OVERWRITING"))) {
      return ErrorExpected("'INCLUDING', 'EXCLUDING' or 'OVERWRITING'");
    }
    Advance();
    const Token& what = Peek();
    if (!(PeekKeyword("ALL") || PeekKeyword("CONSTRAINTS") || PeekKeyword("DISTRIBUTION") ||
          PeekKeyword("PARTITIONS") || PeekKeyword("GENERATED") || PeekKeyword("METADATA") ||
          PeekKeyword("OPTIONS") || PeekKeyword("WATERMARKS"))) {
      return ErrorExpected(
          "'ALL', 'CONSTRAINTS', 'DISTRIBUTION', 'PARTITIONS', 'GENERATED', 'METADATA', 'OPTIONS' "
          "or 'WATERMARKS'");
    }
    Advance();
    like.options.emplace_back(how.upper, what.upper);
    AcceptSymbol(",");  // Flink separates options by spaces; tolerate commas
  } while (!PeekSymbol(")") && Peek().kind != TokenKind::kEnd);
  RETURN_IF_ERROR(ExpectSymbol(")"));
  return like;
}

absl::StatusOr<std::vector<int>> Parser::ParseTypeParams() {
  std::vector<int> params;
  RETURN_IF_ERROR(ExpectSymbol("("));
  do {
    const Token& token = Peek();
    int value = 0;
    if (token.kind != TokenKind::kInteger || !absl::SimpleAtoi(token.text, &value)) {
      return ErrorExpected("integer literal");
    }
    Advance();
    params.push_back(value);
  } while (AcceptSymbol(","));
  RETURN_IF_ERROR(ExpectSymbol(")"));
  return params;
}

absl::StatusOr<TypeSpec> Parser::ParseType() {
  const Token& token = Peek();
  if (token.kind != TokenKind::kWord) return ErrorExpected("type");
  TypeSpec type;
  type.pos = token.pos;
  const std::string& word = token.upper;
  // Types that take an optional parenthesized length/precision, with their canonical name.
  std::string with_params;
  if (word == "BOOLEAN" || word == "TINYINT" || word == "SMALLINT" || word == "BIGINT" ||
      word == "FLOAT" || word == "STRING" || word == "DATE" || word == "BYTES") {
    type.name = word;
  } else if (word == "INT" || word == "INTEGER") {
    type.name = "INT";
  } else if (word == "DOUBLE") {
    type.name = "DOUBLE";
    if (PeekKeyword("PRECISION", 1)) Advance();
  } else if (word == "DECIMAL" || word == "DEC" || word == "NUMERIC") {
    with_params = "DECIMAL";
  } else if (word == "VARCHAR" || word == "CHAR" || word == "TIME" || word == "TIMESTAMP" ||
             word == "TIMESTAMP_LTZ" || word == "VARBINARY" || word == "BINARY") {
    with_params = word;
  } else if (word == "ARRAY" || word == "MULTISET" || word == "MAP" || word == "ROW") {
    type.name = word;
    Advance();
    RETURN_IF_ERROR(ParseNestedTypes(&type));
    return ParseTypeNullability(std::move(type));
  } else {
    return ErrorAt(token, "unknown type " + FoundText(token));
  }
  Advance();
  if (!with_params.empty()) {
    type.name = with_params;
    if (PeekSymbol("(")) {
      ASSIGN_OR_RETURN(type.params, ParseTypeParams());
    }
  }
  if (type.name == "TIMESTAMP") {
    if (PeekKeyword("WITH") && PeekKeyword("LOCAL", 1)) {
      Advance();
      Advance();
      RETURN_IF_ERROR(ExpectKeyword("TIME"));
      RETURN_IF_ERROR(ExpectKeyword("ZONE"));
      type.name = "TIMESTAMP_LTZ";
    } else if (AcceptKeyword("WITHOUT")) {
      RETURN_IF_ERROR(ExpectKeyword("TIME"));
      RETURN_IF_ERROR(ExpectKeyword("ZONE"));
    }
  }
  return ParseTypeNullability(std::move(type));
}

absl::StatusOr<TypeSpec> Parser::ParseTypeNullability(TypeSpec type) {
  if (PeekKeyword("NOT") && PeekKeyword("NULL", 1)) {
    Advance();
    Advance();
    type.not_null = true;
  } else {
    AcceptKeyword("NULL");
  }
  return type;
}

// ARRAY<T>, MULTISET<T>, MAP<K, V>, ROW<name T, ...> and ROW(name T, ...); a ROW field may carry a
// description string, as in Flink, which is read and dropped.
absl::Status Parser::ParseNestedTypes(TypeSpec* type) {
  const bool is_row = type->name == "ROW";
  const bool parenthesized = is_row && PeekSymbol("(");
  const char* close = parenthesized ? ")" : ">";
  const Token& open = Peek();
  if (parenthesized) {
    Advance();
  } else {
    RETURN_IF_ERROR(ExpectSymbol("<"));
  }
  do {
    if (is_row) {
      const Token& name = Peek();
      if (name.kind != TokenKind::kWord && name.kind != TokenKind::kQuotedIdentifier) {
        return ErrorExpected("ROW field name");
      }
      type->field_names.push_back(name.text);
      Advance();
    }
    ASSIGN_OR_RETURN(TypeSpec child, ParseType());
    type->children.push_back(std::move(child));
    if (is_row && Peek().kind == TokenKind::kString) Advance();  // the field's description
  } while (AcceptSymbol(","));
  RETURN_IF_ERROR(ExpectSymbol(close));
  const size_t expected = type->name == "MAP" ? 2 : 1;
  if (!is_row && type->children.size() != expected) {
    return ErrorAt(open, absl::StrCat(type->name, " takes ", expected, " type",
                                      expected == 1 ? "" : "s", ", found ", type->children.size()));
  }
  return absl::OkStatus();
}

}  // namespace eddy::sql
