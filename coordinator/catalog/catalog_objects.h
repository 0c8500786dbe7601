// What the catalog stores: tables (schema, primary key, connector options), views (query text),
// functions and models, each under a three-part path catalog.database.object.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/types/data_type.h"
#include "coordinator/catalog/table_statistics.h"

namespace eddy {

struct ObjectPath {
  std::string catalog;
  std::string database;
  std::string object;

  std::string ToString() const { return catalog + "." + database + "." + object; }
  // `c`.`d`.`t`, each part quoted (a '`' doubled), as Flink's messages print an identifier.
  std::string ToQuotedString() const {
    return Quoted(catalog) + "." + Quoted(database) + "." + Quoted(object);
  }
  // `[[default_catalog, default_database, words]]` as EXPLAIN prints table names.
  std::string ToExplainString() const {
    return "[[" + catalog + ", " + database + ", " + object + "]]";
  }
  static std::string Quoted(const std::string& name) {
    std::string out = "`";
    for (char c : name) {
      out += c;
      if (c == '`') out += '`';
    }
    return out + "`";
  }
  bool operator<(const ObjectPath& o) const {
    return std::tie(catalog, database, object) < std::tie(o.catalog, o.database, o.object);
  }
  bool operator==(const ObjectPath& o) const {
    return catalog == o.catalog && database == o.database && object == o.object;
  }
};

using OptionList = std::vector<std::pair<std::string, std::string>>;  // in the order written

// Sets `key` to `value`: in place when `options` has the key (so listings keep the order written),
// else appended.
inline void SetOption(OptionList& options, const std::string& key, const std::string& value) {
  for (auto& [k, v] : options) {
    if (k == key) {
      v = value;
      return;
    }
  }
  options.emplace_back(key, value);
}

// DISTRIBUTED BY (Flink 1.20): how a table's connector lays its rows out in buckets. No connector
// of Eddy writes buckets, so a table with a distribution is read as any other but not written.
struct TableDistribution {
  std::string kind;  // HASH, RANGE, or empty: the connector's choice
  std::vector<std::string> keys;
  std::optional<int64_t> buckets;

  // As Flink prints it: DISTRIBUTED BY HASH(`a`) INTO 4 BUCKETS, DISTRIBUTED INTO 4 BUCKETS.
  std::string ToString() const {
    if (keys.empty() && buckets) return "DISTRIBUTED INTO " + std::to_string(*buckets) + " BUCKETS";
    std::string out = "DISTRIBUTED BY " + kind + "(";
    for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", " : "") + ObjectPath::Quoted(keys[i]);
    out += ")";
    if (buckets) out += " INTO " + std::to_string(*buckets) + " BUCKETS";
    return out;
  }
};

// What makes a table a materialized table (CREATE MATERIALIZED TABLE): the query that defines its
// rows, its freshness, and the state of the refresh job that keeps it up to date (continuous
// refresh mode, the only one Eddy has).
struct MaterializedTableInfo {
  // INITIALIZING until its refresh job first started, then ACTIVATED (the job runs, or ran) or
  // SUSPENDED (stopped with a savepoint).
  enum class RefreshStatus { kInitializing, kActivated, kSuspended };
  std::string query_text;  // the defining query, as written
  // The current catalog and database when it was created: the query's names resolve there.
  std::string query_catalog;
  std::string query_database;
  int64_t freshness_value = 0;
  std::string freshness_unit;         // SECOND, MINUTE, HOUR or DAY
  bool refresh_mode_written = false;  // REFRESH_MODE = CONTINUOUS (else derived from freshness)
  RefreshStatus refresh_status = RefreshStatus::kInitializing;
  std::string refresh_job_id;  // the latest refresh job; empty before the first
  std::string savepoint_path;  // SUSPEND's savepoint, which RESUME restores; empty otherwise
};

struct CatalogTable {
  ObjectPath path;
  Schema schema;  // every column in declared order, computed ones with their expression's type
  // Per column of `schema`, the SQL text of a computed column (`name AS expr`), empty for a
  // physical one; an empty vector means all columns are physical. A source reads the physical
  // columns; the binder computes the others over them. A sink receives the physical columns.
  std::vector<std::string> computed_exprs;
  // Per column of `schema`, the metadata key of a METADATA column ("" for others), and whether it
  // is VIRTUAL (read only); empty vectors when the table has none.
  std::vector<std::string> metadata_keys;
  std::vector<bool> metadata_virtual;
  std::vector<std::string> primary_key;
  std::vector<std::string> partition_keys;  // PARTITIONED BY, in the order written
  std::optional<TableDistribution> distribution;
  OptionList options;
  std::string watermark_column;  // empty: none
  std::string watermark_expr;    // SQL text
  std::string comment;
  // Per column of `schema`, its COMMENT ("" for none); empty when no column has one.
  std::vector<std::string> column_comments;
  // ANALYZE TABLE's results: of the whole table, and of partitions by their path (`a=1/b=x`).
  std::optional<TableStatistics> statistics;
  std::map<std::string, TableStatistics> partition_statistics;
  // Set for a materialized table.
  std::optional<MaterializedTableInfo> materialized;
  // Never stored: the OPTIONS hint one reference to the table in a query gave (already merged
  // into `options`), which EXPLAIN shows as Flink does.
  OptionList hint_options;

