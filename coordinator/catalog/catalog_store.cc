#include "coordinator/catalog/catalog_store.h"

#include <filesystem>
#include <optional>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/types/type_proto.h"
#include "coordinator/catalog/statistics_proto.h"
#include "eddy/v1/catalog.pb.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"

namespace eddy {
namespace {

// The job store's keys, in the same database (coordinator/cluster/job_store.h).
constexpr char kJobStorePrefix[] = "j/";

// Keys: "c/<catalog>", "d/<catalog>\0<database>", "t/<catalog>\0<database>\0<object>", "v/...",
// "f/...", "m/..." (NUL cannot occur in a name, so keys of different objects never collide).
std::string DatabaseKey(const std::string& catalog, const std::string& database) {
  return absl::StrCat("d/", catalog, std::string(1, '\0'), database);
}
std::string ObjectKey(char kind, const ObjectPath& p) {
  const std::string nul(1, '\0');
  return absl::StrCat(std::string(1, kind), "/", p.catalog, nul, p.database, nul, p.object);
}

absl::Status FromRocks(const rocksdb::Status& s, const std::string& what, const std::string& path) {
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat("catalog store ", what, " (", path, "): ", s.ToString()));
}

void PathToProto(const ObjectPath& p, v1::StoredPath* out) {
  out->set_catalog(p.catalog);
  out->set_database(p.database);
  out->set_object(p.object);
}
ObjectPath PathFromProto(const v1::StoredPath& p) {
  return {p.catalog(), p.database(), p.object()};
}

const char* RefreshStatusName(MaterializedTableInfo::RefreshStatus status) {
  switch (status) {
    case MaterializedTableInfo::RefreshStatus::kInitializing:
      return "INITIALIZING";
    case MaterializedTableInfo::RefreshStatus::kActivated:
      return "ACTIVATED";
    case MaterializedTableInfo::RefreshStatus::kSuspended:
      return "SUSPENDED";
  }
  return "INITIALIZING";
}

void MaterializationToProto(const MaterializedTableInfo& m, v1::StoredMaterialization* out) {
  out->set_query_text(m.query_text);
  out->set_query_catalog(m.query_catalog);
  out->set_query_database(m.query_database);
  out->set_freshness_value(m.freshness_value);
  out->set_freshness_unit(m.freshness_unit);
  out->set_refresh_mode_written(m.refresh_mode_written);
  out->set_refresh_status(RefreshStatusName(m.refresh_status));
  out->set_refresh_job_id(m.refresh_job_id);
  out->set_savepoint_path(m.savepoint_path);
}

// Nullopt when the refresh status is none of the names RefreshStatusName writes.
std::optional<MaterializedTableInfo> MaterializationFromProto(const v1::StoredMaterialization& p) {
  MaterializedTableInfo m;
  m.query_text = p.query_text();
  m.query_catalog = p.query_catalog();
  m.query_database = p.query_database();
  m.freshness_value = p.freshness_value();
  m.freshness_unit = p.freshness_unit();
  m.refresh_mode_written = p.refresh_mode_written();
  if (p.refresh_status() == "ACTIVATED") {
    m.refresh_status = MaterializedTableInfo::RefreshStatus::kActivated;
  } else if (p.refresh_status() == "SUSPENDED") {
    m.refresh_status = MaterializedTableInfo::RefreshStatus::kSuspended;
  } else if (p.refresh_status() == "INITIALIZING") {
    m.refresh_status = MaterializedTableInfo::RefreshStatus::kInitializing;
  } else {
    return std::nullopt;
  }
  m.refresh_job_id = p.refresh_job_id();
  m.savepoint_path = p.savepoint_path();
  return m;
}

}  // namespace

CatalogStore::CatalogStore(std::string path, std::shared_ptr<rocksdb::DB> db)
    : path_(std::move(path)), db_(std::move(db)) {}

CatalogStore::~CatalogStore() = default;

absl::StatusOr<std::unique_ptr<CatalogStore>> CatalogStore::Open(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  rocksdb::Options o;
  o.create_if_missing = true;
  o.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  o.keep_log_file_num = 2;
  rocksdb::DB* raw = nullptr;
  RETURN_IF_ERROR(FromRocks(rocksdb::DB::Open(o, path, &raw), "open", path));
  // Closed (and deleted) when its last holder lets go of it.
  std::shared_ptr<rocksdb::DB> db(raw, [](rocksdb::DB* d) {
    d->Close().PermitUncheckedError();
    delete d;
  });
  return std::unique_ptr<CatalogStore>(new CatalogStore(path, std::move(db)));
}

absl::Status CatalogStore::Put(const std::string& key, const std::string& value) {
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return FromRocks(db_->Put(wo, key, value), "write", path_);
}

absl::Status CatalogStore::Delete(const std::string& key) {
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return FromRocks(db_->Delete(wo, key), "delete", path_);
}

