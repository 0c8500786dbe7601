#include "coordinator/service/alter_partitions.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/batch/column.h"
#include "common/connectors/partition_path.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

absl::Status Invalid(const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat("Validation error: ", message));
}

// `{k=v, k2=v2}` as the statement gives the spec (Flink prints a partition spec so).
std::string SpecText(const std::vector<sql::PartitionValueDef>& spec) {
  std::vector<std::string> parts;
  for (const sql::PartitionValueDef& v : spec) {
    parts.push_back(absl::StrCat(v.column, "=", v.null ? "null" : v.value));
  }
  return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
}

// `database.table in catalog c`, as Flink's catalog exceptions name a table.
std::string TableText(const CatalogTable& table) {
  return absl::StrCat(table.path.database, ".", table.path.object, " in catalog ",
                      table.path.catalog);
}

// The text the partition directory holds for `v`: the value converted to the column's type and
// back to text (so that `hr = '07'` of an INT column is the directory `hr=7` an INSERT writes),
// the table's default partition name for NULL and ''.
absl::StatusOr<std::string> DirectoryValue(const sql::PartitionValueDef& v, const DataType& type,
                                           const std::string& default_name) {
  if (v.null) return default_name;
  ASSIGN_OR_RETURN(Value value, PartitionValue(v.column, v.value, type, default_name));
  Column column(type.WithNullable(true));
  column.AppendValue(value);
  ASSIGN_OR_RETURN(Column texts, CastPartitionColumn(column));
  return std::string(PartitionValueText(texts, 0, default_name));
}

// The partition directory (relative, `k1=v1/k2=v2` in PARTITIONED BY order) that `spec` names; an
// error when it leaves out a partition column or names another column (Flink's
// PartitionSpecInvalidException, with what is wrong).
absl::StatusOr<std::string> PartitionDirectory(const CatalogTable& table,
                                               const std::vector<sql::PartitionValueDef>& spec,
                                               const std::string& default_name) {
  const std::vector<std::string>& keys = table.partition_keys;
  const std::string invalid =
      absl::StrCat("PartitionSpec ", SpecText(spec), " does not match the partition keys of table ",
                   TableText(table), ". ");
  const std::string key_list =
      absl::StrCat("the partition keys are: [", absl::StrJoin(keys, ", "), "]");
  for (const sql::PartitionValueDef& v : spec) {
    if (std::find(keys.begin(), keys.end(), v.column) == keys.end()) {
      return Invalid(absl::StrCat(invalid, "'", v.column, "' is not a partition key; ", key_list));
    }
  }
  PartitionSpec directory;
  for (const std::string& key : keys) {
    auto v = std::find_if(spec.begin(), spec.end(),
                          [&](const sql::PartitionValueDef& d) { return d.column == key; });
    if (v == spec.end()) {
      return Invalid(absl::StrCat(invalid, "Partition key '", key, "' has no value; ", key_list));
    }
    std::optional<int> field = table.schema.FindField(key);
    if (!field) return absl::InternalError(absl::StrCat("partition key '", key, "' not a column"));
    absl::StatusOr<std::string> text =
        DirectoryValue(*v, table.schema.fields[*field].type, default_name);
    if (!text.ok()) return Invalid(std::string(text.status().message()));
    directory.emplace_back(key, *std::move(text));
  }
  return PartitionPath(directory);
}

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

// Removes the partition directory `rel` under `table_dir` with its files, then the levels above
// it that it leaves empty (as Hive drops a partition).
absl::Status RemovePartition(const std::string& table_dir, const std::string& rel) {
  fs::path at = fs::path(table_dir) / rel;
  std::error_code ec;
  fs::remove_all(at, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot remove partition directory '", at.string(), "': ", ec.message()));
  }
  const fs::path root(table_dir);
  for (at = at.parent_path(); at != root && at.string().size() > root.string().size();
       at = at.parent_path()) {
    if (!fs::is_empty(at, ec) || ec) break;
    fs::remove(at, ec);
    if (ec) break;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ExecuteAlterTablePartitions(Session& session, const sql::AlterTable& ddl,
                                         const CatalogTable& table) {
  const bool add = ddl.action == sql::AlterTable::Action::kAddPartitions;
  if (table.partition_keys.empty()) {
    return Invalid(absl::StrCat("Table ", TableText(table), " is not partitioned."));
  }
  // Partition properties: a partition here is a directory, which has nowhere to keep them.
  for (const sql::PropertyList& properties : ddl.partition_properties) {
    if (properties.entries.empty()) continue;
    std::vector<std::string> keys;
    for (const auto& [key, value] : properties.entries) keys.push_back(absl::StrCat("'", key, "'"));
    return Invalid(
        absl::StrCat("partition properties cannot be kept: a partition of filesystem table '",
                     table.path.ToString(), "' is a directory, with nowhere to keep WITH (",
                     absl::StrJoin(keys, ", "), "); add the partition without WITH"));
  }
  std::string default_name = kDefaultPartitionName;
  if (const std::string* name = table.FindOption("partition.default-name")) default_name = *name;
  ASSIGN_OR_RETURN(const std::string table_dir,
                   session.catalog.catalog()->PartitionedTableDirectory(table));

  // Check every spec first: nothing changes unless all of them can be applied.
  std::vector<std::string> changed;  // the relative directories to create or remove
  std::set<std::string> seen;
  for (const std::vector<sql::PartitionValueDef>& spec : ddl.partitions) {
    ASSIGN_OR_RETURN(std::string rel, PartitionDirectory(table, spec, default_name));
    const bool exists = seen.count(rel) > 0 ? add : IsDirectory(absl::StrCat(table_dir, "/", rel));
    if (exists == add) {
      if (ddl.partition_if) continue;  // IF NOT EXISTS / IF EXISTS: nothing to do for this one
      return Invalid(absl::StrCat("Partition ", SpecText(spec), " of table ", TableText(table),
                                  add ? " already exists." : " does not exist."));
    }
    seen.insert(rel);
    changed.push_back(std::move(rel));
  }
  for (const std::string& rel : changed) {
    if (add) {
      const fs::path at = fs::path(table_dir) / rel;
      std::error_code ec;
      fs::create_directories(at, ec);
      if (ec) {
        return absl::InternalError(
            absl::StrCat("cannot create partition directory '", at.string(), "': ", ec.message()));
      }
    } else {
      RETURN_IF_ERROR(RemovePartition(table_dir, rel));
    }
  }
  return absl::OkStatus();
}

}  // namespace eddy
