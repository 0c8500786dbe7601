// BuildJobGraph: walks the topologically ordered nodes once, assigning each to a stage. Sources
// open stages; Calc and Expand chain into their input's stage; an aggregate (unless both sides run
// at parallelism 1), a union of several stages, a sink at another parallelism and a sink shuffled
// by partition open a stage fed by an ExchangeSource.
#include "coordinator/planner/job_graph.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/connectors/filesystem_connector.h"
#include "common/connectors/partition_commit_info.h"
#include "common/types/type_proto.h"

namespace eddy {
namespace {

using Partitioning = v1::ExchangeSink::Partitioning;

}  // namespace

bool HasPartitionCommitter(const v1::TableSink& sink) {
  return sink.partition_keys_size() > 0 && sink.connector() == "filesystem" &&
         !sink.commit_at_job_end() && sink.options().count(kCommitPolicyOption) > 0;
}

bool SinkShufflesByPartition(const v1::TableSink& sink) {
  if (sink.partition_keys_size() == 0 || sink.connector() != "filesystem") return false;
  auto it = sink.options().find(kShuffleByPartitionOption);  // validated at CREATE TABLE
  return it != sink.options().end() && absl::AsciiStrToLower(it->second) == "true";
}

namespace {

absl::StatusOr<int> PositiveInt(const std::map<std::string, std::string>& m, const std::string& key,
                                int fallback) {
  auto it = m.find(key);
  if (it == m.end()) return fallback;
  int v = 0;
  if (!absl::SimpleAtoi(it->second, &v) || v < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", key, "' must be a positive integer, got '", it->second, "'"));
  }
  return v;
}

class Splitter {
 public:
  Splitter(const std::vector<v1::PlanNode>& nodes, int default_parallelism)
      : default_parallelism_(default_parallelism) {
    for (const auto& n : nodes) next_id_ = std::max(next_id_, n.id() + 1);
  }

