#include "coordinator/service/statement_executor.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "common/base/status_macros.h"
#include "common/expr/aggregate_signature.h"
#include "common/expr/function_registry.h"
#include "common/sql/parser.h"
#include "common/types/type_proto.h"
#include "coordinator/checkpoint/savepoint_store.h"
#include "coordinator/planner/planner.h"
#include "coordinator/service/config_keys.h"
#include "coordinator/service/filesystem_paths.h"
#include "coordinator/service/job_specs.h"
#include "coordinator/service/show_create.h"
#include "coordinator/service/user_function_ddl.h"

namespace eddy {
namespace {

using Response = v1::ExecuteStatementResponse;

Response Ok(const std::string& message = "Execute statement succeeded.") {
  Response r;
  r.set_kind(Response::OK);
  r.set_message(message);
  return r;
}

Response Table(std::vector<std::string> columns,
               const std::vector<std::vector<std::string>>& rows) {
  Response r;
  r.set_kind(Response::TABLE);
  for (auto& c : columns) r.mutable_table()->add_column_names(c);
  for (const auto& row : rows) {
    auto* out = r.mutable_table()->add_rows();
    for (const auto& cell : row) {
      out->add_cells(cell);
      out->add_is_null(false);
    }
  }
  return r;
}

Response SingleColumn(const std::string& name, const std::vector<std::string>& values) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& v : values) rows.push_back({v});
  return Table({name}, rows);
}

enum class JobKind { kInsert, kQuery };

absl::StatusOr<std::string> SubmitPlanned(JobManager* jobs, Session& session,
                                          const PlannedJob& planned, const SubmitOptions& options,
                                          JobKind kind) {
  std::vector<v1::PlanNode> nodes = planned.nodes;
  RETURN_IF_ERROR(ResolveFilesystemPaths(options.filesystem_allowed_dirs, &nodes));
  ASSIGN_OR_RETURN(std::vector<v1::UserLibrary> libraries, UserLibrariesOf(nodes));
  std::string name = planned.name;
  if (auto it = session.config.find("pipeline.name"); it != session.config.end()) {
    name = it->second;
  }
  const v1::StoredJobSpec stored =
      MakeStoredJobSpec(name, kind == JobKind::kQuery, planned.bounded, nodes, libraries,
                        session.config, options.checkpoints_dir);
  ASSIGN_OR_RETURN(JobManager::JobSpec spec, JobSpecFrom(stored));
  return jobs->Submit(std::move(spec));
}

absl::StatusOr<Response> Submit(JobManager* jobs, Session& session,
                                const std::vector<const sql::Insert*>& inserts,
                                const SubmitOptions& options) {
  ASSIGN_OR_RETURN(PlannedJob planned, PlanInserts(inserts, session.catalog, session.config));
  ASSIGN_OR_RETURN(std::string job_id,
                   SubmitPlanned(jobs, session, planned, options, JobKind::kInsert));
  Response r;
  r.set_kind(Response::JOB_SUBMITTED);
  r.set_job_id(job_id);
  r.set_job_bounded(planned.bounded);
  r.set_message("SQL update statement has been successfully submitted to the cluster:");
  return r;
}

absl::StatusOr<Response> ExecuteSet(Session& session, const sql::Set& set) {
  if (!set.key) {
    std::map<std::string, std::string> all = ConfigDefaults();
    for (const auto& [k, v] : session.config) all[k] = v;
    std::vector<std::vector<std::string>> rows;
    for (const auto& [k, v] : all) rows.push_back({k, v});
    return Table({"key", "value"}, rows);
  }
  ASSIGN_OR_RETURN(std::string value, ValidateConfigValue(*set.key, set.value.value_or("")));
  session.config[*set.key] = std::move(value);
  return Ok("Execute statement succeeded.");
}

