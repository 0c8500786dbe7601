#include "common/sql/parse_error.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace eddy::sql {

absl::Status ParseError(SourcePos pos, std::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("SQL parse error at line ", pos.line, ", column ",
                                                 pos.column, ": ", std::string(message)));
}

}  // namespace eddy::sql
