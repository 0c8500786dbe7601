// Building an OverAggregateOperator from an OverAggregate plan node: what the factory accepts (and
// that the built operator computes the frame the node describes), and that every malformed node is
// an error naming the node and what is wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/types/type_proto.h"
#include "worker/operators/over_aggregate.h"
#include "worker/operators/processing_time_operator.h"
#include "worker/operators/testing/event_log.h"
#include "worker/runtime/operator_factory.h"
#include "worker/runtime/tests/node_test_util.h"
#include "worker/state/testing/temp_state_backend.h"

namespace eddy {
namespace {

// (p STRING, v BIGINT, ts TIMESTAMP(3))
const std::vector<DataType> kInput = {DataType::String(), DataType::BigInt(),
                                      DataType::Timestamp(3)};

void AddCall(v1::OverAggregate* over, const std::string& function, int arg, DataType result) {
  v1::AggregateCall* c = over->add_calls();
  c->set_function(function);
  c->set_count_star(arg < 0);
  c->set_arg(arg);
  if (arg >= 0) TypeToProto(kInput[arg], c->mutable_arg_type());
  TypeToProto(result, c->mutable_result_type());
}

// COUNT(*), SUM(v) OVER (PARTITION BY p ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW).
v1::PlanNode OverNode() {
  v1::PlanNode n;
  n.set_id(7);
  n.add_inputs(1);
  n.set_description("OverAggregate(rows 1)");
  n.set_state_id(8);
  SchemaToProto(Schema{{{"p", DataType::String()},
                        {"v", DataType::BigInt()},
                        {"ts", DataType::Timestamp(3)},
                        {"c", DataType::BigInt().WithNullable(false)},
                        {"s", DataType::BigInt()}}},
                n.mutable_output_schema());
  v1::OverAggregate* o = n.mutable_over_aggregate();
  o->add_partition_keys(0);
  o->set_time_column(2);
  o->set_frame(v1::OverAggregate::ROWS);
  o->set_preceding(1);
  AddCall(o, "COUNT", -1, DataType::BigInt().WithNullable(false));
  AddCall(o, "SUM", 1, DataType::BigInt());
  o->set_state_ttl_ms(60000);
  return n;
}

absl::StatusOr<BuiltNode> Build(const v1::PlanNode& n,
                                std::vector<std::vector<DataType>> inputs = {kInput}) {
  return BuildNode(n, inputs);
}

void ExpectRejected(const v1::PlanNode& n, const std::string& what,
                    std::vector<std::vector<DataType>> inputs = {kInput}) {
  testing::ExpectNodeRejected(n, what, inputs);
}

TEST(OverAggregateNodeTest, BuildsTheOperatorFromTheNode) {
  auto built = Build(OverNode());
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<OverAggregateOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->spec().partition_keys, std::vector<int>{0});
  EXPECT_EQ(op->spec().time_column, 2);
  EXPECT_EQ(op->spec().frame, OverFrame::kRows);
  EXPECT_EQ(op->spec().preceding, 1);
  EXPECT_EQ(op->spec().state_ttl_ms, 60000);
  ASSERT_EQ(op->spec().calls.size(), 2u);
  EXPECT_EQ(op->spec().calls[0].kind, AggKind::kCountStar);
  EXPECT_EQ(op->spec().calls[1].kind, AggKind::kSum);
  EXPECT_EQ(op->spec().calls[1].arg, 1);
  ASSERT_EQ(op->output_types().size(), 5u);

  // It computes the node's frame: each row and the one before it.
  testing::TempStateBackend state("over_aggregate_node_test");
  ASSERT_TRUE(state.status().ok()) << state.status();
  OperatorContext ctx;
  ctx.state_id = 8;
  ctx.state = state.get();
  ASSERT_TRUE(op->Open(ctx).ok());
  testing::EventLog out;
  op->set_output(&out);
  ChangelogBatch batch(kInput);
  for (int64_t i = 1; i <= 3; ++i) {
    batch.AppendValues({Value::String("a"), Value::Int(i), Value::Int(i * 1000)}, RowKind::kInsert);
  }
  ASSERT_TRUE(op->Process(0, batch).ok());
  ASSERT_TRUE(op->ProcessWatermark(Watermark{5000, false}).ok());
  EXPECT_EQ(out.Take(), (std::vector<std::string>{"+I[a, 1, 1000, 1, 1]", "+I[a, 2, 2000, 2, 3]",
                                                  "+I[a, 3, 3000, 2, 5]", "W5000"}));
  ASSERT_TRUE(op->Close().ok());

