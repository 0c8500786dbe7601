#include "coordinator/service/materialized_table.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "common/base/status_macros.h"
#include "common/sql/parser.h"
#include "coordinator/checkpoint/savepoint_store.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/planner.h"
#include "coordinator/service/catalog_ddl.h"
#include "coordinator/service/show_create.h"
#include "coordinator/service/statement_responses.h"

namespace eddy {
namespace {

using Response = v1::ExecuteStatementResponse;
using RefreshStatus = MaterializedTableInfo::RefreshStatus;

constexpr int64_t kDefaultFreshnessThresholdMs = 30 * 60 * 1000;

absl::Status Invalid(const std::string& message) { return absl::InvalidArgumentError(message); }

// ---------------------------------------------------------------- freshness

struct Freshness {
  int64_t value = 0;
  std::string unit;  // SECOND, MINUTE, HOUR or DAY
  int64_t millis = 0;
};

int64_t UnitMillis(const std::string& unit) {
  if (unit == "SECOND") return 1000;
  if (unit == "MINUTE") return 60 * 1000;
  if (unit == "HOUR") return 60 * 60 * 1000;
  return 24 * 60 * 60 * 1000;  // DAY
}

// FRESHNESS = INTERVAL ..., checked as Flink 1.20 checks it (a zero interval, which Flink 1.20
// only refuses when the job's checkpoint interval is set, gets Flink 2's message).
absl::StatusOr<Freshness> FreshnessOf(const sql::MaterializedTableStatement& mt) {
  const std::string& text = mt.freshness_text;
  if (mt.freshness_negative || (!text.empty() && text[0] == '-')) {
    return Invalid("Materialized table freshness doesn't support negative value.");
  }
  const std::string& unit = mt.freshness_unit;
  if (unit != "SECOND" && unit != "MINUTE" && unit != "HOUR" && unit != "DAY") {
    return Invalid(
        "Materialized table freshness only support SECOND, MINUTE, HOUR, DAY as the time unit.");
  }
  double number = 0;
  if (!absl::SimpleAtod(text, &number)) {
    return Invalid(absl::StrCat("The interval freshness value '", text,
                                "' is an illegal integer type value."));
  }
  Freshness f;
  if (!absl::SimpleAtoi(text, &f.value)) {
    return Invalid("The freshness interval currently only supports integer type values.");
  }
  if (f.value <= 0) {
    return Invalid(absl::StrCat(
        "The freshness interval currently only supports positive integer type values. But was: ",
        f.value));
  }
  if (f.value > INT64_MAX / UnitMillis(unit)) {
    return Invalid(absl::StrCat("The freshness interval '", text, "' ", unit, " is too large."));
  }
  f.unit = unit;
  f.millis = f.value * UnitMillis(unit);
  return f;
}

// ---------------------------------------------------------------- session state for a job

// Holds the session's configuration and current catalog/database while a refresh job is planned
// with its own, and puts them back when it goes.
class SessionStateGuard {
 public:
  explicit SessionStateGuard(Session& session)
      : session_(session),
        config_(session.config),
        catalog_(session.catalog.current_catalog()),
        database_(session.catalog.current_database()) {}
  ~SessionStateGuard() {
    session_.config = std::move(config_);
    if (session_.catalog.current_catalog() != catalog_ ||
        session_.catalog.current_database() != database_) {
      (void)session_.catalog.UseCatalog(catalog_);
      sql::QualifiedName db;
      db.parts = {catalog_, database_};
      (void)session_.catalog.UseDatabase(db);
    }
  }
  SessionStateGuard(const SessionStateGuard&) = delete;
  SessionStateGuard& operator=(const SessionStateGuard&) = delete;

  // The names of the defining query resolve where they did when the table was created.
  absl::Status UseQueryContext(const MaterializedTableInfo& info) {
    if (info.query_catalog.empty()) return absl::OkStatus();
    if (session_.catalog.current_catalog() == info.query_catalog &&
        session_.catalog.current_database() == info.query_database) {
      return absl::OkStatus();
    }
    RETURN_IF_ERROR(session_.catalog.UseCatalog(info.query_catalog));
    sql::QualifiedName db;
    db.parts = {info.query_catalog, info.query_database};
    return session_.catalog.UseDatabase(db);
  }

