// Materialized table statements in Flink 1.20's grammar:
//   CREATE MATERIALIZED TABLE [IF NOT EXISTS] name
//     [([CONSTRAINT c] PRIMARY KEY (cols) NOT ENFORCED)] [COMMENT '...']
//     [PARTITIONED BY (cols)] [WITH (...)]
//     FRESHNESS = INTERVAL '<n>' <unit> [REFRESH_MODE = CONTINUOUS | FULL] AS query
//   ALTER MATERIALIZED TABLE name SUSPEND | RESUME [WITH (...)] | REFRESH [PARTITION (k = v, ...)]
//   DROP MATERIALIZED TABLE [IF EXISTS] name
// What they mean is checked when they run (coordinator/service/materialized_table.h).
#include <memory>
#include <utility>

#include "common/base/status_macros.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {
namespace {

// Starts `stmt` as a materialized table statement of `op`.
MaterializedTableStatement& StartMaterializedTableStatement(Statement& stmt,
                                                            MaterializedTableStatement::Op op) {
  stmt.kind = StatementKind::kMaterializedTable;
  stmt.materialized_table = std::make_unique<MaterializedTableStatement>();
  stmt.materialized_table->op = op;
  return *stmt.materialized_table;
}

constexpr char kIntervalFreshnessOnly[] =
    "MATERIALIZED TABLE only supports define interval type FRESHNESS, please refer to the "
    "materialized table document.";

}  // namespace

absl::Status Parser::ParseCreateMaterializedTable(Statement& stmt, bool temporary,
                                                  bool or_replace) {
  const Token& materialized = Advance();  // MATERIALIZED
  if (temporary)
    return ErrorAt(materialized, "CREATE TEMPORARY MATERIALIZED TABLE is not supported.");
  if (or_replace) return ErrorAt(materialized, "REPLACE MATERIALIZED TABLE is not supported.");
  RETURN_IF_ERROR(ExpectKeyword("TABLE"));
  MaterializedTableStatement& mt =
      StartMaterializedTableStatement(stmt, MaterializedTableStatement::Op::kCreate);
  ASSIGN_OR_RETURN(mt.if_not_exists, ParseIfNotExists());
  ASSIGN_OR_RETURN(mt.name, ParseQualifiedName());
  if (AcceptSymbol("(")) {
    // Only a table constraint: the columns come from the query.
    if (PeekKeyword("CONSTRAINT") && PeekIdentifier(1)) {
      Advance();
      RETURN_IF_ERROR(ParseIdentifier().status());  // the constraint's name is not kept
    }
    if (!(PeekKeyword("PRIMARY") && PeekKeyword("KEY", 1))) {
      return ErrorExpected(
          "'CONSTRAINT' or 'PRIMARY KEY' (a materialized table's columns come "
          "from its query)");
    }
    Advance();
    Advance();
    ASSIGN_OR_RETURN(mt.primary_key, ParseIdentifierList());
    RETURN_IF_ERROR(ParseNotEnforced());
    RETURN_IF_ERROR(ExpectSymbol(")"));
  }
  if (AcceptKeyword("COMMENT")) {
    ASSIGN_OR_RETURN(mt.comment, ParseStringLiteral());
  }
  if (AcceptKeyword("PARTITIONED")) {
    RETURN_IF_ERROR(ExpectKeyword("BY"));
    ASSIGN_OR_RETURN(mt.partition_keys, ParseIdentifierList());
  }
  if (AcceptKeyword("WITH")) RETURN_IF_ERROR(ParseProperties(mt.properties));
  RETURN_IF_ERROR(ExpectKeyword("FRESHNESS"));
  RETURN_IF_ERROR(ParseFreshness(mt));
  if (AcceptKeyword("REFRESH_MODE")) {
    RETURN_IF_ERROR(ExpectSymbol("="));
    if (!PeekKeyword("CONTINUOUS") && !PeekKeyword("FULL")) {
      return ErrorExpected("'CONTINUOUS' or 'FULL'");
    }
    mt.refresh_mode = Advance().upper;
  }
  RETURN_IF_ERROR(ExpectKeyword("AS"));
  const size_t begin = Peek().begin;
  ASSIGN_OR_RETURN(mt.query, ParseQuery());
  mt.query_text = SourceText(begin, prev_end_);
  return absl::OkStatus();
}

absl::Status Parser::ParseFreshness(MaterializedTableStatement& mt) {
  RETURN_IF_ERROR(ExpectSymbol("="));
  mt.freshness_pos = Peek().pos;
  if (!AcceptKeyword("INTERVAL")) return ErrorAt(Peek(), kIntervalFreshnessOnly);
  if (AcceptSymbol("-")) {
    mt.freshness_negative = true;
  } else {
    AcceptSymbol("+");
  }
  if (Peek().kind != TokenKind::kString) return ErrorAt(Peek(), kIntervalFreshnessOnly);
  mt.freshness_text = Advance().text;
  ASSIGN_OR_RETURN(mt.freshness_unit, ParseIntervalUnit());
  if (AcceptKeyword("TO")) {
    ASSIGN_OR_RETURN(std::string to, ParseIntervalUnit());
    mt.freshness_unit += " TO " + to;
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseAlterMaterializedTable(Statement& stmt) {
  Advance();  // MATERIALIZED
  RETURN_IF_ERROR(ExpectKeyword("TABLE"));
  // The operation is set once known.
  MaterializedTableStatement& mt =
      StartMaterializedTableStatement(stmt, MaterializedTableStatement::Op::kSuspend);
  ASSIGN_OR_RETURN(mt.name, ParseQualifiedName());
  if (AcceptKeyword("SUSPEND")) {
    mt.op = MaterializedTableStatement::Op::kSuspend;
  } else if (AcceptKeyword("RESUME")) {
    mt.op = MaterializedTableStatement::Op::kResume;
    if (AcceptKeyword("WITH")) RETURN_IF_ERROR(ParseProperties(mt.properties));
  } else if (AcceptKeyword("REFRESH")) {
    mt.op = MaterializedTableStatement::Op::kRefresh;
    if (AcceptKeyword("PARTITION")) {
      ASSIGN_OR_RETURN(mt.partition, ParsePartitionSpec());
    }
  } else if (PeekKeyword("SET") || PeekKeyword("RESET") || PeekKeyword("AS")) {
    return ErrorAt(Peek(), "ALTER MATERIALIZED TABLE ... " + Peek().upper +
                               " is not supported; SUSPEND, RESUME and REFRESH are");
  } else {
    return ErrorExpected("'SUSPEND', 'RESUME' or 'REFRESH'");
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseDropMaterializedTable(Statement& stmt, bool temporary) {
  const Token& materialized = Advance();  // MATERIALIZED
  if (temporary)
    return ErrorAt(materialized, "DROP TEMPORARY MATERIALIZED TABLE is not supported.");
  RETURN_IF_ERROR(ExpectKeyword("TABLE"));
  MaterializedTableStatement& mt =
      StartMaterializedTableStatement(stmt, MaterializedTableStatement::Op::kDrop);
  ASSIGN_OR_RETURN(mt.if_exists, ParseIfExists());
  ASSIGN_OR_RETURN(mt.name, ParseQualifiedName());
  return absl::OkStatus();
}

}  // namespace eddy::sql
