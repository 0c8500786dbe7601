// Flink's text tree for EXPLAIN: a node per line, inputs indented under it with `+- ` (last input)
// and `:- ` (others), continuation columns `:  ` / `   `. The execution-plan form also marks shared
// nodes: the first print is `Desc(reuse_id=[n])`, later ones `Reused(reference_id=[n])`.
#pragma once

#include <deque>
#include <string>
#include <vector>

namespace eddy::planner {

// One printable node. Several nodes may name the same input: that input is shared (reused).
struct ExplainNode {
  std::string description;
  std::vector<const ExplainNode*> inputs;
  bool is_sink = false;  // a DAG's roots are printed as their own blocks
};

// Owns the nodes of one plan rendering; pointers stay valid while it lives.
class ExplainGraph {
 public:
  ExplainNode* Add(std::string description, std::vector<const ExplainNode*> inputs = {},
                   bool is_sink = false) {
    return &nodes_.emplace_back(ExplainNode{std::move(description), std::move(inputs), is_sink});
  }

 private:
  std::deque<ExplainNode> nodes_;
};

// The tree under `root`, each line ending in '\n'. With `mark_reuse`, a node reached more than once
// prints in full the first time (with reuse_id) and as Reused(reference_id=...) afterwards;
// without it every occurrence prints in full (Flink's physical-plan section).
std::string TreeToString(const ExplainNode& root, bool mark_reuse);

// A DAG with several roots as Flink's ExecNodePlanDumper.dagToString prints it: every node shared
// between trees becomes its own block (printed once, with reuse_id), then one block per sink that
// refers to shared nodes as Reused(reference_id=...). Blocks are separated by a blank line. One
// root prints as TreeToString(root, true).
std::string DagToString(const std::vector<const ExplainNode*>& roots);

}  // namespace eddy::planner
