#include "coordinator/checkpoint/savepoint_restore.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/types/type_proto.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/reflection.h"

namespace eddy {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// The default of TaskDeployment.max_parallelism (0) and of the key groups of state_key.h.
constexpr int kDefaultMaxParallelism = 128;

std::string TypesOf(const v1::Schema& schema) {
  absl::StatusOr<Schema> s = SchemaFromProto(schema);
  if (!s.ok()) return "?";
  std::vector<std::string> types;
  for (const DataType& t : s->Types()) types.push_back(t.ToString());
  return absl::StrCat("[", absl::StrJoin(types, ", "), "]");
}

// What of an operator's settings shapes the values it keeps: its aggregate functions (and
// DISTINCT), whether it keeps one value or every value (an insert-only input), and TTL (values
// then carry a timestamp).
void StateShapingSettings(const Message& m, std::vector<std::string>* out) {
  const auto* reflection = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->message_type() == v1::AggregateCall::descriptor()) {
        const int n = f->is_repeated() ? reflection->FieldSize(m, f) : 1;
        for (int i = 0; i < n; ++i) {
          const auto& call = static_cast<const v1::AggregateCall&>(
              f->is_repeated() ? reflection->GetRepeatedMessage(m, f, i)
                               : reflection->GetMessage(m, f));
          out->push_back(absl::StrCat(call.function(), call.distinct() ? " DISTINCT" : "",
                                      call.count_star() ? "(*)" : ""));
        }
        continue;
      }
      if (f->message_type()->full_name() == "eddy.v1.Expr") continue;  // expressions keep nothing
      if (f->is_repeated()) {
        for (int i = 0; i < reflection->FieldSize(m, f); ++i) {
          StateShapingSettings(reflection->GetRepeatedMessage(m, f, i), out);
        }
      } else {
        StateShapingSettings(reflection->GetMessage(m, f), out);
      }
      continue;
    }
    if (f->name() == "input_insert_only" && reflection->GetBool(m, f)) {
      out->push_back("insert-only input");
    } else if (f->name() == "state_ttl_ms" && reflection->GetInt64(m, f) > 0) {
      out->push_back("state TTL");
    }
  }
}

}  // namespace

uint32_t StateHandleIdOf(const v1::PlanNode& node) {
  return node.state_id() != 0 ? node.state_id() : static_cast<uint32_t>(node.id() + 1);
}

std::string StateSchemaOf(const v1::PlanNode& node, const v1::TaskDeployment& task) {
  const FieldDescriptor* kind = v1::PlanNode::descriptor()->FindFieldByNumber(node.op_case());
  std::string out = kind != nullptr ? kind->name() : "unknown";
  std::vector<std::string> inputs;
  for (int in : node.inputs()) {
    for (const v1::PlanNode& n : task.nodes()) {
      if (n.id() == in) inputs.push_back(TypesOf(n.output_schema()));
    }
  }
  absl::StrAppend(&out, "(", absl::StrJoin(inputs, ", "), ") -> ", TypesOf(node.output_schema()));
  if (kind != nullptr) {
    std::vector<std::string> settings;
    StateShapingSettings(node.GetReflection()->GetMessage(node, kind), &settings);
    if (!settings.empty()) absl::StrAppend(&out, " {", absl::StrJoin(settings, ", "), "}");
  }
  return out;
}

std::vector<v1::OperatorStateDescriptor> DescribeOperators(
    const std::vector<v1::TaskDeployment>& tasks) {
  std::vector<v1::OperatorStateDescriptor> out;
  std::set<int> described;
  for (const v1::TaskDeployment& t : tasks) {
    if (!described.insert(t.task_index()).second) continue;
    for (const v1::PlanNode& node : t.nodes()) {
      v1::OperatorStateDescriptor& d = out.emplace_back();
      d.set_state_id(StateHandleIdOf(node));
      d.set_description(node.description());
      d.set_state_schema(StateSchemaOf(node, t));
      d.set_task_index(t.task_index());
      d.set_parallelism(std::max(1, t.parallelism()));
      d.set_keyed(node.state_id() != 0);
    }
  }
  return out;
}

