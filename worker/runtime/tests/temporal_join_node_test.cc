// Building a TemporalJoinOperator from a TemporalJoin plan node: what the factory accepts (event
// and processing time), and that every malformed node is an error naming the node.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/expr/expr_proto.h"
#include "common/expr/function_registry.h"
#include "common/types/type_proto.h"
#include "worker/operators/temporal_join.h"
#include "worker/runtime/operator_factory.h"

namespace eddy {
namespace {

const std::vector<DataType> kLeft = {DataType::String(), DataType::Timestamp(3),
                                     DataType::BigInt()};
const std::vector<DataType> kRight = {DataType::String(), DataType::Timestamp(3),
                                      DataType::BigInt()};

// Orders LEFT JOIN rates FOR SYSTEM_TIME AS OF o.ot ON o.currency = r.currency, output
// (currency, ot, amount, currency0, rt, rate) with the right side nullable.
v1::PlanNode TemporalJoinNode() {
  v1::PlanNode n;
  n.set_id(7);
  n.add_inputs(1);
  n.add_inputs(2);
  n.set_description("TemporalJoin(LEFT)");
  n.set_state_id(8);
  SchemaToProto(Schema{{{"currency", DataType::String()},
                        {"ot", DataType::Timestamp(3)},
                        {"amount", DataType::BigInt()},
                        {"currency0", DataType::String()},
                        {"rt", DataType::Timestamp(3)},
                        {"rate", DataType::BigInt()}}},
                n.mutable_output_schema());
  v1::TemporalJoin* j = n.mutable_temporal_join();
  j->set_type(v1::Join::LEFT_OUTER);
  j->add_left_keys(0);
  j->add_right_keys(0);
  j->set_left_time(1);
  j->set_right_time(1);
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
  EXPECT_NE(built.status().message().find("plan node 7 (TemporalJoin(LEFT))"), std::string::npos)
      << built.status();
}

TEST(TemporalJoinNodeTest, BuildsTheOperatorFromTheNode) {
  v1::PlanNode n = TemporalJoinNode();
  auto cond =
      MakeCall("<", {MakeColumnRef(2, DataType::BigInt()), MakeColumnRef(5, DataType::BigInt())});
  ASSERT_TRUE(cond.ok());
  ExprToProto(**cond, n.mutable_temporal_join()->mutable_condition());
  auto built = Build(n);
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<TemporalJoinOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->spec().type, StreamingJoinType::kLeftOuter);
  EXPECT_EQ(op->spec().left_keys, std::vector<int>{0});
  EXPECT_EQ(op->spec().right_keys, std::vector<int>{0});
  EXPECT_EQ(op->spec().left_time, 1);
  EXPECT_EQ(op->spec().right_time, 1);
  EXPECT_TRUE(op->event_time());
  EXPECT_NE(op->spec().condition, nullptr);
  ASSERT_EQ(op->output_types().size(), 6u);
  EXPECT_TRUE(op->output_types()[3].nullable);

  v1::PlanNode inner = TemporalJoinNode();
  inner.mutable_temporal_join()->set_type(v1::Join::INNER);
  EXPECT_TRUE(Build(inner).ok());

