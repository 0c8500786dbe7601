#include "coordinator/planner/logical_plan.h"

#include <utility>

#include "absl/strings/str_join.h"

namespace eddy::planner {

std::string ChangelogMode::ToString() const {
  std::vector<std::string> parts;
  if (insert) parts.push_back("I");
  if (update_before) parts.push_back("UB");
  if (update_after) parts.push_back("UA");
  if (del) parts.push_back("D");
  return "[" + absl::StrJoin(parts, ",") + "]";
}

LogicalNodePtr MakeTableScan(std::shared_ptr<const CatalogTable> table) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kTableScan;
  n->schema = table->schema;
  n->table = std::move(table);
  return n;
}

LogicalNodePtr MakeValues(Schema schema, std::vector<std::vector<Value>> rows) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kValues;
  n->schema = std::move(schema);
  n->rows = std::move(rows);
  return n;
}

LogicalNodePtr MakeProject(LogicalNodePtr input, std::vector<ExprPtr> projections,
                           std::vector<std::string> names) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kProject;
  for (size_t i = 0; i < projections.size(); ++i) {
    n->schema.fields.push_back({i < names.size() ? names[i] : "EXPR$" + std::to_string(i),
                                projections[i]->type});
  }
  n->projections = std::move(projections);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeFilter(LogicalNodePtr input, ExprPtr condition) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kFilter;
  n->schema = input->schema;
  n->condition = std::move(condition);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeAggregate(LogicalNodePtr input, std::vector<int> group_keys,
                             std::vector<LogicalAggCall> calls, std::vector<std::string> names) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kAggregate;
  size_t i = 0;
  auto name = [&](size_t k) { return k < names.size() ? names[k] : "EXPR$" + std::to_string(k); };
  for (int k : group_keys) n->schema.fields.push_back({name(i++), input->schema.fields[k].type});
  for (const auto& c : calls) n->schema.fields.push_back({name(i++), c.result_type});
  n->group_keys = std::move(group_keys);
  n->calls = std::move(calls);
  n->inputs.push_back(std::move(input));
  return n;
}

LogicalNodePtr MakeUnion(std::vector<LogicalNodePtr> inputs) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kUnion;
  n->schema = inputs.front()->schema;
  n->inputs = std::move(inputs);
  return n;
}

LogicalNodePtr MakeSink(LogicalNodePtr input, std::shared_ptr<const CatalogTable> table) {
  auto n = std::make_shared<LogicalNode>();
  n->kind = LogicalKind::kSink;
  n->schema = table->schema;
  n->sink_table = std::move(table);
  n->inputs.push_back(std::move(input));
  return n;
}

std::string LogicalNodeName(LogicalKind kind) {
  switch (kind) {
    case LogicalKind::kTableScan: return "LogicalTableScan";
    case LogicalKind::kValues: return "LogicalValues";
    case LogicalKind::kProject: return "LogicalProject";
    case LogicalKind::kFilter: return "LogicalFilter";
    case LogicalKind::kAggregate: return "LogicalAggregate";
    case LogicalKind::kUnion: return "LogicalUnion";
    case LogicalKind::kSink: return "LogicalSink";
  }
  return "Logical?";
}

bool IsIdentityProject(const LogicalNode& p) {
  if (p.kind != LogicalKind::kProject) return false;
  const Schema& in = p.input().schema;
  if (p.projections.size() != in.size()) return false;
  for (size_t i = 0; i < p.projections.size(); ++i) {
    const Expr& e = *p.projections[i];
    if (e.kind != ExprKind::kColumn || e.column != static_cast<int>(i)) return false;
    // A rename alone keeps the data identical; a type change would not.
    if (!(e.type == in.fields[i].type)) return false;
  }
  return true;
}

}  // namespace eddy::planner
