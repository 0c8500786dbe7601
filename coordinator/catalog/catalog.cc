#include "coordinator/catalog/catalog.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/allowed_paths.h"
#include "common/base/status_macros.h"
#include "common/connectors/partition_path.h"
#include "coordinator/catalog/table_path.h"

namespace eddy {
namespace {

absl::Status ExistsError(const char* what, const ObjectPath& p) {
  return absl::AlreadyExistsError(
      absl::StrCat("Validation error: ", what, " '", p.ToString(), "' already exists"));
}

absl::Status NotFoundError(const char* what, const ObjectPath& p) {
  return absl::NotFoundError(
      absl::StrCat("Validation error: ", what, " '", p.ToString(), "' not found"));
}

absl::Status DatabaseNotFound(const ObjectPath& p) {
  return absl::NotFoundError(
      absl::StrCat("Validation error: database '", p.catalog, ".", p.database, "' not found"));
}

// CREATE MODEL in a database that does not exist.
absl::Status ModelDatabaseNotFound(const ObjectPath& p) {
  return absl::NotFoundError(absl::StrCat("Could not execute CreateModel in path ",
                                          p.ToQuotedString(), ": database ", p.database,
                                          " does not exist in catalog ", p.catalog, "."));
}

// Adds `obj` to a session's temporary objects unless the path is taken there.
template <typename Obj>
absl::Status AddTemporary(std::map<ObjectPath, std::shared_ptr<const Obj>>& into, bool taken,
                          Obj obj, bool if_not_exists, const char* what) {
  const ObjectPath path = obj.path;
  if (taken) return if_not_exists ? absl::OkStatus() : ExistsError(what, path);
  into[path] = std::make_shared<const Obj>(std::move(obj));
  return absl::OkStatus();
}

// Drops a temporary or permanent object; `drop_permanent` removes it from the shared catalog.
template <typename Obj, typename DropPermanent>
absl::Status DropObject(std::map<ObjectPath, std::shared_ptr<const Obj>>& temps,
                        const ObjectPath& path, bool temporary, bool if_exists,
                        const char* temp_what, DropPermanent drop_permanent) {
  absl::Status s;
  if (temporary) {
    s = temps.erase(path) ? absl::OkStatus() : NotFoundError(temp_what, path);
  } else if (temps.erase(path)) {
    // As Flink: DROP of a name that is temporary in this session drops the temporary object.
    s = absl::OkStatus();
  } else {
    s = drop_permanent(path);
  }
  if (!s.ok() && if_exists && absl::IsNotFound(s)) return absl::OkStatus();
  return s;
}

template <typename Map>
std::vector<std::string> NamesIn(const Map& m, const std::string& catalog, const std::string& db) {
  std::vector<std::string> out;
  for (const auto& [path, obj] : m) {
    if (path.catalog == catalog && path.database == db) out.push_back(path.object);
  }
  return out;
}

}  // namespace

Catalog::Catalog() {
  databases_[kDefaultCatalog].insert(kDefaultDatabase);
  catalogs_[kDefaultCatalog] = CatalogInfo{};
}

CatalogStore* Catalog::StoreFor(const std::string& catalog) const {
  auto it = catalogs_.find(catalog);
  return it != catalogs_.end() && it->second.persistent() ? store_.get() : nullptr;
}

absl::Status Catalog::FreePathLocked(const ObjectPath& path, const char* what) const {
  RETURN_IF_ERROR(CheckDatabaseLocked(path));
  if (tables_.count(path) || views_.count(path)) return ExistsError(what, path);
  return absl::OkStatus();
}

Catalog::~Catalog() = default;

absl::StatusOr<std::vector<std::string>> Catalog::ListPartitions(const CatalogTable& table) const {
  if (table.FindOption("path") == nullptr || table.partition_keys.empty()) {
    return std::vector<std::string>();
  }
  ASSIGN_OR_RETURN(std::string dir, PartitionedTableDirectory(table));
  return ListPartitionDirectories(dir, table.partition_keys);
}

absl::StatusOr<std::string> Catalog::PartitionedTableDirectory(const CatalogTable& table) const {
  const std::string* path = table.FindOption("path");
  if (path == nullptr || table.partition_keys.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("Validation error: table '",
                                                   table.path.ToString(),
                                                   "' is not a partitioned filesystem table"));
  }
  if (!filesystem_allowed_dirs_) return CanonicalFilesystemPath(*path);
  return CanonicalTablePath(*filesystem_allowed_dirs_, table.path.ToString(), path);
}

