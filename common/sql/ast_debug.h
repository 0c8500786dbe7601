// Compact, fully parenthesized text renderings of AST nodes, for tests and diagnostics. Binary and
// predicate nodes are wrapped in parentheses so the rendering shows how the parser grouped
// operators.
#pragma once

#include <string>

#include "common/sql/ast.h"

namespace eddy::sql {

std::string DebugString(const Expr& expr);  // e.g. (a OR (b AND (NOT (c = 1))))
std::string DebugString(
    const Query& query);  // e.g. SELECT word, COUNT(*) AS cnt FROM words GROUP BY word
std::string DebugString(const TableRef& ref);
std::string DebugString(const TypeSpec& type);  // e.g. DECIMAL(10, 2) NOT NULL

}  // namespace eddy::sql
