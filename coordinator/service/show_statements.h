// SHOW and DESCRIBE: what the catalog, the cluster and the built-in function list hold, as the SQL
// client prints it (one table per statement, names sorted, optionally filtered by [NOT] LIKE or
// ILIKE).
#pragma once

#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/cluster/job_manager.h"
#include "coordinator/service/session.h"
#include "eddy/v1/client.pb.h"

namespace eddy {

absl::StatusOr<v1::ExecuteStatementResponse> ExecuteShow(Session& session, JobManager* jobs,
                                                         WorkerRegistry* workers,
                                                         const sql::Show& show);

// DESCRIBE t and SHOW COLUMNS FROM t (the latter filtered by its LIKE).
absl::StatusOr<v1::ExecuteStatementResponse> ExecuteDescribe(Session& session,
                                                             const sql::QualifiedName& name,
                                                             const sql::Show* like = nullptr);

// DESCRIBE FUNCTION [EXTENDED] f: what Flink shows of a function (system function, temporary,
// the symbol as its class name, language, library; EXTENDED: kind, determinism, signature).
absl::StatusOr<v1::ExecuteStatementResponse> DescribeFunction(Session& session,
                                                              const sql::QualifiedName& name,
                                                              bool extended);
// DESCRIBE JOB 'id': SHOW JOBS' row of that job.
absl::StatusOr<v1::ExecuteStatementResponse> DescribeJob(JobManager* jobs,
                                                         const std::string& job_id);

// DESCRIBE CATALOG [EXTENDED] c: its name, type and comment (and, EXTENDED, its options).
absl::StatusOr<v1::ExecuteStatementResponse> DescribeCatalog(Session& session,
                                                             const sql::QualifiedName& name,
                                                             bool extended);

}  // namespace eddy
