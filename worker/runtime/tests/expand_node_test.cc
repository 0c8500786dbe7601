// Building an ExpandOperator from an Expand plan node: what the factory accepts, and that every
// malformed node is an error naming the node and what is wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/types/type_proto.h"
#include "worker/operators/expand_operator.h"
#include "worker/runtime/operator_factory.h"
#include "worker/runtime/tests/node_test_util.h"

namespace eddy {
namespace {

// (a STRING NOT NULL, b INT)
const std::vector<DataType> kInput = {DataType::String().WithNullable(false), DataType::Int()};

// ROLLUP (a, b): {a, b, 0 AS $e}, {a, null AS b, 1 AS $e}, {null AS a, null AS b, 3 AS $e}.
v1::PlanNode ExpandNode() {
  v1::PlanNode n;
  n.set_id(4);
  n.add_inputs(3);
  n.set_description("Expand(projects=[...])");
  SchemaToProto(Schema{{{"a", DataType::String()},
                        {"b", DataType::Int()},
                        {"$e", DataType::BigInt().WithNullable(false)}}},
                n.mutable_output_schema());
  v1::Expand* e = n.mutable_expand();
  e->set_expand_id_column(2);
  const std::vector<std::pair<std::vector<int>, int64_t>> projections = {
      {{0, 1, -1}, 0}, {{0, -1, -1}, 1}, {{-1, -1, -1}, 3}};
  for (const auto& [columns, id] : projections) {
    v1::Expand::Projection* p = e->add_projections();
    for (int c : columns) p->add_columns(c);
    p->set_expand_id(id);
  }
  return n;
}

void ExpectRejected(const v1::PlanNode& n, const std::string& what,
                    std::vector<std::vector<DataType>> inputs = {kInput}) {
  testing::ExpectNodeRejected(n, what, inputs);
}

TEST(ExpandNodeTest, BuildsTheExpandOperatorFromTheNode) {
  auto built = BuildNode(ExpandNode(), {kInput});
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<ExpandOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->output_types().size(), 3u);
}

TEST(ExpandNodeTest, RejectsMalformedExpandNodes) {
  ExpectRejected(ExpandNode(), "expects one input", {kInput, kInput});

  v1::PlanNode n = ExpandNode();
  n.mutable_expand()->clear_projections();
  ExpectRejected(n, "Expand: no projections");

  n = ExpandNode();
  n.mutable_expand()->set_expand_id_column(3);
  ExpectRejected(n, "expand id column 3 out of range");

  n = ExpandNode();
  n.mutable_expand()->mutable_projections(1)->add_columns(0);
  ExpectRejected(n, "projection 1 has 4 columns, projection 0 has 3");

  n = ExpandNode();
  n.mutable_expand()->mutable_projections(2)->set_expand_id(0);
  ExpectRejected(n, "expand id 0 is not unique");

  n = ExpandNode();
  n.mutable_expand()->mutable_projections(0)->set_columns(1, 2);
  ExpectRejected(n, "projection 0 column 1 reads input column 2 out of range");

  n = ExpandNode();
  n.mutable_expand()->mutable_projections(0)->set_columns(0, 1);
  ExpectRejected(n, "column 0 is INT in one projection and STRING in projection 1");

  // The planner's schema must be what the projections produce (`a` becomes nullable).
  n = ExpandNode();
  SchemaToProto(Schema{{{"a", DataType::String().WithNullable(false)},
                        {"b", DataType::Int()},
                        {"$e", DataType::BigInt().WithNullable(false)}}},
                n.mutable_output_schema());
  ExpectRejected(n, "output schema differs");
}

}  // namespace
}  // namespace eddy
