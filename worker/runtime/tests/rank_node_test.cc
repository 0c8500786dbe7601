// Building a RankOperator from a Rank plan node and a DeduplicateOperator from a Deduplicate node:
// what the factory accepts, and that every malformed node is an error naming the node and what is
// wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/types/type_proto.h"
#include "worker/operators/deduplicate_operator.h"
#include "worker/operators/rank_operator.h"
#include "worker/runtime/operator_factory.h"
#include "worker/runtime/tests/node_test_util.h"

namespace eddy {
namespace {

// (p STRING, score BIGINT, ts TIMESTAMP(3))
const std::vector<DataType> kInput = {DataType::String(), DataType::BigInt(),
                                      DataType::Timestamp(3)};

// Top 3 by score DESC per p, with the row number.
v1::PlanNode RankNode() {
  v1::PlanNode n;
  n.set_id(7);
  n.add_inputs(1);
  n.set_description("Rank(top 3)");
  n.set_state_id(8);
  SchemaToProto(Schema{{{"p", DataType::String()},
                        {"score", DataType::BigInt()},
                        {"ts", DataType::Timestamp(3)},
                        {"rn", DataType::BigInt().WithNullable(false)}}},
                n.mutable_output_schema());
  v1::Rank* r = n.mutable_rank();
  r->add_partition_keys(0);
  v1::SortField* f = r->add_order_by();
  f->set_column(1);
  f->set_descending(true);
  r->set_rank_start(1);
  r->set_rank_end(3);
  r->set_output_rank_number(true);
  r->set_strategy(v1::Rank::RETRACT);
  r->set_generate_update_before(true);
  r->set_state_ttl_ms(60000);
  return n;
}

// Keep the last row per p by ts.
v1::PlanNode DedupNode() {
  v1::PlanNode n;
  n.set_id(7);
  n.add_inputs(1);
  n.set_description("Deduplicate(last)");
  n.set_state_id(9);
  SchemaToProto(Schema{{{"p", DataType::String()},
                        {"score", DataType::BigInt()},
                        {"ts", DataType::Timestamp(3)}}},
                n.mutable_output_schema());
  v1::Deduplicate* d = n.mutable_deduplicate();
  d->add_keys(0);
  d->set_time_column(2);
  d->set_keep_last_row(true);
  d->set_generate_update_before(false);
  d->set_state_ttl_ms(1000);
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

TEST(RankNodeTest, BuildsTheRankOperatorFromTheNode) {
  auto built = Build(RankNode());
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<RankOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->spec().partition_keys, std::vector<int>{0});
  ASSERT_EQ(op->spec().order_by.size(), 1u);
  EXPECT_EQ(op->spec().order_by[0].column, 1);
  EXPECT_TRUE(op->spec().order_by[0].descending);
  EXPECT_FALSE(op->spec().order_by[0].nulls_first);
  EXPECT_EQ(op->spec().rank_start, 1);
  EXPECT_EQ(op->spec().rank_end, 3);
  EXPECT_TRUE(op->spec().output_rank_number);
  EXPECT_EQ(op->spec().strategy, RankStrategy::kRetract);
  EXPECT_TRUE(op->spec().generate_update_before);
  EXPECT_EQ(op->spec().state_ttl_ms, 60000);
  ASSERT_EQ(op->output_types().size(), 4u);

  v1::PlanNode append = RankNode();
  append.mutable_rank()->set_strategy(v1::Rank::APPEND_FAST);
  append.mutable_rank()->set_output_rank_number(false);
  append.clear_output_schema();
  SchemaToProto(Schema{{{"p", DataType::String()},
                        {"score", DataType::BigInt()},
                        {"ts", DataType::Timestamp(3)}}},
                append.mutable_output_schema());
  auto append_built = Build(append);
  ASSERT_TRUE(append_built.ok()) << append_built.status();
  auto* append_op = dynamic_cast<RankOperator*>(append_built->op.get());
  ASSERT_NE(append_op, nullptr);
  EXPECT_EQ(append_op->spec().strategy, RankStrategy::kAppendFast);
}

TEST(RankNodeTest, RejectsMalformedRankNodes) {
  v1::PlanNode n = RankNode();
  n.set_state_id(0);
  ExpectRejected(n, "no state id");

  ExpectRejected(RankNode(), "expects one input", {kInput, kInput});

  n = RankNode();
  n.mutable_rank()->set_strategy(v1::Rank::STRATEGY_UNSPECIFIED);
  ExpectRejected(n, "unspecified or unknown strategy");

  n = RankNode();
  n.mutable_rank()->set_partition_keys(0, 3);
  ExpectRejected(n, "partition key column 3 out of range");

  n = RankNode();
  n.mutable_rank()->mutable_order_by(0)->set_column(-1);
  ExpectRejected(n, "ORDER BY column -1 out of range");

  n = RankNode();
  n.mutable_rank()->set_rank_start(0);
  ExpectRejected(n, "rank_start is 0");

  n = RankNode();
  n.mutable_rank()->set_rank_start(4);
  ExpectRejected(n, "rank_end 3 is below rank_start 4");

  n = RankNode();
  n.mutable_rank()->set_state_ttl_ms(-1);
  ExpectRejected(n, "negative state TTL");

  // The planner's schema must be what the operator emits (here: without the row number).
  n = RankNode();
  n.mutable_rank()->set_output_rank_number(false);
  ExpectRejected(n, "output schema");
}

TEST(RankNodeTest, BuildsTheDeduplicateOperatorFromTheNode) {
  auto built = Build(DedupNode());
  ASSERT_TRUE(built.ok()) << built.status();
  auto* op = dynamic_cast<DeduplicateOperator*>(built->op.get());
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->spec().keys, std::vector<int>{0});
  EXPECT_EQ(op->spec().time_column, 2);
  EXPECT_TRUE(op->spec().keep_last_row);
  EXPECT_FALSE(op->spec().generate_update_before);
  EXPECT_EQ(op->spec().state_ttl_ms, 1000);
}

TEST(RankNodeTest, RejectsMalformedDeduplicateNodes) {
  v1::PlanNode n = DedupNode();
  n.set_state_id(0);
  ExpectRejected(n, "no state id");

  ExpectRejected(DedupNode(), "expects one input", {});

  n = DedupNode();
  n.mutable_deduplicate()->set_keys(0, 7);
  ExpectRejected(n, "key column 7 out of range");

  n = DedupNode();
  n.mutable_deduplicate()->set_time_column(3);
  ExpectRejected(n, "time column 3 out of range");

  n = DedupNode();
  n.mutable_deduplicate()->set_time_column(1);
  ExpectRejected(n, "time column 1 is BIGINT, not a TIMESTAMP(3) rowtime");

  n = DedupNode();
  n.mutable_deduplicate()->set_state_ttl_ms(-1);
  ExpectRejected(n, "negative state TTL");

  n = DedupNode();
  n.clear_output_schema();
  ExpectRejected(n, "output schema");
}

}  // namespace
}  // namespace eddy