absl::Status CatalogStore::PutDatabase(const std::string& catalog, const std::string& database,
                                       const DatabaseInfo& info) {
  v1::StoredDatabase p;
  p.set_comment(info.comment);
  for (const auto& [k, v] : info.properties) {
    v1::StoredOption* o = p.add_properties();
    o->set_key(k);
    o->set_value(v);
  }
  return Put(DatabaseKey(catalog, database), p.SerializeAsString());
}

absl::Status CatalogStore::DeleteDatabase(const std::string& catalog, const std::string& database) {
  return Delete(DatabaseKey(catalog, database));
}

absl::Status CatalogStore::PutCatalog(const std::string& name, const CatalogInfo& info) {
  v1::StoredCatalog p;
  p.set_type(info.type);
  p.set_comment(info.comment);
  for (const auto& [k, v] : info.options) {
    v1::StoredOption* o = p.add_options();
    o->set_key(k);
    o->set_value(v);
  }
  return Put(absl::StrCat("c/", name), p.SerializeAsString());
}

absl::Status CatalogStore::DeleteCatalog(const std::string& name) {
  return Delete(absl::StrCat("c/", name));
}

absl::Status CatalogStore::PutTable(const CatalogTable& t) {
  v1::StoredTable p;
  PathToProto(t.path, p.mutable_path());
  SchemaToProto(t.schema, p.mutable_schema());
  for (const auto& k : t.primary_key) p.add_primary_key(k);
  for (const auto& k : t.partition_keys) p.add_partition_keys(k);
  for (const auto& [k, v] : t.options) {
    v1::StoredOption* o = p.add_options();
    o->set_key(k);
    o->set_value(v);
  }
  p.set_watermark_column(t.watermark_column);
  p.set_watermark_expr(t.watermark_expr);
  for (const auto& e : t.computed_exprs) p.add_computed_exprs(e);
  for (const auto& k : t.metadata_keys) p.add_metadata_keys(k);
  for (bool v : t.metadata_virtual) p.add_metadata_virtual(v);
  for (const auto& c : t.column_comments) p.add_column_comments(c);
  p.set_comment(t.comment);
  if (t.statistics) StatisticsToProto(*t.statistics, p.mutable_statistics());
  for (const auto& [partition, stats] : t.partition_statistics) {
    StatisticsToProto(stats, &(*p.mutable_partition_statistics())[partition]);
  }
  if (t.materialized) MaterializationToProto(*t.materialized, p.mutable_materialized());
  if (t.distribution) {
    v1::StoredDistribution* d = p.mutable_distribution();
    d->set_kind(t.distribution->kind);
    for (const auto& k : t.distribution->keys) d->add_keys(k);
    if (t.distribution->buckets) d->set_buckets(*t.distribution->buckets);
  }
  return Put(ObjectKey('t', t.path), p.SerializeAsString());
}

absl::Status CatalogStore::PutView(const CatalogView& v) {
  v1::StoredView p;
  PathToProto(v.path, p.mutable_path());
  p.set_query_text(v.query_text);
  for (const auto& a : v.column_aliases) p.add_column_aliases(a);
  SchemaToProto(v.schema, p.mutable_schema());
  return Put(ObjectKey('v', v.path), p.SerializeAsString());
}

absl::Status CatalogStore::PutFunction(const CatalogFunction& f) {
  v1::StoredFunction p;
  PathToProto(f.path, p.mutable_path());
  p.set_symbol(f.symbol);
  p.set_language(f.language);
  p.set_library_path(f.library_path);
  if (f.library != nullptr) p.set_library(*f.library);
  return Put(ObjectKey('f', f.path), p.SerializeAsString());
}

absl::Status CatalogStore::DeleteFunction(const ObjectPath& path) {
  return Delete(ObjectKey('f', path));
}

absl::Status CatalogStore::PutModel(const CatalogModel& m) {
  v1::StoredModel p;
  PathToProto(m.path, p.mutable_path());
  SchemaToProto(m.input, p.mutable_input());
  SchemaToProto(m.output, p.mutable_output());
  for (const auto& c : m.input_comments) p.add_input_comments(c);
  for (const auto& c : m.output_comments) p.add_output_comments(c);
  for (const auto& [k, v] : m.options) {
    v1::StoredOption* o = p.add_options();
    o->set_key(k);
    o->set_value(v);
  }
  p.set_comment(m.comment);
  return Put(ObjectKey('m', m.path), p.SerializeAsString());
}

absl::Status CatalogStore::DeleteModel(const ObjectPath& path) {
  return Delete(ObjectKey('m', path));
}

absl::Status CatalogStore::DeleteTable(const ObjectPath& path) {
  return Delete(ObjectKey('t', path));
}
absl::Status CatalogStore::DeleteView(const ObjectPath& path) {
  return Delete(ObjectKey('v', path));
}

