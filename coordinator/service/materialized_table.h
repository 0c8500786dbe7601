// Materialized tables in continuous refresh mode, the coordinator playing the part of Flink's SQL
// gateway: CREATE MATERIALIZED TABLE creates the table (the query's columns, its WITH options)
// and submits the streaming job `INSERT INTO t <query>` that keeps it fresh, checkpointing every
// FRESHNESS; ALTER MATERIALIZED TABLE ... SUSPEND stops that job with a savepoint and RESUME
// starts it again from there; REFRESH runs a one-off batch INSERT OVERWRITE of the query; DROP
// MATERIALIZED TABLE cancels the job and drops the table. The catalog keeps the table's
// definition and refresh state (CatalogTable::materialized). FULL refresh mode needs a workflow
// scheduler, which Eddy does not have: it is refused.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/cluster/job_manager.h"
#include "coordinator/service/job_submission.h"
#include "coordinator/service/session.h"
#include "eddy/v1/client.pb.h"

namespace eddy {

// Default of materialized-table.refresh-mode.freshness-threshold: a freshness below it derives
// continuous refresh mode, one at or above it full mode.
inline constexpr char kFreshnessThresholdKey[] =
    "materialized-table.refresh-mode.freshness-threshold";

absl::StatusOr<v1::ExecuteStatementResponse> ExecuteMaterializedTable(
    JobManager* jobs, Session& session, sql::MaterializedTableStatement& statement,
    const SubmitOptions& options);

// DROP TABLE and ALTER TABLE of a materialized table are refused (`statement` names which),
// pointing to the MATERIALIZED TABLE statements; OK for anything else, a missing table included.
absl::Status RefuseForMaterializedTable(const SessionCatalog& catalog,
                                        const sql::QualifiedName& name, const char* statement);

}  // namespace eddy
