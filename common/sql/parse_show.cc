// SHOW statements, in the SQL client's forms:
//   SHOW CATALOGS | CURRENT CATALOG | CURRENT DATABASE | JOBS | WORKERS | JARS | [FULL] MODULES
//   SHOW DATABASES [(FROM | IN) catalog]
//   SHOW TABLES | VIEWS | [USER] FUNCTIONS [(FROM | IN) [catalog.]database]
//   SHOW COLUMNS (FROM | IN) [[catalog.]database.]table
//   SHOW PROCEDURES [(FROM | IN) [catalog.]database]
//   SHOW MODELS [(FROM | IN) [catalog.]database]
//   SHOW CREATE TABLE | MATERIALIZED TABLE | VIEW | CATALOG | MODEL name
//   SHOW PARTITIONS [[catalog.]database.]table [PARTITION (k = literal, ...)]
// where the listing forms (all but the last and the single-value ones) may end with
// [NOT] LIKE | ILIKE '<pattern>'.
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {
namespace {

bool IsListing(const std::string& what) {
  return what == "CATALOGS" || what == "DATABASES" || what == "TABLES" || what == "VIEWS" ||
         what == "FUNCTIONS" || what == "USER FUNCTIONS" || what == "COLUMNS" ||
         what == "PROCEDURES" || what == "MODELS";
}

}  // namespace

absl::Status Parser::ParseShow(Statement& stmt) {
  Advance();  // SHOW
  stmt.kind = StatementKind::kShow;
  stmt.show = std::make_unique<Show>();
  Show& show = *stmt.show;
  const Token& t = Peek();
  if (t.kind == TokenKind::kWord &&
      (t.upper == "CATALOGS" || t.upper == "DATABASES" || t.upper == "TABLES" ||
       t.upper == "VIEWS" || t.upper == "FUNCTIONS" || t.upper == "JOBS" || t.upper == "WORKERS" ||
       t.upper == "MODULES" || t.upper == "COLUMNS" || t.upper == "JARS" ||
       t.upper == "PROCEDURES" || t.upper == "MODELS")) {
    show.what = Advance().upper;
  } else if (PeekKeyword("USER") && PeekKeyword("FUNCTIONS", 1)) {
    Advance();
    Advance();
    show.what = "USER FUNCTIONS";
  } else if (PeekKeyword("FULL") && PeekKeyword("MODULES", 1)) {
    Advance();
    Advance();
    show.what = "FULL MODULES";
  } else if (AcceptKeyword("CURRENT")) {
    if (!PeekKeyword("CATALOG") && !PeekKeyword("DATABASE")) {
      return ErrorExpected("'CATALOG' or 'DATABASE'");
    }
    show.what = "CURRENT " + Advance().upper;
    return absl::OkStatus();
  } else if (AcceptKeyword("PARTITIONS")) {
    show.what = "PARTITIONS";
    ASSIGN_OR_RETURN(show.name, ParseQualifiedName());
    if (AcceptKeyword("PARTITION")) {
      ASSIGN_OR_RETURN(show.partition, ParsePartitionSpec());
    }
    return absl::OkStatus();
  } else if (AcceptKeyword("CREATE")) {
    if (PeekKeyword("MATERIALIZED") && PeekKeyword("TABLE", 1)) {
      Advance();
      Advance();
      show.what = "CREATE MATERIALIZED TABLE";
      ASSIGN_OR_RETURN(show.name, ParseQualifiedName());
      return absl::OkStatus();
    }
    if (!PeekKeyword("TABLE") && !PeekKeyword("VIEW") && !PeekKeyword("CATALOG") &&
        !PeekKeyword("MODEL")) {
      return ErrorExpected("'TABLE', 'MATERIALIZED TABLE', 'VIEW', 'CATALOG' or 'MODEL'");
    }
    show.what = "CREATE " + Advance().upper;
    ASSIGN_OR_RETURN(show.name, ParseQualifiedName());
    return absl::OkStatus();
  } else {
    return ErrorExpected(
        "'CATALOGS', 'DATABASES', 'TABLES', 'VIEWS', 'COLUMNS', 'FUNCTIONS', 'USER FUNCTIONS', "
        "'MODULES', 'FULL MODULES', 'PROCEDURES', 'MODELS', 'JOBS', 'WORKERS', 'JARS', "
        "'PARTITIONS', 'CURRENT' or 'CREATE'");
  }
  if (!IsListing(show.what)) return absl::OkStatus();

  if (show.what == "COLUMNS") {
    if (!AcceptKeyword("FROM") && !AcceptKeyword("IN")) return ErrorExpected("'FROM' or 'IN'");
    ASSIGN_OR_RETURN(show.name, ParseQualifiedName());
  } else if (show.what != "CATALOGS" && (AcceptKeyword("FROM") || AcceptKeyword("IN"))) {
    const Token at = Peek();
    ASSIGN_OR_RETURN(QualifiedName from, ParseQualifiedName());
    const size_t most = show.what == "DATABASES" ? 1 : 2;
    if (from.parts.size() > most) {
      return ErrorAt(at,
                     absl::StrCat("expected ", most == 1 ? "a catalog name" : "[catalog.]database",
                                  " but found '", from.ToString(), "'"));
    }
    show.from = std::move(from);
  }
  show.not_like = AcceptKeyword("NOT");
  if (AcceptKeyword("ILIKE")) {
    show.ilike = true;
  } else if (!AcceptKeyword("LIKE")) {
    if (show.not_like) return ErrorExpected("'LIKE' or 'ILIKE'");
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(show.like, ParseStringLiteral());
  return absl::OkStatus();
}

}  // namespace eddy::sql