absl::StatusOr<CatalogStore::Contents> CatalogStore::Load() const {
  Contents out;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string key = it->key().ToString();
    if (key.rfind(kJobStorePrefix, 0) == 0) continue;  // the job store's
    const std::string value = it->value().ToString();
    auto bad = [&](const std::string& why) {
      std::string shown = key;
      for (char& c : shown) c = c == '\0' ? '.' : c;
      return absl::DataLossError(
          absl::StrCat("catalog store ", path_, ": entry '", shown, "' ", why));
    };
    if (key.rfind("d/", 0) == 0) {
      const size_t nul = key.find('\0', 2);
      if (nul == std::string::npos) return bad("has no database name");
      v1::StoredDatabase p;
      if (!p.ParseFromString(value)) return bad("does not decode as a database");
      DatabaseInfo info;
      info.comment = p.comment();
      for (const auto& o : p.properties()) info.properties.emplace_back(o.key(), o.value());
      out.databases.emplace_back(key.substr(2, nul - 2), key.substr(nul + 1));
      out.database_infos.push_back(std::move(info));
    } else if (key.rfind("c/", 0) == 0) {
      v1::StoredCatalog p;
      if (!p.ParseFromString(value)) return bad("does not decode as a catalog");
      CatalogInfo info;
      info.type = p.type();
      info.comment = p.comment();
      for (const auto& o : p.options()) info.options.emplace_back(o.key(), o.value());
      out.catalogs.emplace_back(key.substr(2), std::move(info));
    } else if (key.rfind("t/", 0) == 0) {
      v1::StoredTable p;
      if (!p.ParseFromString(value)) return bad("does not decode as a table");
      CatalogTable t;
      t.path = PathFromProto(p.path());
      auto schema = SchemaFromProto(p.schema());
      if (!schema.ok()) return bad(absl::StrCat("has a bad schema: ", schema.status().message()));
      t.schema = *std::move(schema);
      t.primary_key.assign(p.primary_key().begin(), p.primary_key().end());
      t.partition_keys.assign(p.partition_keys().begin(), p.partition_keys().end());
      for (const auto& o : p.options()) t.options.emplace_back(o.key(), o.value());
      t.watermark_column = p.watermark_column();
      t.watermark_expr = p.watermark_expr();
      t.computed_exprs.assign(p.computed_exprs().begin(), p.computed_exprs().end());
      t.metadata_keys.assign(p.metadata_keys().begin(), p.metadata_keys().end());
      t.metadata_virtual.assign(p.metadata_virtual().begin(), p.metadata_virtual().end());
      t.column_comments.assign(p.column_comments().begin(), p.column_comments().end());
      t.comment = p.comment();
      if (p.has_statistics()) t.statistics = StatisticsFromProto(p.statistics());
      for (const auto& [partition, stats] : p.partition_statistics()) {
        t.partition_statistics[partition] = StatisticsFromProto(stats);
      }
      if (p.has_materialized()) {
        t.materialized = MaterializationFromProto(p.materialized());
        if (!t.materialized) return bad("has an unknown materialized table refresh status");
      }
      if (p.has_distribution()) {
        TableDistribution& d = t.distribution.emplace();
        d.kind = p.distribution().kind();
        d.keys.assign(p.distribution().keys().begin(), p.distribution().keys().end());
        if (p.distribution().has_buckets()) d.buckets = p.distribution().buckets();
      }
      out.tables.push_back(std::move(t));
    } else if (key.rfind("v/", 0) == 0) {
      v1::StoredView p;
      if (!p.ParseFromString(value)) return bad("does not decode as a view");
      CatalogView v;
      v.path = PathFromProto(p.path());
      v.query_text = p.query_text();
      v.column_aliases.assign(p.column_aliases().begin(), p.column_aliases().end());
      auto schema = SchemaFromProto(p.schema());
      if (!schema.ok()) return bad(absl::StrCat("has a bad schema: ", schema.status().message()));
      v.schema = *std::move(schema);
      out.views.push_back(std::move(v));
    } else if (key.rfind("f/", 0) == 0) {
      v1::StoredFunction p;
      if (!p.ParseFromString(value)) return bad("does not decode as a function");
      CatalogFunction f;
      f.path = PathFromProto(p.path());
      f.symbol = p.symbol();
      f.language = p.language();
      f.library_path = p.library_path();
      f.library = std::make_shared<const std::string>(p.library());
      out.functions.push_back(std::move(f));
    } else if (key.rfind("m/", 0) == 0) {
      v1::StoredModel p;
      if (!p.ParseFromString(value)) return bad("does not decode as a model");
      CatalogModel m;
      m.path = PathFromProto(p.path());
      auto input = SchemaFromProto(p.input());
      if (!input.ok()) return bad(absl::StrCat("has a bad input: ", input.status().message()));
      m.input = *std::move(input);
      auto output = SchemaFromProto(p.output());
      if (!output.ok()) return bad(absl::StrCat("has a bad output: ", output.status().message()));
      m.output = *std::move(output);
      m.input_comments.assign(p.input_comments().begin(), p.input_comments().end());
      m.output_comments.assign(p.output_comments().begin(), p.output_comments().end());
      for (const auto& o : p.options()) m.options.emplace_back(o.key(), o.value());
      m.comment = p.comment();
      out.models.push_back(std::move(m));
    } else {
      return bad("has an unknown kind");
    }
  }
  RETURN_IF_ERROR(FromRocks(it->status(), "scan", path_));
  return out;
}

}  // namespace eddy