absl::Status Catalog::AttachStore(std::unique_ptr<CatalogStore> store) {
  ASSIGN_OR_RETURN(CatalogStore::Contents contents, store->Load());
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [name, info] : contents.catalogs) catalogs_[name] = std::move(info);
  for (size_t i = 0; i < contents.databases.size(); ++i) {
    const auto& [catalog, database] = contents.databases[i];
    databases_[catalog].insert(database);
    database_infos_[{catalog, database}] = contents.database_infos[i];
  }
  for (auto& t : contents.tables) {
    ObjectPath path = t.path;
    databases_[path.catalog].insert(path.database);
    tables_[path] = std::make_shared<const CatalogTable>(std::move(t));
  }
  for (auto& v : contents.views) {
    ObjectPath path = v.path;
    databases_[path.catalog].insert(path.database);
    views_[path] = std::make_shared<const CatalogView>(std::move(v));
  }
  for (auto& f : contents.functions) {
    ObjectPath path = f.path;
    databases_[path.catalog].insert(path.database);
    functions_[path] = std::make_shared<const CatalogFunction>(std::move(f));
  }
  for (auto& m : contents.models) {
    ObjectPath path = m.path;
    databases_[path.catalog].insert(path.database);
    models_[path] = std::make_shared<const CatalogModel>(std::move(m));
  }
  store_ = std::move(store);
  return absl::OkStatus();
}

absl::Status Catalog::CreateDatabase(const std::string& catalog, const std::string& database,
                                     bool if_not_exists, DatabaseInfo info) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = databases_.find(catalog);
  if (it == databases_.end()) {
    return absl::NotFoundError(absl::StrCat("Validation error: catalog '", catalog, "' not found"));
  }
  if (it->second.count(database)) {
    if (if_not_exists) return absl::OkStatus();
    return absl::AlreadyExistsError(
        absl::StrCat("Validation error: database '", catalog, ".", database, "' already exists"));
  }
  if (CatalogStore* store = StoreFor(catalog)) {
    RETURN_IF_ERROR(store->PutDatabase(catalog, database, info));
  }
  it->second.insert(database);
  database_infos_[{catalog, database}] = std::move(info);
  return absl::OkStatus();
}

absl::Status Catalog::AlterDatabase(const std::string& catalog, const std::string& database,
                                    const OptionList& properties) {
  std::lock_guard<std::mutex> lock(mu_);
  RETURN_IF_ERROR(CheckDatabaseLocked({catalog, database, ""}));
  DatabaseInfo info = database_infos_[{catalog, database}];
  for (const auto& [key, value] : properties) SetOption(info.properties, key, value);
  if (CatalogStore* store = StoreFor(catalog)) {
    RETURN_IF_ERROR(store->PutDatabase(catalog, database, info));
  }
  database_infos_[{catalog, database}] = std::move(info);
  return absl::OkStatus();
}

