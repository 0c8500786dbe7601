#include "coordinator/service/show_statements.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "common/base/status_macros.h"
#include "common/connectors/partition_path.h"
#include "common/expr/aggregate_signature.h"
#include "common/expr/function_registry.h"
#include "common/expr/function_table.h"
#include "common/expr/like_matcher.h"
#include "common/udf/user_function.h"
#include "coordinator/planner/planner.h"
#include "coordinator/planner/user_functions.h"
#include "coordinator/service/model_ddl.h"
#include "coordinator/service/show_create.h"
#include "coordinator/service/statement_responses.h"

namespace eddy {
namespace {

using Response = v1::ExecuteStatementResponse;

// Keeps the names the statement's [NOT] LIKE / ILIKE admits (all of them without one). Patterns
// use % and _, with backslash as the escape character, as the SQL client's do.
absl::StatusOr<std::vector<std::string>> Filter(const sql::Show& show,
                                                std::vector<std::string> names) {
  if (!show.like) return names;
  LikePattern pattern;
  const std::string text = show.ilike ? absl::AsciiStrToLower(*show.like) : *show.like;
  if (absl::Status s = pattern.Compile(text, "\\"); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("Validation error: ", s.message()));
  }
  std::vector<std::string> kept;
  for (std::string& name : names) {
    const bool match = pattern.Matches(show.ilike ? absl::AsciiStrToLower(name) : name);
    if (match != show.not_like) kept.push_back(std::move(name));
  }
  return kept;
}

absl::StatusOr<Response> FilteredColumn(const sql::Show& show, const std::string& column,
                                        std::vector<std::string> names) {
  ASSIGN_OR_RETURN(std::vector<std::string> kept, Filter(show, std::move(names)));
  return SingleColumnResponse(column, kept);
}

// The database a SHOW ... FROM names (the current one without FROM); it must exist.
absl::StatusOr<std::pair<std::string, std::string>> ListedDatabase(const Session& session,
                                                                   const sql::Show& show) {
  std::string catalog = session.catalog.current_catalog();
  std::string database = session.catalog.current_database();
  if (show.from) {
    const auto& parts = show.from->parts;
    database = parts.back();
    if (parts.size() == 2) catalog = parts[0];
  }
  if (!session.catalog.catalog()->DatabaseExists(catalog, database)) {
    return absl::NotFoundError(
        absl::StrCat("Validation error: database '", catalog, ".", database, "' not found"));
  }
  return std::make_pair(catalog, database);
}

Response ShowJobs(JobManager* jobs) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& j : jobs->List()) {
    std::string status = v1::JobStatus_Name(j.status()).substr(strlen("JOB_STATUS_"));
    // As Flink prints it: 2026-12-03T10:00:00.123 (UTC here).
    const std::string start = absl::FormatTime(
        "%Y-%m-%dT%H:%M:%E3S", absl::FromUnixMillis(j.start_time_ms()), absl::UTCTimeZone());
    rows.push_back({j.job_id(), j.name(), status, start,
                    std::to_string(std::max(0, j.attempt() - 1)),
                    j.last_checkpoint_id() > 0 ? std::to_string(j.last_checkpoint_id()) : "",
                    j.error().empty() ? j.last_failure() : j.error(), j.savepoint_path()});
  }
  return TableResponse({"job id", "job name", "status", "start time", "restarts", "last checkpoint",
                        "failure", "savepoint"},
                       rows);
}

Response ShowWorkers(WorkerRegistry* workers) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& w : workers->Statuses()) {
    rows.push_back({w.worker_id(), w.address(), std::to_string(w.slots()),
                    std::to_string(w.free_slots()), std::to_string(w.running_subtasks()),
                    std::to_string(w.last_heartbeat_age_ms())});
  }
  return TableResponse(
      {"worker id", "address", "slots", "free slots", "running subtasks", "heartbeat age ms"},
      rows);
}

