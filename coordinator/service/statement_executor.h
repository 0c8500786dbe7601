// Executes one SQL statement for a session: DDL against the catalog, SET/RESET, SHOW/DESCRIBE, and
// INSERT / statement sets planned into a job and submitted to the cluster. Every failure is a
// status whose message names the stage (parse, validation, planning, deployment) and nothing is
// left half done.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/cluster/job_manager.h"
#include "coordinator/service/job_submission.h"
#include "coordinator/service/session.h"
#include "eddy/v1/client.pb.h"

namespace eddy {

class StatementExecutor {
 public:
  StatementExecutor(JobManager* jobs, WorkerRegistry* workers, SubmitOptions options = {})
      : jobs_(jobs), workers_(workers), options_(std::move(options)) {}

  absl::StatusOr<v1::ExecuteStatementResponse> Execute(Session& session, const std::string& sql);

 private:
  // CREATE TABLE ... AS query: creates the table and submits the INSERT of the query's rows.
  absl::StatusOr<v1::ExecuteStatementResponse> CreateTableAs(Session& session,
                                                             sql::CreateTable& ddl);

  JobManager* jobs_;
  WorkerRegistry* workers_;
  SubmitOptions options_;
};

}  // namespace eddy