absl::Status Catalog::DropDatabase(const std::string& catalog, const std::string& database,
                                   bool if_exists, bool cascade) {
  std::lock_guard<std::mutex> lock(mu_);
  const ObjectPath db_path{catalog, database, ""};
  if (absl::Status s = CheckDatabaseLocked(db_path); !s.ok()) {
    return if_exists ? absl::OkStatus() : s;
  }
  auto in_db = [&](const ObjectPath& p) { return p.catalog == catalog && p.database == database; };
  std::vector<ObjectPath> tables, views, functions, models;
  for (const auto& [p, t] : tables_) {
    if (in_db(p)) tables.push_back(p);
  }
  for (const auto& [p, v] : views_) {
    if (in_db(p)) views.push_back(p);
  }
  for (const auto& [p, f] : functions_) {
    if (in_db(p)) functions.push_back(p);
  }
  for (const auto& [p, m] : models_) {
    if (in_db(p)) models.push_back(p);
  }
  if (!cascade && !(tables.empty() && views.empty() && functions.empty() && models.empty())) {
    return absl::FailedPreconditionError(
        absl::StrCat("Validation error: database '", catalog, ".", database,
                     "' is not empty (DROP DATABASE ... CASCADE drops what it holds)"));
  }
  if (CatalogStore* store = StoreFor(catalog)) {
    for (const auto& p : tables) RETURN_IF_ERROR(store->DeleteTable(p));
    for (const auto& p : views) RETURN_IF_ERROR(store->DeleteView(p));
    for (const auto& p : functions) RETURN_IF_ERROR(store->DeleteFunction(p));
    for (const auto& p : models) RETURN_IF_ERROR(store->DeleteModel(p));
    RETURN_IF_ERROR(store->DeleteDatabase(catalog, database));
  }
  for (const auto& p : tables) tables_.erase(p);
  for (const auto& p : views) views_.erase(p);
  for (const auto& p : functions) functions_.erase(p);
  for (const auto& p : models) models_.erase(p);
  databases_[catalog].erase(database);
  database_infos_.erase({catalog, database});
  return absl::OkStatus();
}

std::optional<DatabaseInfo> Catalog::FindDatabase(const std::string& catalog,
                                                  const std::string& database) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!CheckDatabaseLocked({catalog, database, ""}).ok()) return std::nullopt;
  auto it = database_infos_.find({catalog, database});
  return it == database_infos_.end() ? DatabaseInfo{} : it->second;
}

absl::Status Catalog::CreateCatalog(const std::string& name, CatalogInfo info,
                                    const std::string& default_database, bool if_not_exists) {
  std::lock_guard<std::mutex> lock(mu_);
  if (databases_.count(name)) {
    if (if_not_exists) return absl::OkStatus();
    return absl::AlreadyExistsError(
        absl::StrCat("Validation error: catalog '", name, "' already exists"));
  }
  if (store_ && info.persistent()) {
    RETURN_IF_ERROR(store_->PutCatalog(name, info));
    RETURN_IF_ERROR(store_->PutDatabase(name, default_database));
  }
  catalogs_[name] = std::move(info);
  databases_[name].insert(default_database);
  return absl::OkStatus();
}

absl::Status Catalog::AlterCatalog(const std::string& name, CatalogInfo info) {
  std::lock_guard<std::mutex> lock(mu_);
  auto databases = databases_.find(name);
  if (databases == databases_.end() || !catalogs_.count(name)) {
    return absl::NotFoundError(absl::StrCat("Validation error: catalog '", name, "' not found"));
  }
  const std::string default_database = info.DefaultDatabase();
  const bool new_database = !databases->second.count(default_database);
  if (store_ && info.persistent()) {
    RETURN_IF_ERROR(store_->PutCatalog(name, info));
    if (new_database) RETURN_IF_ERROR(store_->PutDatabase(name, default_database));
  }
  catalogs_[name] = std::move(info);
  databases->second.insert(default_database);
  return absl::OkStatus();
}

absl::Status Catalog::DropCatalog(const std::string& name, bool if_exists) {
  std::vector<std::string> databases;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = databases_.find(name);
    if (it == databases_.end()) {
      if (if_exists) return absl::OkStatus();
      return absl::NotFoundError(absl::StrCat("Validation error: catalog '", name, "' not found"));
    }
    databases.assign(it->second.begin(), it->second.end());
  }
  for (const auto& db : databases) RETURN_IF_ERROR(DropDatabase(name, db, true, true));
  std::lock_guard<std::mutex> lock(mu_);
  if (CatalogStore* store = StoreFor(name)) RETURN_IF_ERROR(store->DeleteCatalog(name));
  databases_.erase(name);
  catalogs_.erase(name);
  return absl::OkStatus();
}

