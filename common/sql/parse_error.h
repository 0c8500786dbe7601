// Builds the user-facing SQL parse error status shared by the lexer and the parser:
//   SQL parse error at line 3, column 17: expected ')' but found 'FROM'
#pragma once

#include <string_view>

#include "absl/status/status.h"
#include "common/sql/ast.h"

namespace eddy::sql {

// InvalidArgument "SQL parse error at line L, column C: <message>".
absl::Status ParseError(SourcePos pos, std::string_view message);

}  // namespace eddy::sql
