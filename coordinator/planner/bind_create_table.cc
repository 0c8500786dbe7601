// CREATE TABLE: column types, primary key (its columns become NOT NULL, as in Flink), watermark,
// partition and bucket keys, LIKE (copies columns, and unless excluded the primary key, watermark,
// partitioning, distribution and options; the new table's WITH entries override copied options),
// then connector option validation.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/sql/ast_debug.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/connector_options.h"
#include "coordinator/planner/planner.h"
#include "coordinator/planner/planner_errors.h"
#include "coordinator/planner/type_spec.h"

namespace eddy {
namespace {

using planner::ValidationError;
using planner::ValidationErrorAt;

// What `LIKE src (...)` copies besides columns; Flink's default is INCLUDING ALL.
struct LikeParts {
  bool options = true;
  bool constraints = true;
  bool watermarks = true;
  bool partitions = true;
  bool distribution = true;
};

absl::StatusOr<LikeParts> ParseLikeOptions(const sql::LikeClause& like) {
  LikeParts parts;
  for (const auto& [mode, what] : like.options) {
    const std::string m = absl::AsciiStrToUpper(mode);
    const std::string w = absl::AsciiStrToUpper(what);
    if (m != "INCLUDING" && m != "EXCLUDING") {
      if (m == "OVERWRITING" && w == "OPTIONS") continue;  // our merge always overwrites
      return ValidationErrorAt(like.source.pos,
                               absl::StrCat("unsupported LIKE option '", mode, " ", what, "'"));
    }
    const bool include = m == "INCLUDING";
    if (w == "ALL") {
      parts.options = parts.constraints = parts.watermarks = parts.partitions = parts.distribution =
          include;
    } else if (w == "OPTIONS") {
      parts.options = include;
    } else if (w == "CONSTRAINTS") {
      parts.constraints = include;
    } else if (w == "WATERMARKS") {
      parts.watermarks = include;
    } else if (w == "PARTITIONS") {
      parts.partitions = include;
    } else if (w == "DISTRIBUTION") {
      parts.distribution = include;
    } else if (w == "GENERATED" || w == "METADATA") {
      // We have none of these, so including or excluding them changes nothing.
    } else {
      return ValidationErrorAt(like.source.pos,
                               absl::StrCat("unsupported LIKE option '", mode, " ", what, "'"));
    }
  }
  return parts;
}

std::optional<int> FindColumn(const Schema& s, const std::string& name) {
  for (size_t i = 0; i < s.fields.size(); ++i) {
    if (s.fields[i].name == name) return static_cast<int>(i);
  }
  return std::nullopt;
}

// Partition and bucket keys: physical columns of the table (as Flink requires), each once.
// `what` is "partition key" or "bucket key"; `requirement` completes Flink's sentence.
absl::Status CheckPhysicalKeys(const CatalogTable& table, const std::vector<std::string>& keys,
                               const char* what, const char* requirement,
                               const sql::SourcePos& pos) {
  std::vector<std::string> physical;
  for (size_t i = 0; i < table.schema.size(); ++i) {
    if (!table.IsComputed(i) && !table.IsMetadata(i)) {
      physical.push_back(table.schema.fields[i].name);
    }
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string& key = keys[i];
    if (std::find(physical.begin(), physical.end(), key) == physical.end()) {
      std::vector<std::string> quoted;
      for (const std::string& p : physical) quoted.push_back("'" + p + "'");
      return ValidationErrorAt(pos, absl::StrCat("Invalid ", what, " '", key, "'. ", requirement,
                                                 " must reference a physical column in the schema. "
                                                 "Available columns are: [",
                                                 absl::StrJoin(quoted, ", "), "]"));
    }
    for (size_t j = 0; j < i; ++j) {
      if (keys[j] == key) {
        return ValidationErrorAt(pos, absl::StrCat(what, " '", key, "' is listed twice"));
      }
    }
  }
  return absl::OkStatus();
}

// PARTITIONED BY. LIKE's copied partition keys give way to the new table's.
absl::Status BindPartitionKeys(const sql::CreateTable& ddl, CatalogTable& table) {
  if (!ddl.partition_keys.empty()) {
    if (ddl.like && !table.partition_keys.empty()) {
      return ValidationErrorAt(ddl.partition_pos,
                               "The base table already has partitions defined. You might want to "
                               "specify EXCLUDING PARTITIONS.");
    }
    table.partition_keys = ddl.partition_keys;
  }
  return CheckPhysicalKeys(table, table.partition_keys, "partition key", "A partition key",
                           ddl.partition_pos);
}

// DISTRIBUTED BY, likewise with LIKE's copied distribution.
absl::Status BindDistribution(const sql::CreateTable& ddl, CatalogTable& table) {
  if (ddl.distribution) {
    if (ddl.like && table.distribution) {
      return ValidationErrorAt(ddl.distribution->pos,
                               "The base table already has a distribution defined. You might want "
                               "to specify EXCLUDING DISTRIBUTION.");
    }
    table.distribution = TableDistribution{ddl.distribution->kind, ddl.distribution->keys,
                                           ddl.distribution->buckets};
  }
  if (!table.distribution) return absl::OkStatus();
  return CheckPhysicalKeys(table, table.distribution->keys, "bucket key",
                           "A bucket key for a distribution",
                           ddl.distribution ? ddl.distribution->pos : ddl.name.pos);
}

}  // namespace

absl::StatusOr<CatalogTable> BindCreateTable(const sql::CreateTable& ddl,
                                             const SessionCatalog& catalog, bool allow_internal) {
  auto path = catalog.Resolve(ddl.name);
  if (!path.ok()) return planner::AsValidationError(ddl.name.pos, path.status());
  CatalogTable table;
  table.path = *path;
  const std::string name = table.path.ToString();

  if (ddl.like) {
    auto src_path = catalog.Resolve(ddl.like->source);
    if (!src_path.ok()) return planner::AsValidationError(ddl.like->source.pos, src_path.status());
    auto src = catalog.FindTable(*src_path);
    if (src == nullptr) {
      return ValidationErrorAt(ddl.like->source.pos,
                               absl::StrCat("table '", src_path->ToString(), "' not found"));
    }
    ASSIGN_OR_RETURN(LikeParts parts, ParseLikeOptions(*ddl.like));
    table.schema = src->schema;
    table.computed_exprs = src->computed_exprs;
    table.metadata_keys = src->metadata_keys;
    table.metadata_virtual = src->metadata_virtual;
    table.column_comments = src->column_comments;
    if (parts.constraints) table.primary_key = src->primary_key;
    if (parts.watermarks) {
      table.watermark_column = src->watermark_column;
      table.watermark_expr = src->watermark_expr;
    }
    if (parts.options) table.options = src->options;
    if (parts.partitions) table.partition_keys = src->partition_keys;
    if (parts.distribution) table.distribution = src->distribution;
  }

  // Physical columns first get their types; computed ones are typed over the physical columns
  // once all are known (they may be declared in any order).
  for (const sql::ColumnDef& col : ddl.columns) {
    if (FindColumn(table.schema, col.name)) {
      return ValidationErrorAt(
          col.pos,
          absl::StrCat("column '", col.name, "' is defined more than once in table '", name, "'"));
    }
    DataType type = DataType::Null();
    if (!col.computed) {
      ASSIGN_OR_RETURN(type, planner::TypeFromSpec(col.type));
    }
    table.schema.fields.push_back({col.name, type});
    table.computed_exprs.resize(table.schema.size() - 1);
    table.computed_exprs.push_back(col.computed ? sql::DebugString(*col.computed) : "");
    table.metadata_keys.resize(table.schema.size() - 1);
    table.metadata_keys.push_back(col.metadata.value_or(""));
    table.metadata_virtual.resize(table.schema.size() - 1, false);
    table.metadata_virtual.push_back(col.metadata_virtual);
    table.column_comments.resize(table.schema.size() - 1);
    table.column_comments.push_back(col.comment.value_or(""));
  }
  if (std::all_of(table.column_comments.begin(), table.column_comments.end(),
                  [](const std::string& c) { return c.empty(); })) {
    table.column_comments.clear();
  }
  if (table.schema.fields.empty()) {
    return ValidationError(absl::StrCat("table '", name, "' has no columns"));
  }
  if (!table.HasComputedColumns()) table.computed_exprs.clear();
  if (std::none_of(table.metadata_keys.begin(), table.metadata_keys.end(),
                   [](const std::string& k) { return !k.empty(); })) {
    table.metadata_keys.clear();
    table.metadata_virtual.clear();
  }
  for (const sql::ColumnDef& col : ddl.columns) {
    if (!col.computed) continue;
    ASSIGN_OR_RETURN(ExprPtr e, planner::BindComputedColumn(table, *col.computed));
    table.schema.fields[*FindColumn(table.schema, col.name)].type = e->type;
  }

  if (!ddl.primary_key.empty()) table.primary_key = ddl.primary_key;
  for (size_t i = 0; i < table.primary_key.size(); ++i) {
    const std::string& k = table.primary_key[i];
    std::optional<int> c = FindColumn(table.schema, k);
    if (!c) {
      return ValidationError(absl::StrCat("primary key column '", k, "' of table '", name,
                                          "' is not a column of the table"));
    }
    for (size_t j = 0; j < i; ++j) {
      if (table.primary_key[j] == k) {
        return ValidationError(
            absl::StrCat("primary key column '", k, "' of table '", name, "' is listed twice"));
      }
    }
    table.primary_key[i] = table.schema.fields[*c].name;
    table.schema.fields[*c].type.nullable = false;
  }

  if (ddl.watermark) {
    std::optional<int> c = FindColumn(table.schema, ddl.watermark->column);
    if (!c) {
      return ValidationErrorAt(ddl.watermark->pos,
                               absl::StrCat("watermark column '", ddl.watermark->column,
                                            "' is not a column of table '", name, "'"));
    }
    const DataType& t = table.schema.fields[*c].type;
    if (!t.IsTimestampLike()) {
      return ValidationErrorAt(ddl.watermark->pos,
                               absl::StrCat("watermark column '", ddl.watermark->column,
                                            "' must be of type TIMESTAMP or TIMESTAMP_LTZ, but is ",
                                            t.WithNullable(true).ToString()));
    }
    if (t.precision > 3) {
      return ValidationErrorAt(
          ddl.watermark->pos,
          absl::StrCat("Invalid data type of time field for watermark definition. The field must "
                       "be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' "
                       "is from 0 to 3, but the time field type is ",
                       t.WithNullable(true).ToString()));
    }
    table.watermark_column = table.schema.fields[*c].name;
    table.watermark_expr = ddl.watermark->expr ? sql::DebugString(*ddl.watermark->expr) : "";
    if (ddl.watermark->expr == nullptr) {
      return ValidationErrorAt(ddl.watermark->pos, "WATERMARK FOR needs AS <expression>");
    }
    RETURN_IF_ERROR(planner::BindWatermarkExpr(table, *ddl.watermark->expr).status());
  }
  if (ddl.comment) table.comment = *ddl.comment;
  RETURN_IF_ERROR(BindPartitionKeys(ddl, table));
  RETURN_IF_ERROR(BindDistribution(ddl, table));

  // The new table's WITH entries override the copied ones, in place, so SHOW CREATE keeps order.
  for (const auto& [k, v] : ddl.properties.entries) SetOption(table.options, k, v);
  RETURN_IF_ERROR(planner::ValidateConnectorOptions(table, allow_internal));
  return table;
}

}  // namespace eddy