std::optional<CatalogInfo> Catalog::FindCatalog(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = catalogs_.find(name);
  if (it == catalogs_.end()) return std::nullopt;
  return it->second;
}

bool Catalog::DatabaseExists(const std::string& catalog, const std::string& database) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = databases_.find(catalog);
  return it != databases_.end() && it->second.count(database) > 0;
}

bool Catalog::CatalogExists(const std::string& catalog) const {
  std::lock_guard<std::mutex> lock(mu_);
  return databases_.count(catalog) > 0;
}

std::vector<std::string> Catalog::ListCatalogs() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& [c, dbs] : databases_) out.push_back(c);
  return out;
}

std::vector<std::string> Catalog::ListDatabases(const std::string& catalog) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = databases_.find(catalog);
  if (it == databases_.end()) return {};
  return std::vector<std::string>(it->second.begin(), it->second.end());
}

absl::Status Catalog::CheckDatabaseLocked(const ObjectPath& path) const {
  auto db = databases_.find(path.catalog);
  if (db == databases_.end() || db->second.count(path.database) == 0) {
    return DatabaseNotFound(path);
  }
  return absl::OkStatus();
}

absl::Status Catalog::CreateTable(CatalogTable table, bool if_not_exists) {
  std::lock_guard<std::mutex> lock(mu_);
  const ObjectPath path = table.path;
  RETURN_IF_ERROR(CheckDatabaseLocked(path));
  if (tables_.count(path) || views_.count(path)) {
    return if_not_exists ? absl::OkStatus() : ExistsError("table", path);
  }
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->PutTable(table));
  tables_[path] = std::make_shared<const CatalogTable>(std::move(table));
  return absl::OkStatus();
}

absl::Status Catalog::CreateView(CatalogView view, bool if_not_exists) {
  std::lock_guard<std::mutex> lock(mu_);
  const ObjectPath path = view.path;
  RETURN_IF_ERROR(CheckDatabaseLocked(path));
  if (tables_.count(path) || views_.count(path)) {
    return if_not_exists ? absl::OkStatus() : ExistsError("view", path);
  }
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->PutView(view));
  views_[path] = std::make_shared<const CatalogView>(std::move(view));
  return absl::OkStatus();
}

absl::Status Catalog::DropTable(const ObjectPath& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!tables_.count(path)) return NotFoundError("table", path);
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->DeleteTable(path));
  tables_.erase(path);
  return absl::OkStatus();
}

absl::Status Catalog::DropView(const ObjectPath& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!views_.count(path)) return NotFoundError("view", path);
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->DeleteView(path));
  views_.erase(path);
  return absl::OkStatus();
}

absl::Status Catalog::AlterTable(const ObjectPath& from, CatalogTable to) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!tables_.count(from)) return NotFoundError("table", from);
  const ObjectPath path = to.path;
  if (!(path == from)) RETURN_IF_ERROR(FreePathLocked(path, "table"));
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->PutTable(to));
  if (!(path == from)) {
    if (CatalogStore* store = StoreFor(from.catalog)) RETURN_IF_ERROR(store->DeleteTable(from));
    tables_.erase(from);
  }
  tables_[path] = std::make_shared<const CatalogTable>(std::move(to));
  return absl::OkStatus();
}

absl::Status Catalog::UpdateStatistics(const ObjectPath& path,
                                       const std::function<void(CatalogTable&)>& update) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(path);
  if (it == tables_.end()) return NotFoundError("table", path);
  CatalogTable table = *it->second;
  update(table);
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->PutTable(table));
  it->second = std::make_shared<const CatalogTable>(std::move(table));
  return absl::OkStatus();
}

