// The coordinator's catalog of permanent objects (shared by every session) and the per-session view
// that adds temporary objects, the current catalog/database, and name resolution. A temporary
// object shadows a permanent one with the same path while it exists.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/catalog/catalog_objects.h"
#include "coordinator/catalog/catalog_store.h"
#include "coordinator/catalog/module_manager.h"

namespace eddy {

inline constexpr char kDefaultCatalog[] = "default_catalog";
inline constexpr char kDefaultDatabase[] = "default_database";

// Permanent objects. Thread-safe. With a store attached, every change is written to it before it
// takes effect (a failed write changes nothing), so the objects survive a restart.
class Catalog {
 public:
  Catalog();
  ~Catalog();

  // Loads what `store` holds (replacing nothing: call before the first statement) and writes
  // every later change through it.
  absl::Status AttachStore(std::unique_ptr<CatalogStore> store);

  // The directories the filesystem connector may use (--filesystem-allowed-dirs, canonical): the
  // partitions of a table elsewhere are not listed. Unset, nothing is refused.
  void SetFilesystemAllowedDirs(std::vector<std::string> dirs) {
    filesystem_allowed_dirs_ = std::move(dirs);
  }
  // The partitions of a partitioned filesystem table: its partition directories (`k1=v1/k2=v2`,
  // as on disk), sorted, as Flink's filesystem tables discover them. None when its directory does
  // not exist yet; an error when it lies outside the allowed directories.
  absl::StatusOr<std::vector<std::string>> ListPartitions(const CatalogTable& table) const;
  // The canonical directory of a partitioned filesystem table, where its partition directories
  // are (ALTER TABLE ADD/DROP PARTITION create and remove them there); an error when it lies
  // outside the allowed directories, or when the table has no 'path' or no partitions.
  absl::StatusOr<std::string> PartitionedTableDirectory(const CatalogTable& table) const;

  absl::Status CreateDatabase(const std::string& catalog, const std::string& database,
                              bool if_not_exists, DatabaseInfo info = {});
  // Sets (adds or replaces) properties of an existing database.
  absl::Status AlterDatabase(const std::string& catalog, const std::string& database,
                             const OptionList& properties);
  // Drops a database; one holding tables, views, functions or models only with `cascade` (which
  // drops them too).
  absl::Status DropDatabase(const std::string& catalog, const std::string& database, bool if_exists,
                            bool cascade);
  std::optional<DatabaseInfo> FindDatabase(const std::string& catalog,
                                           const std::string& database) const;

  // CREATE CATALOG: a new catalog with one (empty) database, `default-database` ('default').
  absl::Status CreateCatalog(const std::string& name, CatalogInfo info,
                             const std::string& default_database, bool if_not_exists);
  // ALTER CATALOG: `name` (which must exist) gets `info`; its default database is created when it
  // does not exist yet, as CREATE CATALOG creates it.
  absl::Status AlterCatalog(const std::string& name, CatalogInfo info);
  // DROP CATALOG: the catalog and everything in it.
  absl::Status DropCatalog(const std::string& name, bool if_exists);
  std::optional<CatalogInfo> FindCatalog(const std::string& name) const;
  bool DatabaseExists(const std::string& catalog, const std::string& database) const;
  bool CatalogExists(const std::string& catalog) const;
  std::vector<std::string> ListCatalogs() const;
  std::vector<std::string> ListDatabases(const std::string& catalog) const;

  absl::Status CreateTable(CatalogTable table, bool if_not_exists);
  absl::Status CreateView(CatalogView view, bool if_not_exists);
  // NotFound when absent (the caller decides about IF EXISTS).
  absl::Status DropTable(const ObjectPath& path);
  absl::Status DropView(const ObjectPath& path);
  // ALTER TABLE / VIEW: replaces the object at `from` (which must exist) by `to` (at the same path,
  // or at a new one that must be free).
  absl::Status AlterTable(const ObjectPath& from, CatalogTable to);
  absl::Status AlterView(const ObjectPath& from, CatalogView to);
  // ANALYZE TABLE: applies `update` to the permanent table's statistics and stores the table;
  // NotFound when it is gone.
  absl::Status UpdateStatistics(const ObjectPath& path,
                                const std::function<void(CatalogTable&)>& update);

  std::shared_ptr<const CatalogTable> FindTable(const ObjectPath& path) const;
  std::shared_ptr<const CatalogView> FindView(const ObjectPath& path) const;
  std::vector<std::string> ListTables(const std::string& catalog, const std::string& db) const;
  std::vector<std::string> ListViews(const std::string& catalog, const std::string& db) const;

  absl::Status CreateFunction(CatalogFunction function, bool if_not_exists);
  absl::Status DropFunction(const ObjectPath& path);  // NotFound when absent
  std::shared_ptr<const CatalogFunction> FindFunction(const ObjectPath& path) const;
  std::vector<std::string> ListFunctions(const std::string& catalog, const std::string& db) const;

  // Models (CREATE MODEL), in a namespace of their own; the errors are Flink's.
  absl::Status CreateModel(CatalogModel model, bool if_not_exists);
  absl::Status DropModel(const ObjectPath& path);  // NotFound when absent
  // ALTER MODEL: replaces the model at `from` (which must exist) by `to` (at the same path, or at
  // a new one in the same catalog that must be free).
  absl::Status AlterModel(const ObjectPath& from, CatalogModel to);
  std::shared_ptr<const CatalogModel> FindModel(const ObjectPath& path) const;
  std::vector<std::string> ListModels(const std::string& catalog, const std::string& db) const;

