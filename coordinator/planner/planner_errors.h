// User-facing validation errors of the planner: InvalidArgument with the prefix
// `Validation error: ` or, when the AST position is known, `Validation error at line L, column C:
// `.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "common/sql/ast.h"

namespace eddy::planner {

absl::Status ValidationError(const std::string& message);
absl::Status ValidationErrorAt(const sql::SourcePos& pos, const std::string& message);
// Re-wraps a raw error (e.g. from MakeCall) as a validation error at `pos`; an error that already
// carries the validation prefix is returned unchanged.
absl::Status AsValidationError(const sql::SourcePos& pos, const absl::Status& status);

}  // namespace eddy::planner
