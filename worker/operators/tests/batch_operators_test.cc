// The batch-mode operators: HashAggregate emits one final +I row per group only at the end of input
// (also for a global aggregate over no rows), Sort emits every row in order (offset and fetch, ties
// in arrival order) at the end, and ChangelogMaterialize reduces a changelog to its final rows.
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/batch_sort.h"
#include "worker/operators/changelog_materialize.h"
#include "worker/operators/hash_aggregate.h"
#include "worker/operators/testing/collecting_output.h"

namespace eddy {
namespace {

using testing::CollectingOutput;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// (k STRING, v INT)
const std::vector<DataType> kInput = {DataType::String(), DataType::Int()};

ChangelogBatch Rows(const std::vector<std::pair<std::string, int>>& rows,
                    RowKind kind = RowKind::kInsert) {
  ChangelogBatch b(kInput);
  for (const auto& [k, v] : rows) b.AppendValues({Value::String(k), Value::Int(v)}, kind);
  return b;
}

AggregateCall Call(AggKind kind, int arg, DataType arg_type) {
  AggregateCall c;
  c.kind = kind;
  c.arg = arg;
  c.arg_type = arg_type;
  c.result_type = *AggResultType(kind, arg_type);
  return c;
}

TEST(HashAggregateTest, EmitsOneFinalRowPerGroupOnlyAtTheEndOfInput) {
  HashAggregateSpec spec;
  spec.input_types = kInput;
  spec.group_keys = {0};
  spec.aggregates = {Call(AggKind::kCountStar, -1, DataType::Int()),
                     Call(AggKind::kSum, 1, DataType::Int()),
                     Call(AggKind::kMax, 1, DataType::Int())};
  auto op = HashAggregateOperator::Create(spec);
  ASSERT_TRUE(op.ok()) << op.status();
  CollectingOutput out;
  (*op)->set_output(&out);
  ASSERT_TRUE((*op)->Open({}).ok());
  ASSERT_TRUE((*op)->Process(0, Rows({{"a", 1}, {"b", 5}, {"a", 2}})).ok());
  ASSERT_TRUE((*op)->ProcessWatermark(Watermark{100}).ok());
  ASSERT_TRUE((*op)->Process(0, Rows({{"c", 4}, {"a", 6}})).ok());
  EXPECT_THAT(out.rows, IsEmpty());
  EXPECT_THAT(out.watermarks, IsEmpty());  // held back: the result is not out yet
  ASSERT_TRUE((*op)->Finish().ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[a, 3, 9, 6]", "+I[b, 1, 5, 5]", "+I[c, 1, 4, 4]"));
  EXPECT_THAT(out.WatermarkMillis(), ElementsAre(100));
  EXPECT_TRUE((*op)->Close().ok());
}

TEST(HashAggregateTest, AGlobalAggregateOverNoRowsEmitsOneRow) {
  HashAggregateSpec spec;
  spec.input_types = kInput;
  spec.aggregates = {Call(AggKind::kCountStar, -1, DataType::Int()),
                     Call(AggKind::kSum, 1, DataType::Int())};
  auto op = HashAggregateOperator::Create(spec);
  ASSERT_TRUE(op.ok()) << op.status();
  CollectingOutput out;
  (*op)->set_output(&out);
  ASSERT_TRUE((*op)->Finish().ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[0, null]"));
}

TEST(HashAggregateTest, ARetractionIsAnError) {
  HashAggregateSpec spec;
  spec.input_types = kInput;
  spec.group_keys = {0};
  spec.aggregates = {Call(AggKind::kCountStar, -1, DataType::Int())};
  auto op = HashAggregateOperator::Create(spec);
  ASSERT_TRUE(op.ok()) << op.status();
  CollectingOutput out;
  (*op)->set_output(&out);
  absl::Status s = (*op)->Process(0, Rows({{"a", 1}}, RowKind::kDelete));
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), ::testing::HasSubstr("insert-only"));
}

std::vector<std::string> Sorted(std::vector<SortKeyField> order, int64_t offset, int64_t fetch,
                                const std::vector<ChangelogBatch>& input) {
  BatchSortSpec spec;
  spec.input_types = kInput;
  spec.order_by = std::move(order);
  spec.offset = offset;
  spec.fetch = fetch;
  auto op = BatchSortOperator::Create(spec);
  EXPECT_TRUE(op.ok()) << op.status();
  CollectingOutput out;
  (*op)->set_output(&out);
  for (const ChangelogBatch& b : input) EXPECT_TRUE((*op)->Process(0, b).ok());
  EXPECT_THAT(out.rows, IsEmpty());
  EXPECT_TRUE((*op)->Finish().ok());
  return out.rows;
}

TEST(BatchSortTest, EmitsEveryRowInOrderAtTheEndWithTiesInArrivalOrder) {
  std::vector<ChangelogBatch> in;
  in.push_back(Rows({{"b", 2}, {"a", 9}, {"c", 2}}));
  in.push_back(Rows({{"a", 1}, {"d", 9}}));
  EXPECT_THAT(Sorted({{.column = 1, .descending = true, .nulls_first = false}}, 0, -1, in),
              ElementsAre("+I[a, 9]", "+I[d, 9]", "+I[b, 2]", "+I[c, 2]", "+I[a, 1]"));
  EXPECT_THAT(Sorted({{.column = 0}, {.column = 1}}, 1, 3, in),
              ElementsAre("+I[a, 9]", "+I[b, 2]", "+I[c, 2]"));
}

TEST(BatchSortTest, AFetchKeepsOnlyTheRowsItNeedsAcrossManyBatches) {
  // 20000 rows, descending values: trimming while they arrive must keep the smallest five.
  std::vector<ChangelogBatch> in;
  for (int b = 0; b < 20; ++b) {
    std::vector<std::pair<std::string, int>> rows;
    for (int i = 0; i < 1000; ++i) rows.push_back({"k", 20000 - (b * 1000 + i)});
    in.push_back(Rows(rows));
  }
  EXPECT_THAT(Sorted({{.column = 1}}, 2, 3, in), ElementsAre("+I[k, 3]", "+I[k, 4]", "+I[k, 5]"));
}

TEST(ChangelogMaterializeTest, EmitsTheFinalRowsOfAChangelogAsInserts) {
  auto op = ChangelogMaterializeOperator::Create(kInput);
  ASSERT_TRUE(op.ok()) << op.status();
  CollectingOutput out;
  (*op)->set_output(&out);
  ASSERT_TRUE((*op)->Process(0, Rows({{"a", 1}, {"b", 1}, {"b", 1}})).ok());
  ASSERT_TRUE((*op)->Process(0, Rows({{"a", 1}}, RowKind::kUpdateBefore)).ok());
  ASSERT_TRUE((*op)->Process(0, Rows({{"a", 2}}, RowKind::kUpdateAfter)).ok());
  ASSERT_TRUE((*op)->Process(0, Rows({{"b", 1}}, RowKind::kDelete)).ok());
  // A retraction that arrives before its insert still cancels it.
  ASSERT_TRUE((*op)->Process(0, Rows({{"c", 3}}, RowKind::kDelete)).ok());
  ASSERT_TRUE((*op)->Process(0, Rows({{"c", 3}})).ok());
  EXPECT_THAT(out.rows, IsEmpty());
  ASSERT_TRUE((*op)->Finish().ok());
  EXPECT_THAT(out.rows, ElementsAre("+I[b, 1]", "+I[a, 2]"));
}

}  // namespace
}  // namespace eddy