absl::Status Catalog::AlterView(const ObjectPath& from, CatalogView to) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!views_.count(from)) return NotFoundError("view", from);
  const ObjectPath path = to.path;
  if (!(path == from)) RETURN_IF_ERROR(FreePathLocked(path, "view"));
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->PutView(to));
  if (!(path == from)) {
    if (CatalogStore* store = StoreFor(from.catalog)) RETURN_IF_ERROR(store->DeleteView(from));
    views_.erase(from);
  }
  views_[path] = std::make_shared<const CatalogView>(std::move(to));
  return absl::OkStatus();
}

std::shared_ptr<const CatalogTable> Catalog::FindTable(const ObjectPath& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(path);
  return it == tables_.end() ? nullptr : it->second;
}

std::shared_ptr<const CatalogView> Catalog::FindView(const ObjectPath& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = views_.find(path);
  return it == views_.end() ? nullptr : it->second;
}

std::vector<std::string> Catalog::ListTables(const std::string& catalog,
                                             const std::string& db) const {
  std::lock_guard<std::mutex> lock(mu_);
  return NamesIn(tables_, catalog, db);
}

std::vector<std::string> Catalog::ListViews(const std::string& catalog,
                                            const std::string& db) const {
  std::lock_guard<std::mutex> lock(mu_);
  return NamesIn(views_, catalog, db);
}

absl::Status Catalog::CreateFunction(CatalogFunction function, bool if_not_exists) {
  std::lock_guard<std::mutex> lock(mu_);
  const ObjectPath path = function.path;
  RETURN_IF_ERROR(CheckDatabaseLocked(path));
  if (functions_.count(path)) {
    return if_not_exists ? absl::OkStatus() : ExistsError("function", path);
  }
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->PutFunction(function));
  functions_[path] = std::make_shared<const CatalogFunction>(std::move(function));
  return absl::OkStatus();
}

absl::Status Catalog::DropFunction(const ObjectPath& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!functions_.count(path)) return NotFoundError("function", path);
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->DeleteFunction(path));
  functions_.erase(path);
  return absl::OkStatus();
}

std::shared_ptr<const CatalogFunction> Catalog::FindFunction(const ObjectPath& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = functions_.find(path);
  return it == functions_.end() ? nullptr : it->second;
}

std::vector<std::string> Catalog::ListFunctions(const std::string& catalog,
                                                const std::string& db) const {
  std::lock_guard<std::mutex> lock(mu_);
  return NamesIn(functions_, catalog, db);
}

absl::Status Catalog::CreateModel(CatalogModel model, bool if_not_exists) {
  std::lock_guard<std::mutex> lock(mu_);
  const ObjectPath path = model.path;
  if (!CheckDatabaseLocked(path).ok()) {
    return ModelDatabaseNotFound(path);
  }
  if (models_.count(path)) {
    if (if_not_exists) return absl::OkStatus();
    return absl::AlreadyExistsError(absl::StrCat("Could not execute CreateModel in path ",
                                                 path.ToQuotedString(), ": model ",
                                                 path.ToQuotedString(), " already exists."));
  }
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->PutModel(model));
  models_[path] = std::make_shared<const CatalogModel>(std::move(model));
  return absl::OkStatus();
}

absl::Status Catalog::DropModel(const ObjectPath& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!models_.count(path)) {
    return absl::NotFoundError(
        absl::StrCat("Model with identifier '", path.ToString(), "' does not exist."));
  }
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->DeleteModel(path));
  models_.erase(path);
  return absl::OkStatus();
}

