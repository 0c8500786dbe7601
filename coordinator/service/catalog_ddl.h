// Catalog DDL beyond CREATE/DROP TABLE and VIEW: CREATE/ALTER/DROP DATABASE, CREATE/DROP CATALOG,
// ALTER TABLE and ALTER VIEW. Each checks everything before it changes anything, so a failed
// statement leaves the catalog as it was.
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/catalog/catalog_objects.h"
#include "coordinator/service/session.h"

namespace eddy {

absl::Status ExecuteCreateDatabase(Session& session, const sql::CreateDatabase& ddl);
absl::Status ExecuteAlterDatabase(Session& session, const sql::AlterDatabase& ddl);
absl::Status ExecuteDropDatabase(Session& session, const sql::Drop& drop);
absl::Status ExecuteCreateCatalog(Session& session, const sql::CreateCatalog& ddl);
absl::Status ExecuteDropCatalog(Session& session, const sql::Drop& drop);
// ALTER CATALOG c SET / RESET options or COMMENT; a catalog's type cannot change.
absl::Status ExecuteAlterCatalog(Session& session, const sql::AlterCatalog& ddl);
// The table is re-bound as a whole after the change (as CREATE TABLE binds it), so a change that
// leaves it invalid (a computed column over a dropped column, a bad option) is refused.
absl::Status ExecuteAlterTable(Session& session, sql::AlterTable& ddl);
absl::Status ExecuteAlterView(Session& session, sql::AlterView& ddl);
// CREATE TABLE ... AS query: the table to create, with the query's columns (bound like a CREATE
// TABLE that lists them, so its options are validated the same way). The caller creates it and
// submits the INSERT of the query.
absl::StatusOr<CatalogTable> BindCreateTableAs(Session& session, sql::CreateTable& ddl);
// The columns `query` yields, as a view named `path` over it would have them (CREATE TABLE AS and
// CREATE MATERIALIZED TABLE take these). `query` is borrowed for the binding and given back.
absl::StatusOr<Schema> QueryColumns(Session& session, const ObjectPath& path, sql::QueryPtr& query);
// `path` as the three-part name a statement would write.
sql::QualifiedName NameOf(const ObjectPath& path);
// The permanent table REPLACE TABLE (or CREATE OR REPLACE TABLE) ... AS replaces at `path`: null
// when there is none and `replace` may create it. A missing table for REPLACE TABLE, a view and a
// temporary table are errors.
absl::StatusOr<std::shared_ptr<const CatalogTable>> TableToReplace(
    const SessionCatalog& catalog, const ObjectPath& path, sql::CreateTable::Replace replace);

}  // namespace eddy