  absl::Status Add(const v1::PlanNode& node) {
    for (int in : node.inputs()) {
      if (!stage_of_.count(in)) {
        return absl::InternalError(absl::StrCat("node ", node.id(), " reads unknown node ", in));
      }
    }
    switch (node.op_case()) {
      case v1::PlanNode::kValues:
        return Place(node, NewStage(1));
      case v1::PlanNode::kTableSource: {
        // A source may run at a parallelism of its own (Flink's scan.parallelism, which only the
        // connectors that take it accept at CREATE TABLE).
        std::map<std::string, std::string> options(node.table_source().options().begin(),
                                                   node.table_source().options().end());
        auto p = PositiveInt(options, "scan.parallelism", default_parallelism_);
        if (!p.ok()) return p.status();
        return Place(node, NewStage(*p));
      }
      case v1::PlanNode::kGroupAggregate:
      case v1::PlanNode::kWindowAggregate:
      case v1::PlanNode::kGlobalGroupAggregate:  // a LocalGroupAggregate chains (default)
      case v1::PlanNode::kRank:
      case v1::PlanNode::kDeduplicate:
      case v1::PlanNode::kOverAggregate:
      case v1::PlanNode::kWindowRank:
      case v1::PlanNode::kSessionWindowAggregate:
      case v1::PlanNode::kTemporalSort:
      case v1::PlanNode::kHashAggregate:
      case v1::PlanNode::kSort: {
        static const google::protobuf::RepeatedField<int32_t> kNoKeys;  // a global order
        const auto& keys = node.has_temporal_sort() || node.has_sort() ? kNoKeys
                           : node.has_group_aggregate()  ? node.group_aggregate().group_keys()
                           : node.has_hash_aggregate()   ? node.hash_aggregate().group_keys()
                           : node.has_window_aggregate() ? node.window_aggregate().group_keys()
                           : node.has_rank()             ? node.rank().partition_keys()
                           : node.has_deduplicate()      ? node.deduplicate().keys()
                           : node.has_over_aggregate()   ? node.over_aggregate().partition_keys()
                           : node.has_window_rank()      ? node.window_rank().partition_keys()
                           : node.has_session_window_aggregate()
                               ? node.session_window_aggregate().group_keys()
                               : node.global_group_aggregate().group_keys();
        const bool global = keys.empty();
        const int p = global ? 1 : default_parallelism_;
        const int input_stage = stage_of_[node.inputs(0)];
        // Every partitioning between two single subtasks is a forward: chain.
        if (p == 1 && graph_.stages[input_stage].parallelism == 1) return Place(node, input_stage);
        const int stage = NewStage(p);
        v1::PlanNode copy = node;
        Connect(stage, &copy, 0, global ? v1::ExchangeSink::SINGLETON : v1::ExchangeSink::HASH,
                std::vector<int>(keys.begin(), keys.end()));
        return Place(copy, stage);
      }
      case v1::PlanNode::kJoin:
      case v1::PlanNode::kIntervalJoin:
      case v1::PlanNode::kTemporalJoin: {
        const auto& left_keys = node.has_join()            ? node.join().left_keys()
                                : node.has_interval_join() ? node.interval_join().left_keys()
                                                           : node.temporal_join().left_keys();
        const auto& right_keys = node.has_join()            ? node.join().right_keys()
                                 : node.has_interval_join() ? node.interval_join().right_keys()
                                                            : node.temporal_join().right_keys();
        const bool keyed = !left_keys.empty();
        const int stage = NewStage(keyed ? default_parallelism_ : 1);
        const Partitioning part = keyed ? v1::ExchangeSink::HASH : v1::ExchangeSink::SINGLETON;
        v1::PlanNode copy = node;
        Connect(stage, &copy, 0, part, {left_keys.begin(), left_keys.end()});
        Connect(stage, &copy, 1, part, {right_keys.begin(), right_keys.end()});
        return Place(copy, stage);
      }
      case v1::PlanNode::kChangelogMaterialize: {
        // Every change of one row must meet in one subtask: hash on all columns.
        std::vector<int> all_columns;
        for (int c = 0; c < node.output_schema().fields_size(); ++c) all_columns.push_back(c);
        const int stage = NewStage(default_parallelism_);
        v1::PlanNode copy = node;
        Connect(stage, &copy, 0, v1::ExchangeSink::HASH, std::move(all_columns));
        return Place(copy, stage);
      }
      case v1::PlanNode::kUnionAll: {
        std::set<int> stages;
        int p = 1;
        for (int in : node.inputs()) {
          stages.insert(stage_of_[in]);
          p = std::max(p, graph_.stages[stage_of_[in]].parallelism);
        }
        if (stages.size() == 1) return Place(node, *stages.begin());
        // The union becomes the new stage's ExchangeSource: one gate reads every input.
        const int stage = NewStage(p);
        JobStage& s = graph_.stages[stage];
        for (int in : node.inputs()) {
          const int producer = stage_of_[in];
          const Partitioning part = graph_.stages[producer].parallelism == p
                                        ? v1::ExchangeSink::FORWARD
                                        : v1::ExchangeSink::REBALANCE;
          s.inputs.push_back({producer, in, part, {}});
        }
        v1::PlanNode source;
        source.set_id(node.id());
        *source.mutable_output_schema() = node.output_schema();
        source.set_description(node.description());
        source.mutable_exchange_source();
        return Place(source, stage);
      }
      case v1::PlanNode::kSink: {
        if (!HasPartitionCommitter(node.sink())) return PlaceSink(node);
        v1::PlanNode writer = node;
        writer.mutable_sink()->set_report_partition_commits(true);
        absl::Status placed = PlaceSink(writer);
        if (!placed.ok()) return placed;
        return AddPartitionCommitter(writer);
      }
      case v1::PlanNode::kPartitionCommitter:  // added here, after its sink
      case v1::PlanNode::kCalc:
      case v1::PlanNode::kExpand:
      case v1::PlanNode::kCorrelate:
      case v1::PlanNode::kLocalGroupAggregate:
      case v1::PlanNode::kWatermarkAssigner:
      case v1::PlanNode::kWindowTableFunction:
      case v1::PlanNode::kMiniBatchAssigner:
      case v1::PlanNode::kExchangeSink:
      case v1::PlanNode::kExchangeSource:
      case v1::PlanNode::OP_NOT_SET:
        // One input: chains into its input's stage.
        if (node.inputs_size() == 0) {
          return absl::InternalError(absl::StrCat("unexpected source node ", node.id()));
        }
        return Place(node, stage_of_[node.inputs(0)]);
    }
    return absl::InternalError(absl::StrCat("plan node ", node.id(), " has an unknown kind"));
  }

  JobGraph Take() { return std::move(graph_); }

