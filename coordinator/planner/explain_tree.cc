#include "coordinator/planner/explain_tree.h"

#include <unordered_map>
#include <unordered_set>

#include "absl/strings/str_cat.h"

namespace eddy::planner {
namespace {

// Reuse ids in first-revisit order: a node gets an id when a walk from the roots reaches it a
// second time (so it has several consumers); ids count from 1.
std::unordered_map<const ExplainNode*, int> BuildReuseIds(
    const std::vector<const ExplainNode*>& roots) {
  std::unordered_map<const ExplainNode*, int> ids;
  std::unordered_set<const ExplainNode*> visited;
  int next = 0;
  // Explicit recursion through a lambda: plans are shallow, depth is the number of operators.
  auto visit = [&](auto&& self, const ExplainNode* n) -> void {
    if (!visited.insert(n).second) {
      if (!ids.count(n)) ids[n] = ++next;
      return;
    }
    for (const ExplainNode* in : n->inputs) self(self, in);
  };
  for (const ExplainNode* r : roots) visit(visit, r);
  return ids;
}

class TreeWriter {
 public:
  // Tree mode counts visits while printing: the first visit of a shared node is the full one. DAG
  // mode instead flags the one node whose block is being printed (`SetFirst`).
  TreeWriter(const std::unordered_map<const ExplainNode*, int>* reuse_ids, bool tree_mode)
      : reuse_ids_(reuse_ids), tree_mode_(tree_mode) {}

  void SetFirst(const ExplainNode* n, bool first) {
    if (first) {
      dag_first_.insert(n);
    } else {
      dag_first_.erase(n);
    }
  }
  void Stop(const ExplainNode* n) { stop_.insert(n); }

  std::string Write(const ExplainNode& root) {
    std::string out;
    std::vector<bool> last;
    Visit(&root, &last, &out);
    return out;
  }

 private:
  int ReuseId(const ExplainNode* n) const {
    if (reuse_ids_ == nullptr) return -1;
    auto it = reuse_ids_->find(n);
    return it == reuse_ids_->end() ? -1 : it->second;
  }

  void Visit(const ExplainNode* n, std::vector<bool>* last, std::string* out) {
    if (tree_mode_) ++visits_[n];
    if (!last->empty()) {
      for (size_t i = 0; i + 1 < last->size(); ++i) out->append((*last)[i] ? "   " : ":  ");
      out->append(last->back() ? "+- " : ":- ");
    }
    const int reuse_id = ReuseId(n);
    const bool reused = reuse_id >= 0;
    const bool first = tree_mode_ ? visits_[n] == 1 : dag_first_.count(n) > 0;
    out->append(reused && !first ? "Reused" : n->description);
    if (reused) {
      absl::StrAppend(out, first ? "(reuse_id=[" : "(reference_id=[", reuse_id, "])");
    }
    out->push_back('\n');
    if ((reused && !first) || stop_.count(n)) return;
    for (size_t i = 0; i < n->inputs.size(); ++i) {
      last->push_back(i + 1 == n->inputs.size());
      Visit(n->inputs[i], last, out);
      last->pop_back();
    }
  }

  const std::unordered_map<const ExplainNode*, int>* reuse_ids_;
  const bool tree_mode_;
  std::unordered_map<const ExplainNode*, int> visits_;
  std::unordered_set<const ExplainNode*> dag_first_;
  std::unordered_set<const ExplainNode*> stop_;
};

}  // namespace

std::string TreeToString(const ExplainNode& root, bool mark_reuse) {
  if (!mark_reuse) return TreeWriter(nullptr, true).Write(root);
  const auto ids = BuildReuseIds({&root});
  return TreeWriter(&ids, true).Write(root);
}

std::string DagToString(const std::vector<const ExplainNode*>& roots) {
  if (roots.empty()) return "";
  if (roots.size() == 1) return TreeToString(*roots[0], true);
  const auto ids = BuildReuseIds(roots);
  TreeWriter writer(&ids, false);
  std::unordered_map<const ExplainNode*, int> visits;
  std::string out;
  // Post-order: a shared node's block comes before the blocks that refer to it.
  auto visit = [&](auto&& self, const ExplainNode* n) -> void {
    const bool first = ++visits[n] == 1;
    if (first) {
      for (const ExplainNode* in : n->inputs) self(self, in);
    }
    const bool reused = ids.count(n) > 0;
    if (!n->is_sink && !(reused && first)) return;
    if (reused) writer.SetFirst(n, true);
    absl::StrAppend(&out, writer.Write(*n), "\n");
    if (reused) {
      writer.Stop(n);
      writer.SetFirst(n, false);
    }
  };
  for (const ExplainNode* r : roots) visit(visit, r);
  if (!out.empty()) out.pop_back();  // no blank line after the last block
  return out;
}

}  // namespace eddy::planner
