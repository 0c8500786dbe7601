// The tree printer on hand-built graphs: Flink's branch markers, and reuse markers in a tree and in
// a DAG with several sinks (the examples of Flink's ExecNodePlanDumper).
#include "coordinator/planner/explain_tree.h"

#include "gtest/gtest.h"

namespace eddy::planner {
namespace {

TEST(ExplainTreeTest, BranchMarkers) {
  ExplainGraph g;
  const ExplainNode* a = g.Add("A");
  const ExplainNode* b = g.Add("B", {a});
  const ExplainNode* c = g.Add("C");
  const ExplainNode* u = g.Add("U", {b, c});
  const ExplainNode* top = g.Add("Top", {u});
  EXPECT_EQ(TreeToString(*top, true), "Top\n+- U\n   :- B\n   :  +- A\n   +- C\n");
}

TEST(ExplainTreeTest, SharedNodeInOneTree) {
  ExplainGraph g;
  const ExplainNode* scan = g.Add("Scan");
  const ExplainNode* project = g.Add("Project", {scan});
  const ExplainNode* f1 = g.Add("Filter1", {project});
  const ExplainNode* f2 = g.Add("Filter2", {project});
  const ExplainNode* join = g.Add("Join", {f1, f2});
  const ExplainNode* sink = g.Add("Sink", {join}, true);
  EXPECT_EQ(TreeToString(*sink, true),
            "Sink\n"
            "+- Join\n"
            "   :- Filter1\n"
            "   :  +- Project(reuse_id=[1])\n"
            "   :     +- Scan\n"
            "   +- Filter2\n"
            "      +- Reused(reference_id=[1])\n");
  // Without reuse marks (the physical-plan section) the shared part repeats.
  EXPECT_EQ(TreeToString(*sink, false),
            "Sink\n+- Join\n   :- Filter1\n   :  +- Project\n   :     +- Scan\n   +- Filter2\n"
            "      +- Project\n         +- Scan\n");
}

TEST(ExplainTreeTest, DagWithTwoSinks) {
  ExplainGraph g;
  const ExplainNode* scan = g.Add("Scan");
  const ExplainNode* project = g.Add("Project", {scan});
  const ExplainNode* f1 = g.Add("Filter1", {project});
  const ExplainNode* f2 = g.Add("Filter2", {project});
  const ExplainNode* join = g.Add("Join", {f1, f2});
  const ExplainNode* sink1 = g.Add("Sink1", {g.Add("Filter3", {join})}, true);
  const ExplainNode* sink2 = g.Add("Sink2", {g.Add("Filter4", {join})}, true);
  // Every shared node is a block of its own before the blocks that use it.
  EXPECT_EQ(DagToString({sink1, sink2}),
            "Project(reuse_id=[1])\n"
            "+- Scan\n"
            "\n"
            "Join(reuse_id=[2])\n"
            ":- Filter1\n"
            ":  +- Reused(reference_id=[1])\n"
            "+- Filter2\n"
            "   +- Reused(reference_id=[1])\n"
            "\n"
            "Sink1\n"
            "+- Filter3\n"
            "   +- Reused(reference_id=[2])\n"
            "\n"
            "Sink2\n"
            "+- Filter4\n"
            "   +- Reused(reference_id=[2])\n");
}

TEST(ExplainTreeTest, DagWithoutSharingPrintsEachSink) {
  ExplainGraph g;
  const ExplainNode* s1 = g.Add("Sink1", {g.Add("A")}, true);
  const ExplainNode* s2 = g.Add("Sink2", {g.Add("B")}, true);
  EXPECT_EQ(DagToString({s1, s2}), "Sink1\n+- A\n\nSink2\n+- B\n");
}

}  // namespace
}  // namespace eddy::planner
