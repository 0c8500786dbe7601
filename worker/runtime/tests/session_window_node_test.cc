// Building a SessionWindowAggregateOperator from a SessionWindowAggregate plan node: what the
// factory accepts, and that every malformed node is an error naming the node and what is wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/types/type_proto.h"
#include "worker/operators/session_window_aggregate.h"
#include "worker/runtime/operator_factory.h"
#include "worker/runtime/tests/node_test_util.h"

namespace eddy {
namespace {

// (user STRING, amount BIGINT, ts TIMESTAMP(3))
const std::vector<DataType> kInput = {DataType::String(), DataType::BigInt(),
                                      DataType::Timestamp(3)};

// SELECT user, COUNT(*), SUM(amount), window_start, window_end
// FROM TABLE(SESSION(TABLE t PARTITION BY user, DESCRIPTOR(ts), INTERVAL '5' MINUTES)) GROUP BY ...
v1::PlanNode SessionNode() {
  v1::PlanNode n;
  n.set_id(7);
  n.add_inputs(1);
  n.set_description("SessionWindowAggregate(5 min)");
  n.set_state_id(8);
  SchemaToProto(Schema{{{"user", DataType::String()},
                        {"cnt", DataType::BigInt().WithNullable(false)},
                        {"total", DataType::BigInt()},
                        {"window_start", DataType::Timestamp(3).WithNullable(false)},
                        {"window_end", DataType::Timestamp(3).WithNullable(false)}}},
                n.mutable_output_schema());
  v1::SessionWindowAggregate* s = n.mutable_session_window_aggregate();
  s->add_group_keys(0);
  v1::AggregateCall* count = s->add_calls();
  count->set_function("COUNT");
  count->set_count_star(true);
  TypeToProto(DataType::BigInt().WithNullable(false), count->mutable_result_type());
  v1::AggregateCall* sum = s->add_calls();
  sum->set_function("SUM");
  sum->set_arg(1);
  TypeToProto(DataType::BigInt(), sum->mutable_result_type());
  s->set_time_column(2);
  s->set_gap_ms(300000);
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

TEST(SessionWindowNodeTest, BuildsTheOperatorFromTheNode) {
  auto built = Build(SessionNode());
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<SessionWindowAggregateOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->spec().group_keys, std::vector<int>{0});
  ASSERT_EQ(op->spec().aggregates.size(), 2u);
  EXPECT_EQ(op->spec().aggregates[0].kind, AggKind::kCountStar);
  EXPECT_EQ(op->spec().aggregates[1].kind, AggKind::kSum);
  EXPECT_EQ(op->spec().aggregates[1].arg, 1);
  EXPECT_EQ(op->spec().time_column, 2);
  EXPECT_EQ(op->spec().gap_ms, 300000);
  EXPECT_EQ(op->output_types().size(), 5u);
}

TEST(SessionWindowNodeTest, RejectsMalformedNodes) {
  v1::PlanNode n = SessionNode();
  n.set_state_id(0);
  ExpectRejected(n, "no state id");

  ExpectRejected(SessionNode(), "expects one input", {kInput, kInput});

  n = SessionNode();
  n.mutable_session_window_aggregate()->set_gap_ms(0);
  ExpectRejected(n, "the gap must be positive, got 0");

  n = SessionNode();
  n.mutable_session_window_aggregate()->set_gap_ms(-5);
  ExpectRejected(n, "the gap must be positive, got -5");

  n = SessionNode();
  n.mutable_session_window_aggregate()->set_time_column(3);
  ExpectRejected(n, "the time column must be a TIMESTAMP input");

  n = SessionNode();
  n.mutable_session_window_aggregate()->set_time_column(1);  // BIGINT
  ExpectRejected(n, "the time column must be a TIMESTAMP input");

  n = SessionNode();
  n.mutable_session_window_aggregate()->set_group_keys(0, 5);
  ExpectRejected(n, "SessionWindowAggregate: group key column 5 out of range");

  n = SessionNode();
  n.mutable_session_window_aggregate()->mutable_calls(1)->set_arg(9);
  ExpectRejected(n, "SessionWindowAggregate: aggregate argument 9 out of range");

  n = SessionNode();
  n.mutable_session_window_aggregate()->mutable_calls(1)->set_function("MEDIAN");
  ExpectRejected(n, "MEDIAN");

  n = SessionNode();  // SUM(BIGINT) is BIGINT, not INT
  TypeToProto(DataType::Int(),
              n.mutable_session_window_aggregate()->mutable_calls(1)->mutable_result_type());
  ExpectRejected(n, "result type");

  n = SessionNode();  // the declared schema lacks window_end
  n.mutable_output_schema()->mutable_fields()->RemoveLast();
  ExpectRejected(n, "SessionWindowAggregate: output schema");
}

TEST(SessionWindowNodeTest, ReadsListAggSeparatorsAndRefusesThemElsewhere) {
  v1::PlanNode n = SessionNode();
  n.clear_output_schema();
  SchemaToProto(Schema{{{"user", DataType::String()},
                        {"cnt", DataType::BigInt().WithNullable(false)},
                        {"total", DataType::BigInt()},
                        {"users", DataType::String()},
                        {"window_start", DataType::Timestamp(3).WithNullable(false)},
                        {"window_end", DataType::Timestamp(3).WithNullable(false)}}},
                n.mutable_output_schema());
  v1::AggregateCall* listagg = n.mutable_session_window_aggregate()->add_calls();
  listagg->set_function("LISTAGG");
  listagg->set_arg(0);
  listagg->set_separator("");  // an empty separator is one too
  TypeToProto(DataType::String(), listagg->mutable_result_type());
  auto built = Build(n);
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<SessionWindowAggregateOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  ASSERT_EQ(op->spec().aggregates.size(), 3u);
  EXPECT_EQ(op->spec().aggregates[2].kind, AggKind::kListAgg);
  EXPECT_EQ(op->spec().aggregates[2].separator, "");

  n = SessionNode();
  n.mutable_session_window_aggregate()->mutable_calls(1)->set_separator(",");
  ExpectRejected(n, "aggregate call SUM has a separator; only LISTAGG takes one");
}

}  // namespace
}  // namespace eddy
