#include "coordinator/planner/logical_rewrite.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/function_registry.h"

namespace eddy::planner {

LogicalNodePtr WithInputs(const LogicalNodePtr& n, std::vector<LogicalNodePtr> inputs) {
  if (inputs == n->inputs) return n;
  auto copy = std::make_shared<LogicalNode>(*n);
  copy->inputs = std::move(inputs);
  if (copy->kind == LogicalKind::kFilter || copy->kind == LogicalKind::kUnion ||
      copy->kind == LogicalKind::kWatermarkAssigner) {
    copy->schema = copy->inputs.front()->schema;
  }
  return copy;
}

LogicalNodePtr WithExtraColumns(const LogicalNodePtr& node, std::vector<ExprPtr> extra) {
  if (extra.empty()) return node;
  const size_t width = node->schema.size();
  std::vector<ExprPtr> projections;
  std::vector<std::string> names = node->schema.Names();
  for (size_t c = 0; c < width; ++c) {
    projections.push_back(MakeColumnRef(static_cast<int>(c), node->schema.fields[c].type));
  }
  for (size_t i = 0; i < extra.size(); ++i) {
    names.push_back(absl::StrCat("$", width + i));
    projections.push_back(std::move(extra[i]));
  }
  return MakeProject(node, std::move(projections), std::move(names));
}

namespace {

absl::StatusOr<LogicalNodePtr> RewriteNode(
    const LogicalNodePtr& n, const NodeRewrite& rewrite,
    std::unordered_map<const LogicalNode*, LogicalNodePtr>* done) {
  if (auto it = done->find(n.get()); it != done->end()) return it->second;
  std::vector<LogicalNodePtr> inputs;
  inputs.reserve(n->inputs.size());
  for (const auto& in : n->inputs) {
    ASSIGN_OR_RETURN(LogicalNodePtr rewritten, RewriteNode(in, rewrite, done));
    inputs.push_back(std::move(rewritten));
  }
  ASSIGN_OR_RETURN(LogicalNodePtr out, rewrite(*n, WithInputs(n, std::move(inputs))));
  done->emplace(n.get(), out);
  return out;
}

void Count(const LogicalNodePtr& n, std::unordered_map<const LogicalNode*, int>* counts) {
  if ((*counts)[n.get()]++ > 0) return;  // inputs counted on the first visit
  for (const auto& in : n->inputs) Count(in, counts);
}

}  // namespace

absl::StatusOr<std::vector<LogicalNodePtr>> RewriteBottomUp(
    const std::vector<LogicalNodePtr>& roots, const NodeRewrite& rewrite) {
  std::unordered_map<const LogicalNode*, LogicalNodePtr> done;
  std::vector<LogicalNodePtr> out;
  for (const auto& r : roots) {
    ASSIGN_OR_RETURN(LogicalNodePtr rewritten, RewriteNode(r, rewrite, &done));
    out.push_back(std::move(rewritten));
  }
  return out;
}

std::unordered_map<const LogicalNode*, int> CountConsumers(
    const std::vector<LogicalNodePtr>& roots) {
  std::unordered_map<const LogicalNode*, int> counts;
  for (const auto& r : roots) Count(r, &counts);
  return counts;
}

std::vector<ExprPtr> Conjuncts(const ExprPtr& e) {
  if (e->kind != ExprKind::kCall || e->function != "AND") return {e};
  std::vector<ExprPtr> out;
  for (const auto& a : e->args) {
    for (auto& c : Conjuncts(a)) out.push_back(std::move(c));
  }
  return out;
}

absl::StatusOr<ExprPtr> MakeConjunction(const std::vector<ExprPtr>& conjuncts) {
  if (conjuncts.empty()) return nullptr;
  if (conjuncts.size() == 1) return conjuncts.front();
  return MakeCall("AND", conjuncts);
}

bool OnlyReferences(const Expr& e, const std::function<bool(int)>& keep) {
  if (e.kind == ExprKind::kColumn) return keep(e.column);
  for (const auto& a : e.args) {
    if (!OnlyReferences(*a, keep)) return false;
  }
  return true;
}

ExprPtr RemapColumns(const ExprPtr& e, const std::vector<int>& mapping) {
  if (e->kind == ExprKind::kColumn) {
    if (mapping[e->column] == e->column) return e;
    return MakeColumnRef(mapping[e->column], e->type);
  }
  if (e->kind != ExprKind::kCall) return e;
  std::vector<ExprPtr> args;
  bool changed = false;
  for (const auto& a : e->args) {
    args.push_back(RemapColumns(a, mapping));
    changed = changed || args.back() != a;
  }
  if (!changed) return e;
  auto copy = std::make_shared<Expr>(*e);
  copy->args = std::move(args);
  return copy;
}

}  // namespace eddy::planner