absl::StatusOr<Response> ShowCreate(Session& session, const sql::Show& show) {
  ASSIGN_OR_RETURN(ObjectPath path, session.catalog.Resolve(show.name));
  const bool temporary = session.catalog.IsTemporary(path);
  Response r;
  r.set_kind(Response::TEXT);
  if (show.what == "CREATE TABLE" || show.what == "CREATE MATERIALIZED TABLE") {
    auto table = session.catalog.FindTable(path);
    if (show.what == "CREATE MATERIALIZED TABLE" && (table == nullptr || !table->materialized)) {
      return absl::NotFoundError(absl::StrCat(
          "Could not execute SHOW CREATE MATERIALIZED TABLE. Materialized table with identifier ",
          path.ToQuotedString(), " does not exist."));
    }
    if (table == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("Validation error: table '", path.ToString(), "' not found"));
    }
    r.set_message(table->materialized ? ShowCreateMaterializedTable(*table)
                                      : ShowCreateTable(*table, temporary));
  } else {
    auto view = session.catalog.FindView(path);
    if (view == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("Validation error: view '", path.ToString(), "' not found"));
    }
    r.set_message(ShowCreateView(*view, temporary));
  }
  return r;
}

// The catalog DESCRIBE CATALOG or SHOW CREATE CATALOG names: default_catalog (of Eddy's
// persistent type, with no options) or one of CREATE CATALOG.
absl::StatusOr<std::pair<std::string, CatalogInfo>> DescribedCatalog(
    const Session& session, const sql::QualifiedName& name) {
  if (name.parts.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Validation error: a catalog name is one identifier, not '", name.ToString(), "'"));
  }
  const std::string& catalog = name.parts[0];
  if (!session.catalog.catalog()->CatalogExists(catalog)) {
    return absl::NotFoundError(
        absl::StrCat("Validation error: catalog '", catalog, "' does not exist"));
  }
  return std::make_pair(catalog,
                        session.catalog.catalog()->FindCatalog(catalog).value_or(CatalogInfo{}));
}

// SHOW CREATE CATALOG c: the CREATE CATALOG statement of `c`; default_catalog was never created
// by one, so it has none (as in Flink).
absl::StatusOr<Response> ShowCreateCatalogOf(const Session& session,
                                             const sql::QualifiedName& name) {
  ASSIGN_OR_RETURN(auto described, DescribedCatalog(session, name));
  const auto& [catalog, info] = described;
  if (info.options.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("Validation error: catalog '", catalog,
                                                   "' was not created by CREATE CATALOG, so it has "
                                                   "no CREATE CATALOG statement to show"));
  }
  Response r;
  r.set_kind(Response::TEXT);
  r.set_message(ShowCreateCatalog(catalog, info));
  return r;
}

// SHOW PARTITIONS t [PARTITION (k = v, ...)]: the partition directories that exist, those
// matching the given values when a spec is given (NULL matches the default partition).
absl::StatusOr<Response> ShowPartitions(Session& session, const sql::Show& show) {
  ASSIGN_OR_RETURN(ObjectPath path, session.catalog.Resolve(show.name));
  auto table = session.catalog.FindTable(path);
  if (table == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("Validation error: table '", path.ToString(), "' not found"));
  }
  if (table->partition_keys.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Validation error: table '", path.ToString(), "' is not partitioned"));
  }
  std::string default_name = kDefaultPartitionName;
  if (const std::string* name = table->FindOption("partition.default-name")) default_name = *name;
  for (const sql::PartitionValueDef& v : show.partition) {
    if (std::find(table->partition_keys.begin(), table->partition_keys.end(), v.column) ==
        table->partition_keys.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Validation error: '", v.column, "' is not a partition column of table '",
          path.ToString(),
          "'; its partition columns are: ", absl::StrJoin(table->partition_keys, ", ")));
    }
  }
  ASSIGN_OR_RETURN(std::vector<std::string> all, session.catalog.catalog()->ListPartitions(*table));
  std::vector<std::string> kept;
  for (std::string& dir : all) {
    ASSIGN_OR_RETURN(PartitionSpec spec, ParsePartitionPath(dir));
    bool match = true;
    for (const sql::PartitionValueDef& v : show.partition) {
      for (const auto& [key, value] : spec) {
        if (key == v.column && value != (v.null ? default_name : v.value)) match = false;
      }
    }
    if (match) kept.push_back(std::move(dir));
  }
  return SingleColumnResponse("partition name", kept);
}

