#include "coordinator/rest/job_vertices.h"

#include <map>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/job_graph.h"

namespace eddy {

std::string JobStateName(v1::JobStatus status) {
  std::string name = v1::JobStatus_Name(status);
  const std::string prefix = "JOB_STATUS_";
  return absl::StartsWith(name, prefix) ? name.substr(prefix.size()) : name;
}

absl::StatusOr<JobTopology> BuildJobTopology(const v1::StoredJobSpec& spec,
                                             const v1::JobInfo* info) {
  const std::vector<v1::PlanNode> plan(spec.nodes().begin(), spec.nodes().end());
  const ConfigMap config(spec.config().begin(), spec.config().end());
  ASSIGN_OR_RETURN(JobGraph graph, BuildJobGraph(plan, config));

  // (vertex, node id) -> the node's metrics summed over subtasks.
  std::map<std::pair<int, int>, const v1::OperatorMetrics*> metrics;
  if (info != nullptr) {
    for (const v1::OperatorMetrics& m : info->operators()) {
      metrics[{m.task_index(), m.node_id()}] = &m;
    }
  }
  auto rows_out = [&](int vertex, int node) -> int64_t {
    auto it = metrics.find({vertex, node});
    return it == metrics.end() ? 0 : it->second->rows_out();
  };

  JobTopology out;
  // Nodes whose output a vertex ships into exchanges, by vertex.
  std::map<int, std::set<int>> shipped;
  for (const JobStage& stage : graph.stages) {
    for (const JobEdge& e : stage.inputs) shipped[e.producer].insert(e.producer_node);
  }
  for (size_t s = 0; s < graph.stages.size(); ++s) {
    const JobStage& stage = graph.stages[s];
    const int vertex = static_cast<int>(s);
    v1::RestVertex& v = out.vertices.emplace_back();
    v.set_id(vertex);
    v.set_parallelism(stage.parallelism);
    std::vector<std::string> names;
    for (const v1::PlanNode& node : stage.nodes) {
      if (!node.has_exchange_source() || !absl::StartsWith(node.description(), "ExchangeSource")) {
        names.push_back(node.description());
      }
      v1::RestPlanNode& n = out.nodes.emplace_back();
      n.set_id(node.id());
      n.set_description(node.description());
      n.mutable_inputs()->Add(node.inputs().begin(), node.inputs().end());
      n.set_vertex(vertex);
      // What a vertex reads enters at the nodes without inputs in it: its sources and exchanges.
      if (node.inputs().empty()) v.set_records_in(v.records_in() + rows_out(vertex, node.id()));
    }
    v.set_name(absl::StrJoin(names, " -> "));
    for (const JobEdge& e : stage.inputs) {
      v.add_inputs(e.producer);
      v.add_ship_strategies(v1::ExchangeSink::Partitioning_Name(e.partitioning));
    }
    for (int node : shipped[vertex]) v.set_records_out(v.records_out() + rows_out(vertex, node));
    bool first = true;
    for (const auto& [key, m] : metrics) {
      if (key.first != vertex) continue;
      *v.add_operators() = *m;
      if (first) {  // every operator of the vertex carries its subtasks' times
        v.set_busy_ms(m->busy_ms());
        v.set_idle_ms(m->idle_ms());
        v.set_back_pressured_ms(m->back_pressured_ms());
        first = false;
      }
      if (m->has_input_watermark_ms() &&
          (!v.has_input_watermark_ms() || m->input_watermark_ms() < v.input_watermark_ms())) {
        v.set_input_watermark_ms(m->input_watermark_ms());
      }
      v.set_late_records_dropped(v.late_records_dropped() + m->late_rows_dropped());
      v.set_state_bytes_in_memory(v.state_bytes_in_memory() + m->state_bytes_in_memory());
      v.set_state_bytes_in_store(v.state_bytes_in_store() + m->state_bytes_in_store());
    }
  }
  return out;
}

}  // namespace eddy
