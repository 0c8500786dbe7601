// CALL [catalog.][database.]procedure(arg, ...): Flink runs a stored procedure a catalog provides.
// No catalog of Eddy provides any (SHOW PROCEDURES lists none), so every CALL names the procedure
// it could not find.
#pragma once

#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/service/session.h"
#include "eddy/v1/client.pb.h"

namespace eddy {

absl::StatusOr<v1::ExecuteStatementResponse> CallProcedure(Session& session,
                                                           const sql::CallProcedure& call);

}  // namespace eddy
