#include "coordinator/planner/planner_errors.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace eddy::planner {

absl::Status ValidationError(const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat("Validation error: ", message));
}

absl::Status ValidationErrorAt(const sql::SourcePos& pos, const std::string& message) {
  return absl::InvalidArgumentError(
      absl::StrCat("Validation error at line ", pos.line, ", column ", pos.column, ": ", message));
}

absl::Status AsValidationError(const sql::SourcePos& pos, const absl::Status& status) {
  if (status.ok() || absl::StartsWith(status.message(), "Validation error")) return status;
  return ValidationErrorAt(pos, std::string(status.message()));
}

}  // namespace eddy::planner