absl::Status Catalog::AlterModel(const ObjectPath& from, CatalogModel to) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!models_.count(from)) {
    return absl::NotFoundError(absl::StrCat("Model ", from.ToQuotedString(), " doesn't exist."));
  }
  const ObjectPath path = to.path;
  if (!(path == from)) {
    if (!CheckDatabaseLocked(path).ok()) {
      return absl::NotFoundError(absl::StrCat("Could not rename model ", from.ToQuotedString(),
                                              ": database ", path.database,
                                              " does not exist in catalog ", path.catalog, "."));
    }
    if (models_.count(path)) {
      return absl::AlreadyExistsError(absl::StrCat("Could not rename model ", from.ToQuotedString(),
                                                   ": model ", path.ToQuotedString(),
                                                   " already exists."));
    }
  }
  if (CatalogStore* store = StoreFor(path.catalog)) RETURN_IF_ERROR(store->PutModel(to));
  if (!(path == from)) {
    if (CatalogStore* store = StoreFor(from.catalog)) RETURN_IF_ERROR(store->DeleteModel(from));
    models_.erase(from);
  }
  models_[path] = std::make_shared<const CatalogModel>(std::move(to));
  return absl::OkStatus();
}

std::shared_ptr<const CatalogModel> Catalog::FindModel(const ObjectPath& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = models_.find(path);
  return it == models_.end() ? nullptr : it->second;
}

std::vector<std::string> Catalog::ListModels(const std::string& catalog,
                                             const std::string& db) const {
  std::lock_guard<std::mutex> lock(mu_);
  return NamesIn(models_, catalog, db);
}

// ------------------------------------------------------------------ SessionCatalog

absl::Status SessionCatalog::UseCatalog(const std::string& catalog) {
  if (!catalog_->CatalogExists(catalog)) {
    return absl::NotFoundError(absl::StrCat("Validation error: catalog '", catalog, "' not found"));
  }
  current_catalog_ = catalog;
  current_database_ = catalog_->FindCatalog(catalog).value_or(CatalogInfo{}).DefaultDatabase();
  return absl::OkStatus();
}

absl::Status SessionCatalog::UseDatabase(const sql::QualifiedName& name) {
  std::string cat = current_catalog_, db;
  if (name.parts.size() == 1) {
    db = name.parts[0];
  } else if (name.parts.size() == 2) {
    cat = name.parts[0];
    db = name.parts[1];
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("Validation error: '", name.ToString(), "' is not a database name"));
  }
  if (!catalog_->DatabaseExists(cat, db)) {
    return absl::NotFoundError(
        absl::StrCat("Validation error: database '", cat, ".", db, "' not found"));
  }
  current_catalog_ = cat;
  current_database_ = db;
  return absl::OkStatus();
}

absl::StatusOr<ObjectPath> SessionCatalog::Resolve(const sql::QualifiedName& name) const {
  const auto& p = name.parts;
  switch (p.size()) {
    case 1:
      return ObjectPath{current_catalog_, current_database_, p[0]};
    case 2:
      return ObjectPath{current_catalog_, p[0], p[1]};
    case 3:
      return ObjectPath{p[0], p[1], p[2]};
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "Validation error at line ", name.pos.line, ", column ", name.pos.column, ": '",
          name.ToString(), "' has more than three parts (catalog.database.object)"));
  }
}

absl::Status SessionCatalog::CreateTable(CatalogTable table, bool temporary, bool if_not_exists) {
  if (!temporary) return catalog_->CreateTable(std::move(table), if_not_exists);
  if (!catalog_->DatabaseExists(table.path.catalog, table.path.database)) {
    return DatabaseNotFound(table.path);
  }
  bool taken = IsTemporary(table.path);
  return AddTemporary(temp_tables_, taken, std::move(table), if_not_exists, "temporary table");
}

absl::Status SessionCatalog::CreateView(CatalogView view, bool temporary, bool if_not_exists) {
  if (!temporary) return catalog_->CreateView(std::move(view), if_not_exists);
  if (!catalog_->DatabaseExists(view.path.catalog, view.path.database)) {
    return DatabaseNotFound(view.path);
  }
  bool taken = IsTemporary(view.path);
  return AddTemporary(temp_views_, taken, std::move(view), if_not_exists, "temporary view");
}