 private:
  Session& session_;
  std::map<std::string, std::string> config_;
  std::string catalog_;
  std::string database_;
};

// Removes the temporary table that shadows the materialized table with RESUME's options.
class ShadowTableGuard {
 public:
  ShadowTableGuard(SessionCatalog& catalog, ObjectPath path)
      : catalog_(catalog), path_(std::move(path)) {}
  ~ShadowTableGuard() { (void)catalog_.DropTable(path_, /*temporary=*/true, /*if_exists=*/true); }
  ShadowTableGuard(const ShadowTableGuard&) = delete;
  ShadowTableGuard& operator=(const ShadowTableGuard&) = delete;

 private:
  SessionCatalog& catalog_;
  ObjectPath path_;
};

absl::StatusOr<sql::QueryPtr> ParseDefiningQuery(const MaterializedTableInfo& info) {
  ASSIGN_OR_RETURN(sql::StatementPtr stmt, sql::ParseStatement(info.query_text));
  if (stmt->kind != sql::StatementKind::kQuery) {
    return absl::InternalError("a materialized table's query does not parse back as a query");
  }
  return std::move(stmt->query);
}

std::string JobName(const ObjectPath& path, const char* kind) {
  return absl::StrCat("Materialized_table_", path.ToQuotedString(), "_", kind, "_refresh_job");
}

Response JobResponse(const std::string& job_id, bool bounded, const std::string& message) {
  Response r;
  r.set_kind(Response::JOB_SUBMITTED);
  r.set_job_id(job_id);
  r.set_job_bounded(bounded);
  r.set_message(message);
  return r;
}

struct SubmittedJob {
  std::string job_id;
  bool bounded = false;
};

// Submits `INSERT INTO t <query>` in streaming mode, checkpointing every freshness (unless the
// session sets execution.checkpointing.interval itself), restoring `restore_path` when given;
// `dynamic_options` override the table's options for this job only (RESUME WITH (...)).
absl::StatusOr<SubmittedJob> SubmitContinuousRefreshJob(JobManager* jobs, Session& session,
                                                        const CatalogTable& table,
                                                        const std::string& restore_path,
                                                        const OptionList& dynamic_options,
                                                        const SubmitOptions& options) {
  const MaterializedTableInfo& info = *table.materialized;
  SessionStateGuard guard(session);
  RETURN_IF_ERROR(guard.UseQueryContext(info));
  session.config["execution.runtime-mode"] = "STREAMING";
  session.config["pipeline.name"] = JobName(table.path, "continuous");
  if (!session.config.contains("execution.checkpointing.interval")) {
    session.config["execution.checkpointing.interval"] =
        absl::StrCat(info.freshness_value * UnitMillis(info.freshness_unit), " ms");
  }
  if (restore_path.empty()) {
    session.config.erase("execution.savepoint.path");
  } else {
    session.config["execution.savepoint.path"] = restore_path;
  }
  std::optional<ShadowTableGuard> shadow;
  if (!dynamic_options.empty()) {
    CatalogTable with_options = table;
    with_options.materialized.reset();
    for (const auto& [key, value] : dynamic_options) SetOption(with_options.options, key, value);
    // Bound as CREATE TABLE binds it, so an option the connector does not know is refused by
    // name.
    ASSIGN_OR_RETURN(sql::StatementPtr definition,
                     sql::ParseStatement(ShowCreateTable(with_options, /*temporary=*/false)));
    if (definition->kind != sql::StatementKind::kCreateTable) {
      return absl::InternalError("the table's definition does not parse back as CREATE TABLE");
    }
    ASSIGN_OR_RETURN(CatalogTable shadow_table,
                     BindCreateTable(*definition->create_table, session.catalog));
    RETURN_IF_ERROR(session.catalog.CreateTable(std::move(shadow_table), /*temporary=*/true,
                                                /*if_not_exists=*/false));
    shadow.emplace(session.catalog, table.path);
  }
  sql::Insert insert;
  insert.target = NameOf(table.path);
  ASSIGN_OR_RETURN(insert.query, ParseDefiningQuery(info));
  ASSIGN_OR_RETURN(PlannedJob planned, PlanInserts({&insert}, session.catalog, session.config));
  ASSIGN_OR_RETURN(std::string job_id,
                   SubmitPlanned(jobs, session, planned, options, JobKind::kInsert));
  return SubmittedJob{std::move(job_id), planned.bounded};
}

// ---------------------------------------------------------------- catalog lookups

std::string CatalogList(const SessionCatalog& catalog) {
  return absl::StrCat("[", absl::StrJoin(catalog.catalog()->ListCatalogs(), ", "), "]");
}

// The materialized table at `path`, with Flink's messages for a missing table and one that is not
// materialized.
absl::StatusOr<std::shared_ptr<const CatalogTable>> MaterializedTableAt(
    const SessionCatalog& catalog, const ObjectPath& path) {
  std::shared_ptr<const CatalogTable> table = catalog.FindTable(path);
  if (table == nullptr && catalog.FindView(path) == nullptr) {
    return absl::NotFoundError(absl::StrCat("Cannot find table '", path.ToQuotedString(),
                                            "' in any of the catalogs ", CatalogList(catalog),
                                            ", nor as a temporary table."));
  }
  if (table == nullptr || !table->materialized) {
    return Invalid(absl::StrCat("Table ", path.ToQuotedString(),
                                " is not a materialized table, does not support materialized "
                                "table related operation."));
  }
  return table;
}

// Whether the refresh job still runs (or is about to, or restarts); a job the coordinator no
// longer knows has ended.
bool JobRuns(JobManager* jobs, const std::string& job_id) {
  if (job_id.empty()) return false;
  absl::StatusOr<v1::JobInfo> info = jobs->Get(job_id);
  return info.ok() && !JobManager::IsFinal(info->status());
}

absl::Status UpdateRefreshState(SessionCatalog& catalog, const CatalogTable& table,
                                RefreshStatus status, const std::string& job_id,
                                const std::string& savepoint_path) {
  CatalogTable updated = table;
  updated.materialized->refresh_status = status;
  updated.materialized->refresh_job_id = job_id;
  updated.materialized->savepoint_path = savepoint_path;
  return catalog.AlterTable(table.path, std::move(updated));
}

// ---------------------------------------------------------------- CREATE

absl::Status CheckColumnsOfQuery(const sql::MaterializedTableStatement& mt, const Schema& schema) {
  std::vector<std::string> names;
  for (const Field& f : schema.fields) names.push_back(absl::StrCat("'", f.name, "'"));
  const std::string available = absl::StrJoin(names, ", ");
  for (const std::string& key : mt.partition_keys) {
    if (!schema.FindField(key)) {
      return Invalid(absl::StrCat("Partition column '", key,
                                  "' not defined in the query schema. Available columns: [",
                                  available, "]."));
    }
  }
  for (const std::string& key : mt.primary_key) {
    std::optional<int> field = schema.FindField(key);
    if (!field) {
      return Invalid(absl::StrCat("Primary key column '", key,
                                  "' not defined in the query schema. Available columns: [",
                                  available, "]."));
    }
    if (schema.fields[static_cast<size_t>(*field)].type.nullable) {
      return Invalid(absl::StrCat("Could not create a PRIMARY KEY with nullable column '", key,
                                  "'.\nA PRIMARY KEY column must be declared on non-nullable "
                                  "physical columns."));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Response> Create(JobManager* jobs, Session& session,
                                sql::MaterializedTableStatement& mt, const SubmitOptions& options) {
  SessionCatalog& catalog = session.catalog;
  ASSIGN_OR_RETURN(ObjectPath path, catalog.Resolve(mt.name));
  ASSIGN_OR_RETURN(Freshness freshness, FreshnessOf(mt));

  // The query's columns (as CREATE TABLE AS SELECT takes them), then the keys over them.
  ASSIGN_OR_RETURN(Schema columns, QueryColumns(session, path, mt.query));
  RETURN_IF_ERROR(CheckColumnsOfQuery(mt, columns));

  ASSIGN_OR_RETURN(int64_t threshold_ms,
                   planner::ConfigDurationMs(session.config, kFreshnessThresholdKey,
                                             kDefaultFreshnessThresholdMs));
  const bool full = mt.refresh_mode ? *mt.refresh_mode == "FULL" : freshness.millis >= threshold_ms;
  if (full) {
    const std::string reason =
        mt.refresh_mode ? "REFRESH_MODE = FULL"
                        : absl::StrCat("its freshness ", freshness.value, " ", freshness.unit,
                                       " is not below ", kFreshnessThresholdKey);
    return Invalid(absl::StrCat(
        "Materialized table ", path.ToQuotedString(), " would be refreshed in FULL refresh mode (",
        reason,
        "), which is not supported: it needs a workflow scheduler, which Eddy does not have. Use "
        "REFRESH_MODE = CONTINUOUS, or a freshness below the threshold."));
  }
  bool has_connector = false;
  for (const auto& [k, v] : mt.properties.entries) has_connector |= k == "connector";
  if (!has_connector) {
    return Invalid(absl::StrCat("Materialized table ", path.ToQuotedString(),
                                " needs a 'connector' option in its WITH clause: Eddy has no "
                                "default store for materialized tables."));
  }
  if (mt.if_not_exists && (catalog.FindTable(path) != nullptr || catalog.FindView(path))) {
    return OkResponse();
  }

  sql::CreateTable ddl;
  ddl.name = NameOf(path);
  ddl.comment = mt.comment;
  ddl.partition_keys = mt.partition_keys;
  ddl.properties = mt.properties;
  ddl.as_query = std::move(mt.query);
  absl::StatusOr<CatalogTable> bound = BindCreateTableAs(session, ddl);
  mt.query = std::move(ddl.as_query);
  if (!bound.ok()) return bound.status();
  CatalogTable table = *std::move(bound);
  table.primary_key = mt.primary_key;
  MaterializedTableInfo info;
  info.query_text = mt.query_text;
  info.query_catalog = catalog.current_catalog();
  info.query_database = catalog.current_database();
  info.freshness_value = freshness.value;
  info.freshness_unit = freshness.unit;
  info.refresh_mode_written = mt.refresh_mode.has_value();
  table.materialized = std::move(info);
  RETURN_IF_ERROR(catalog.CreateTable(table, /*temporary=*/false, /*if_not_exists=*/false));

  absl::StatusOr<SubmittedJob> job =
      SubmitContinuousRefreshJob(jobs, session, table, "", {}, options);
  if (!job.ok()) {
    // Nothing half done: the table goes again, as Flink drops it.
    (void)catalog.DropTable(path, /*temporary=*/false, /*if_exists=*/true);
    return absl::Status(
        job.status().code(),
        absl::StrCat("Submit continuous refresh job for materialized table ", path.ToQuotedString(),
                     " occur exception: ", job.status().message()));
  }
  RETURN_IF_ERROR(UpdateRefreshState(catalog, table, RefreshStatus::kActivated, job->job_id, ""));
  return JobResponse(job->job_id, job->bounded,
                     absl::StrCat("Materialized table ", path.ToQuotedString(),
                                  " is created; its continuous refresh job has been submitted to "
                                  "the cluster:"));
}

// ---------------------------------------------------------------- SUSPEND / RESUME

absl::StatusOr<Response> Suspend(JobManager* jobs, Session& session, const ObjectPath& path) {
  ASSIGN_OR_RETURN(std::shared_ptr<const CatalogTable> table,
                   MaterializedTableAt(session.catalog, path));
  const MaterializedTableInfo& info = *table->materialized;
  switch (info.refresh_status) {
    case RefreshStatus::kInitializing:
      return Invalid(absl::StrCat("Materialized table ", path.ToQuotedString(),
                                  " is being initialized and does not support suspend operation."));
    case RefreshStatus::kSuspended:
      return Invalid(absl::StrCat("Materialized table ", path.ToQuotedString(),
                                  " continuous refresh job has been suspended, jobId is ",
                                  info.refresh_job_id, "."));
    case RefreshStatus::kActivated:
      break;
  }
  auto dir = session.config.find("state.savepoints.dir");
  if (dir == session.config.end() || dir->second.empty()) {
    return Invalid("Savepoint directory is not configured, can't stop job with savepoint.");
  }
  ASSIGN_OR_RETURN(std::string local_dir, LocalDirectoryOf(dir->second, "state.savepoints.dir"));
  absl::StatusOr<std::string> savepoint =
      jobs->StopWithSavepoint(info.refresh_job_id, local_dir, /*drain=*/false);
  if (!savepoint.ok()) {
    return absl::Status(savepoint.status().code(),
                        absl::StrCat("Failed to suspend the continuous refresh job for "
                                     "materialized table ",
                                     path.ToQuotedString(), ": ", savepoint.status().message()));
  }
  RETURN_IF_ERROR(UpdateRefreshState(session.catalog, *table, RefreshStatus::kSuspended,
                                     info.refresh_job_id, *savepoint));
  return OkResponse();
}

absl::StatusOr<Response> Resume(JobManager* jobs, Session& session, const ObjectPath& path,
                                const OptionList& dynamic_options, const SubmitOptions& options) {
  ASSIGN_OR_RETURN(std::shared_ptr<const CatalogTable> table,
                   MaterializedTableAt(session.catalog, path));
  const MaterializedTableInfo& info = *table->materialized;
  switch (info.refresh_status) {
    case RefreshStatus::kInitializing:
      return Invalid(absl::StrCat("Materialized table ", path.ToQuotedString(),
                                  " is being initialized and does not support resume operation."));
    case RefreshStatus::kActivated:
      if (JobRuns(jobs, info.refresh_job_id)) {
        return Invalid(absl::StrCat("Materialized table ", path.ToQuotedString(),
                                    " continuous refresh job has been resumed, jobId is ",
                                    info.refresh_job_id, "."));
      }
      break;
    case RefreshStatus::kSuspended:
      break;
  }
  absl::StatusOr<SubmittedJob> job = SubmitContinuousRefreshJob(
      jobs, session, *table, info.savepoint_path, dynamic_options, options);
  if (!job.ok()) {
    return absl::Status(job.status().code(),
                        absl::StrCat("Failed to resume the continuous refresh job for "
                                     "materialized table ",
                                     path.ToQuotedString(), ": ", job.status().message()));
  }
  RETURN_IF_ERROR(
      UpdateRefreshState(session.catalog, *table, RefreshStatus::kActivated, job->job_id, ""));
  return JobResponse(job->job_id, job->bounded,
                     absl::StrCat("The continuous refresh job of materialized table ",
                                  path.ToQuotedString(), " has been resumed on the cluster:"));
}

// ---------------------------------------------------------------- REFRESH

std::string QuoteIdentifier(const std::string& name) {
  return absl::StrCat("`", absl::StrReplaceAll(name, {{"`", "``"}}), "`");
}

absl::StatusOr<Response> Refresh(JobManager* jobs, Session& session, const ObjectPath& path,
                                 const std::vector<sql::PartitionValueDef>& partition,
                                 const SubmitOptions& options) {
  ASSIGN_OR_RETURN(std::shared_ptr<const CatalogTable> table,
                   MaterializedTableAt(session.catalog, path));
  // Only string partition keys, as Flink has it.
  std::vector<std::string> unknown;
  std::vector<std::string> not_string;
  for (const sql::PartitionValueDef& value : partition) {
    std::optional<int> field = table->schema.FindField(value.column);
    if (!field) {
      unknown.push_back(value.column);
    } else if (table->schema.fields[static_cast<size_t>(*field)].type.id != TypeId::kString) {
      not_string.push_back(value.column);
    }
  }
  if (!unknown.empty()) {
    return Invalid(absl::StrCat(
        "The partition spec contains unknown partition keys:\n\n", absl::StrJoin(unknown, "\n"),
        "\n\nAll known partition keys are:\n\n", absl::StrJoin(table->partition_keys, "\n")));
  }
  if (!not_string.empty()) {
    return Invalid(absl::StrCat(
        "Currently, refreshing materialized table only supports referring to char, varchar and "
        "string type partition keys. All specified partition keys in partition specs with "
        "unsupported types are:\n\n",
        absl::StrJoin(not_string, "\n")));
  }
  // INSERT OVERWRITE t SELECT * FROM (query) WHERE k = 'v' AND ..., as a batch job.
  std::string statement = absl::StrCat("INSERT OVERWRITE ", path.ToQuotedString(),
                                       "\n  SELECT * FROM (", table->materialized->query_text, ")");
  std::vector<std::string> conditions;
  for (const sql::PartitionValueDef& value : partition) {
    conditions.push_back(value.null
                             ? absl::StrCat(QuoteIdentifier(value.column), " IS NULL")
                             : absl::StrCat(QuoteIdentifier(value.column), " = '",
                                            absl::StrReplaceAll(value.value, {{"'", "''"}}), "'"));
  }
  if (!conditions.empty()) {
    absl::StrAppend(&statement, "\n  WHERE ", absl::StrJoin(conditions, " AND "));
  }
  SessionStateGuard guard(session);
  RETURN_IF_ERROR(guard.UseQueryContext(*table->materialized));
  session.config["execution.runtime-mode"] = "BATCH";
  session.config["pipeline.name"] = JobName(path, "one_time");
  session.config.erase("execution.savepoint.path");
  auto refresh = [&]() -> absl::StatusOr<Response> {
    ASSIGN_OR_RETURN(sql::StatementPtr insert, sql::ParseStatement(statement));
    if (insert->kind != sql::StatementKind::kInsert) {
      return absl::InternalError("the refresh statement does not parse as INSERT");
    }
    ASSIGN_OR_RETURN(PlannedJob planned,
                     PlanInserts({insert->insert.get()}, session.catalog, session.config));
    ASSIGN_OR_RETURN(std::string job_id,
                     SubmitPlanned(jobs, session, planned, options, JobKind::kInsert));
    return JobResponse(job_id, planned.bounded,
                       absl::StrCat("The refresh job of materialized table ", path.ToQuotedString(),
                                    " has been submitted to the cluster:"));
  };
  absl::StatusOr<Response> submitted = refresh();
  if (!submitted.ok()) {
    return absl::Status(submitted.status().code(),
                        absl::StrCat("Refreshing the materialized table ", path.ToQuotedString(),
                                     " occur exception: ", submitted.status().message()));
  }
  return submitted;
}

// ---------------------------------------------------------------- DROP

absl::StatusOr<Response> Drop(JobManager* jobs, Session& session, const ObjectPath& path,
                              bool if_exists) {
  SessionCatalog& catalog = session.catalog;
  if (catalog.FindTable(path) == nullptr && catalog.FindView(path) == nullptr) {
    if (if_exists) return OkResponse();
    return Invalid(absl::StrCat("Materialized table with identifier ", path.ToQuotedString(),
                                " does not exist."));
  }
  ASSIGN_OR_RETURN(std::shared_ptr<const CatalogTable> table, MaterializedTableAt(catalog, path));
  const MaterializedTableInfo& info = *table->materialized;
  switch (info.refresh_status) {
    case RefreshStatus::kInitializing:
      return Invalid(absl::StrCat("Current refresh status of materialized table ",
                                  path.ToQuotedString(),
                                  " is initializing, skip the drop operation."));
    case RefreshStatus::kActivated:
      if (JobRuns(jobs, info.refresh_job_id)) {
        absl::Status cancelled = jobs->Cancel(info.refresh_job_id);
        if (!cancelled.ok() && JobRuns(jobs, info.refresh_job_id)) {
          return absl::Status(
              cancelled.code(),
              absl::StrCat("Failed to drop the materialized table ", path.ToQuotedString(),
                           " because the continuous refresh job ", info.refresh_job_id,
                           " could not be canceled: ", cancelled.message()));
        }
      }
      break;
    case RefreshStatus::kSuspended:
      break;
  }
  RETURN_IF_ERROR(catalog.DropTable(path, /*temporary=*/false, /*if_exists=*/false));
  return OkResponse();
}

}  // namespace

absl::StatusOr<Response> ExecuteMaterializedTable(JobManager* jobs, Session& session,
                                                  sql::MaterializedTableStatement& statement,
                                                  const SubmitOptions& options) {
  if (statement.op == sql::MaterializedTableStatement::Op::kCreate) {
    return Create(jobs, session, statement, options);
  }
  ASSIGN_OR_RETURN(ObjectPath path, session.catalog.Resolve(statement.name));
  switch (statement.op) {
    case sql::MaterializedTableStatement::Op::kCreate:
      break;
    case sql::MaterializedTableStatement::Op::kSuspend:
      return Suspend(jobs, session, path);
    case sql::MaterializedTableStatement::Op::kResume:
      return Resume(jobs, session, path, statement.properties.entries, options);
    case sql::MaterializedTableStatement::Op::kRefresh:
      return Refresh(jobs, session, path, statement.partition, options);
    case sql::MaterializedTableStatement::Op::kDrop:
      return Drop(jobs, session, path, statement.if_exists);
  }
  return absl::InternalError("unhandled materialized table statement");
}

absl::Status RefuseForMaterializedTable(const SessionCatalog& catalog,
                                        const sql::QualifiedName& name, const char* statement) {
  absl::StatusOr<ObjectPath> path = catalog.Resolve(name);
  if (!path.ok()) return absl::OkStatus();  // the statement reports it
  std::shared_ptr<const CatalogTable> table = catalog.FindTable(*path);
  if (table == nullptr || !table->materialized) return absl::OkStatus();
  return Invalid(
      absl::StrCat("Table ", path->ToQuotedString(), " is a materialized table: ", statement,
                   " TABLE does not apply to it, use ", statement, " MATERIALIZED TABLE."));
}

}  // namespace eddy
