// BuildDeployments: lays out each consumer's input channels (edge by edge: one channel for a
// forward edge, one per producer subtask otherwise), then emits the stages' nodes per subtask with
// the ExchangeSource sized and one ExchangeSink per outgoing edge.
#include "coordinator/service/deployment_builder.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace eddy {
namespace {

struct OutEdge {
  int consumer;      // stage
  int offset;        // first channel of this edge at the consumer's gate
  int num_channels;  // the consumer gate's channel count
  const JobEdge* edge;
};

// Input gates per stage: a stage has at most a few (a join has two).
constexpr int kMaxGates = 8;

}  // namespace

absl::StatusOr<std::vector<v1::TaskDeployment>> BuildDeployments(
    const JobGraph& graph, const std::string& job_id, const std::vector<std::string>& slot_workers,
    const std::vector<std::string>& slot_addresses,
    const std::map<std::string, std::string>& config) {
  const int max_p = graph.MaxParallelism();
  if (static_cast<int>(slot_workers.size()) < max_p ||
      static_cast<int>(slot_addresses.size()) < max_p) {
    return absl::InternalError(
        absl::StrCat("job needs ", max_p, " slots, got ", slot_workers.size()));
  }
  if (max_p > kMaxParallelism) {
    return absl::InvalidArgumentError(
        absl::StrCat("parallelism ", max_p, " exceeds the max parallelism ", kMaxParallelism));
  }
  const int num_stages = static_cast<int>(graph.stages.size());
  std::vector<std::vector<OutEdge>> out(num_stages);
  std::vector<std::vector<int>> channels(num_stages, std::vector<int>(kMaxGates, 0));
  for (int c = 0; c < num_stages; ++c) {
    const JobStage& stage = graph.stages[c];
    for (const JobEdge& e : stage.inputs) {
      const int producer_p = graph.stages[e.producer].parallelism;
      if (e.partitioning == v1::ExchangeSink::FORWARD && producer_p != stage.parallelism) {
        return absl::InternalError("forward edge between different parallelisms");
      }
      if (e.partitioning == v1::ExchangeSink::SINGLETON && stage.parallelism != 1) {
        return absl::InternalError("singleton edge into a parallel stage");
      }
      if (e.input_index < 0 || e.input_index >= kMaxGates) {
        return absl::InternalError(absl::StrCat("stage ", c, " input ", e.input_index));
      }
      int& gate_channels = channels[c][e.input_index];
      out[e.producer].push_back({c, gate_channels, 0, &e});
      gate_channels += e.partitioning == v1::ExchangeSink::FORWARD ? 1 : producer_p;
    }
  }
  for (auto& edges : out) {
    for (auto& o : edges) o.num_channels = channels[o.consumer][o.edge->input_index];
  }

  std::vector<v1::TaskDeployment> tasks;
  for (int s = 0; s < num_stages; ++s) {
    const JobStage& stage = graph.stages[s];
    int next_id = 0;
    for (const auto& n : stage.nodes) next_id = std::max(next_id, n.id() + 1);
    for (int i = 0; i < stage.parallelism; ++i) {
      v1::TaskDeployment t;
      t.set_job_id(job_id);
      t.set_task_index(s);
      t.set_subtask_index(i);
      t.set_parallelism(stage.parallelism);
      t.set_max_parallelism(kMaxParallelism);
      for (const auto& [k, v] : config) (*t.mutable_config())[k] = v;
      for (const auto& n : stage.nodes) {
        v1::PlanNode* node = t.add_nodes();
        *node = n;
        if (node->has_exchange_source()) {
          v1::ExchangeSource* source = node->mutable_exchange_source();
          if (source->input_index() < 0 || source->input_index() >= kMaxGates) {
            return absl::InternalError(
                absl::StrCat("exchange source input ", source->input_index()));
          }
          source->set_num_channels(channels[s][source->input_index()]);
        }
      }
      int id = next_id;
      for (const OutEdge& o : out[s]) {
        const JobStage& consumer = graph.stages[o.consumer];
        v1::PlanNode* node = t.add_nodes();
        node->set_id(id++);
        node->add_inputs(o.edge->producer_node);
        node->set_description(
            absl::StrCat("ExchangeSink(", v1::ExchangeSink::Partitioning_Name(o.edge->partitioning),
                         " -> task ", o.consumer, ")"));
        v1::ExchangeSink* sink = node->mutable_exchange_sink();
        sink->set_partitioning(o.edge->partitioning);
        for (int k : o.edge->hash_keys) sink->add_hash_keys(k);
        sink->set_max_parallelism(kMaxParallelism);
        auto add_target = [&](int j, int channel) {
          v1::ExchangeTarget* target = sink->add_targets();
          target->set_address(slot_addresses[j]);
          target->set_worker_id(slot_workers[j]);
          target->set_job_id(job_id);
          target->set_task_index(o.consumer);
          target->set_subtask_index(j);
          target->set_channel_index(channel);
          target->set_local(slot_workers[j] == slot_workers[i]);
          target->set_num_channels(o.num_channels);
          target->set_input_index(o.edge->input_index);
        };
        switch (o.edge->partitioning) {
          case v1::ExchangeSink::FORWARD:
            add_target(i, o.offset);
            break;
          case v1::ExchangeSink::SINGLETON:
            add_target(0, o.offset + i);
            break;
          default:
            for (int j = 0; j < consumer.parallelism; ++j) add_target(j, o.offset + i);
        }
      }
      tasks.push_back(std::move(t));
    }
  }
  return tasks;
}

}  // namespace eddy
