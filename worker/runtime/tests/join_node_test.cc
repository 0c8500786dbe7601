// Building a StreamingJoinOperator from a Join plan node: what the factory accepts, and that every
// malformed node is an error naming the node.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/expr/expr_proto.h"
#include "common/expr/function_registry.h"
#include "common/types/type_proto.h"
#include "worker/operators/streaming_join.h"
#include "worker/runtime/operator_factory.h"

namespace eddy {
namespace {

const std::vector<DataType> kLeft = {DataType::Int(), DataType::String()};
const std::vector<DataType> kRight = {DataType::Int(), DataType::BigInt()};

// LEFT OUTER JOIN on l.k = r.k, output (k, a, k0, b) with the right side nullable.
v1::PlanNode JoinNode() {
  v1::PlanNode n;
  n.set_id(7);
  n.add_inputs(1);
  n.add_inputs(2);
  n.set_description("Join(LEFT)");
  n.set_state_id(8);
  SchemaToProto(Schema{{{"k", DataType::Int()},
                        {"a", DataType::String()},
                        {"k0", DataType::Int()},
                        {"b", DataType::BigInt()}}},
                n.mutable_output_schema());
  v1::Join* j = n.mutable_join();
  j->set_type(v1::Join::LEFT_OUTER);
  j->add_left_keys(0);
  j->add_right_keys(0);
  return n;
}

absl::StatusOr<BuiltNode> Build(const v1::PlanNode& n,
                                std::vector<std::vector<DataType>> inputs = {kLeft, kRight}) {
  return BuildNode(n, inputs);
}

void ExpectRejected(const v1::PlanNode& n, const std::string& what,
                    std::vector<std::vector<DataType>> inputs = {kLeft, kRight}) {
  auto built = Build(n, std::move(inputs));
  ASSERT_FALSE(built.ok()) << what;
  EXPECT_EQ(built.status().code(), absl::StatusCode::kInvalidArgument) << what;
  EXPECT_NE(built.status().message().find("plan node 7 (Join(LEFT))"), std::string::npos)
      << built.status();
}

TEST(JoinNodeTest, BuildsTheOperatorFromTheNode) {
  v1::PlanNode n = JoinNode();
  n.mutable_join()->add_null_safe(true);
  n.mutable_join()->add_right_unique_key(1);
  n.mutable_join()->set_state_ttl_ms(60000);
  auto cond =
      MakeCall("<", {MakeColumnRef(0, DataType::Int()), MakeColumnRef(3, DataType::BigInt())});
  ASSERT_TRUE(cond.ok());
  ExprToProto(**cond, n.mutable_join()->mutable_condition());
  auto built = Build(n);
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<StreamingJoinOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->spec().type, StreamingJoinType::kLeftOuter);
  EXPECT_EQ(op->spec().null_safe, std::vector<bool>{true});
  EXPECT_EQ(op->spec().right_unique_key, std::vector<int>{1});
  EXPECT_EQ(op->spec().state_ttl_ms, 60000);
  EXPECT_NE(op->spec().condition, nullptr);
  ASSERT_EQ(op->output_types().size(), 4u);
  EXPECT_TRUE(op->output_types()[2].nullable);

  v1::PlanNode semi = JoinNode();
  semi.mutable_join()->set_type(v1::Join::SEMI);
  semi.clear_output_schema();
  SchemaToProto(Schema{{{"k", DataType::Int()}, {"a", DataType::String()}}},
                semi.mutable_output_schema());
  auto semi_built = Build(semi);
  EXPECT_TRUE(semi_built.ok()) << semi_built.status();
}

// The planner binds the ON condition over the join's row type (an outer join's padded side
// nullable); one bound over the inputs' own types is accepted too.
TEST(JoinNodeTest, AcceptsTheConditionBoundOverPaddedOrInputTypes) {
  const std::vector<DataType> left = {DataType::Int().WithNullable(false), DataType::String()};
  const std::vector<DataType> right = {DataType::Int().WithNullable(false),
                                       DataType::BigInt().WithNullable(false)};
  for (bool padded : {true, false}) {
    SCOPED_TRACE(padded);
    v1::PlanNode n = JoinNode();
    const DataType b = padded ? DataType::BigInt() : DataType::BigInt().WithNullable(false);
    auto cond =
        MakeCall(">", {MakeColumnRef(3, b), MakeLiteral(Value::Int(10), DataType::BigInt())});
    ASSERT_TRUE(cond.ok());
    EXPECT_EQ((*cond)->type.nullable, padded);
    ExprToProto(**cond, n.mutable_join()->mutable_condition());
    auto built = Build(n, {left, right});
    EXPECT_TRUE(built.ok()) << built.status();
  }
}

TEST(JoinNodeTest, RejectsMalformedNodes) {
  v1::PlanNode n = JoinNode();
  n.set_state_id(0);
  ExpectRejected(n, "no state id");

  ExpectRejected(JoinNode(), "one input", {kLeft});

  n = JoinNode();
  n.mutable_join()->set_type(v1::Join::TYPE_UNSPECIFIED);
  ExpectRejected(n, "no type");

  n = JoinNode();
  n.mutable_join()->add_left_keys(1);
  ExpectRejected(n, "key counts differ");

  n = JoinNode();
  n.mutable_join()->set_right_keys(0, 1);
  ExpectRejected(n, "INT key against a BIGINT key");

  n = JoinNode();
  n.mutable_join()->set_left_keys(0, 9);
  ExpectRejected(n, "key out of range");

  n = JoinNode();
  n.mutable_join()->add_left_unique_key(2);
  ExpectRejected(n, "unique key out of range");

  n = JoinNode();
  n.mutable_join()->add_null_safe(true);
  n.mutable_join()->add_null_safe(true);
  ExpectRejected(n, "more null_safe flags than keys");

  n = JoinNode();
  ExprToProto(*MakeColumnRef(3, DataType::BigInt()), n.mutable_join()->mutable_condition());
  ExpectRejected(n, "condition not BOOLEAN");

  n = JoinNode();
  ExprToProto(*MakeColumnRef(4, DataType::Boolean()), n.mutable_join()->mutable_condition());
  ExpectRejected(n, "condition column out of range");

  n = JoinNode();
  n.mutable_join()->set_state_ttl_ms(-1);
  ExpectRejected(n, "negative TTL");

  n = JoinNode();
  n.mutable_join()->set_type(v1::Join::ANTI);
  ExpectRejected(n, "ANTI emits only the left columns");
}

}  // namespace
}  // namespace eddy
