// Building an IntervalJoinOperator from an IntervalJoin plan node: what the factory accepts, and
// that every malformed node is an error naming the node.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/expr/expr_proto.h"
#include "common/expr/function_registry.h"
#include "common/types/type_proto.h"
#include "worker/operators/interval_join.h"
#include "worker/runtime/operator_factory.h"

namespace eddy {
namespace {

const std::vector<DataType> kLeft = {DataType::Int(), DataType::Timestamp(3), DataType::String()};
const std::vector<DataType> kRight = {DataType::Int(), DataType::Timestamp(3), DataType::BigInt()};

// LEFT OUTER interval join on l.k = r.k AND l.lt BETWEEN r.rt - 10 ms AND r.rt + 5 ms, output
// (k, lt, a, k0, rt, b) with the right side nullable.
v1::PlanNode IntervalJoinNode() {
  v1::PlanNode n;
  n.set_id(7);
  n.add_inputs(1);
  n.add_inputs(2);
  n.set_description("IntervalJoin(LEFT)");
  n.set_state_id(8);
  SchemaToProto(Schema{{{"k", DataType::Int()},
                        {"lt", DataType::Timestamp(3)},
                        {"a", DataType::String()},
                        {"k0", DataType::Int()},
                        {"rt", DataType::Timestamp(3)},
                        {"b", DataType::BigInt()}}},
                n.mutable_output_schema());
  v1::IntervalJoin* j = n.mutable_interval_join();
  j->set_type(v1::Join::LEFT_OUTER);
  j->add_left_keys(0);
  j->add_right_keys(0);
  j->set_left_time(1);
  j->set_right_time(1);
  j->set_lower_bound_ms(-10);
  j->set_upper_bound_ms(5);
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
  EXPECT_NE(built.status().message().find("plan node 7 (IntervalJoin(LEFT))"), std::string::npos)
      << built.status();
}

TEST(IntervalJoinNodeTest, BuildsTheOperatorFromTheNode) {
  v1::PlanNode n = IntervalJoinNode();
  auto cond =
      MakeCall("<", {MakeColumnRef(0, DataType::Int()), MakeColumnRef(5, DataType::BigInt())});
  ASSERT_TRUE(cond.ok());
  ExprToProto(**cond, n.mutable_interval_join()->mutable_condition());
  auto built = Build(n);
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<IntervalJoinOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->spec().type, StreamingJoinType::kLeftOuter);
  EXPECT_EQ(op->spec().left_keys, std::vector<int>{0});
  EXPECT_EQ(op->spec().right_keys, std::vector<int>{0});
  EXPECT_EQ(op->spec().left_time, 1);
  EXPECT_EQ(op->spec().right_time, 1);
  EXPECT_EQ(op->spec().lower_bound_ms, -10);
  EXPECT_EQ(op->spec().upper_bound_ms, 5);
  EXPECT_EQ(op->output_delay_ms(), 10);
  EXPECT_NE(op->spec().condition, nullptr);
  ASSERT_EQ(op->output_types().size(), 6u);
  EXPECT_TRUE(op->output_types()[3].nullable);

  // Every outer type, and no equi key at all (one subtask holds every row).
  for (v1::Join::Type type : {v1::Join::INNER, v1::Join::RIGHT_OUTER, v1::Join::FULL_OUTER}) {
    v1::PlanNode other = IntervalJoinNode();
    other.mutable_interval_join()->set_type(type);
    EXPECT_TRUE(Build(other).ok()) << v1::Join::Type_Name(type);
  }
  v1::PlanNode keyless = IntervalJoinNode();
  keyless.mutable_interval_join()->clear_left_keys();
  keyless.mutable_interval_join()->clear_right_keys();
  EXPECT_TRUE(Build(keyless).ok());
}

// The planner binds the condition over the join's row type (an outer join's padded side
// nullable); one bound over the inputs' own types is accepted too.
TEST(IntervalJoinNodeTest, AcceptsTheConditionBoundOverPaddedOrInputTypes) {
  const std::vector<DataType> right = {DataType::Int(), DataType::Timestamp(3),
                                       DataType::BigInt().WithNullable(false)};
  for (bool padded : {true, false}) {
    SCOPED_TRACE(padded);
    v1::PlanNode n = IntervalJoinNode();
    const DataType b = padded ? DataType::BigInt() : DataType::BigInt().WithNullable(false);
    auto cond =
        MakeCall(">", {MakeColumnRef(5, b), MakeLiteral(Value::Int(10), DataType::BigInt())});
    ASSERT_TRUE(cond.ok());
    ExprToProto(**cond, n.mutable_interval_join()->mutable_condition());
    auto built = Build(n, {kLeft, right});
    EXPECT_TRUE(built.ok()) << built.status();
  }
}

TEST(IntervalJoinNodeTest, RejectsMalformedNodes) {
  v1::PlanNode n = IntervalJoinNode();
  n.set_state_id(0);
  ExpectRejected(n, "no state id");

  ExpectRejected(IntervalJoinNode(), "one input", {kLeft});

  for (v1::Join::Type type : {v1::Join::TYPE_UNSPECIFIED, v1::Join::SEMI, v1::Join::ANTI}) {
    n = IntervalJoinNode();
    n.mutable_interval_join()->set_type(type);
    ExpectRejected(n, v1::Join::Type_Name(type));
  }

  n = IntervalJoinNode();
  n.mutable_interval_join()->add_left_keys(2);
  ExpectRejected(n, "key counts differ");

  n = IntervalJoinNode();
  n.mutable_interval_join()->set_right_keys(0, 2);
  ExpectRejected(n, "INT key against a BIGINT key");

  n = IntervalJoinNode();
  n.mutable_interval_join()->set_left_keys(0, 9);
  ExpectRejected(n, "key out of range");

  n = IntervalJoinNode();
  n.mutable_interval_join()->set_left_time(3);
  ExpectRejected(n, "left time column out of range");

  n = IntervalJoinNode();
  n.mutable_interval_join()->set_right_time(-1);
  ExpectRejected(n, "right time column out of range");

  n = IntervalJoinNode();
  n.mutable_interval_join()->set_right_time(2);
  ExpectRejected(n, "right time column is BIGINT");

  n = IntervalJoinNode();
  ExpectRejected(n, "time column is TIMESTAMP(6)",
                 {{DataType::Int(), DataType::Timestamp(6), DataType::String()}, kRight});

  n = IntervalJoinNode();
  n.mutable_interval_join()->set_lower_bound_ms(6);
  ExpectRejected(n, "lower bound above the upper bound");

  n = IntervalJoinNode();
  ExprToProto(*MakeColumnRef(5, DataType::BigInt()),
              n.mutable_interval_join()->mutable_condition());
  ExpectRejected(n, "condition not BOOLEAN");

  n = IntervalJoinNode();
  ExprToProto(*MakeColumnRef(6, DataType::Boolean()),
              n.mutable_interval_join()->mutable_condition());
  ExpectRejected(n, "condition column out of range");

  n = IntervalJoinNode();
  ExpectRejected(n, "the schema says BIGINT where the right input has INT",
                 {kLeft, {DataType::Int(), DataType::Timestamp(3), DataType::Int()}});

  n = IntervalJoinNode();
  n.clear_output_schema();
  SchemaToProto(Schema{{{"k", DataType::Int()}}}, n.mutable_output_schema());
  ExpectRejected(n, "output schema of another width");
}

}  // namespace
}  // namespace eddy
