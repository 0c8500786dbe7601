// Helpers shared by the SQL parser tests: parse-or-fail wrappers and compact renderings.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "common/sql/ast_debug.h"
#include "common/sql/parser.h"

namespace eddy::sql::testing {

inline std::string Expr(std::string_view sql) {
  absl::StatusOr<ExprPtr> expr = ParseExpression(sql);
  if (!expr.ok()) return "ERROR: " + std::string(expr.status().message());
  return DebugString(**expr);
}

inline StatementPtr Parse(std::string_view sql) {
  absl::StatusOr<StatementPtr> statement = ParseStatement(sql);
  EXPECT_TRUE(statement.ok()) << sql << "\n" << statement.status();
  return statement.ok() ? *std::move(statement) : nullptr;
}

// The query of a SELECT/VALUES statement rendered by DebugString, or the error message.
inline std::string Query(std::string_view sql) {
  absl::StatusOr<StatementPtr> statement = ParseStatement(sql);
  if (!statement.ok()) return "ERROR: " + std::string(statement.status().message());
  if ((*statement)->kind != StatementKind::kQuery) return "NOT A QUERY";
  return DebugString(*(*statement)->query);
}

inline std::string Error(std::string_view sql) {
  absl::StatusOr<std::vector<StatementPtr>> script = ParseScript(sql);
  if (script.ok()) return "OK";
  EXPECT_EQ(script.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(script.status().message());
}

}  // namespace eddy::sql::testing
