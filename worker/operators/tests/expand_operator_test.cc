#include "worker/operators/expand_operator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "worker/operators/testing/collecting_output.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

const DataType kStr = DataType::String();
const DataType kInt = DataType::Int();

// (a STRING NOT NULL, b STRING, v INT) as ROLLUP (a, b) with SUM(v) reads them: {a, b, v, 0},
// {a, NULL, v, 1}, {NULL, NULL, v, 3}.
std::vector<ExpandProjection> Rollup() {
  return {{{0, 1, 2, -1}, 0}, {{0, -1, 2, -1}, 1}, {{-1, -1, 2, -1}, 3}};
}

std::vector<DataType> Inputs() { return {kStr.WithNullable(false), kStr, kInt}; }

ChangelogBatch Sample() {
  ChangelogBatch b(Inputs());
  b.AppendValues({Value::String("x"), Value::String("p"), Value::Int(1)}, RowKind::kInsert);
  b.AppendValues({Value::String("y"), Value::Null(), Value::Int(2)}, RowKind::kUpdateBefore);
  b.AppendValues({Value::String("y"), Value::String("q"), Value::Null()}, RowKind::kUpdateAfter);
  return b;
}

TEST(ExpandOperator, EmitsEveryRowOncePerProjectionSetBySet) {
  auto op = ExpandOperator::Create(Inputs(), Rollup(), 3);
  ASSERT_TRUE(op.ok()) << op.status();
  CollectingOutput out;
  (*op)->set_output(&out);
  ASSERT_TRUE((*op)->Open(OperatorContext{}).ok());
  ASSERT_TRUE((*op)->Process(0, Sample()).ok());
  EXPECT_EQ(out.rows, (std::vector<std::string>{
                          "+I[x, p, 1, 0]",
                          "-U[y, null, 2, 0]",
                          "+U[y, q, null, 0]",
                          "+I[x, null, 1, 1]",
                          "-U[y, null, 2, 1]",
                          "+U[y, null, null, 1]",
                          "+I[null, null, 1, 3]",
                          "-U[null, null, 2, 3]",
                          "+U[null, null, null, 3]",
                      }));
  EXPECT_EQ(out.batches, 1);
  EXPECT_EQ((*op)->rows_in(), 3u);
  EXPECT_EQ((*op)->rows_out(), 9u);
}

TEST(ExpandOperator, OutputTypesAreNullableWhereAProjectionNullsThem) {
  auto op = ExpandOperator::Create(Inputs(), Rollup(), 3);
  ASSERT_TRUE(op.ok()) << op.status();
  const std::vector<DataType>& types = (*op)->output_types();
  ASSERT_EQ(types.size(), 4u);
  EXPECT_TRUE(types[0] == kStr.WithNullable(true));  // NOT NULL in, nulled by a projection
  EXPECT_TRUE(types[2] == kInt);
  EXPECT_TRUE(types[3] == DataType::BigInt().WithNullable(false));
  // A column no projection nulls keeps its nullability.
  auto kept = ExpandOperator::Create(Inputs(), {{{0, -1}, 0}, {{0, -1}, 1}}, 1);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_TRUE((*kept)->output_types()[0] == kStr.WithNullable(false));
}

TEST(ExpandOperator, DuplicatesAColumnUnderAnotherProjection) {
  // A key that is also an aggregate argument is copied into a column no projection nulls.
  auto op = ExpandOperator::Create({kInt}, {{{0, -1, 0}, 0}, {{-1, -1, 0}, 1}}, 1);
  ASSERT_TRUE(op.ok()) << op.status();
  CollectingOutput out;
  (*op)->set_output(&out);
  ChangelogBatch b({kInt});
  b.AppendValues({Value::Int(5)}, RowKind::kDelete);
  ASSERT_TRUE((*op)->Process(0, b).ok());
  EXPECT_EQ(out.rows, (std::vector<std::string>{"-D[5, 0, 5]", "-D[null, 1, 5]"}));
}

TEST(ExpandOperator, EmptyBatchesEmitNothing) {
  auto op = ExpandOperator::Create(Inputs(), Rollup(), 3);
  ASSERT_TRUE(op.ok()) << op.status();
  CollectingOutput out;
  (*op)->set_output(&out);
  ASSERT_TRUE((*op)->Process(0, ChangelogBatch(Inputs())).ok());
  EXPECT_EQ(out.batches, 0);
}

TEST(ExpandOperator, RefusesMalformedShapes) {
  auto error = [](std::vector<DataType> in, std::vector<ExpandProjection> p, int id) {
    auto op = ExpandOperator::Create(std::move(in), std::move(p), id);
    EXPECT_FALSE(op.ok());
    return std::string(op.status().message());
  };
  EXPECT_EQ(error(Inputs(), {}, 0), "Expand: no projections");
  EXPECT_EQ(error(Inputs(), Rollup(), 4), "Expand: expand id column 4 out of range for 4 columns");
  EXPECT_EQ(error(Inputs(), {{{0, -1}, 0}, {{0}, 1}}, 1),
            "Expand: projection 1 has 1 columns, projection 0 has 2");
  EXPECT_EQ(error(Inputs(), {{{0, -1}, 7}, {{0, -1}, 7}}, 1), "Expand: expand id 7 is not unique");
  EXPECT_EQ(error(Inputs(), {{{3, -1}, 0}, {{0, -1}, 1}}, 1),
            "Expand: projection 0 column 0 reads input column 3 out of range");
  EXPECT_EQ(error(Inputs(), {{{0, -1}, 0}, {{2, -1}, 1}}, 1),
            "Expand: column 0 is STRING in one projection and INT in projection 1");
  EXPECT_EQ(error(Inputs(), {{{-1, -1}, 0}, {{-1, -1}, 1}}, 1),
            "Expand: column 0 is NULL in every projection, so it has no type");
}

}  // namespace
}  // namespace eddy
