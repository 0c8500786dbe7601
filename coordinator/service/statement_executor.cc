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
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/planner.h"
#include "coordinator/service/analyze_table.h"
#include "coordinator/service/call_procedure.h"
#include "coordinator/service/catalog_ddl.h"
#include "coordinator/service/compiled_plan.h"
#include "coordinator/service/config_keys.h"
#include "coordinator/service/filesystem_paths.h"
#include "coordinator/service/job_specs.h"
#include "coordinator/service/job_submission.h"
#include "coordinator/service/materialized_table.h"
#include "coordinator/service/model_ddl.h"
#include "coordinator/service/row_level_modification.h"
#include "coordinator/service/show_statements.h"
#include "coordinator/service/statement_responses.h"
#include "coordinator/service/truncate_table.h"
#include "coordinator/service/user_function_ddl.h"

namespace eddy {
namespace {

using Response = v1::ExecuteStatementResponse;

Response Ok(const std::string& message = "Execute statement succeeded.") {
  return OkResponse(message);
}

absl::StatusOr<Response> SubmitInsertJob(JobManager* jobs, Session& session,
                                         const PlannedJob& planned, const SubmitOptions& options) {
  ASSIGN_OR_RETURN(std::string job_id,
                   SubmitPlanned(jobs, session, planned, options, JobKind::kInsert));
  Response r;
  r.set_kind(Response::JOB_SUBMITTED);
  r.set_job_id(job_id);
  r.set_job_bounded(planned.bounded);
  r.set_message("SQL update statement has been successfully submitted to the cluster:");
  return r;
}

absl::StatusOr<Response> Submit(JobManager* jobs, Session& session,
                                const std::vector<const sql::Insert*>& inserts,
                                const SubmitOptions& options) {
  ASSIGN_OR_RETURN(PlannedJob planned, PlanInserts(inserts, session.catalog, session.config));
  return SubmitInsertJob(jobs, session, planned, options);
}

absl::StatusOr<Response> ExecuteCompiledPlan(JobManager* jobs, Session& session,
                                             const sql::CompiledPlanStatement& statement,
                                             const SubmitOptions& options) {
  ASSIGN_OR_RETURN(CompiledPlanOutcome outcome,
                   RunCompiledPlanStatement(statement, session, options.filesystem_allowed_dirs));
  if (outcome.job) return SubmitInsertJob(jobs, session, *outcome.job, options);
  if (outcome.json) {  // shown whole, as EXPLAIN's plan is
    Response r;
    r.set_kind(Response::EXPLAIN);
    r.set_message(std::move(*outcome.json));
    return r;
  }
  return Ok();
}

absl::StatusOr<Response> ExecuteSet(Session& session, const sql::Set& set) {
  if (!set.key) {
    std::map<std::string, std::string> all = ConfigDefaults();
    for (const auto& [k, v] : session.config) all[k] = v;
    std::vector<std::vector<std::string>> rows;
    for (const auto& [k, v] : all) rows.push_back({k, v});
    return TableResponse({"key", "value"}, rows);
  }
  ASSIGN_OR_RETURN(std::string value, ValidateConfigValue(*set.key, set.value.value_or("")));
  session.config[*set.key] = std::move(value);
  return Ok("Execute statement succeeded.");
}

}  // namespace

absl::StatusOr<Response> StatementExecutor::CreateTableAs(Session& session, sql::CreateTable& ddl) {
  SessionCatalog& catalog = session.catalog;
  ASSIGN_OR_RETURN(CatalogTable table, BindCreateTableAs(session, ddl));
  const ObjectPath path = table.path;
  // [CREATE OR] REPLACE TABLE ... AS: the table's definition is replaced in one step (Flink's
  // drop, create and insert), and restored should the job not start.
  std::shared_ptr<const CatalogTable> replaced;
  if (ddl.replace != sql::CreateTable::Replace::kNo) {
    ASSIGN_OR_RETURN(replaced, TableToReplace(catalog, path, ddl.replace));
  }
  if (replaced != nullptr) {
    RETURN_IF_ERROR(catalog.AlterTable(path, std::move(table)));
  } else {
    RETURN_IF_ERROR(catalog.CreateTable(std::move(table), false, false));
  }
  sql::Insert insert;
  insert.target = ddl.name;
  insert.query = std::move(ddl.as_query);
  absl::StatusOr<Response> submitted = Submit(jobs_, session, {&insert}, options_);
  // Nothing half done: a table whose job could not start is dropped again, or the replaced one
  // comes back.
  if (!submitted.ok()) {
    if (replaced != nullptr) {
      (void)catalog.AlterTable(path, *replaced);
    } else {
      (void)catalog.DropTable(path, false, true);
    }
  }
  return submitted;
}

absl::StatusOr<Response> StatementExecutor::Execute(Session& session, const std::string& sql) {
  ASSIGN_OR_RETURN(sql::StatementPtr stmt, sql::ParseStatement(sql));
  SessionCatalog& catalog = session.catalog;
  switch (stmt->kind) {
    case sql::StatementKind::kCreateTable: {
      auto& ddl = *stmt->create_table;
      if (ddl.as_query) return CreateTableAs(session, ddl);
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
        RETURN_IF_ERROR(ExecuteDropDatabase(session, drop));
        return Ok();
      }
      if (drop.what == sql::Drop::What::kCatalog) {
        RETURN_IF_ERROR(ExecuteDropCatalog(session, drop));
        return Ok();
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
        if (!drop.temporary)
          RETURN_IF_ERROR(RefuseForMaterializedTable(catalog, drop.name, "DROP"));
        RETURN_IF_ERROR(catalog.DropTable(path, drop.temporary, drop.if_exists));
      } else {
        RETURN_IF_ERROR(catalog.DropView(path, drop.temporary, drop.if_exists));
      }
      return Ok();
    }
    case sql::StatementKind::kCreateDatabase:
      RETURN_IF_ERROR(ExecuteCreateDatabase(session, *stmt->create_database));
      return Ok();
    case sql::StatementKind::kCreateCatalog:
      RETURN_IF_ERROR(ExecuteCreateCatalog(session, *stmt->create_catalog));
      return Ok();
    case sql::StatementKind::kAlterTable:
      RETURN_IF_ERROR(RefuseForMaterializedTable(catalog, stmt->alter_table->name, "ALTER"));
      RETURN_IF_ERROR(ExecuteAlterTable(session, *stmt->alter_table));
      return Ok();
    case sql::StatementKind::kAlterView:
      RETURN_IF_ERROR(ExecuteAlterView(session, *stmt->alter_view));
      return Ok();
    case sql::StatementKind::kAlterDatabase:
      RETURN_IF_ERROR(ExecuteAlterDatabase(session, *stmt->alter_database));
      return Ok();
    case sql::StatementKind::kAlterCatalog:
      RETURN_IF_ERROR(ExecuteAlterCatalog(session, *stmt->alter_catalog));
      return Ok();
    case sql::StatementKind::kCreateFunction:
      RETURN_IF_ERROR(CreateUserFunction(*stmt->create_function, catalog, session.jars));
      return Ok();
    case sql::StatementKind::kJar:
      RETURN_IF_ERROR(ExecuteJarStatement(*stmt->jar, &session.jars));
      return Ok();
    case sql::StatementKind::kAnalyzeTable:
      RETURN_IF_ERROR(AnalyzeTable(jobs_, session, *stmt->analyze_table, options_));
      return Ok();
    case sql::StatementKind::kCompiledPlan:
      return ExecuteCompiledPlan(jobs_, session, *stmt->compiled_plan, options_);
    case sql::StatementKind::kTruncateTable:
      RETURN_IF_ERROR(TruncateTable(session, *stmt->truncate_table, options_));
      return Ok();
    case sql::StatementKind::kRowLevelModification:
      RETURN_IF_ERROR(ExecuteRowLevelModification(session, *stmt->modification));
      return Ok();
    case sql::StatementKind::kCall:
      return CallProcedure(session, *stmt->call);
    case sql::StatementKind::kMaterializedTable:
      return ExecuteMaterializedTable(jobs_, session, *stmt->materialized_table, options_);
    case sql::StatementKind::kModel:
      return ExecuteModelStatement(session, *stmt->model);
    case sql::StatementKind::kModule: {
      const sql::ModuleStatement& module = *stmt->module;
      ModuleManager& modules = catalog.modules();
      switch (module.op) {
        case sql::ModuleStatement::Op::kLoad:
          RETURN_IF_ERROR(modules.Load(module.names.front(), module.properties));
          break;
        case sql::ModuleStatement::Op::kUnload:
          RETURN_IF_ERROR(modules.Unload(module.names.front()));
          break;
        case sql::ModuleStatement::Op::kUse:
          RETURN_IF_ERROR(modules.Use(module.names));
          break;
      }
      return Ok();
    }
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
      // DESCRIBE EXTENDED of a table shows what DESCRIBE shows, as in Flink.
      if (stmt->describe->job_id) return DescribeJob(jobs_, *stmt->describe->job_id);
      if (stmt->describe->function) {
        return DescribeFunction(session, stmt->describe->name, stmt->describe->extended);
      }
      if (stmt->describe->model) return DescribeModel(session, stmt->describe->name);
      if (stmt->describe->catalog) {
        return DescribeCatalog(session, stmt->describe->name, stmt->describe->extended);
      }
      return ExecuteDescribe(session, stmt->describe->name);
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
      return TableResponse({"savepoint path"}, {{path}});
    }
    case sql::StatementKind::kQuery: {
      auto mode = session.config.find("sql-client.execution.result-mode");
      if (planner::IsBatchMode(session.config) && mode != session.config.end() &&
          mode->second == "CHANGELOG") {
        return absl::InvalidArgumentError(
            "Results of batch queries can only be served in table or tableau mode.");
      }
      ASSIGN_OR_RETURN(PlannedQuery planned,
                       PlanQuery(*stmt->query, session.catalog, session.config));
      ASSIGN_OR_RETURN(std::string job_id,
                       SubmitPlanned(jobs_, session, planned.job, options_, JobKind::kQuery));
      Response r;
      r.set_kind(Response::QUERY);
      r.set_job_id(job_id);
      r.set_job_bounded(planned.job.bounded);
      SchemaToProto(planned.schema, r.mutable_result_schema());
      r.set_result_mode(mode != session.config.end() ? mode->second : "TABLEAU");
      auto width = session.config.find("sql-client.display.max-column-width");
      r.set_max_column_width(width != session.config.end() ? std::stoi(width->second) : 30);
      auto max_rows = session.config.find(kMaxTableResultRowsKey);
      r.set_max_table_rows(max_rows != session.config.end() ? std::stoll(max_rows->second)
                                                            : kDefaultMaxTableResultRows);
      if (planned.limit) r.set_limit(*planned.limit);
      r.set_batch(planner::IsBatchMode(session.config));
      r.set_local_time_zone(planner::ConfigTimeZone(session.config));
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
    case sql::StatementKind::kClear:
    case sql::StatementKind::kQuit:
      return absl::InvalidArgumentError("HELP, CLEAR and QUIT are client commands");
  }
  return absl::InternalError("unhandled statement kind");
}

}  // namespace eddy