  // RANGE, unbounded, with 0 preceding rows (only the current row), without partition keys.
  for (auto [frame, preceding] :
       std::vector<std::pair<v1::OverAggregate::Frame, int64_t>>{{v1::OverAggregate::RANGE, 1000},
                                                                 {v1::OverAggregate::RANGE, -1},
                                                                 {v1::OverAggregate::ROWS, 0},
                                                                 {v1::OverAggregate::ROWS, -1}}) {
    v1::PlanNode n = OverNode();
    n.mutable_over_aggregate()->set_frame(frame);
    n.mutable_over_aggregate()->set_preceding(preceding);
    n.mutable_over_aggregate()->clear_partition_keys();
    auto other = Build(n);
    ASSERT_TRUE(other.ok()) << other.status();
    auto* other_op = dynamic_cast<OverAggregateOperator*>(other->op.get());
    ASSERT_NE(other_op, nullptr);
    EXPECT_EQ(other_op->spec().frame,
              frame == v1::OverAggregate::ROWS ? OverFrame::kRows : OverFrame::kRange);
    EXPECT_EQ(other_op->spec().preceding, preceding);
    EXPECT_TRUE(other_op->spec().partition_keys.empty());
  }
}

TEST(OverAggregateNodeTest, RejectsMalformedNodes) {
  v1::PlanNode n = OverNode();
  n.set_state_id(0);
  ExpectRejected(n, "no state id");

  ExpectRejected(OverNode(), "expects one input", {kInput, kInput});

  n = OverNode();
  n.mutable_over_aggregate()->set_frame(v1::OverAggregate::FRAME_UNSPECIFIED);
  ExpectRejected(n, "OverAggregate: unspecified or unknown frame");

  n = OverNode();
  n.mutable_over_aggregate()->set_preceding(-2);
  ExpectRejected(n, "OverAggregate: preceding -2 is negative");

  n = OverNode();
  n.mutable_over_aggregate()->set_partition_keys(0, 3);
  ExpectRejected(n, "OverAggregate: partition key column 3 out of range");

  n = OverNode();
  n.mutable_over_aggregate()->set_time_column(3);
  ExpectRejected(n, "OverAggregate: time column 3 out of range");

  n = OverNode();
  n.mutable_over_aggregate()->set_time_column(1);
  ExpectRejected(n, "OverAggregate: the time column 1 is BIGINT, not a TIMESTAMP(3) rowtime");

  n = OverNode();
  n.mutable_over_aggregate()->mutable_calls(1)->set_arg(5);
  ExpectRejected(n, "OverAggregate: aggregate argument 5 out of range");

  n = OverNode();
  n.mutable_over_aggregate()->mutable_calls(1)->set_function("STDDEV");
  ExpectRejected(n, "OverAggregate: Unknown aggregate function 'STDDEV'");

  n = OverNode();
  TypeToProto(DataType::Double(),
              n.mutable_over_aggregate()->mutable_calls(1)->mutable_result_type());
  ExpectRejected(n, "result type DOUBLE, expected BIGINT");

  n = OverNode();
  n.mutable_over_aggregate()->set_state_ttl_ms(-1);
  ExpectRejected(n, "OverAggregate: negative state TTL");

  // The planner's schema must be what the operator emits: the input columns, then the calls.
  n = OverNode();
  n.mutable_output_schema()->mutable_fields()->RemoveLast();
  ExpectRejected(n, "OverAggregate: output schema");
}

TEST(OverAggregateNodeTest, ProcessingTimeWrapsTheOperatorWithItsTimeColumn) {
  v1::PlanNode n = OverNode();
  n.mutable_processing_time()->add_time_columns(2);
  auto built = Build(n);
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<ProcessingTimeOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  EXPECT_NE(dynamic_cast<OverAggregateOperator*>(op->inner()), nullptr);

  n.mutable_processing_time()->set_time_columns(0, 1);
  ExpectRejected(n, "processing time column 1 of input 0 is not a TIMESTAMP column");
  n.mutable_processing_time()->set_time_columns(0, 3);
  ExpectRejected(n, "processing time column 3 of input 0 is not a TIMESTAMP column");
  n.mutable_processing_time()->add_time_columns(2);
  ExpectRejected(n, "processing time names 2 time columns for 1 inputs");

  // Only operators with timers run in processing time.
  v1::PlanNode calc;
  calc.set_id(4);
  calc.set_description("Calc(select=[p])");
  calc.add_inputs(1);
  SchemaToProto(Schema{{{"p", DataType::String()}}}, calc.mutable_output_schema());
  calc.mutable_calc();
  calc.mutable_processing_time()->add_time_columns(2);
  ExpectRejected(calc, "this node cannot run in processing time");
}

}  // namespace
}  // namespace eddy