 private:
  // In its input's stage, or in a new one fed by an exchange: hash by the partition columns
  // (sink.shuffle-by-partition.enable), else a rebalance when sink.parallelism differs.
  absl::Status PlaceSink(const v1::PlanNode& node) {
    const int input_stage = stage_of_[node.inputs(0)];
    const int input_p = graph_.stages[input_stage].parallelism;
    std::map<std::string, std::string> options(node.sink().options().begin(),
                                               node.sink().options().end());
    auto p = PositiveInt(options, "sink.parallelism", input_p);
    if (!p.ok()) return p.status();
    if (SinkShufflesByPartition(node.sink())) {
      const int stage = NewStage(*p);
      v1::PlanNode copy = node;
      Connect(stage, &copy, 0, v1::ExchangeSink::HASH,
              {node.sink().partition_keys().begin(), node.sink().partition_keys().end()});
      return Place(copy, stage);
    }
    if (*p == input_p) return Place(node, input_stage);
    const int stage = NewStage(*p);
    v1::PlanNode copy = node;
    Connect(stage, &copy, 0, v1::ExchangeSink::REBALANCE, {});
    return Place(copy, stage);
  }

  // Flink's PartitionCommitter after a partitioned filesystem sink with a commit policy: one
  // subtask in a stage of its own, fed the writers' reports (PartitionCommitInfo rows).
  absl::Status AddPartitionCommitter(const v1::PlanNode& writer) {
    schema_of_[writer.id()].Clear();
    SchemaToProto(PartitionCommitInfoSchema(), &schema_of_[writer.id()]);
    v1::PlanNode committer;
    committer.set_id(next_id_++);
    committer.add_inputs(writer.id());
    committer.set_description("PartitionCommitter");
    v1::PartitionCommitter* spec = committer.mutable_partition_committer();
    spec->set_table_name(writer.sink().table_name());
    *spec->mutable_options() = writer.sink().options();
    for (int k : writer.sink().partition_keys()) {
      spec->add_partition_columns(writer.output_schema().fields(k).name());
    }
    const int stage = NewStage(1);
    Connect(stage, &committer, 0, v1::ExchangeSink::SINGLETON, {});
    return Place(committer, stage);
  }

  int NewStage(int parallelism) {
    graph_.stages.emplace_back();
    graph_.stages.back().parallelism = parallelism;
    return static_cast<int>(graph_.stages.size()) - 1;
  }

  // Feeds `node`'s input `slot` into `stage` through a new ExchangeSource, the stage's input gate
  // `slot`.
  void Connect(int stage, v1::PlanNode* node, int slot, Partitioning part, std::vector<int> keys) {
    const int in = node->inputs(slot);
    JobStage& s = graph_.stages[stage];
    s.inputs.push_back({stage_of_[in], in, part, std::move(keys), slot});
    v1::PlanNode source;
    source.set_id(next_id_++);
    *source.mutable_output_schema() = schema_of_[in];
    source.set_description(slot == 0 ? "ExchangeSource"
                                     : absl::StrCat("ExchangeSource(input=[", slot, "])"));
    source.mutable_exchange_source()->set_input_index(slot);
    s.nodes.push_back(std::move(source));
    stage_of_[s.nodes.back().id()] = stage;
    node->set_inputs(slot, s.nodes.back().id());
  }

  absl::Status Place(const v1::PlanNode& node, int stage) {
    graph_.stages[stage].nodes.push_back(node);
    stage_of_[node.id()] = stage;
    schema_of_[node.id()] = node.output_schema();
    return absl::OkStatus();
  }

  int default_parallelism_;
  int next_id_ = 0;
  JobGraph graph_;
  std::map<int, int> stage_of_;  // node id -> stage
  std::map<int, v1::Schema> schema_of_;
};

}  // namespace

int JobGraph::MaxParallelism() const {
  int p = 1;
  for (const auto& s : stages) p = std::max(p, s.parallelism);
  return p;
}

absl::StatusOr<JobGraph> BuildJobGraph(const std::vector<v1::PlanNode>& nodes,
                                       const ConfigMap& config) {
  auto p = PositiveInt(config, "parallelism.default", 1);
  if (!p.ok()) return p.status();
  // table.exec.resource.default-parallelism, when positive, is the table operators' default.
  if (auto it = config.find("table.exec.resource.default-parallelism");
      it != config.end() && it->second != "-1") {
    p = PositiveInt(config, "table.exec.resource.default-parallelism", 1);
    if (!p.ok()) return p.status();
  }
  Splitter splitter(nodes, *p);
  for (const auto& node : nodes) {
    absl::Status s = splitter.Add(node);
    if (!s.ok()) return s;
  }
  return splitter.Take();
}

}  // namespace eddy