absl::Status SessionCatalog::DropTable(const ObjectPath& path, bool temporary, bool if_exists) {
  return DropObject(temp_tables_, path, temporary, if_exists, "temporary table",
                    [this](const ObjectPath& p) { return catalog_->DropTable(p); });
}

absl::Status SessionCatalog::DropView(const ObjectPath& path, bool temporary, bool if_exists) {
  return DropObject(temp_views_, path, temporary, if_exists, "temporary view",
                    [this](const ObjectPath& p) { return catalog_->DropView(p); });
}

std::shared_ptr<const CatalogTable> SessionCatalog::FindTable(const ObjectPath& path) const {
  if (auto it = temp_tables_.find(path); it != temp_tables_.end()) return it->second;
  if (temp_views_.count(path)) return nullptr;  // a temporary view shadows a permanent table
  return catalog_->FindTable(path);
}

std::shared_ptr<const CatalogView> SessionCatalog::FindView(const ObjectPath& path) const {
  if (auto it = temp_views_.find(path); it != temp_views_.end()) return it->second;
  if (temp_tables_.count(path)) return nullptr;
  return catalog_->FindView(path);
}

absl::Status SessionCatalog::CreateFunction(CatalogFunction function, bool temporary, bool system,
                                            bool if_not_exists) {
  function.path.object = absl::AsciiStrToLower(function.path.object);
  if (system) {
    const std::string name = function.path.object;
    if (temp_system_functions_.count(name)) {
      if (if_not_exists) return absl::OkStatus();
      return absl::AlreadyExistsError(
          absl::StrCat("Validation error: temporary system function '", name, "' already exists"));
    }
    temp_system_functions_[name] = std::make_shared<const CatalogFunction>(std::move(function));
    return absl::OkStatus();
  }
  if (!temporary) return catalog_->CreateFunction(std::move(function), if_not_exists);
  if (!catalog_->DatabaseExists(function.path.catalog, function.path.database)) {
    return DatabaseNotFound(function.path);
  }
  bool taken = temp_functions_.count(function.path) > 0;
  return AddTemporary(temp_functions_, taken, std::move(function), if_not_exists,
                      "temporary function");
}

absl::Status SessionCatalog::DropFunction(const ObjectPath& path, bool temporary, bool system,
                                          bool if_exists) {
  ObjectPath lower = path;
  lower.object = absl::AsciiStrToLower(path.object);
  if (system) {
    if (temp_system_functions_.erase(lower.object) || if_exists) return absl::OkStatus();
    return absl::NotFoundError(
        absl::StrCat("Validation error: temporary system function '", lower.object, "' not found"));
  }
  return DropObject(temp_functions_, lower, temporary, if_exists, "temporary function",
                    [this](const ObjectPath& p) { return catalog_->DropFunction(p); });
}

std::shared_ptr<const CatalogFunction> SessionCatalog::FindSystemFunction(
    const std::string& name) const {
  auto it = temp_system_functions_.find(absl::AsciiStrToLower(name));
  return it == temp_system_functions_.end() ? nullptr : it->second;
}

std::shared_ptr<const CatalogFunction> SessionCatalog::FindFunction(const ObjectPath& path) const {
  ObjectPath lower = path;
  lower.object = absl::AsciiStrToLower(path.object);
  if (auto it = temp_functions_.find(lower); it != temp_functions_.end()) return it->second;
  return catalog_->FindFunction(lower);
}

