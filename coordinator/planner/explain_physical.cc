#include "coordinator/planner/explain_physical.h"

#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/planner/job_graph.h"

namespace eddy::planner {
namespace {

class Builder {
 public:
  Builder(const PhysicalPlan& plan, const PhysicalExplainOptions& options, ExplainGraph* graph)
      : plan_(plan),
        options_(options),
        graph_(graph),
        built_(plan.nodes.size()),
        cumulative_of_(options.cumulative != nullptr ? *options.cumulative : own_cumulative_) {}

  const ExplainNode* Node(int id) {
    if (built_[id] != nullptr) return built_[id];
    const v1::PlanNode& n = plan_.nodes[id];
    std::vector<const ExplainNode*> inputs;
    Cost cumulative;
    const bool shuffled =
        n.op_case() == v1::PlanNode::kGroupAggregate ||
        n.op_case() == v1::PlanNode::kGlobalGroupAggregate ||
        n.op_case() == v1::PlanNode::kWindowAggregate || n.op_case() == v1::PlanNode::kJoin ||
        n.op_case() == v1::PlanNode::kIntervalJoin || n.op_case() == v1::PlanNode::kTemporalJoin ||
        n.op_case() == v1::PlanNode::kRank || n.op_case() == v1::PlanNode::kDeduplicate ||
        n.op_case() == v1::PlanNode::kOverAggregate ||
        n.op_case() == v1::PlanNode::kSessionWindowAggregate ||
        n.op_case() == v1::PlanNode::kWindowRank || n.op_case() == v1::PlanNode::kTemporalSort ||
        n.op_case() == v1::PlanNode::kHashAggregate || n.op_case() == v1::PlanNode::kSort ||
        n.op_case() == v1::PlanNode::kChangelogMaterialize ||
        (n.op_case() == v1::PlanNode::kSink && SinkShufflesByPartition(n.sink()));
    for (int i = 0; i < n.inputs_size(); ++i) {
      inputs.push_back(shuffled ? Exchange(n, i) : Node(n.inputs(i)));
      if (options_.costs != nullptr) cumulative += cumulative_of_.at(inputs.back());
    }
    const bool sink = n.op_case() == v1::PlanNode::kSink;
    std::string desc = n.description();
    if (options_.advice_ids != nullptr) {
      if (auto it = options_.advice_ids->find(id); it != options_.advice_ids->end()) {
        desc = WithFirstAttribute(desc, absl::StrCat("advice=[", it->second, "]"));
      }
    }
    // A sink emits nothing downstream; Flink prints its mode as NONE.
    desc = WithMode(desc, sink ? "[NONE]" : plan_.modes[id].ToString());
    if (options_.costs != nullptr) {
      cumulative += options_.costs->SelfCost(id);
      absl::StrAppend(&desc, CostModel::Suffix(options_.costs->RowCount(id), cumulative));
    }
    built_[id] = graph_->Add(std::move(desc), std::move(inputs), sink);
    cumulative_of_[built_[id]] = cumulative;
    return built_[id];
  }