  const std::string& ColumnComment(size_t column) const {
    static const std::string kNone;
    return column < column_comments.size() ? column_comments[column] : kNone;
  }
  const std::string* FindOption(const std::string& key) const {
    for (const auto& [k, v] : options) {
      if (k == key) return &v;
    }
    return nullptr;
  }
  bool IsComputed(size_t column) const {
    return column < computed_exprs.size() && !computed_exprs[column].empty();
  }
  bool HasComputedColumns() const {
    for (size_t i = 0; i < computed_exprs.size(); ++i) {
      if (IsComputed(i)) return true;
    }
    return false;
  }
  bool IsMetadata(size_t column) const {
    return column < metadata_keys.size() && !metadata_keys[column].empty();
  }
  bool IsVirtual(size_t column) const {
    return IsMetadata(column) && column < metadata_virtual.size() && metadata_virtual[column];
  }
  // The columns an INSERT writes: the connector's columns except VIRTUAL metadata ones.
  Schema SinkSchema() const {
    Schema s;
    for (size_t i = 0; i < schema.fields.size(); ++i) {
      if (!IsComputed(i) && !IsVirtual(i)) s.fields.push_back(schema.fields[i]);
    }
    return s;
  }
  // The columns a connector reads (metadata ones included).
  Schema PhysicalSchema() const {
    if (!HasComputedColumns()) return schema;
    Schema s;
    for (size_t i = 0; i < schema.fields.size(); ++i) {
      if (!IsComputed(i)) s.fields.push_back(schema.fields[i]);
    }
    return s;
  }
  std::string connector() const {
    const std::string* c = FindOption("connector");
    return c ? *c : "";
  }
};

// A user-defined function (CREATE FUNCTION ... LANGUAGE CPP USING JAR '<library>'). The library's
// bytes are part of the entry: the coordinator ships them to the workers (docs/udf.md).
struct CatalogFunction {
  // Temporary system functions have only a name (`object`); the others a full path. Function
  // names are case-insensitive and kept in lower case.
  ObjectPath path;
  std::string symbol;        // what the library exports
  std::string language;      // CPP
  std::string library_path;  // as written in USING JAR
  std::string library_digest;
  std::shared_ptr<const std::string> library;
};

// A model (CREATE MODEL, Flink 2.x): the columns its provider takes and gives, and the options
// naming that provider. Models have a namespace of their own: a model and a table may share a
// path. Eddy ships no model provider, so ML_PREDICT over a model is refused
// (docs/sql-reference.md).
struct CatalogModel {
  ObjectPath path;
  Schema input;  // no fields when created without INPUT and OUTPUT
  Schema output;
  // Per column of `input` / `output`, its COMMENT ("" for none); empty when no column has one.
  std::vector<std::string> input_comments;
  std::vector<std::string> output_comments;
  OptionList options;
  std::string comment;

  const std::string* FindOption(const std::string& key) const {
    for (const auto& [k, v] : options) {
      if (k == key) return &v;
    }
    return nullptr;
  }
};

// CREATE DATABASE ... COMMENT ... WITH (...), as ALTER DATABASE ... SET left it.
struct DatabaseInfo {
  std::string comment;
  OptionList properties;
};

// A catalog: `default_catalog` and those of CREATE CATALOG. Objects of a catalog of the persistent
// type (kPersistentCatalogType) are kept in the coordinator's store; those of a
// generic_in_memory one live as long as the coordinator process.
inline constexpr char kPersistentCatalogType[] = "eddy";
inline constexpr char kInMemoryCatalogType[] = "generic_in_memory";
struct CatalogInfo {
  std::string type = kPersistentCatalogType;
  std::string comment;
  OptionList options;  // as written, 'type' included
  bool persistent() const { return type == kPersistentCatalogType; }
  // What USE CATALOG switches to: 'default-database' of the options, else 'default' (for
  // default_catalog, default_database).
  std::string DefaultDatabase() const {
    for (const auto& [k, v] : options) {
      if (k == "default-database") return v;
    }
    return options.empty() ? "default_database" : "default";
  }
};

struct CatalogView {
  ObjectPath path;
  std::string query_text;
  std::vector<std::string> column_aliases;
  Schema schema;  // as bound when the view was created
};

}  // namespace eddy
