// ANALYZE TABLE t [PARTITION (...)] COMPUTE STATISTICS [FOR COLUMNS ... | FOR ALL COLUMNS], as
// Flink runs it: validated against the catalog (a permanent table, not a view; a partitioned
// table names every partition column, each with a value or none for all of its values; the
// columns physical), then, in batch mode only, one batch job counts the rows (per partition) and
// computes each column's statistics (coordinator/catalog/table_statistics.h), and the results
// replace the table's (or partitions') row counts and those columns' statistics in the catalog.
// EXPLAIN ESTIMATED_COST reads them.
#pragma once

#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/cluster/job_manager.h"
#include "coordinator/service/job_submission.h"
#include "coordinator/service/session.h"

namespace eddy {

absl::Status AnalyzeTable(JobManager* jobs, Session& session, const sql::AnalyzeTable& analyze,
                          const SubmitOptions& options);

}  // namespace eddy
