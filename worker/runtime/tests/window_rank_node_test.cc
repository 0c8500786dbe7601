// Building a WindowRankOperator from a WindowRank plan node: what the factory accepts, and that
// every malformed node is an error naming the node and what is wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/types/type_proto.h"
#include "worker/operators/window_rank_operator.h"
#include "worker/runtime/operator_factory.h"
#include "worker/runtime/tests/node_test_util.h"

namespace eddy {
namespace {

// (p STRING, score BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3))
const std::vector<DataType> kInput = {DataType::String(), DataType::BigInt(),
                                      DataType::Timestamp(3), DataType::Timestamp(3)};

// Top 3 by score DESC per p and window, with the row number.
v1::PlanNode WindowRankNode() {
  v1::PlanNode n;
  n.set_id(7);
  n.add_inputs(1);
  n.set_description("WindowRank(top 3)");
  n.set_state_id(8);
  SchemaToProto(Schema{{{"p", DataType::String()},
                        {"score", DataType::BigInt()},
                        {"window_start", DataType::Timestamp(3)},
                        {"window_end", DataType::Timestamp(3)},
                        {"rn", DataType::BigInt().WithNullable(false)}}},
                n.mutable_output_schema());
  v1::WindowRank* r = n.mutable_window_rank();
  r->add_partition_keys(0);
  v1::SortField* f = r->add_order_by();
  f->set_column(1);
  f->set_descending(true);
  f->set_nulls_first(true);
  r->set_rank_start(2);
  r->set_rank_end(3);
  r->set_output_rank_number(true);
  r->set_window_start_column(2);
  r->set_window_end_column(3);
  r->set_later_ties_first(true);
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

TEST(WindowRankNodeTest, BuildsTheWindowRankOperatorFromTheNode) {
  auto built = Build(WindowRankNode());
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<WindowRankOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->spec().partition_keys, std::vector<int>{0});
  ASSERT_EQ(op->spec().order_by.size(), 1u);
  EXPECT_EQ(op->spec().order_by[0].column, 1);
  EXPECT_TRUE(op->spec().order_by[0].descending);
  EXPECT_TRUE(op->spec().order_by[0].nulls_first);
  EXPECT_EQ(op->spec().rank_start, 2);
  EXPECT_EQ(op->spec().rank_end, 3);
  EXPECT_TRUE(op->spec().output_rank_number);
  EXPECT_EQ(op->spec().window_start_column, 2);
  EXPECT_EQ(op->spec().window_end_column, 3);
  EXPECT_TRUE(op->spec().later_ties_first);
  ASSERT_EQ(op->output_types().size(), 5u);

  // Window deduplication: no row number, no partition keys besides the window.
  v1::PlanNode dedup = WindowRankNode();
  dedup.mutable_window_rank()->clear_partition_keys();
  dedup.mutable_window_rank()->set_rank_start(1);
  dedup.mutable_window_rank()->set_rank_end(1);
  dedup.mutable_window_rank()->set_output_rank_number(false);
  dedup.clear_output_schema();
  SchemaToProto(Schema{{{"p", DataType::String()},
                        {"score", DataType::BigInt()},
                        {"window_start", DataType::Timestamp(3)},
                        {"window_end", DataType::Timestamp(3)}}},
                dedup.mutable_output_schema());
  auto dedup_built = Build(dedup);
  ASSERT_TRUE(dedup_built.ok()) << dedup_built.status();
  auto* dedup_op = dynamic_cast<WindowRankOperator*>(dedup_built->op.get());
  ASSERT_NE(dedup_op, nullptr);
  EXPECT_TRUE(dedup_op->spec().partition_keys.empty());
  EXPECT_EQ(dedup_op->output_types().size(), 4u);
}

TEST(WindowRankNodeTest, RejectsMalformedWindowRankNodes) {
  v1::PlanNode n = WindowRankNode();
  n.set_state_id(0);
  ExpectRejected(n, "no state id");

  ExpectRejected(WindowRankNode(), "expects one input", {kInput, kInput});

  n = WindowRankNode();
  n.mutable_window_rank()->set_partition_keys(0, 4);
  ExpectRejected(n, "partition key column 4 out of range");

  n = WindowRankNode();
  n.mutable_window_rank()->mutable_order_by(0)->set_column(-1);
  ExpectRejected(n, "ORDER BY column -1 out of range");

  n = WindowRankNode();
  n.mutable_window_rank()->set_window_start_column(9);
  ExpectRejected(n, "window_start column 9 out of range");

  n = WindowRankNode();
  n.mutable_window_rank()->set_window_end_column(1);
  ExpectRejected(n, "window_end column 1 must be a TIMESTAMP(3)");

  n = WindowRankNode();
  n.mutable_window_rank()->set_rank_start(0);
  ExpectRejected(n, "rank_start is 0");

  n = WindowRankNode();
  n.mutable_window_rank()->set_rank_start(4);
  ExpectRejected(n, "rank_end 3 is below rank_start 4");

  // The planner's schema must be what the operator emits (here: without the row number).
  n = WindowRankNode();
  n.mutable_window_rank()->set_output_rank_number(false);
  ExpectRejected(n, "output schema");
}

}  // namespace
}  // namespace eddy
