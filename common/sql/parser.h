// Hand-written recursive-descent parser for Eddy's SQL dialect (Flink SQL subset).
// Errors are InvalidArgument with messages of the form
//   SQL parse error at line 3, column 17: expected ')' but found 'FROM'
#pragma once

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/sql/ast.h"

namespace eddy::sql {

// Parses a script of statements separated by ';' (a trailing ';' is optional; empty statements
// skipped).
absl::StatusOr<std::vector<StatementPtr>> ParseScript(std::string_view sql);

// Parses exactly one statement (an optional trailing ';' allowed).
absl::StatusOr<StatementPtr> ParseStatement(std::string_view sql);

// Parses a standalone expression, e.g. for Table API column expressions.
absl::StatusOr<ExprPtr> ParseExpression(std::string_view sql);

}  // namespace eddy::sql