bool IsProctime(const std::string& expr) {
  return absl::AsciiStrToUpper(absl::StripAsciiWhitespace(expr)) == "PROCTIME()";
}

// The `extras` cell of a column: how a computed or metadata column gets its value.
std::string ColumnExtras(const CatalogTable& table, size_t i) {
  if (table.IsComputed(i)) return absl::StrCat("AS ", table.computed_exprs[i]);
  if (!table.IsMetadata(i)) return "";
  std::string extras = "METADATA";
  if (table.metadata_keys[i] != table.schema.fields[i].name) {
    absl::StrAppend(&extras, " FROM '", table.metadata_keys[i], "'");
  }
  if (table.IsVirtual(i)) absl::StrAppend(&extras, " VIRTUAL");
  return extras;
}

}  // namespace

absl::StatusOr<Response> ExecuteShow(Session& session, JobManager* jobs, WorkerRegistry* workers,
                                     const sql::Show& show) {
  const std::string& what = show.what;
  Catalog* catalog = session.catalog.catalog();
  if (what == "CATALOGS") return FilteredColumn(show, "catalog name", catalog->ListCatalogs());
  if (what == "DATABASES") {
    const std::string name = show.from ? show.from->parts[0] : session.catalog.current_catalog();
    if (!catalog->CatalogExists(name)) {
      return absl::NotFoundError(absl::StrCat("Validation error: catalog '", name, "' not found"));
    }
    return FilteredColumn(show, "database name", catalog->ListDatabases(name));
  }
  if (what == "MODELS") {
    ASSIGN_OR_RETURN(auto db, ListedDatabase(session, show));
    return FilteredColumn(show, "model name", session.catalog.ListModels(db.first, db.second));
  }
  if (what == "CREATE MODEL") return ShowCreateModelOf(session, show.name);
  if (what == "TABLES" || what == "VIEWS" || what == "USER FUNCTIONS") {
    ASSIGN_OR_RETURN(auto db, ListedDatabase(session, show));
    if (what == "TABLES") {
      return FilteredColumn(show, "table name", session.catalog.ListTables(db.first, db.second));
    }
    if (what == "VIEWS") {
      return FilteredColumn(show, "view name", session.catalog.ListViews(db.first, db.second));
    }
    return FilteredColumn(show, "function name",
                          session.catalog.ListUserFunctions(db.first, db.second));
  }
  if (what == "FUNCTIONS") {
    // Built-in functions, then the user's (of the database listed, and the temporary system ones).
    ASSIGN_OR_RETURN(auto db, ListedDatabase(session, show));
    std::vector<std::string> names = KnownFunctionNames();
    for (const std::string& agg : BuiltinAggregateNames()) names.push_back(agg);
    for (const std::string& user : session.catalog.ListUserFunctions(db.first, db.second)) {
      names.push_back(user);
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return FilteredColumn(show, "function name", std::move(names));
  }
  if (what == "COLUMNS") return ExecuteDescribe(session, show.name, &show);
  if (what == "MODULES") {
    return SingleColumnResponse("module name", session.catalog.modules().used());
  }
  if (what == "FULL MODULES") {
    std::vector<std::vector<std::string>> rows;
    for (const auto& [name, used] : session.catalog.modules().All()) {
      rows.push_back({name, used ? "TRUE" : "FALSE"});
    }
    return TableResponse({"module name", "used"}, std::move(rows));
  }
  if (what == "CURRENT CATALOG") {
    return SingleColumnResponse("current catalog name", {session.catalog.current_catalog()});
  }
  if (what == "CURRENT DATABASE") {
    return SingleColumnResponse("current database name", {session.catalog.current_database()});
  }
  if (what == "JOBS") return ShowJobs(jobs);
  if (what == "WORKERS") return ShowWorkers(workers);
  if (what == "JARS") return SingleColumnResponse("jars", session.jars);
  if (what == "CREATE TABLE" || what == "CREATE MATERIALIZED TABLE" || what == "CREATE VIEW") {
    return ShowCreate(session, show);
  }
  if (what == "CREATE CATALOG") return ShowCreateCatalogOf(session, show.name);
  if (what == "PARTITIONS") return ShowPartitions(session, show);
  if (what == "PROCEDURES") {
    // Eddy's catalogs hold no stored procedures (CALL names the one it did not find); the
    // database must exist.
    ASSIGN_OR_RETURN(auto db, ListedDatabase(session, show));
    (void)db;
    return FilteredColumn(show, "procedure name", {});
  }
  return absl::UnimplementedError(absl::StrCat("SHOW ", what, " is not supported yet"));
}

absl::StatusOr<Response> DescribeCatalog(Session& session, const sql::QualifiedName& name,
                                         bool extended) {
  ASSIGN_OR_RETURN(auto described, DescribedCatalog(session, name));
  const auto& [catalog, info] = described;
  std::vector<std::vector<std::string>> rows = {
      {"name", catalog}, {"type", info.type}, {"comment", info.comment}};
  if (extended) {
    std::vector<std::pair<std::string, std::string>> options;
    for (const auto& [k, v] : info.options) {
      if (k != "type") options.emplace_back(k, v);
    }
    if (info.options.empty()) options.emplace_back("default-database", info.DefaultDatabase());
    std::sort(options.begin(), options.end());
    for (const auto& [k, v] : options) rows.push_back({"option:" + k, v});
  }
  return TableResponse({"info name", "info value"}, rows);
}

absl::StatusOr<Response> DescribeFunction(Session& session, const sql::QualifiedName& name,
                                          bool extended) {
  std::vector<std::vector<std::string>> rows;
  std::shared_ptr<const CatalogFunction> user;
  bool temporary = false;
  bool system = false;
  if (name.parts.size() == 1) {
    user = session.catalog.FindSystemFunction(name.parts[0]);
    temporary = system = user != nullptr;
  }
  if (user == nullptr) {
    absl::StatusOr<ObjectPath> path = session.catalog.Resolve(name);
    if (path.ok()) {
      user = session.catalog.FindFunction(*path);
      ObjectPath lower = *path;
      lower.object = absl::AsciiStrToLower(lower.object);
      temporary = user != nullptr && user != session.catalog.catalog()->FindFunction(lower);
    }
  }
  if (user != nullptr) {
    rows = {{"system function", system ? "true" : "false"},
            {"temporary", temporary ? "true" : "false"},
            {"class name", user->symbol},
            {"function language", user->language},
            {"resource uris",
             absl::StrCat("ResourceUri{resourceType=JAR, uri='", user->library_path, "'}")}};
    if (extended) {
      ASSIGN_OR_RETURN(std::shared_ptr<const UserFunction> fn, planner::LoadUserFunction(*user));
      std::vector<std::string> args;
      for (const DataType& t : fn->arg_types())
        args.push_back(absl::StrCat("<", t.ToString(), ">"));
      rows.push_back({"kind", absl::AsciiStrToUpper(UserFunctionKindName(fn->kind()))});
      rows.push_back({"requirements", "[]"});
      rows.push_back({"deterministic", "true"});
      rows.push_back({"constant folding", "true"});
      rows.push_back(
          {"signature", absl::StrCat(name.ToString(), "(", absl::StrJoin(args, ", "), ")")});
    }
  } else if (name.parts.size() == 1 &&
             (IsKnownFunction(name.parts[0]) || IsBuiltinAggregate(name.parts[0]))) {
    // A built-in function: the core module's.
    rows = {{"system function", "true"}, {"temporary", "false"}};
    if (extended) {
      const bool aggregate = IsBuiltinAggregate(name.parts[0]);
      const FunctionDef* def =
          aggregate ? nullptr : FindFunction(absl::AsciiStrToUpper(name.parts[0]));
      rows.push_back({"kind", aggregate ? "AGGREGATE" : "SCALAR"});
      rows.push_back({"requirements", "[]"});
      rows.push_back({"deterministic", def == nullptr || def->deterministic ? "true" : "false"});
    }
  } else {
    return absl::NotFoundError(
        absl::StrCat("Validation error: Function ", name.ToString(), " does not exist."));
  }
  return TableResponse({"info name", "info value"}, rows);
}

absl::StatusOr<Response> DescribeJob(JobManager* jobs, const std::string& job_id) {
  Response all = ShowJobs(jobs);
  Response one = all;
  one.mutable_table()->clear_rows();
  for (const auto& row : all.table().rows()) {
    if (row.cells_size() > 0 && row.cells(0) == job_id) *one.mutable_table()->add_rows() = row;
  }
  if (one.table().rows_size() == 0) {
    return absl::NotFoundError(
        absl::StrCat("Validation error: job '", job_id, "' not found (SHOW JOBS lists the jobs)"));
  }
  return one;
}

absl::StatusOr<Response> ExecuteDescribe(Session& session, const sql::QualifiedName& name,
                                         const sql::Show* like) {
  ASSIGN_OR_RETURN(ObjectPath path, session.catalog.Resolve(name));
  auto table = session.catalog.FindTable(path);
  auto view = table ? nullptr : session.catalog.FindView(path);
  if (table == nullptr && view == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("Validation error: table '", path.ToString(), "' not found"));
  }
  const Schema& schema = table ? table->schema : view->schema;
  std::vector<std::string> names;
  for (const auto& f : schema.fields) names.push_back(f.name);
  if (like != nullptr) {
    ASSIGN_OR_RETURN(names, Filter(*like, std::move(names)));
  }
  const std::vector<std::string> pk = table ? table->primary_key : std::vector<std::string>{};
  const bool with_comments = table != nullptr && !table->column_comments.empty();
  // A view's time attributes (a view that no longer binds shows none).
  std::vector<std::string> view_markers;
  if (view != nullptr) {
    absl::StatusOr<std::vector<std::string>> markers =
        ViewTimeAttributeMarkers(*view, session.catalog, session.config);
    if (markers.ok() && markers->size() == schema.fields.size()) view_markers = *std::move(markers);
  }
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < schema.fields.size(); ++i) {
    const Field& f = schema.fields[i];
    if (std::find(names.begin(), names.end(), f.name) == names.end()) continue;
    std::string type = f.type.WithNullable(true).ToString();
    std::string extras, watermark;
    if (table) {
      extras = ColumnExtras(*table, i);
      if (f.name == table->watermark_column) {
        type += " *ROWTIME*";
        watermark = table->watermark_expr;
      } else if (table->IsComputed(i) && IsProctime(table->computed_exprs[i])) {
        type += " NOT NULL *PROCTIME*";
      }
    } else if (!view_markers.empty() && !view_markers[i].empty()) {
      // As Flink: TIMESTAMP(3) *ROWTIME*, TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*.
      type = view_markers[i] == "*PROCTIME*" ? absl::StrCat(type, " NOT NULL ", view_markers[i])
                                             : absl::StrCat(type, " ", view_markers[i]);
    }
    const bool is_key = std::find(pk.begin(), pk.end(), f.name) != pk.end();
    rows.push_back({f.name, type, f.type.nullable ? "TRUE" : "FALSE",
                    is_key ? absl::StrCat("PRI(", absl::StrJoin(pk, ", "), ")") : "", extras,
                    watermark});
    if (with_comments) rows.back().push_back(table->ColumnComment(i));
  }
  // As Flink: a comment column only when some column has a COMMENT.
  if (with_comments) {
    return TableResponse({"name", "type", "null", "key", "extras", "watermark", "comment"}, rows);
  }
  return TableResponse({"name", "type", "null", "key", "extras", "watermark"}, rows);
}

}  // namespace eddy
