// Flink 2.x models: CREATE / ALTER / DROP MODEL, DESCRIBE MODEL and SHOW CREATE MODEL, with Flink's
// checks and messages. A model is catalog metadata (its input and output columns and the options
// naming its provider); Eddy ships no model provider, so ML_PREDICT over one is refused by the
// planner (coordinator/planner/binder_model.cc).
#pragma once

#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/service/session.h"
#include "eddy/v1/client.pb.h"

namespace eddy {

// CREATE [TEMPORARY] MODEL, ALTER MODEL ... SET | RESET | RENAME TO, DROP [TEMPORARY] MODEL.
absl::StatusOr<v1::ExecuteStatementResponse> ExecuteModelStatement(Session& session,
                                                                   const sql::ModelStatement& ddl);

// DESCRIBE MODEL m: one row per input column, then per output column (name, type, null, is
// input, and comment when some column has one).
absl::StatusOr<v1::ExecuteStatementResponse> DescribeModel(Session& session,
                                                           const sql::QualifiedName& name);

// SHOW CREATE MODEL m.
absl::StatusOr<v1::ExecuteStatementResponse> ShowCreateModelOf(Session& session,
                                                               const sql::QualifiedName& name);

}  // namespace eddy
