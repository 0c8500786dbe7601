#include "coordinator/service/catalog_ddl.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/sql/parser.h"
#include "coordinator/planner/planner.h"
#include "coordinator/service/alter_partitions.h"
#include "coordinator/service/show_create.h"

namespace eddy {
namespace {

absl::Status Invalid(const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat("Validation error: ", message));
}

// [catalog.]database of a DDL statement, the catalog defaulting to the current one.
absl::StatusOr<std::pair<std::string, std::string>> DatabaseName(const Session& session,
                                                                 const sql::QualifiedName& name) {
  if (name.parts.size() == 1)
    return std::make_pair(session.catalog.current_catalog(), name.parts[0]);
  if (name.parts.size() == 2) return std::make_pair(name.parts[0], name.parts[1]);
  return Invalid(absl::StrCat("'", name.ToString(), "' is not a database name"));
}

std::string Quoted(const std::string& column) { return absl::StrCat("`", column, "`"); }

std::vector<sql::ColumnDef>::iterator FindColumn(std::vector<sql::ColumnDef>& columns,
                                                 const std::string& name) {
  return std::find_if(columns.begin(), columns.end(),
                      [&](const sql::ColumnDef& c) { return c.name == name; });
}

// Puts `column` FIRST, AFTER another, or (neither) at `fallback`.
absl::Status PlaceColumn(std::vector<sql::ColumnDef>& columns, sql::ColumnDef column,
                         const sql::AlterTable::Position& position, size_t fallback) {
  size_t at = fallback;
  if (position.first) {
    at = 0;
  } else if (position.after) {
    auto after = FindColumn(columns, *position.after);
    if (after == columns.end()) {
      return Invalid(absl::StrCat("Referenced column ", Quoted(*position.after),
                                  " by 'AFTER' does not exist in the table."));
    }
    at = static_cast<size_t>(after - columns.begin()) + 1;
  }
  columns.insert(columns.begin() + static_cast<std::ptrdiff_t>(std::min(at, columns.size())),
                 std::move(column));
  return absl::OkStatus();
}

// The table's current definition as a CREATE TABLE, parsed back from SHOW CREATE TABLE's text.
absl::StatusOr<std::unique_ptr<sql::CreateTable>> DefinitionOf(const CatalogTable& table) {
  ASSIGN_OR_RETURN(sql::StatementPtr stmt, sql::ParseStatement(ShowCreateTable(table, false)));
  if (stmt->kind != sql::StatementKind::kCreateTable) {
    return absl::InternalError("the table's definition does not parse back as CREATE TABLE");
  }
  return std::move(stmt->create_table);
}

absl::Status AddOrModify(sql::AlterTable& ddl, sql::CreateTable& table) {
  const bool add = ddl.action == sql::AlterTable::Action::kAdd;
  sql::CreateTable& elements = ddl.elements;
  for (size_t i = 0; i < elements.columns.size(); ++i) {
    sql::ColumnDef& column = elements.columns[i];
    auto existing = FindColumn(table.columns, column.name);
    const sql::AlterTable::Position& position = ddl.positions[i];
    if (add) {
      if (existing != table.columns.end()) {
        return Invalid(absl::StrCat("Try to add a column ", Quoted(column.name),
                                    " which already exists in the table."));
      }
      RETURN_IF_ERROR(
          PlaceColumn(table.columns, std::move(column), position, table.columns.size()));
    } else {
      if (existing == table.columns.end()) {
        return Invalid(absl::StrCat("Try to modify a column ", Quoted(column.name),
                                    " which does not exist in the table."));
      }
      const size_t was = static_cast<size_t>(existing - table.columns.begin());
      table.columns.erase(existing);
      RETURN_IF_ERROR(PlaceColumn(table.columns, std::move(column), position, was));
    }
  }
  if (!elements.primary_key.empty()) {
    if (add && !table.primary_key.empty()) {
      return Invalid(absl::StrCat(
          "The base table has already defined the primary key constraint [",
          absl::StrJoin(table.primary_key, ", ",
                        [](std::string* out, const std::string& c) { out->append(Quoted(c)); }),
          "]. You might want to drop it before adding a new one."));
    }
    if (!add && table.primary_key.empty()) {
      return Invalid(
          "The base table does not define any primary key constraint. You might want to add a "
          "new one.");
    }
    table.primary_key = elements.primary_key;
  }
  if (elements.watermark) {
    if (add && table.watermark) {
      return Invalid(absl::StrCat("The base table has already defined the watermark strategy on ",
                                  Quoted(table.watermark->column),
                                  ". You might want to drop it before adding a new one."));
    }
    if (!add && !table.watermark) {
      return Invalid(
          "The base table does not define any watermark. You might want to add a new one.");
    }
    table.watermark = std::move(elements.watermark);
  }
  return absl::OkStatus();
}

absl::Status DropColumns(const std::vector<std::string>& names, sql::CreateTable& table) {
  for (const std::string& name : names) {
    auto column = FindColumn(table.columns, name);
    if (column == table.columns.end()) {
      return Invalid(
          absl::StrCat("The column ", Quoted(name), " does not exist in the base table."));
    }
    if (std::find(table.primary_key.begin(), table.primary_key.end(), name) !=
        table.primary_key.end()) {
      return Invalid(absl::StrCat("The column ", Quoted(name), " is used as the primary key."));
    }
    if (table.watermark && table.watermark->column == name) {
      return Invalid(
          absl::StrCat("The column ", Quoted(name), " is used as the watermark's time column."));
    }
    if (std::find(table.partition_keys.begin(), table.partition_keys.end(), name) !=
        table.partition_keys.end()) {
      return Invalid(absl::StrCat("The column ", Quoted(name), " is used as the partition keys."));
    }
    if (table.distribution &&
        std::find(table.distribution->keys.begin(), table.distribution->keys.end(), name) !=
            table.distribution->keys.end()) {
      return Invalid(absl::StrCat("The column ", Quoted(name),
                                  " is used as a bucket key of the distribution."));
    }
    table.columns.erase(column);
  }
  return absl::OkStatus();
}

absl::Status RenameColumn(const sql::AlterTable& ddl, sql::CreateTable& table) {
  auto column = FindColumn(table.columns, ddl.column);
  if (column == table.columns.end()) {
    return Invalid(
        absl::StrCat("The column ", Quoted(ddl.column), " does not exist in the base table."));
  }
  if (FindColumn(table.columns, ddl.new_column) != table.columns.end()) {
    return Invalid(
        absl::StrCat("The column ", Quoted(ddl.new_column), " already existed in table schema."));
  }
  column->name = ddl.new_column;
  for (std::string& key : table.primary_key) {
    if (key == ddl.column) key = ddl.new_column;
  }
  if (table.watermark && table.watermark->column == ddl.column) {
    table.watermark->column = ddl.new_column;
  }
  for (std::string& key : table.partition_keys) {
    if (key == ddl.column) key = ddl.new_column;
  }
  if (table.distribution) {
    for (std::string& key : table.distribution->keys) {
      if (key == ddl.column) key = ddl.new_column;
    }
  }
  return absl::OkStatus();
}

// ADD | MODIFY | DROP DISTRIBUTION, with Flink's messages.
absl::Status AlterDistribution(sql::AlterTable& ddl, const ObjectPath& path,
                               sql::CreateTable& table) {
  using Action = sql::AlterTable::Action;
  if (ddl.action == Action::kDropDistribution) {
    if (!table.distribution) {
      return Invalid(
          absl::StrCat("Table ", path.ToQuotedString(), " does not have a distribution to drop."));
    }
    table.distribution.reset();
    return absl::OkStatus();
  }
  if (ddl.action == Action::kAddDistribution && table.distribution) {
    const TableDistribution existing{table.distribution->kind, table.distribution->keys,
                                     table.distribution->buckets};
    return Invalid(absl::StrCat("The base table has already defined the distribution `",
                                existing.ToString(),
                                "`. You can modify it or drop it before adding a new one."));
  }
  if (ddl.action == Action::kModifyDistribution && !table.distribution) {
    return Invalid(
        "The base table does not define any distribution. You might want to add a new one.");
  }
  table.distribution = std::move(ddl.elements.distribution);
  return absl::OkStatus();
}

absl::Status DropPrimaryKey(const sql::AlterTable& ddl, sql::CreateTable& table) {
  if (table.primary_key.empty()) {
    return Invalid("The base table does not define any primary key.");
  }
  const std::string name = absl::StrCat("PK_", absl::StrJoin(table.primary_key, "_"));
  if (!ddl.column.empty() && ddl.column != name) {
    return Invalid(absl::StrCat("The base table does not define a primary key constraint named ",
                                Quoted(ddl.column), ". The available constraint name is ",
                                Quoted(name), "."));
  }
  table.primary_key.clear();
  return absl::OkStatus();
}

absl::Status ApplyAlter(sql::AlterTable& ddl, const ObjectPath& new_path, sql::CreateTable& table) {
  using Action = sql::AlterTable::Action;
  switch (ddl.action) {
    case Action::kRename:
      table.name = NameOf(new_path);
      return absl::OkStatus();
    case Action::kRenameColumn:
      return RenameColumn(ddl, table);
    case Action::kSetOptions:
      for (size_t i = 0; i < ddl.options.entries.size(); ++i) {
        const auto& [key, value] = ddl.options.entries[i];
        auto& entries = table.properties.entries;
        auto same = std::find_if(entries.begin(), entries.end(),
                                 [&](const auto& kv) { return kv.first == key; });
        if (same != entries.end()) {
          same->second = value;
        } else {
          entries.emplace_back(key, value);
          table.properties.positions.push_back(ddl.options.positions[i]);
        }
      }
      return absl::OkStatus();
    case Action::kResetOptions:
      for (const std::string& key : ddl.keys) {
        if (key == "connector") {
          return Invalid("ALTER TABLE RESET does not support changing 'connector'");
        }
        auto& entries = table.properties.entries;
        for (size_t i = 0; i < entries.size(); ++i) {
          if (entries[i].first != key) continue;
          entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
          table.properties.positions.erase(table.properties.positions.begin() +
                                           static_cast<std::ptrdiff_t>(i));
          break;
        }
      }
      return absl::OkStatus();
    case Action::kAdd:
    case Action::kModify:
      return AddOrModify(ddl, table);
    case Action::kDropColumns:
      return DropColumns(ddl.keys, table);
    case Action::kDropPrimaryKey:
      return DropPrimaryKey(ddl, table);
    case Action::kDropWatermark:
      if (!table.watermark)
        return Invalid("The base table does not define any watermark strategy.");
      table.watermark.reset();
      return absl::OkStatus();
    case Action::kAddDistribution:
    case Action::kModifyDistribution:
    case Action::kDropDistribution:
      return AlterDistribution(ddl, new_path, table);
    case Action::kAddPartitions:
    case Action::kDropPartitions:
    case Action::kCompact:
      break;  // handled by ExecuteAlterTable before the definition is rebuilt
  }
  return absl::InternalError("unhandled ALTER TABLE action");
}

absl::Status CheckSameCatalog(const ObjectPath& from, const ObjectPath& to) {
  if (from.catalog != to.catalog) {
    return Invalid(absl::StrCat("cannot rename '", from.ToString(), "' into another catalog ('",
                                to.ToString(), "')"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ExecuteCreateDatabase(Session& session, const sql::CreateDatabase& ddl) {
  ASSIGN_OR_RETURN(auto name, DatabaseName(session, ddl.name));
  DatabaseInfo info;
  info.comment = ddl.comment.value_or("");
  info.properties = ddl.properties.entries;
  return session.catalog.catalog()->CreateDatabase(name.first, name.second, ddl.if_not_exists,
                                                   std::move(info));
}

absl::Status ExecuteAlterDatabase(Session& session, const sql::AlterDatabase& ddl) {
  ASSIGN_OR_RETURN(auto name, DatabaseName(session, ddl.name));
  return session.catalog.catalog()->AlterDatabase(name.first, name.second, ddl.properties.entries);
}

absl::Status ExecuteDropDatabase(Session& session, const sql::Drop& drop) {
  ASSIGN_OR_RETURN(auto name, DatabaseName(session, drop.name));
  if (name.first == session.catalog.current_catalog() &&
      name.second == session.catalog.current_database()) {
    return Invalid("Cannot drop a database which is currently in use.");
  }
  return session.catalog.catalog()->DropDatabase(name.first, name.second, drop.if_exists,
                                                 drop.cascade);
}

namespace {

// The options a catalog takes, in CREATE CATALOG and ALTER CATALOG ... SET / RESET.
absl::Status CheckCatalogOption(const std::string& catalog, const std::string& key,
                                const std::string& value) {
  if (key == "type") return absl::OkStatus();
  if (key == "default-database") {
    if (value.empty()) return Invalid("catalog option 'default-database' must not be empty");
    return absl::OkStatus();
  }
  return Invalid(absl::StrCat("Unsupported option '", key, "' for catalog '", catalog,
                              "'; supported: 'type', 'default-database'"));
}

}  // namespace

absl::Status ExecuteCreateCatalog(Session& session, const sql::CreateCatalog& ddl) {
  CatalogInfo info;
  info.comment = ddl.comment.value_or("");
  info.options = ddl.properties.entries;
  info.type.clear();
  std::string default_database = "default";
  for (const auto& [key, value] : ddl.properties.entries) {
    RETURN_IF_ERROR(CheckCatalogOption(ddl.name, key, value));
    if (key == "type") info.type = value;
    if (key == "default-database") default_database = value;
  }
  if (info.type.empty()) {
    return Invalid(
        absl::StrCat("Catalog options of '", ddl.name,
                     "' do not contain an option key 'type' for discovering a catalog."));
  }
  if (info.type != kInMemoryCatalogType && info.type != kPersistentCatalogType) {
    return Invalid(absl::StrCat(
        "Unsupported catalog type '", info.type, "'; supported: '", kInMemoryCatalogType,
        "' (objects live as long as the coordinator), '", kPersistentCatalogType,
        "' (objects stored in the coordinator's data directory)"));
  }
  return session.catalog.catalog()->CreateCatalog(ddl.name, std::move(info), default_database,
                                                  ddl.if_not_exists);
}

absl::Status ExecuteAlterCatalog(Session& session, const sql::AlterCatalog& ddl) {
  Catalog* catalog = session.catalog.catalog();
  std::optional<CatalogInfo> found = catalog->FindCatalog(ddl.name);
  if (!found) {
    return absl::NotFoundError(
        absl::StrCat("Validation error: catalog '", ddl.name, "' does not exist"));
  }
  if (ddl.name == kDefaultCatalog) {
    return Invalid(absl::StrCat("catalog '", kDefaultCatalog,
                                "' was not created by CREATE CATALOG and cannot be altered"));
  }
  CatalogInfo info = *std::move(found);
  auto erase = [&](const std::string& key) {
    std::erase_if(info.options, [&](const auto& option) { return option.first == key; });
  };
  switch (ddl.action) {
    case sql::AlterCatalog::Action::kSet:
      for (const auto& [key, value] : ddl.properties.entries) {
        RETURN_IF_ERROR(CheckCatalogOption(ddl.name, key, value));
        if (key == "type" && value != info.type) {
          return Invalid(absl::StrCat("Changing the type of catalog '", ddl.name,
                                      "' is not supported: it is '", info.type, "'"));
        }
        erase(key);
        info.options.emplace_back(key, value);
      }
      break;
    case sql::AlterCatalog::Action::kReset:
      for (const std::string& key : ddl.keys) {
        if (key == "type") return Invalid("ALTER CATALOG RESET does not support changing 'type'");
        RETURN_IF_ERROR(CheckCatalogOption(ddl.name, key, "-"));
        erase(key);
      }
      break;
    case sql::AlterCatalog::Action::kComment:
      info.comment = ddl.comment;
      break;
  }
  return catalog->AlterCatalog(ddl.name, std::move(info));
}

absl::Status ExecuteDropCatalog(Session& session, const sql::Drop& drop) {
  if (drop.name.parts.size() != 1) {
    return Invalid(absl::StrCat("'", drop.name.ToString(), "' is not a catalog name"));
  }
  const std::string& name = drop.name.parts[0];
  if (name == session.catalog.current_catalog()) {
    return Invalid("Cannot drop a catalog which is currently in use.");
  }
  return session.catalog.catalog()->DropCatalog(name, drop.if_exists);
}

absl::Status ExecuteAlterTable(Session& session, sql::AlterTable& ddl) {
  SessionCatalog& catalog = session.catalog;
  ASSIGN_OR_RETURN(ObjectPath path, catalog.Resolve(ddl.name));
  auto table = catalog.FindTable(path);
  if (table == nullptr) {
    if (catalog.FindView(path) != nullptr) {
      return Invalid(absl::StrCat("'", path.ToString(), "' is a view: use ALTER VIEW"));
    }
    if (ddl.if_exists) return absl::OkStatus();
    return absl::NotFoundError(
        absl::StrCat("Validation error: table '", path.ToString(), "' not found"));
  }
  if (ddl.action == sql::AlterTable::Action::kAddPartitions ||
      ddl.action == sql::AlterTable::Action::kDropPartitions) {
    return ExecuteAlterTablePartitions(session, ddl, *table);
  }
  if (ddl.action == sql::AlterTable::Action::kCompact) {
    // Flink compacts only its managed tables (those without a connector); Eddy has none.
    return Invalid(absl::StrCat("ALTER TABLE COMPACT operation is not supported for non-managed ",
                                "table ", path.ToQuotedString()));
  }
  ObjectPath new_path = path;
  if (ddl.action == sql::AlterTable::Action::kRename) {
    ASSIGN_OR_RETURN(new_path, catalog.Resolve(ddl.new_name));
    RETURN_IF_ERROR(CheckSameCatalog(path, new_path));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<sql::CreateTable> definition, DefinitionOf(*table));
  RETURN_IF_ERROR(ApplyAlter(ddl, new_path, *definition));
  if (definition->columns.empty()) {
    return Invalid("a table needs at least one column: ALTER TABLE ... DROP cannot drop them all");
  }
  absl::StatusOr<CatalogTable> altered = BindCreateTable(*definition, catalog);
  if (!altered.ok()) {
    // The binder's position is in the definition this statement derived, which the user never
    // wrote: say which table, not where.
    std::string why(altered.status().message());
    if (why.rfind("Validation error at line ", 0) == 0) why = why.substr(why.find(": ") + 2);
    if (why.rfind("Validation error: ", 0) == 0) why = why.substr(strlen("Validation error: "));
    return absl::Status(altered.status().code(),
                        absl::StrCat("Validation error: the table '", path.ToString(),
                                     "' as altered would not be valid: ", why));
  }
  return catalog.AlterTable(path, *std::move(altered));
}

absl::Status ExecuteAlterView(Session& session, sql::AlterView& ddl) {
  SessionCatalog& catalog = session.catalog;
  ASSIGN_OR_RETURN(ObjectPath path, catalog.Resolve(ddl.name));
  auto view = catalog.FindView(path);
  if (view == nullptr) {
    if (catalog.FindTable(path) != nullptr) {
      return Invalid(absl::StrCat("'", path.ToString(), "' is a table: use ALTER TABLE"));
    }
    return absl::NotFoundError(
        absl::StrCat("Validation error: view '", path.ToString(), "' not found"));
  }
  if (ddl.new_name) {
    ASSIGN_OR_RETURN(ObjectPath new_path, catalog.Resolve(*ddl.new_name));
    RETURN_IF_ERROR(CheckSameCatalog(path, new_path));
    CatalogView renamed = *view;
    renamed.path = new_path;
    return catalog.AlterView(path, std::move(renamed));
  }
  sql::CreateView definition;
  definition.name = NameOf(path);
  definition.query = std::move(ddl.query);
  definition.query_text = ddl.query_text;
  ASSIGN_OR_RETURN(CatalogView altered, BindCreateView(definition, catalog, session.config));
  return catalog.AlterView(path, std::move(altered));
}

sql::QualifiedName NameOf(const ObjectPath& path) {
  sql::QualifiedName name;
  name.parts = {path.catalog, path.database, path.object};
  return name;
}

absl::StatusOr<Schema> QueryColumns(Session& session, const ObjectPath& path,
                                    sql::QueryPtr& query) {
  sql::CreateView as_view;
  as_view.name = NameOf(path);
  as_view.query = std::move(query);
  absl::StatusOr<CatalogView> bound = BindCreateView(as_view, session.catalog, session.config);
  query = std::move(as_view.query);
  if (!bound.ok()) return bound.status();
  return bound->schema;
}

absl::StatusOr<CatalogTable> BindCreateTableAs(Session& session, sql::CreateTable& ddl) {
  SessionCatalog& catalog = session.catalog;
  ASSIGN_OR_RETURN(ObjectPath path, catalog.Resolve(ddl.name));
  CatalogTable shape;
  shape.path = path;
  ASSIGN_OR_RETURN(shape.schema, QueryColumns(session, path, ddl.as_query));
  shape.options = ddl.properties.entries;
  shape.comment = ddl.comment.value_or("");
  shape.partition_keys = ddl.partition_keys;
  if (ddl.distribution) {
    shape.distribution = TableDistribution{ddl.distribution->kind, ddl.distribution->keys,
                                           ddl.distribution->buckets};
  }
  ASSIGN_OR_RETURN(std::unique_ptr<sql::CreateTable> definition, DefinitionOf(shape));
  return BindCreateTable(*definition, catalog);
}

absl::StatusOr<std::shared_ptr<const CatalogTable>> TableToReplace(
    const SessionCatalog& catalog, const ObjectPath& path, sql::CreateTable::Replace replace) {
  const std::string name =
      absl::StrCat("`", path.catalog, "`.`", path.database, "`.`", path.object, "`");
  if (catalog.FindView(path) != nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Validation error: ", name, " is a view; REPLACE TABLE replaces tables only."));
  }
  std::shared_ptr<const CatalogTable> table = catalog.FindTable(path);
  if (table != nullptr && catalog.IsTemporary(path)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Validation error: the temporary table ", name,
                     " cannot be replaced by REPLACE TABLE AS SELECT; drop it first."));
  }
  if (table == nullptr && replace == sql::CreateTable::Replace::kReplace) {
    return absl::NotFoundError(absl::StrCat(
        "Validation error: The table ", name,
        " to be replaced doesn't exist. You can try to use CREATE TABLE AS statement or CREATE OR "
        "REPLACE TABLE AS statement."));
  }
  return table;
}

}  // namespace eddy
