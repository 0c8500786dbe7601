// Executes one SQL statement for a session: DDL against the catalog, SET/RESET, SHOW/DESCRIBE, and
// INSERT / statement sets planned into a job and submitted to the cluster. Every failure is a status
// whose message names the stage (parse, validation, planning, deployment) and nothing is left half done.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/cluster/job_manager.h"
#include "coordinator/service/session.h"
#include "eddy/v1/client.pb.h"

namespace eddy {

class StatementExecutor {
 public:
  // `filesystem_allowed_dirs`: canonical directories filesystem tables may use; empty: none.
  StatementExecutor(JobManager* jobs, WorkerRegistry* workers,
                    std::vector<std::string> filesystem_allowed_dirs = {})
      : jobs_(jobs),
        workers_(workers),
        filesystem_allowed_dirs_(std::move(filesystem_allowed_dirs)) {}

  absl::StatusOr<v1::ExecuteStatementResponse> Execute(Session& session, const std::string& sql);

 private:
  JobManager* jobs_;
  WorkerRegistry* workers_;
  std::vector<std::string> filesystem_allowed_dirs_;
};

}  // namespace eddy
