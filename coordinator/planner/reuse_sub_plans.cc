#include "coordinator/planner/reuse_sub_plans.h"

#include <string>
#include <unordered_map>
#include <utility>

#include "absl/strings/ascii.h"
#include "coordinator/planner/config_values.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace eddy::planner {
namespace {

bool IsTableScan(const v1::PlanNode& node) { return node.op_case() == v1::PlanNode::kTableSource; }

// What makes two nodes interchangeable: the operator with its expressions and options, the inputs
// (already canonical ids), the output types and the changelog mode. Ids, descriptions and column
// names are left out: they do not change the rows a node produces. A scan's description stays: it
// names the table, and two tables with the same datagen options are still two sources.
std::string ReuseDigest(const v1::PlanNode& node, const ChangelogMode& mode) {
  v1::PlanNode key = node;
  key.clear_id();
  if (!IsTableScan(node)) key.clear_description();
  for (auto& f : *key.mutable_output_schema()->mutable_fields()) f.clear_name();
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);  // map fields (sink options) in key order
    key.SerializeToCodedStream(&coded);
  }
  return bytes + mode.ToString();
}

bool Reusable(const ReuseOptions& options, const v1::PlanNode& node) {
  if (!options.sub_plans || node.op_case() == v1::PlanNode::kSink) return false;
  // Flink's reuse-source-enabled covers table source scans (every connector), not VALUES.
  if (IsTableScan(node)) return options.sources;
  return true;
}

}  // namespace

ReuseOptions ReuseOptionsFromConfig(const ConfigMap& config) {
  ReuseOptions o;
  o.sub_plans = ConfigFlag(config, "table.optimizer.reuse-sub-plan-enabled", true);
  o.sources = ConfigFlag(config, "table.optimizer.reuse-source-enabled", true);
  return o;
}

std::vector<int> ReuseSubPlans(const ReuseOptions& options, std::vector<v1::PlanNode>* nodes,
                               std::vector<ChangelogMode>* modes) {
  std::vector<int> remap(nodes->size(), -1);
  std::vector<v1::PlanNode> out;
  std::vector<ChangelogMode> out_modes;
  std::unordered_map<std::string, int> by_digest;
  for (size_t i = 0; i < nodes->size(); ++i) {
    v1::PlanNode& n = (*nodes)[i];
    // Inputs come first in the list, so they are already mapped.
    for (int k = 0; k < n.inputs_size(); ++k) n.set_inputs(k, remap[n.inputs(k)]);
    const ChangelogMode mode = (*modes)[i];
    std::string digest;
    if (Reusable(options, n)) {
      digest = ReuseDigest(n, mode);
      if (auto it = by_digest.find(digest); it != by_digest.end()) {
        remap[i] = it->second;
        continue;
      }
    }
    const int id = static_cast<int>(out.size());
    remap[i] = id;
    if (!digest.empty()) by_digest.emplace(std::move(digest), id);
    n.set_id(id);
    out.push_back(std::move(n));
    out_modes.push_back(mode);
  }
  *nodes = std::move(out);
  *modes = std::move(out_modes);
  return remap;
}

}  // namespace eddy::planner