 private:
  absl::Status CheckDatabaseLocked(const ObjectPath& path) const;  // NotFound unless it exists
  // The store, when objects of `catalog` are to be written to it; else null.
  CatalogStore* StoreFor(const std::string& catalog) const;
  absl::Status FreePathLocked(const ObjectPath& path, const char* what) const;

  std::unique_ptr<CatalogStore> store_;  // null: in memory only
  std::optional<std::vector<std::string>> filesystem_allowed_dirs_;
  std::map<std::string, CatalogInfo> catalogs_;
  std::map<std::pair<std::string, std::string>, DatabaseInfo> database_infos_;
  mutable std::mutex mu_;
  std::map<std::string, std::set<std::string>> databases_;  // catalog -> databases
  std::map<ObjectPath, std::shared_ptr<const CatalogTable>> tables_;
  std::map<ObjectPath, std::shared_ptr<const CatalogView>> views_;
  std::map<ObjectPath, std::shared_ptr<const CatalogFunction>> functions_;
  std::map<ObjectPath, std::shared_ptr<const CatalogModel>> models_;
};

// One session's view of the catalog. Not thread-safe: a session runs one statement at a time.
class SessionCatalog {
 public:
  explicit SessionCatalog(Catalog* catalog) : catalog_(catalog) {}

  const std::string& current_catalog() const { return current_catalog_; }
  const std::string& current_database() const { return current_database_; }
  absl::Status UseCatalog(const std::string& catalog);
  absl::Status UseDatabase(const sql::QualifiedName& name);

  // Fills missing parts from the current catalog/database; more than three parts is an error.
  absl::StatusOr<ObjectPath> Resolve(const sql::QualifiedName& name) const;

  absl::Status CreateTable(CatalogTable table, bool temporary, bool if_not_exists);
  absl::Status CreateView(CatalogView view, bool temporary, bool if_not_exists);
  absl::Status DropTable(const ObjectPath& path, bool temporary, bool if_exists);
  absl::Status DropView(const ObjectPath& path, bool temporary, bool if_exists);
  // ALTER TABLE / VIEW of a temporary object (when `from` is one in this session) or a permanent
  // one; a temporary object keeps being temporary.
  absl::Status AlterTable(const ObjectPath& from, CatalogTable to);
  absl::Status AlterView(const ObjectPath& from, CatalogView to);

  // Temporary objects first, then permanent ones.
  std::shared_ptr<const CatalogTable> FindTable(const ObjectPath& path) const;
  std::shared_ptr<const CatalogView> FindView(const ObjectPath& path) const;
  bool IsTemporary(const ObjectPath& path) const;

  // Tables and views (and views alone) of a database, temporary ones included; without
  // arguments, of the current database.
  std::vector<std::string> ListTables(const std::string& catalog,
                                      const std::string& database) const;
  std::vector<std::string> ListViews(const std::string& catalog, const std::string& database) const;
  std::vector<std::string> ListTables() const {
    return ListTables(current_catalog_, current_database_);
  }
  std::vector<std::string> ListViews() const {
    return ListViews(current_catalog_, current_database_);
  }

  // User-defined functions. `function.path` of a temporary system function holds only the name;
  // the others are resolved paths. Names are compared in lower case.
  absl::Status CreateFunction(CatalogFunction function, bool temporary, bool system,
                              bool if_not_exists);
  absl::Status DropFunction(const ObjectPath& path, bool temporary, bool system, bool if_exists);
  // The temporary system function called `name`, or null.
  std::shared_ptr<const CatalogFunction> FindSystemFunction(const std::string& name) const;
  // A temporary catalog function first, then a permanent one; null when neither exists.
  std::shared_ptr<const CatalogFunction> FindFunction(const ObjectPath& path) const;
  // SHOW USER FUNCTIONS: temporary system functions and the functions of a database (without
  // arguments, the current one).
  std::vector<std::string> ListUserFunctions(const std::string& catalog,
                                             const std::string& database) const;
  std::vector<std::string> ListUserFunctions() const {
    return ListUserFunctions(current_catalog_, current_database_);
  }
  Catalog* catalog() const { return catalog_; }

  // Models. A temporary model shadows a permanent one at its path; DROP MODEL of a path that has
  // both is refused (drop the temporary one first), as Flink does.
  absl::Status CreateModel(CatalogModel model, bool temporary, bool if_not_exists);
  absl::Status DropModel(const ObjectPath& path, bool temporary, bool if_exists);
  std::shared_ptr<const CatalogModel> FindModel(const ObjectPath& path) const;
  bool IsTemporaryModel(const ObjectPath& path) const { return temp_models_.count(path) > 0; }
  // Permanent and temporary models of a database, sorted.
  std::vector<std::string> ListModels(const std::string& catalog,
                                      const std::string& database) const;

  // LOAD / UNLOAD / USE MODULES: the modules built-in function names resolve in.
  const ModuleManager& modules() const { return modules_; }
  ModuleManager& modules() { return modules_; }

 private:
  Catalog* catalog_;
  ModuleManager modules_;
  std::string current_catalog_ = kDefaultCatalog;
  std::string current_database_ = kDefaultDatabase;
  std::map<ObjectPath, std::shared_ptr<const CatalogTable>> temp_tables_;
  std::map<ObjectPath, std::shared_ptr<const CatalogView>> temp_views_;
  std::map<ObjectPath, std::shared_ptr<const CatalogFunction>> temp_functions_;
  std::map<std::string, std::shared_ptr<const CatalogFunction>> temp_system_functions_;
  std::map<ObjectPath, std::shared_ptr<const CatalogModel>> temp_models_;
};

}  // namespace eddy
