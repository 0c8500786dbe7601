// Text of a bound expression in the style of Flink's RexNode digest, used by EXPLAIN
// (Calc(select=[...], where=[...])): calls are prefix, `=(word, 'a')`, `AND(>(a, 1), <(b, 2))`,
// `CAST(x AS BIGINT)`, `IS NULL(x)`, `CASE(=(a, 1), 'x', 'y')`, unary minus as `-(x)`.
#pragma once

#include <string>
#include <vector>

#include "common/expr/expr.h"

namespace eddy {

// Column references print as input_names[i] (`$i` when the name is missing). Literals: integers as
// written, DECIMAL with its scale digits (1.50), DOUBLE as Java's Double.toString (1.0E7), TRUE /
// FALSE, NULL, DATE/TIMESTAMP as their text (2024-01-31), strings single-quoted with embedded
// quotes doubled. Flink prints string literals as _UTF-16LE'a'; we print just 'a'.
std::string ExprToString(const Expr& e, const std::vector<std::string>& input_names);

// A literal's text as above.
std::string LiteralToString(const Value& v, const DataType& type);

}  // namespace eddy
