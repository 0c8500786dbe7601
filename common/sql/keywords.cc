#include "common/sql/keywords.h"

#include <algorithm>
#include <array>

namespace eddy::sql {
namespace {

constexpr std::array<std::string_view, 54> kReserved = {
    "ALL",      "AND",   "AS",      "BETWEEN", "BY",     "CASE",   "CAST",      "CREATE",   "CROSS",
    "DISTINCT", "ELSE",  "END",     "ESCAPE",  "EXCEPT", "EXISTS", "FALSE",     "FOR",      "FROM",
    "FULL",     "GROUP", "HAVING",  "IN",      "INNER",  "INSERT", "INTERSECT", "INTERVAL", "INTO",
    "IS",       "JOIN",  "LATERAL", "LEFT",    "LIKE",   "LIMIT",  "NATURAL",   "NOT",      "NULL",
    "ON",       "OR",    "ORDER",   "OUTER",   "OVER",   "RIGHT",  "SELECT",    "TABLE",    "THEN",
    "TRUE",     "UNION", "USING",   "VALUES",  "VIEW",   "WHEN",   "WHERE",     "WINDOW",   "WITH",
};
static_assert(std::is_sorted(kReserved.begin(), kReserved.end()),
              "binary search needs sorted words");

}  // namespace

bool IsReservedWord(std::string_view upper) {
  return std::binary_search(kReserved.begin(), kReserved.end(), upper);
}

bool IsReservedFunctionName(std::string_view upper) { return upper == "LEFT" || upper == "RIGHT"; }

}  // namespace eddy::sql
