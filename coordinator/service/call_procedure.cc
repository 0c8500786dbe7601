#include "coordinator/service/call_procedure.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<v1::ExecuteStatementResponse> CallProcedure(Session& session,
                                                           const sql::CallProcedure& call) {
  ASSIGN_OR_RETURN(ObjectPath path, session.catalog.Resolve(call.name));
  if (!session.catalog.catalog()->DatabaseExists(path.catalog, path.database)) {
    return absl::NotFoundError(absl::StrCat("Validation error: database '", path.catalog, ".",
                                            path.database, "' not found"));
  }
  return absl::NotFoundError(
      absl::StrCat("Validation error: procedure ", path.ToQuotedString(),
                   " does not exist: no catalog of Eddy holds stored procedures (SHOW "
                   "PROCEDURES lists none)"));
}

}  // namespace eddy