absl::StatusOr<Response> ExecuteShow(Session& session, JobManager* jobs, WorkerRegistry* workers,
                                     const sql::Show& show) {
  const std::string& what = show.what;
  if (what == "CATALOGS")
    return SingleColumn("catalog name", session.catalog.catalog()->ListCatalogs());
  if (what == "DATABASES") {
    return SingleColumn("database name", session.catalog.catalog()->ListDatabases(
                                             session.catalog.current_catalog()));
  }
  if (what == "TABLES") return SingleColumn("table name", session.catalog.ListTables());
  if (what == "VIEWS") return SingleColumn("view name", session.catalog.ListViews());
  if (what == "CURRENT CATALOG") {
    return SingleColumn("current catalog name", {session.catalog.current_catalog()});
  }
  if (what == "CURRENT DATABASE") {
    return SingleColumn("current database name", {session.catalog.current_database()});
  }
  if (what == "JOBS") {
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
    return Table({"job id", "job name", "status", "start time", "restarts", "last checkpoint",
                  "failure", "savepoint"},
                 rows);
  }
  if (what == "WORKERS") {
    std::vector<std::vector<std::string>> rows;
    for (const auto& w : workers->Statuses()) {
      rows.push_back({w.worker_id(), w.address(), std::to_string(w.slots()),
                      std::to_string(w.free_slots()), std::to_string(w.running_subtasks()),
                      std::to_string(w.last_heartbeat_age_ms())});
    }
    return Table(
        {"worker id", "address", "slots", "free slots", "running subtasks", "heartbeat age ms"},
        rows);
  }
  if (what == "FUNCTIONS") {
    std::vector<std::string> names = KnownFunctionNames();
    for (const std::string& agg : BuiltinAggregateNames()) names.push_back(agg);
    std::sort(names.begin(), names.end());
    return SingleColumn("function name", names);
  }
  if (what == "USER FUNCTIONS") {
    return SingleColumn("function name", session.catalog.ListUserFunctions());
  }
  if (what == "CREATE TABLE" || what == "CREATE VIEW") {
    ASSIGN_OR_RETURN(ObjectPath path, session.catalog.Resolve(show.name));
    const bool temporary = session.catalog.IsTemporary(path);
    Response r;
    r.set_kind(Response::TEXT);
    if (what == "CREATE TABLE") {
      auto table = session.catalog.FindTable(path);
      if (table == nullptr) {
        return absl::NotFoundError(
            absl::StrCat("Validation error: table '", path.ToString(), "' not found"));
      }
      r.set_message(ShowCreateTable(*table, temporary));
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
  return absl::UnimplementedError(absl::StrCat("SHOW ", what, " is not supported yet"));
}

absl::StatusOr<Response> ExecuteDescribe(Session& session, const sql::Describe& d) {
  ASSIGN_OR_RETURN(ObjectPath path, session.catalog.Resolve(d.name));
  const Schema* schema = nullptr;
  std::vector<std::string> pk;
  auto table = session.catalog.FindTable(path);
  auto view = table ? nullptr : session.catalog.FindView(path);
  if (table) {
    schema = &table->schema;
    pk = table->primary_key;
  } else if (view) {
    schema = &view->schema;
  } else {
    return absl::NotFoundError(
        absl::StrCat("Validation error: table '", path.ToString(), "' not found"));
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : schema->fields) {
    bool is_key = std::find(pk.begin(), pk.end(), f.name) != pk.end();
    rows.push_back({f.name, f.type.WithNullable(true).ToString(),
                    f.type.nullable ? "TRUE" : "FALSE",
                    is_key ? absl::StrCat("PRI(", absl::StrJoin(pk, ", "), ")") : ""});
  }
  return Table({"name", "type", "null", "key"}, rows);
}

}  // namespace

absl::StatusOr<Response> StatementExecutor::Execute(Session& session, const std::string& sql) {
  ASSIGN_OR_RETURN(sql::StatementPtr stmt, sql::ParseStatement(sql));
  SessionCatalog& catalog = session.catalog;
  switch (stmt->kind) {
    case sql::StatementKind::kCreateTable: {
      const auto& ddl = *stmt->create_table;
      ASSIGN_OR_RETURN(CatalogTable table, BindCreateTable(ddl, catalog));
      RETURN_IF_ERROR(catalog.CreateTable(std::move(table), ddl.temporary, ddl.if_not_exists));
      return Ok();
    }
    case sql::StatementKind::kCreateView: {
      const auto& ddl = *stmt->create_view;
      ASSIGN_OR_RETURN(CatalogView view, BindCreateView(ddl, catalog, session.config));
      RETURN_IF_ERROR(catalog.CreateView(std::move(view), ddl.temporary, ddl.if_not_exists));
      return Ok();
    }
    case sql::StatementKind::kDrop: {
      const auto& drop = *stmt->drop;
      if (drop.what == sql::Drop::What::kDatabase) {
        return absl::UnimplementedError("DROP DATABASE is not supported yet");
      }
      if (drop.what == sql::Drop::What::kFunction && drop.system) {
        if (drop.name.parts.size() != 1) {
          return absl::InvalidArgumentError(
              absl::StrCat("Validation error: a temporary system function has a plain name, not '",
                           drop.name.ToString(), "'"));
        }
        RETURN_IF_ERROR(
            catalog.DropFunction({"", "", drop.name.parts[0]}, true, true, drop.if_exists));
        return Ok();
      }
      ASSIGN_OR_RETURN(ObjectPath path, catalog.Resolve(drop.name));
      if (drop.what == sql::Drop::What::kFunction) {
        RETURN_IF_ERROR(catalog.DropFunction(path, drop.temporary, false, drop.if_exists));
      } else if (drop.what == sql::Drop::What::kTable) {
        RETURN_IF_ERROR(catalog.DropTable(path, drop.temporary, drop.if_exists));
      } else {
        RETURN_IF_ERROR(catalog.DropView(path, drop.temporary, drop.if_exists));
      }
      return Ok();
    }
    case sql::StatementKind::kCreateDatabase: {
      const auto& cd = *stmt->create_database;
      std::string cat = catalog.current_catalog(), db;
      if (cd.name.parts.size() == 1) {
        db = cd.name.parts[0];
      } else if (cd.name.parts.size() == 2) {
        cat = cd.name.parts[0];
        db = cd.name.parts[1];
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("Validation error: '", cd.name.ToString(), "' is not a database name"));
      }
      RETURN_IF_ERROR(catalog.catalog()->CreateDatabase(cat, db, cd.if_not_exists));
      return Ok();
    }
    case sql::StatementKind::kCreateFunction:
      RETURN_IF_ERROR(CreateUserFunction(*stmt->create_function, catalog));
      return Ok();
    case sql::StatementKind::kUse: {
      const auto& use = *stmt->use;
      if (use.catalog) {
        RETURN_IF_ERROR(catalog.UseCatalog(use.name.ToString()));
      } else {
        RETURN_IF_ERROR(catalog.UseDatabase(use.name));
      }
      return Ok();
    }
    case sql::StatementKind::kSet:
      return ExecuteSet(session, *stmt->set);
    case sql::StatementKind::kReset:
      if (stmt->reset->key) {
        RETURN_IF_ERROR(ValidateConfigKey(*stmt->reset->key));
        session.config.erase(*stmt->reset->key);
      } else {
        session.config.clear();
      }
      return Ok();
    case sql::StatementKind::kShow:
      return ExecuteShow(session, jobs_, workers_, *stmt->show);
    case sql::StatementKind::kDescribe:
      return ExecuteDescribe(session, *stmt->describe);
    case sql::StatementKind::kInsert:
      return Submit(jobs_, session, {stmt->insert.get()}, options_);
    case sql::StatementKind::kStatementSet: {
      // BEGIN STATEMENT SET; END; (the SQL client's form) submits nothing.
      if (stmt->statement_set->inserts.empty()) {
        return Ok("No statement in the statement set, skip submit.");
      }
      std::vector<const sql::Insert*> inserts;
      for (const auto& i : stmt->statement_set->inserts) inserts.push_back(&i);
      return Submit(jobs_, session, inserts, options_);
    }
    case sql::StatementKind::kStopJob: {
      const sql::StopJob& stop = *stmt->stop_job;
      if (!stop.with_savepoint) {
        RETURN_IF_ERROR(jobs_->Cancel(stop.job_id));
        return Ok();
      }
      // The session's state.savepoints.dir, else the job's own.
      std::string dir;
      if (auto it = session.config.find("state.savepoints.dir");
          it != session.config.end() && !it->second.empty()) {
        ASSIGN_OR_RETURN(dir, LocalDirectoryOf(it->second, "state.savepoints.dir"));
      }
      ASSIGN_OR_RETURN(std::string path, jobs_->StopWithSavepoint(stop.job_id, dir, stop.drain));
      // As the SQL client shows it: one column, the savepoint's path.
      return Table({"savepoint path"}, {{path}});
    }
    case sql::StatementKind::kQuery: {
      ASSIGN_OR_RETURN(PlannedQuery planned,
                       PlanQuery(*stmt->query, session.catalog, session.config));
      ASSIGN_OR_RETURN(std::string job_id,
                       SubmitPlanned(jobs_, session, planned.job, options_, JobKind::kQuery));
      Response r;
      r.set_kind(Response::QUERY);
      r.set_job_id(job_id);
      r.set_job_bounded(planned.job.bounded);
      SchemaToProto(planned.schema, r.mutable_result_schema());
      auto mode = session.config.find("sql-client.execution.result-mode");
      r.set_result_mode(mode != session.config.end() ? mode->second : "TABLEAU");
      if (planned.limit) r.set_limit(*planned.limit);
      return r;
    }
    case sql::StatementKind::kExplain: {
      ASSIGN_OR_RETURN(std::string plan,
                       ExplainStatement(*stmt->explain, session.catalog, session.config));
      Response r;
      r.set_kind(Response::EXPLAIN);
      r.set_message(std::move(plan));
      return r;
    }
    case sql::StatementKind::kHelp:
    case sql::StatementKind::kQuit:
      return absl::InvalidArgumentError("HELP and QUIT are client commands");
  }
  return absl::InternalError("unhandled statement kind");
}

}  // namespace eddy