 private:
  // Flink shuffles by the group keys before a GroupAggregate (or a batch HashAggregate), by the
  // partition keys before a Rank or Deduplicate, and by each side's join keys before a Join (a join
  // without keys: everything to one subtask, `single`); one Exchange per distinct (input,
  // distribution), so two aggregates with the same keys over one input share it.
  const ExplainNode* Exchange(const v1::PlanNode& consumer, int slot) {
    const int input = consumer.inputs(slot);
    const v1::Schema& in = plan_.nodes[input].output_schema();
    std::vector<std::string> keys;
    static const google::protobuf::RepeatedField<int32_t> kNoKeys;  // a temporal sort: single
    // A ChangelogMaterialize meets every change of a row in one subtask: hash on all columns.
    google::protobuf::RepeatedField<int32_t> all_columns;
    for (int c = 0; consumer.has_changelog_materialize() && c < in.fields_size(); ++c) {
      all_columns.Add(c);
    }
    const auto& group_keys =
        consumer.has_temporal_sort() || consumer.has_sort() ? kNoKeys
        : consumer.has_changelog_materialize()              ? all_columns
        : consumer.has_hash_aggregate()                     ? consumer.hash_aggregate().group_keys()
        : consumer.has_group_aggregate()  ? consumer.group_aggregate().group_keys()
        : consumer.has_group_aggregate()  ? consumer.group_aggregate().group_keys()
        : consumer.has_window_aggregate() ? consumer.window_aggregate().group_keys()
        : consumer.has_join()
            ? (slot == 0 ? consumer.join().left_keys() : consumer.join().right_keys())
        : consumer.has_interval_join()  ? (slot == 0 ? consumer.interval_join().left_keys()
                                                     : consumer.interval_join().right_keys())
        : consumer.has_temporal_join()  ? (slot == 0 ? consumer.temporal_join().left_keys()
                                                     : consumer.temporal_join().right_keys())
        : consumer.has_rank()           ? consumer.rank().partition_keys()
        : consumer.has_deduplicate()    ? consumer.deduplicate().keys()
        : consumer.has_over_aggregate() ? consumer.over_aggregate().partition_keys()
        : consumer.has_session_window_aggregate() ? consumer.session_window_aggregate().group_keys()
        : consumer.has_window_rank()              ? consumer.window_rank().partition_keys()
        : consumer.has_sink()                     ? consumer.sink().partition_keys()
                                                  : consumer.global_group_aggregate().group_keys();
    for (int k : group_keys) keys.push_back(in.fields(k).name());
    std::string dist = keys.empty() ? "single" : "hash[" + absl::StrJoin(keys, ", ") + "]";
    auto [it, added] = exchanges_.try_emplace({input, dist}, nullptr);
    if (added) {
      const ExplainNode* in = Node(input);
      std::string desc = WithMode(absl::StrCat("Exchange(distribution=[", dist, "])"),
                                  plan_.modes[input].ToString());
      Cost cumulative;
      if (options_.costs != nullptr) {
        cumulative = cumulative_of_.at(in);
        cumulative += options_.costs->ExchangeCost(input, static_cast<int>(keys.size()));
        absl::StrAppend(&desc, CostModel::Suffix(options_.costs->RowCount(input), cumulative));
      }
      it->second = graph_->Add(std::move(desc), {in});
      cumulative_of_[it->second] = cumulative;
    }
    return it->second;
  }

  // `Name(attrs)` -> `Name(attrs, changelogMode=[...])` when asked for.
  std::string WithMode(const std::string& desc, const std::string& mode) const {
    if (!options_.changelog_mode || desc.empty() || desc.back() != ')') return desc;
    return absl::StrCat(desc.substr(0, desc.size() - 1), ", changelogMode=", mode, ")");
  }

  // `Name(attrs)` -> `Name(first, attrs)`.
  static std::string WithFirstAttribute(const std::string& desc, const std::string& first) {
    const size_t open = desc.find('(');
    if (open == std::string::npos) return desc;
    const bool empty = open + 1 < desc.size() && desc[open + 1] == ')';
    return absl::StrCat(desc.substr(0, open + 1), first, empty ? "" : ", ", desc.substr(open + 1));
  }

  const PhysicalPlan& plan_;
  const PhysicalExplainOptions& options_;
  ExplainGraph* graph_;
  std::vector<const ExplainNode*> built_;
  std::map<const ExplainNode*, Cost> own_cumulative_;
  std::map<const ExplainNode*, Cost>& cumulative_of_;  // with costs: each built node's
  std::map<std::pair<int, std::string>, const ExplainNode*> exchanges_;
};

}  // namespace

std::vector<const ExplainNode*> PhysicalToExplain(const PhysicalPlan& plan,
                                                  const PhysicalExplainOptions& options,
                                                  ExplainGraph* graph) {
  Builder b(plan, options, graph);
  std::vector<const ExplainNode*> roots;
  for (int id : plan.roots) roots.push_back(b.Node(id));
  return roots;
}

const ExplainNode* PhysicalSubtreeToExplain(const PhysicalPlan& plan, int node,
                                            const PhysicalExplainOptions& options,
                                            ExplainGraph* graph) {
  return Builder(plan, options, graph).Node(node);
}

}  // namespace eddy::planner
