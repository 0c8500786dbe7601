// DELETE FROM and UPDATE: Flink runs them in batch mode against sinks that can delete or update
// rows in place. No connector of Eddy can (as none of Flink's built-in ones can), so each is
// refused with Flink's message for the mode, after the table is found.
#pragma once

#include "absl/status/status.h"
#include "common/sql/ast.h"
#include "coordinator/service/session.h"

namespace eddy {

absl::Status ExecuteRowLevelModification(Session& session,
                                         const sql::RowLevelModification& modification);

}  // namespace eddy