std::vector<std::string> SessionCatalog::ListUserFunctions(const std::string& catalog,
                                                           const std::string& database) const {
  std::vector<std::string> out = catalog_->ListFunctions(catalog, database);
  for (const auto& [p, f] : temp_functions_) {
    if (p.catalog == catalog && p.database == database) out.push_back(p.object);
  }
  for (const auto& [name, f] : temp_system_functions_) out.push_back(name);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

absl::Status SessionCatalog::AlterTable(const ObjectPath& from, CatalogTable to) {
  auto temp = temp_tables_.find(from);
  if (temp == temp_tables_.end()) return catalog_->AlterTable(from, std::move(to));
  const ObjectPath path = to.path;
  if (!(path == from) && (temp_tables_.count(path) || temp_views_.count(path))) {
    return ExistsError("table", path);
  }
  temp_tables_.erase(temp);
  temp_tables_[path] = std::make_shared<const CatalogTable>(std::move(to));
  return absl::OkStatus();
}

absl::Status SessionCatalog::AlterView(const ObjectPath& from, CatalogView to) {
  auto temp = temp_views_.find(from);
  if (temp == temp_views_.end()) return catalog_->AlterView(from, std::move(to));
  const ObjectPath path = to.path;
  if (!(path == from) && (temp_tables_.count(path) || temp_views_.count(path))) {
    return ExistsError("view", path);
  }
  temp_views_.erase(temp);
  temp_views_[path] = std::make_shared<const CatalogView>(std::move(to));
  return absl::OkStatus();
}

absl::Status SessionCatalog::CreateModel(CatalogModel model, bool temporary, bool if_not_exists) {
  if (!temporary) return catalog_->CreateModel(std::move(model), if_not_exists);
  const ObjectPath path = model.path;
  if (!catalog_->DatabaseExists(path.catalog, path.database)) {
    return ModelDatabaseNotFound(path);
  }
  if (temp_models_.count(path)) {
    if (if_not_exists) return absl::OkStatus();
    return absl::AlreadyExistsError(
        absl::StrCat("Temporary model '", path.ToQuotedString(), "' already exists"));
  }
  temp_models_[path] = std::make_shared<const CatalogModel>(std::move(model));
  return absl::OkStatus();
}

absl::Status SessionCatalog::DropModel(const ObjectPath& path, bool temporary, bool if_exists) {
  if (temporary) {
    if (temp_models_.erase(path) || if_exists) return absl::OkStatus();
    return absl::NotFoundError(
        absl::StrCat("Temporary model with identifier '", path.ToString(), "' does not exist."));
  }
  if (temp_models_.count(path)) {
    return absl::FailedPreconditionError(
        absl::StrCat("Temporary model with identifier '", path.ToString(),
                     "' exists. Drop it first before removing the permanent model."));
  }
  absl::Status s = catalog_->DropModel(path);
  if (!s.ok() && if_exists && absl::IsNotFound(s)) return absl::OkStatus();
  return s;
}

std::shared_ptr<const CatalogModel> SessionCatalog::FindModel(const ObjectPath& path) const {
  if (auto it = temp_models_.find(path); it != temp_models_.end()) return it->second;
  return catalog_->FindModel(path);
}

std::vector<std::string> SessionCatalog::ListModels(const std::string& catalog,
                                                    const std::string& database) const {
  std::vector<std::string> out = catalog_->ListModels(catalog, database);
  for (const auto& [p, m] : temp_models_) {
    if (p.catalog == catalog && p.database == database) out.push_back(p.object);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool SessionCatalog::IsTemporary(const ObjectPath& path) const {
  return temp_tables_.count(path) || temp_views_.count(path);
}

std::vector<std::string> SessionCatalog::ListTables(const std::string& catalog,
                                                    const std::string& database) const {
  std::vector<std::string> out = catalog_->ListTables(catalog, database);
  auto views = ListViews(catalog, database);
  out.insert(out.end(), views.begin(), views.end());
  for (const auto& [p, t] : temp_tables_) {
    if (p.catalog == catalog && p.database == database) out.push_back(p.object);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> SessionCatalog::ListViews(const std::string& catalog,
                                                   const std::string& database) const {
  std::vector<std::string> out = catalog_->ListViews(catalog, database);
  for (const auto& [p, v] : temp_views_) {
    if (p.catalog == catalog && p.database == database) out.push_back(p.object);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace eddy
