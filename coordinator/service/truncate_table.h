// TRUNCATE TABLE t: removes every row of a table, in batch mode, as Flink's TRUNCATE TABLE does.
// A filesystem table's data files (and partition directories) are removed; the other connectors
// cannot truncate and are refused, as Flink refuses a sink without truncation.
#pragma once

#include "absl/status/status.h"
#include "common/sql/ast.h"
#include "coordinator/service/job_submission.h"
#include "coordinator/service/session.h"

namespace eddy {

absl::Status TruncateTable(Session& session, const sql::TruncateTable& truncate,
                           const SubmitOptions& options);

}  // namespace eddy