bool KeyGroupPartitioned(const v1::PlanNode& node) {
  if (node.state_id() == 0) return false;
  switch (node.op_case()) {
    case v1::PlanNode::kWindowAggregate:
    case v1::PlanNode::kSessionWindowAggregate:
    case v1::PlanNode::kOverAggregate:
    case v1::PlanNode::kIntervalJoin:
    case v1::PlanNode::kTemporalJoin:
    case v1::PlanNode::kWindowRank:
      return true;
    case v1::PlanNode::kValues:
    case v1::PlanNode::kTableSource:
    case v1::PlanNode::kCalc:
    case v1::PlanNode::kGroupAggregate:
    case v1::PlanNode::kUnionAll:
    case v1::PlanNode::kSink:
    case v1::PlanNode::kPartitionCommitter:
    case v1::PlanNode::kExchangeSink:
    case v1::PlanNode::kExchangeSource:
    case v1::PlanNode::kWatermarkAssigner:
    case v1::PlanNode::kWindowTableFunction:
    case v1::PlanNode::kMiniBatchAssigner:
    case v1::PlanNode::kLocalGroupAggregate:
    case v1::PlanNode::kGlobalGroupAggregate:
    case v1::PlanNode::kJoin:
    case v1::PlanNode::kRank:
    case v1::PlanNode::kDeduplicate:
    case v1::PlanNode::kTemporalSort:
    case v1::PlanNode::kExpand:
    case v1::PlanNode::kCorrelate:
    case v1::PlanNode::kHashAggregate:  // batch operators: batch jobs take no checkpoints
    case v1::PlanNode::kSort:
    case v1::PlanNode::kChangelogMaterialize:
    case v1::PlanNode::OP_NOT_SET:
      return false;
  }
  return false;
}

std::pair<int, int> KeyGroupRange(int max_parallelism, int parallelism, int index) {
  // Key group g belongs to subtask g * parallelism / max_parallelism.
  const int first = (index * max_parallelism + parallelism - 1) / parallelism;
  const int end = ((index + 1) * max_parallelism + parallelism - 1) / parallelism;
  return {first, end - 1};
}

