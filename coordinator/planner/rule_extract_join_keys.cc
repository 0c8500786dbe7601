// Join keys: each join's condition is split into its equi-join conjuncts (`l = r` with `l` over
// the left columns only and `r` over the right ones, in either order) and the rest. The equi pairs
// become the join's left_keys/right_keys, which its inputs are hash-partitioned on; the rest stays
// the residual condition. A key that is not a plain column (an expression, or a column whose type
// differs from its partner's, which is cast to the common type) is computed by a projection
// appended to that side's input, and a projection over the join drops it again, as Flink's
// planner does. A join without equi pairs keeps empty keys (it runs in one subtask).
#include <algorithm>
#include <utility>

#include "common/base/status_macros.h"
#include "common/expr/function_registry.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/expr_util.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/optimizer.h"

namespace eddy::planner {
namespace {

struct EquiPair {
  ExprPtr left;            // over the left input's columns
  ExprPtr right;           // over the right input's columns
  ExprPtr conjunct;        // as written, over the join's columns
  bool null_safe = false;  // IS NOT DISTINCT FROM
};

// `input` with `extra` appended as new columns (named by position as Calcite does: $f2, $f3, ...).
LogicalNodePtr AppendColumns(const LogicalNodePtr& input, const std::vector<ExprPtr>& extra) {
  std::vector<ExprPtr> projections;
  std::vector<std::string> names;
  for (size_t c = 0; c < input->schema.size(); ++c) {
    projections.push_back(MakeColumnRef(static_cast<int>(c), input->schema.fields[c].type));
    names.push_back(input->schema.fields[c].name);
  }
  for (size_t k = 0; k < extra.size(); ++k) {
    projections.push_back(extra[k]);
    names.push_back(absl::StrCat("$f", input->schema.size() + k));
  }
  return MakeProject(input, std::move(projections), std::move(names));
}

absl::StatusOr<LogicalNodePtr> ExtractKeys(const LogicalNodePtr& join) {
  if (join->condition == nullptr || !join->left_keys.empty()) return join;
  const LogicalNode& left = *join->inputs[0];
  const LogicalNode& right = *join->inputs[1];
  const int nl = static_cast<int>(left.schema.size());
  const int nr = static_cast<int>(right.schema.size());
  std::vector<int> to_right(nl + nr, -1);
  for (int c = 0; c < nr; ++c) to_right[nl + c] = c;
  auto left_only = [&](const Expr& e) { return OnlyReferences(e, [&](int c) { return c < nl; }); };
  auto right_only = [&](const Expr& e) {
    return OnlyReferences(e, [&](int c) { return c >= nl; });
  };
  auto has_column = [](const Expr& e) { return !OnlyReferences(e, [](int) { return false; }); };

  std::vector<EquiPair> pairs;
  std::vector<ExprPtr> rest;
  for (const ExprPtr& c : Conjuncts(join->condition)) {
    const bool null_safe = c->kind == ExprKind::kCall && c->function == "IS NOT DISTINCT FROM";
    if (c->kind == ExprKind::kCall && (c->function == "=" || null_safe) && c->args.size() == 2 &&
        has_column(*c->args[0]) && has_column(*c->args[1])) {
      const ExprPtr& a = c->args[0];
      const ExprPtr& b = c->args[1];
      if (left_only(*a) && right_only(*b)) {
        pairs.push_back({a, RemapColumns(b, to_right), c, null_safe});
        continue;
      }
      if (left_only(*b) && right_only(*a)) {
        pairs.push_back({b, RemapColumns(a, to_right), c, null_safe});
        continue;
      }
    }
    rest.push_back(c);
  }
  if (pairs.empty()) return join;

  // Both sides of a pair get one type; keys that are not plain columns become new columns.
  std::vector<ExprPtr> left_extra, right_extra;
  std::vector<int> left_keys, right_keys;
  std::vector<bool> null_safe;
  for (EquiPair& p : pairs) {
    if (!(p.left->type.WithNullable(true) == p.right->type.WithNullable(true))) {
      std::optional<DataType> common = CommonType(p.left->type, p.right->type);
      if (!common) {  // compared some other way: a residual condition
        rest.push_back(p.conjunct);
        continue;
      }
      p.left = MakeCast(p.left, *common);
      p.right = MakeCast(p.right, *common);
    }
    null_safe.push_back(p.null_safe);
    if (p.left->kind == ExprKind::kColumn) {
      left_keys.push_back(p.left->column);
    } else {
      left_keys.push_back(nl + static_cast<int>(left_extra.size()));
      left_extra.push_back(p.left);
    }
    if (p.right->kind == ExprKind::kColumn) {
      right_keys.push_back(p.right->column);
    } else {
      right_keys.push_back(nr + static_cast<int>(right_extra.size()));
      right_extra.push_back(p.right);
    }
  }
  if (left_keys.empty()) return join;

  auto out = std::make_shared<LogicalNode>(*join);
  out->left_keys = std::move(left_keys);
  out->right_keys = std::move(right_keys);
  // Only when some pair needs it: an all-'=' join keeps an empty list.
  if (std::find(null_safe.begin(), null_safe.end(), true) != null_safe.end()) {
    out->null_safe = std::move(null_safe);
  }
  ASSIGN_OR_RETURN(out->condition, MakeConjunction(rest));
  if (left_extra.empty() && right_extra.empty()) return out;

  // Residual condition and output over the widened inputs: the right columns move by the left's
  // extra columns.
  const int nl_wide = nl + static_cast<int>(left_extra.size());
  std::vector<int> widen(nl + nr);
  for (int c = 0; c < nl; ++c) widen[c] = c;
  for (int c = 0; c < nr; ++c) widen[nl + c] = nl_wide + c;
  if (out->condition) out->condition = RemapColumns(out->condition, widen);
  LogicalNodePtr wide_left =
      left_extra.empty() ? join->inputs[0] : AppendColumns(join->inputs[0], left_extra);
  LogicalNodePtr wide_right =
      right_extra.empty() ? join->inputs[1] : AppendColumns(join->inputs[1], right_extra);
  std::vector<std::string> names;
  for (const Field& f : wide_left->schema.fields) names.push_back(f.name);
  for (const Field& f : wide_right->schema.fields) names.push_back(f.name);
  LogicalNodePtr wide = MakeJoin(wide_left, wide_right, join->join_type, out->condition,
                                 UniquifyNames(std::move(names)));
  wide->left_keys = out->left_keys;
  wide->right_keys = out->right_keys;
  wide->null_safe = out->null_safe;
  wide->temporal = join->temporal;  // appended columns leave the time and key columns in place
  // Back to the join's own columns.
  std::vector<ExprPtr> projections;
  std::vector<std::string> out_names;
  for (size_t c = 0; c < join->schema.size(); ++c) {
    const int from = widen[c];
    projections.push_back(MakeColumnRef(from, wide->schema.fields[from].type));
    out_names.push_back(join->schema.fields[c].name);
  }
  return MakeProject(wide, std::move(projections), std::move(out_names));
}

}  // namespace

absl::StatusOr<LogicalRoots> ExtractJoinKeys(const LogicalRoots& roots) {
  return RewriteBottomUp(
      roots,
      [&](const LogicalNode& original, const LogicalNodePtr& n) -> absl::StatusOr<LogicalNodePtr> {
        if (n->kind != LogicalKind::kJoin) return n;
        return ExtractKeys(n);
      });
}

}  // namespace eddy::planner
