// Durable storage of the permanent catalog: databases, tables, views, functions and models in a
// RocksDB instance
// under the coordinator's data dir (<data-dir>/catalog), one key per object, written synchronously
// (catalog changes are rare and must survive a crash). Catalog loads it at start and writes
// through it on every change. The coordinator's job store keeps its records in the same database
// under keys of its own (`j/...`, see coordinator/cluster/job_store.h), which Load() skips.
// Thread-safe (RocksDB is).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/catalog/catalog_objects.h"

namespace rocksdb {
class DB;
}

namespace eddy {

class CatalogStore {
 public:
  struct Contents {
    std::vector<std::pair<std::string, std::string>> databases;  // (catalog, database)
    std::vector<DatabaseInfo> database_infos;                    // per `databases` entry
    std::vector<std::pair<std::string, CatalogInfo>> catalogs;   // CREATE CATALOG'd ones
    std::vector<CatalogTable> tables;
    std::vector<CatalogView> views;
    std::vector<CatalogFunction> functions;
    std::vector<CatalogModel> models;
  };

  // Opens (creating when absent) the store at `path`.
  static absl::StatusOr<std::unique_ptr<CatalogStore>> Open(const std::string& path);
  ~CatalogStore();

  absl::Status PutDatabase(const std::string& catalog, const std::string& database,
                           const DatabaseInfo& info = {});
  absl::Status DeleteDatabase(const std::string& catalog, const std::string& database);
  absl::Status PutCatalog(const std::string& name, const CatalogInfo& info);
  absl::Status DeleteCatalog(const std::string& name);
  absl::Status PutTable(const CatalogTable& table);
  absl::Status PutView(const CatalogView& view);
  absl::Status DeleteTable(const ObjectPath& path);
  absl::Status DeleteView(const ObjectPath& path);
  absl::Status PutFunction(const CatalogFunction& function);  // with the library's bytes
  absl::Status DeleteFunction(const ObjectPath& path);
  absl::Status PutModel(const CatalogModel& model);
  absl::Status DeleteModel(const ObjectPath& path);

  // Everything stored; a value that does not decode is an error naming its key.
  absl::StatusOr<Contents> Load() const;

  const std::string& path() const { return path_; }
  // The database, for other records of the coordinator's (the job store); it stays open while
  // anyone holds it.
  std::shared_ptr<rocksdb::DB> db() const { return db_; }

 private:
  CatalogStore(std::string path, std::shared_ptr<rocksdb::DB> db);
  absl::Status Put(const std::string& key, const std::string& value);
  absl::Status Delete(const std::string& key);

  std::string path_;
  std::shared_ptr<rocksdb::DB> db_;
};

}  // namespace eddy