absl::Status AssignSavepointState(const LoadedSavepoint& savepoint, bool ignore_unclaimed_state,
                                  std::vector<v1::TaskDeployment>* tasks) {
  const v1::CheckpointMetadata& md = savepoint.metadata;
  auto refuse = [&](const std::string& why) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot restore savepoint '", savepoint.dir, "': ", why));
  };
  std::map<uint32_t, const v1::OperatorStateDescriptor*> old_ops;
  for (const auto& d : md.operators()) old_ops[d.state_id()] = &d;
  // state id -> old subtask index -> its handle (only handles that hold something)
  std::map<uint32_t, std::map<int, const v1::OperatorStateHandle*>> old_state;
  for (const auto& s : md.subtasks()) {
    for (const auto& op : s.operators()) {
      if (op.files_size() == 0 && op.operator_state().empty()) continue;
      old_state[op.state_id()][s.subtask_index()] = &op;
    }
  }
  std::map<uint32_t, v1::OperatorStateDescriptor> new_ops;
  for (auto& d : DescribeOperators(*tasks)) new_ops[d.state_id()] = std::move(d);
  std::map<uint32_t, const v1::PlanNode*> new_nodes;
  for (const v1::TaskDeployment& t : *tasks) {
    // A keyed node's state id may equal another node's id + 1: the keyed node's is its state's.
    for (const v1::PlanNode& node : t.nodes()) {
      if (node.state_id() != 0) {
        new_nodes[node.state_id()] = &node;
      } else {
        new_nodes.emplace(StateHandleIdOf(node), &node);
      }
    }
  }

  const int new_max = tasks->empty() || tasks->front().max_parallelism() <= 0
                          ? kDefaultMaxParallelism
                          : tasks->front().max_parallelism();
  const int old_max = md.max_parallelism() > 0 ? md.max_parallelism() : kDefaultMaxParallelism;
  if (old_max != new_max) {
    return refuse(absl::StrCat("it was taken with max parallelism ", old_max,
                               " and the job runs with ", new_max,
                               ": keyed state is split into that many key groups"));
  }
  std::vector<std::string> unclaimed;
  for (const auto& [id, handles] : old_state) {
    auto old_it = old_ops.find(id);
    if (old_it == old_ops.end()) {
      return refuse(absl::StrCat("it holds state with id ", id, " but names no operator for it"));
    }
    const v1::OperatorStateDescriptor& old_op = *old_it->second;
    auto new_it = new_ops.find(id);
    if (new_it == new_ops.end()) {
      unclaimed.push_back(absl::StrCat(old_op.description(), " (state id ", id, ")"));
      continue;
    }
    const v1::OperatorStateDescriptor& new_op = new_it->second;
    if (old_op.state_schema() != new_op.state_schema()) {
      return refuse(absl::StrCat("the state of operator ", old_op.description(), " (state id ", id,
                                 ") does not fit the query's operator ", new_op.description(),
                                 ": the savepoint holds ", old_op.state_schema(),
                                 ", the query needs ", new_op.state_schema()));
    }
    if (old_op.parallelism() != new_op.parallelism() && !KeyGroupPartitioned(*new_nodes.at(id))) {
      for (const auto& [subtask, h] : handles) {
        if (h->operator_state().empty()) continue;
        return refuse(absl::StrCat(
            "operator ", new_op.description(), " (state id ", id, ") ran at parallelism ",
            old_op.parallelism(), " and now runs at ", new_op.parallelism(), ", but ",
            new_op.keyed() ? "besides its keyed state it keeps state of its own that"
                           : "its state (positions, pending files)",
            " cannot be redistributed; run it at its old parallelism (for a source its "
            "'scan.parallelism', for a sink its 'sink.parallelism')"));
      }
    }
  }
  if (!unclaimed.empty() && !ignore_unclaimed_state) {
    return refuse(absl::StrCat(
        "no operator of the query claims the state of ", absl::StrJoin(unclaimed, ", "),
        "; SET 'execution.savepoint.ignore-unclaimed-state' = 'true' to start without it"));
  }
  for (v1::TaskDeployment& t : *tasks) {
    v1::TaskCheckpointing* c = t.mutable_checkpointing();
    v1::SubtaskStateHandle restore;
    restore.set_task_index(t.task_index());
    restore.set_subtask_index(t.subtask_index());
    int restore_parallelism = 0;
    const int p = std::max(1, t.parallelism());
    for (const v1::PlanNode& node : t.nodes()) {
      const uint32_t id = StateHandleIdOf(node);
      auto it = old_state.find(id);
      if (it == old_state.end()) continue;
      // Another node's id + 1 may equal a keyed operator's state id: the state is the keyed one's.
      // (Nodes without keyed state that share a handle id all get it; those it is not for, such
      // as exchanges, keep no state and ignore it.)
      const v1::PlanNode& owner = *new_nodes.at(id);
      if (owner.state_id() != 0 && (owner.id() != node.id() || owner.op_case() != node.op_case())) {
        continue;
      }
      const int old_p = old_ops.at(id)->parallelism();
      if (old_p == p) {
        auto h = it->second.find(t.subtask_index());
        if (h != it->second.end()) *restore.add_operators() = *h->second;
        continue;
      }
      // Rescaled keyed state: every old subtask whose key groups overlap this subtask's.
      restore_parallelism = old_p;
      const auto [first, last] = KeyGroupRange(new_max, p, t.subtask_index());
      for (const auto& [old_index, h] : it->second) {
        const auto [old_first, old_last] = KeyGroupRange(new_max, old_p, old_index);
        if (old_first <= last && first <= old_last) *restore.add_operators() = *h;
      }
    }
    if (restore.operators_size() == 0) continue;
    *c->mutable_restore() = std::move(restore);
    c->set_restore_job_dir(savepoint.dir);
    c->set_restore_checkpoint_id(md.checkpoint_id());
    c->set_restore_parallelism(restore_parallelism);
  }
  return absl::OkStatus();
}

}  // namespace eddy
