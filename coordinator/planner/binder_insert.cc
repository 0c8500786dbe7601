// Binding of INSERT INTO: the target must be a table whose connector can be written; the query's
// columns are matched to the sink's (optionally through a column list), implicitly widened where
// Flink allows it. A nullable value for a NOT NULL column is left to the sink's NOT NULL enforcer
// at run time, as in Flink; a NOT NULL column left out of the column list is an error. INSERT
// OVERWRITE is for a filesystem table in batch mode (the sink's commit replaces the table's files).
// A static PARTITION (k = 'v') clause gives partition columns their literal values, and the query
// then feeds the other columns, as in Flink.
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/connectors/partition_path.h"
#include "common/expr/function_registry.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/connector_options.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {

absl::StatusOr<LogicalNodePtr> Binder::BindInsert(const sql::Insert& insert) {
  auto path_or = catalog_.Resolve(insert.target);
  if (!path_or.ok()) return AsValidationError(insert.target.pos, path_or.status());
  const ObjectPath path = *path_or;
  const std::string name = path.ToString();
  if (catalog_.FindView(path) != nullptr && catalog_.FindTable(path) == nullptr) {
    return ValidationErrorAt(insert.target.pos,
                             absl::StrCat("view '", name,
                                          "' cannot be the target of INSERT INTO; "
                                          "only tables can be written"));
  }
  std::shared_ptr<const CatalogTable> table = catalog_.FindTable(path);
  if (table == nullptr) {
    return ValidationErrorAt(insert.target.pos, absl::StrCat("table '", name, "' not found"));
  }
  ASSIGN_OR_RETURN(table, ApplyTableHints(std::move(table), insert.target_hints));
  const std::string connector = table->connector();
  const ConnectorFactory* factory = ConnectorOf(*table);
  if (factory == nullptr || !factory->can_write()) {
    return ValidationError(absl::StrCat("table '", name, "' (connector '", connector,
                                        "') cannot be written; it is a source"));
  }
  // A bucketed table (DISTRIBUTED BY) needs a sink that writes buckets, as Flink's
  // SupportsBucketing; no connector of Eddy does.
  if (table->distribution) {
    return ValidationErrorAt(
        insert.target.pos,
        absl::StrCat("Table '", name, "' is a bucketed table (", table->distribution->ToString(),
                     "), but its connector '", connector,
                     "' cannot write buckets: no connector of Eddy supports bucketing"));
  }
  // A metadata column an INSERT writes (not VIRTUAL) must name a key the connector writes.
  for (size_t i = 0; i < table->schema.size(); ++i) {
    if (!table->IsMetadata(i) || table->IsVirtual(i) || table->IsComputed(i)) continue;
    const std::string& key = table->metadata_keys[i];
    std::string writable;
    bool ok = false;
    for (const MetadataSpec& m : factory->metadata()) {
      if (!m.writable) continue;
      absl::StrAppend(&writable, writable.empty() ? "" : ", ", std::string(m.key));
      ok = ok || m.key == key;
    }
    if (!ok) {
      return ValidationError(absl::StrCat(
          "metadata key '", key, "' of column '", table->schema.fields[i].name, "' of table '",
          name, "' cannot be written; connector '", connector, "' writes ",
          writable.empty() ? "no metadata" : absl::StrCat("the metadata keys: ", writable),
          ". Declare the column VIRTUAL to only read it"));
    }
  }
  // INSERT OVERWRITE, as Flink: only a sink that supports it (filesystem), only in batch mode.
  if (insert.overwrite && connector != "filesystem") {
    return ValidationErrorAt(
        insert.target.pos,
        absl::StrCat("INSERT OVERWRITE requires that the underlying DynamicTableSink of table '",
                     name, "' implements the SupportsOverwrite interface."));
  }
  if (insert.overwrite && !IsBatchMode(config_)) {
    return ValidationErrorAt(insert.target.pos, "Streaming mode not support overwrite.");
  }
  if (insert.query == nullptr) return ValidationError("INSERT has no query");
  ASSIGN_OR_RETURN(BoundRelation query, BindQuery(*insert.query));

  const Schema sink = table->SinkSchema();
  const Schema& result = query.node->schema;
  // The static partition values: statics[j] is the literal of sink column j, null when none.
  std::vector<ExprPtr> statics(sink.size());
  for (const sql::PartitionValueDef& v : insert.partition) {
    const auto& keys = table->partition_keys;
    std::optional<int> j = sink.FindField(v.column);
    if (!j || std::find(keys.begin(), keys.end(), v.column) == keys.end()) {
      return ValidationErrorAt(
          v.pos, keys.empty()
                     ? absl::StrCat("table '", name,
                                    "' is not partitioned, but INSERT INTO gives it a "
                                    "static PARTITION")
                     : absl::StrCat("'", v.column, "' is not a partition column of table '", name,
                                    "'; its partition columns are: ", absl::StrJoin(keys, ", ")));
    }
    const DataType& type = sink.fields[*j].type;
    Value value;
    if (!v.null) {
      auto typed = PartitionValue(v.column, v.value, type, "");
      if (!typed.ok()) return ValidationErrorAt(v.pos, std::string(typed.status().message()));
      value = *std::move(typed);
    } else if (!type.nullable) {
      return ValidationErrorAt(v.pos, absl::StrCat("partition column '", v.column,
                                                   "' is NOT NULL and cannot be given NULL"));
    }
    statics[*j] = MakeLiteral(value, type);
  }
  // target[j] = query column that feeds sink column j, or -1 (NULL: not in the column list).
  std::vector<int> target(sink.size(), -1);
  size_t expected = sink.size() - insert.partition.size();
  if (insert.columns.empty()) {
    int next = 0;
    for (size_t j = 0; j < sink.size(); ++j) {
      if (statics[j] == nullptr) target[j] = next++;
    }
  } else {
    expected = insert.columns.size();
    for (size_t i = 0; i < insert.columns.size(); ++i) {
      std::optional<int> j = sink.FindField(insert.columns[i]);
      if (!j) {
        return ValidationError(
            absl::StrCat("column '", insert.columns[i], "' not found in table '", name, "'"));
      }
      if (statics[*j] != nullptr) {
        return ValidationError(absl::StrCat("column '", insert.columns[i],
                                            "' has a static value in the PARTITION clause and "
                                            "cannot be listed too"));
      }
      if (target[*j] >= 0) {
        return ValidationError(absl::StrCat("column '", insert.columns[i],
                                            "' is listed twice in INSERT INTO '", name, "'"));
      }
      target[*j] = static_cast<int>(i);
    }
  }
  if (result.size() != expected) {
    return ValidationError(absl::StrCat("column count of query (", result.size(), ") and sink '",
                                        name, "' (", expected, ") do not match"));
  }
  std::vector<ExprPtr> exprs;
  for (size_t j = 0; j < sink.size(); ++j) {
    const Field& sf = sink.fields[j];
    if (statics[j] != nullptr) {
      exprs.push_back(statics[j]);
      continue;
    }
    if (target[j] < 0) {
      if (!sf.type.nullable) {
        return ValidationError(absl::StrCat("Column '", sf.name, "' of sink '", name,
                                            "' has no default value and does not allow NULLs"));
      }
      exprs.push_back(MakeLiteral(Value::Null(), sf.type));
      continue;
    }
    const DataType& qt = result.fields[target[j]].type;
    if (!IsImplicitlyCastable(qt, sf.type) || !CheckCast(qt, sf.type).ok()) {
      return ValidationError(
          absl::StrCat("column types of query result and sink for '", name,
                       "' do not match. Cannot assign ", qt.WithNullable(true).ToString(), " to ",
                       sf.type.WithNullable(true).ToString(), " for column '", sf.name, "'"));
    }
    // A nullable value for a NOT NULL column is planned as in Flink: the sink's NOT NULL enforcer
    // checks each row at run time (table.exec.sink.not-null-enforcer), so the column keeps the
    // query's nullability up to the sink.
    const DataType to = sf.type.WithNullable(sf.type.nullable || qt.nullable);
    ExprPtr ref = MakeColumnRef(target[j], qt);
    // Strings of any declared length share one layout and Flink does not enforce sink lengths by
    // default (table.exec.sink.type-length-enforcer=IGNORE), so VARCHAR(n) flows into STRING as is.
    // The same holds for VARBINARY(n) and BINARY(n) into BYTES.
    const bool as_is =
        (qt.IsString() && sf.type.IsString()) || (qt.IsBinary() && sf.type.IsBinary());
    exprs.push_back(as_is ? ref : MakeCast(ref, to));
  }
  LogicalNodePtr project = MakeProject(query.node, std::move(exprs), sink.Names());
  LogicalNodePtr sink_node = MakeSink(std::move(project), std::move(table));
  sink_node->overwrite = insert.overwrite;
  return sink_node;
}

}  // namespace eddy::planner