  // Processing time: both time columns -1.
  v1::PlanNode proctime = TemporalJoinNode();
  proctime.mutable_temporal_join()->set_left_time(-1);
  proctime.mutable_temporal_join()->set_right_time(-1);
  auto proctime_built = Build(proctime);
  ASSERT_TRUE(proctime_built.ok()) << proctime_built.status();
  auto* proctime_op = dynamic_cast<TemporalJoinOperator*>(proctime_built->op.get());
  ASSERT_NE(proctime_op, nullptr);
  EXPECT_FALSE(proctime_op->event_time());
  // ... which needs no time column.
  const std::vector<DataType> untimed = {DataType::String(), DataType::BigInt(),
                                         DataType::BigInt()};
  proctime.clear_output_schema();
  SchemaToProto(Schema{{{"currency", DataType::String()},
                        {"x", DataType::BigInt()},
                        {"amount", DataType::BigInt()},
                        {"currency0", DataType::String()},
                        {"x0", DataType::BigInt()},
                        {"rate", DataType::BigInt()}}},
                proctime.mutable_output_schema());
  EXPECT_TRUE(Build(proctime, {untimed, untimed}).ok());
}

// The planner binds the condition over the join's row type (the padded right side nullable); one
// bound over the inputs' own types is accepted too.
TEST(TemporalJoinNodeTest, AcceptsTheConditionBoundOverPaddedOrInputTypes) {
  const std::vector<DataType> right = {DataType::String(), DataType::Timestamp(3),
                                       DataType::BigInt().WithNullable(false)};
  for (bool padded : {true, false}) {
    SCOPED_TRACE(padded);
    v1::PlanNode n = TemporalJoinNode();
    const DataType rate = padded ? DataType::BigInt() : DataType::BigInt().WithNullable(false);
    auto cond =
        MakeCall(">", {MakeColumnRef(5, rate), MakeLiteral(Value::Int(10), DataType::BigInt())});
    ASSERT_TRUE(cond.ok());
    ExprToProto(**cond, n.mutable_temporal_join()->mutable_condition());
    auto built = Build(n, {kLeft, right});
    EXPECT_TRUE(built.ok()) << built.status();
  }
}

TEST(TemporalJoinNodeTest, RejectsMalformedNodes) {
  v1::PlanNode n = TemporalJoinNode();
  n.set_state_id(0);
  ExpectRejected(n, "no state id");

  ExpectRejected(TemporalJoinNode(), "one input", {kLeft});
  ExpectRejected(TemporalJoinNode(), "three inputs", {kLeft, kRight, kRight});

  for (v1::Join::Type type : {v1::Join::TYPE_UNSPECIFIED, v1::Join::RIGHT_OUTER,
                              v1::Join::FULL_OUTER, v1::Join::SEMI, v1::Join::ANTI}) {
    n = TemporalJoinNode();
    n.mutable_temporal_join()->set_type(type);
    ExpectRejected(n, v1::Join::Type_Name(type));
  }

  n = TemporalJoinNode();
  n.mutable_temporal_join()->add_left_keys(2);
  ExpectRejected(n, "key counts differ");

  n = TemporalJoinNode();
  n.mutable_temporal_join()->clear_left_keys();
  n.mutable_temporal_join()->clear_right_keys();
  ExpectRejected(n, "no equi-join key");

  n = TemporalJoinNode();
  n.mutable_temporal_join()->set_right_keys(0, 2);
  ExpectRejected(n, "STRING key against a BIGINT key");

  n = TemporalJoinNode();
  n.mutable_temporal_join()->set_left_keys(0, 9);
  ExpectRejected(n, "key out of range");

  n = TemporalJoinNode();
  n.mutable_temporal_join()->set_right_time(-1);
  ExpectRejected(n, "one time column set, the other -1");

  n = TemporalJoinNode();
  n.mutable_temporal_join()->set_left_time(3);
  ExpectRejected(n, "left time column out of range");

  n = TemporalJoinNode();
  n.mutable_temporal_join()->set_left_time(-2);
  n.mutable_temporal_join()->set_right_time(-2);
  ExpectRejected(n, "time columns -2");

  n = TemporalJoinNode();
  n.mutable_temporal_join()->set_right_time(2);
  ExpectRejected(n, "right time column is BIGINT");

  n = TemporalJoinNode();
  ExpectRejected(n, "time column is TIMESTAMP(6)",
                 {{DataType::String(), DataType::Timestamp(6), DataType::BigInt()}, kRight});

  n = TemporalJoinNode();
  ExprToProto(*MakeColumnRef(5, DataType::BigInt()),
              n.mutable_temporal_join()->mutable_condition());
  ExpectRejected(n, "condition not BOOLEAN");

  n = TemporalJoinNode();
  ExprToProto(*MakeColumnRef(6, DataType::Boolean()),
              n.mutable_temporal_join()->mutable_condition());
  ExpectRejected(n, "condition column out of range");

  n = TemporalJoinNode();
  ExpectRejected(n, "the schema says BIGINT where the right input has INT",
                 {kLeft, {DataType::String(), DataType::Timestamp(3), DataType::Int()}});

  n = TemporalJoinNode();
  n.clear_output_schema();
  SchemaToProto(Schema{{{"currency", DataType::String()}}}, n.mutable_output_schema());
  ExpectRejected(n, "output schema of another width");
}

}  // namespace
}  // namespace eddy
