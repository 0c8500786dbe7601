// The rank range a filter on a row number sets: `rn <= 3`, `rn = 1`, `2 <= rn`, `rn BETWEEN 2 AND
// 5` (two conjuncts by then), as Flink's RankUtil reads a Top-N's filter. Only integer constants
// count; anything else stays a filter above the rank.
#include <algorithm>
#include <limits>

#include "coordinator/planner/logical_plan.h"

namespace eddy::planner {
namespace {

bool IntLiteral(const Expr& e, int64_t* v) {
  if (e.kind != ExprKind::kLiteral || !e.literal.is_int()) return false;
  *v = e.literal.int_value();
  return true;
}

// `op` with its operands swapped: 3 >= rn is rn <= 3.
std::string Mirror(const std::string& op) {
  if (op == "<") return ">";
  if (op == "<=") return ">=";
  if (op == ">") return "<";
  if (op == ">=") return "<=";
  return op;
}

}  // namespace

bool NarrowRankRange(const Expr& conjunct, int number, int64_t* start, int64_t* end) {
  if (conjunct.kind != ExprKind::kCall || conjunct.args.size() != 2) return false;
  std::string op = conjunct.function;
  if (op != "=" && op != "<" && op != "<=" && op != ">" && op != ">=") return false;
  int64_t v = 0;
  const Expr& a = *conjunct.args[0];
  const Expr& b = *conjunct.args[1];
  if (a.kind == ExprKind::kColumn && a.column == number && IntLiteral(b, &v)) {
    // rn op v
  } else if (b.kind == ExprKind::kColumn && b.column == number && IntLiteral(a, &v)) {
    op = Mirror(op);
  } else {
    return false;
  }
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t lo = 1;
  int64_t hi = kMax;
  if (op == "=") {
    lo = hi = v;
  } else if (op == "<") {
    hi = v == std::numeric_limits<int64_t>::min() ? 0 : v - 1;
  } else if (op == "<=") {
    hi = v;
  } else if (op == ">") {
    lo = v == kMax ? kMax : v + 1;
  } else {  // >=
    lo = v;
  }
  hi = std::max<int64_t>(hi, 0);  // rn < 1: no rows (0), never "unbounded" (-1)
  *start = std::max(*start, lo);
  if (hi != kMax) *end = *end < 0 ? hi : std::min(*end, hi);
  return true;
}

}  // namespace eddy::planner
