#include "coordinator/planner/explain_json_plan.h"

#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/json_string.h"

namespace eddy::planner {
namespace {

std::string JsonString(const std::string& s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

// Flink's names of the ship strategies.
std::string ShipStrategy(v1::ExchangeSink::Partitioning partitioning) {
  switch (partitioning) {
    case v1::ExchangeSink::HASH:
      return "HASH";
    case v1::ExchangeSink::REBALANCE:
      return "REBALANCE";
    case v1::ExchangeSink::BROADCAST:
      return "BROADCAST";
    case v1::ExchangeSink::SINGLETON:
      return "GLOBAL";
    case v1::ExchangeSink::FORWARD:
    case v1::ExchangeSink::PARTITIONING_UNSPECIFIED:
    case v1::ExchangeSink_Partitioning_ExchangeSink_Partitioning_INT_MIN_SENTINEL_DO_NOT_USE_:
    case v1::ExchangeSink_Partitioning_ExchangeSink_Partitioning_INT_MAX_SENTINEL_DO_NOT_USE_:
      break;
  }
  return "FORWARD";
}

// The table a source or sink names, without its catalog and database: its path's last part (which
// may hold a '.'), or for a plan without the path (compiled before it was carried) what follows
// the name's last '.'.
std::string ObjectName(const v1::TablePath& path, const std::string& table) {
  if (!path.table().empty()) return path.table();
  const size_t dot = table.rfind('.');
  return dot == std::string::npos ? table : table.substr(dot + 1);
}

// The operator's name: what its description says before the first '('.
std::string OperatorName(const v1::PlanNode& node) {
  const std::string& d = node.description();
  return d.substr(0, d.find('('));
}

struct Predecessor {
  int id;
  std::string ship_strategy;
};

}  // namespace

std::string JsonExecutionPlan(const JobGraph& graph) {
  // (stage, node id) -> the JSON id of every node but the exchange sources.
  std::map<std::pair<size_t, int>, int> ids;
  std::vector<std::string> nodes;
  // Adds one node to `nodes`; returns its JSON id.
  auto emit = [&nodes](const std::string& type, const std::string& pact,
                       const std::string& contents, int parallelism,
                       const std::vector<Predecessor>& predecessors) {
    const int id = static_cast<int>(nodes.size()) + 1;
    std::string json = absl::StrCat(
        "{\n    \"id\" : ", id, ",\n    \"type\" : ", JsonString(absl::StrCat(type, "[", id, "]")),
        ",\n    \"pact\" : ", JsonString(pact),
        ",\n    \"contents\" : ", JsonString(absl::StrCat("[", id, "]:", contents)),
        ",\n    \"parallelism\" : ", parallelism);
    if (!predecessors.empty()) {
      std::vector<std::string> edges;
      for (const Predecessor& p : predecessors) {
        edges.push_back(absl::StrCat("{\n      \"id\" : ", p.id,
                                     ",\n      \"ship_strategy\" : ", JsonString(p.ship_strategy),
                                     ",\n      \"side\" : \"second\"\n    }"));
      }
      absl::StrAppend(&json, ",\n    \"predecessors\" : [ ", absl::StrJoin(edges, ", "), " ]");
    }
    nodes.push_back(json + "\n  }");
    return id;
  };
  for (size_t s = 0; s < graph.stages.size(); ++s) {
    const JobStage& stage = graph.stages[s];
    std::map<int, const v1::PlanNode*> by_id;
    for (const v1::PlanNode& node : stage.nodes) by_id[node.id()] = &node;
    for (const v1::PlanNode& node : stage.nodes) {
      if (node.has_exchange_source()) continue;
      std::vector<Predecessor> predecessors;
      for (int input : node.inputs()) {
        auto it = by_id.find(input);
        if (it == by_id.end()) continue;
        if (!it->second->has_exchange_source()) {
          predecessors.push_back({ids[{s, input}], "FORWARD"});
          continue;
        }
        const int gate = it->second->exchange_source().input_index();
        if (gate < 0 || gate >= static_cast<int>(stage.inputs.size())) continue;
        const JobEdge& edge = stage.inputs[gate];
        predecessors.push_back({ids[{static_cast<size_t>(edge.producer), edge.producer_node}],
                                ShipStrategy(edge.partitioning)});
      }
      std::string type = OperatorName(node);
      std::string pact = "Operator";
      if (node.has_table_source()) {
        type = absl::StrCat("Source: ", ObjectName(node.table_source().table_path(),
                                                   node.table_source().table_name()));
        pact = "Data Source";
      } else if (node.has_values()) {
        type = "Source: Values";
        pact = "Data Source";
      } else if (node.has_sink()) {
        type =
            absl::StrCat("Sink: ", ObjectName(node.sink().table_path(), node.sink().table_name()));
        pact = "Data Sink";
        // A sink of a table with NOT NULL columns: Flink's ConstraintEnforcer operator before it.
        if (!node.sink().not_null_columns().empty()) {
          std::vector<std::string> fields;
          for (int c : node.sink().not_null_columns()) {
            if (c >= 0 && c < node.output_schema().fields_size()) {
              fields.push_back(node.output_schema().fields(c).name());
            }
          }
          const std::string enforcer = absl::StrCat("ConstraintEnforcer[NotNullEnforcer(fields=[",
                                                    absl::StrJoin(fields, ", "), "])]");
          const int enforcer_id =
              emit("ConstraintEnforcer", "Operator", enforcer, stage.parallelism, predecessors);
          predecessors = {{enforcer_id, "FORWARD"}};
        }
      }
      ids[{s, node.id()}] = emit(type, pact, node.description(), stage.parallelism, predecessors);
    }
  }
  return absl::StrCat("{\n  \"nodes\" : [ ", absl::StrJoin(nodes, ", "), " ]\n}\n");
}

}  // namespace eddy::planner
