// Interval joins: a join (inner or outer) whose residual condition bounds the distance between a
// time attribute of each side (both event time or both processing time), e.g. `b.ts BETWEEN a.ts
// - INTERVAL '1' HOUR AND a.ts`, keeps those bounds as time bounds (lower <= left time - right
// time <= upper) instead of a condition it evaluates, as Flink's planner extracts its interval
// join's window bounds. A bound conjunct has the form `x op y` with op one of < <= > >= and x, y
// each a time column of one side plus or minus constant intervals; both a lower and an upper bound
// are needed. The physical planner runs such a join as an IntervalJoin when both inputs are
// append-only (else as a regular join with the bounds back in its condition).
#include <algorithm>
#include <optional>
#include <utility>

#include "common/base/status_macros.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"

namespace eddy::planner {
namespace {

// `e` as column + offset (ms) when it is a column, or a column plus/minus constant intervals.
struct TimeTerm {
  int column = -1;
  int64_t offset_ms = 0;
};

std::optional<int64_t> IntervalLiteral(const Expr& e) {
  if (e.kind != ExprKind::kLiteral || e.type.id != TypeId::kInterval || e.literal.is_null()) {
    return std::nullopt;
  }
  return e.literal.int_value();
}

std::optional<TimeTerm> AsTimeTerm(const Expr& e) {
  if (e.kind == ExprKind::kColumn) return TimeTerm{e.column, 0};
  if (e.kind != ExprKind::kCall || e.args.size() != 2) return std::nullopt;
  if (e.function != "+" && e.function != "-") return std::nullopt;
  std::optional<TimeTerm> base = AsTimeTerm(*e.args[0]);
  std::optional<int64_t> ms = IntervalLiteral(*e.args[1]);
  if (!base && e.function == "+") {  // INTERVAL + ts
    base = AsTimeTerm(*e.args[1]);
    ms = IntervalLiteral(*e.args[0]);
  }
  if (!base || !ms) return std::nullopt;
  base->offset_ms += e.function == "+" ? *ms : -*ms;
  return base;
}

struct Bound {
  bool lower = false;  // lower bound of left time - right time (else upper)
  int64_t ms = 0;
};

// A conjunct `x op y` over the two time columns, as a bound on left time - right time.
std::optional<Bound> AsBound(const Expr& c, int left_time, int right_time) {
  if (c.kind != ExprKind::kCall || c.args.size() != 2) return std::nullopt;
  const std::string& op = c.function;
  if (op != "<" && op != "<=" && op != ">" && op != ">=") return std::nullopt;
  std::optional<TimeTerm> x = AsTimeTerm(*c.args[0]);
  std::optional<TimeTerm> y = AsTimeTerm(*c.args[1]);
  if (!x || !y) return std::nullopt;
  // x op y, x = a + ax, y = b + by  =>  a - b op by - ax.
  bool left_first;
  if (x->column == left_time && y->column == right_time) {
    left_first = true;
  } else if (x->column == right_time && y->column == left_time) {
    left_first = false;
  } else {
    return std::nullopt;
  }
  int64_t c_ms = y->offset_ms - x->offset_ms;
  bool greater = op == ">" || op == ">=";
  const bool strict = op == "<" || op == ">";
  if (!left_first) {  // r - l op c  <=>  l - r op' -c
    c_ms = -c_ms;
    greater = !greater;
  }
  if (greater) return Bound{true, strict ? c_ms + 1 : c_ms};
  return Bound{false, strict ? c_ms - 1 : c_ms};
}

absl::StatusOr<LogicalNodePtr> ExtractBounds(const LogicalNodePtr& join) {
  if (join->time_bounds) return join;
  ExprPtr rest;
  std::optional<LogicalNode::TimeBounds> bounds = FindTimeBounds(*join, &rest);
  if (!bounds) return join;
  auto out = std::make_shared<LogicalNode>(*join);
  out->condition = std::move(rest);
  out->time_bounds = std::move(bounds);
  return out;
}

}  // namespace

std::optional<LogicalNode::TimeBounds> FindTimeBounds(const LogicalNode& join, ExprPtr* rest_out) {
  if (join.kind != LogicalKind::kJoin || join.condition == nullptr || join.temporal ||
      join.join_type == JoinType::kSemi || join.join_type == JoinType::kAnti) {
    return std::nullopt;
  }
  const LogicalNode& left = join.input(0);
  const LogicalNode& right = join.input(1);
  const int nl = static_cast<int>(left.schema.size());
  const int nr = static_cast<int>(right.schema.size());
  const std::vector<ExprPtr> conjuncts = Conjuncts(join.condition);
  // Try each pair of time attributes of one kind (both event time or both processing time) that
  // some conjunct compares.
  for (int lt = 0; lt < nl; ++lt) {
    const TimeAttribute kind = TimeAttributeOf(left, lt);
    if (kind == TimeAttribute::kNone) continue;
    for (int rt = 0; rt < nr; ++rt) {
      if (TimeAttributeOf(right, rt) != kind) continue;
      std::optional<int64_t> lower, upper;
      std::vector<ExprPtr> bounds, rest;
      for (const ExprPtr& c : conjuncts) {
        std::optional<Bound> b = AsBound(*c, lt, nl + rt);
        if (!b) {
          rest.push_back(c);
          continue;
        }
        bounds.push_back(c);
        if (b->lower) {
          lower = lower ? std::max(*lower, b->ms) : b->ms;
        } else {
          upper = upper ? std::min(*upper, b->ms) : b->ms;
        }
      }
      // Both bounds, and a window that holds something (an empty one matches nothing: a
      // regular join evaluating the bounds says so).
      if (!lower || !upper || *lower > *upper) continue;
      LogicalNode::TimeBounds tb;
      tb.left_time = lt;
      tb.right_time = rt;
      tb.lower_ms = *lower;
      tb.upper_ms = *upper;
      auto all = MakeConjunction(bounds);
      auto others = MakeConjunction(rest);
      if (!all.ok() || !others.ok()) return std::nullopt;
      tb.conjuncts = *all;
      if (rest_out != nullptr) *rest_out = *others;
      return tb;
    }
  }
  return std::nullopt;
}

absl::StatusOr<LogicalRoots> ExtractIntervalBounds(const LogicalRoots& roots) {
  return RewriteBottomUp(
      roots,
      [&](const LogicalNode& original, const LogicalNodePtr& n) -> absl::StatusOr<LogicalNodePtr> {
        if (n->kind != LogicalKind::kJoin) return n;
        return ExtractBounds(n);
      });
}

}  // namespace eddy::planner
