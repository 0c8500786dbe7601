#include "worker/operators/calc_operator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/expr/function_registry.h"
#include "worker/operators/testing/collecting_output.h"

namespace eddy {
namespace {

using testing::CollectingOutput;

const DataType kStr = DataType::String();
const DataType kBig = DataType::BigInt();

ExprPtr CallOrDie(std::string_view fn, std::vector<ExprPtr> args) {
  auto r = MakeCall(fn, std::move(args));
  EXPECT_TRUE(r.ok()) << r.status();
  return *r;
}

ChangelogBatch WordCounts() {
  ChangelogBatch b({kStr, kBig});
  b.AppendValues({Value::String("apple"), Value::Int(1)}, RowKind::kInsert);
  b.AppendValues({Value::String("fig"), Value::Int(1)}, RowKind::kUpdateBefore);
  b.AppendValues({Value::String("fig"), Value::Int(2)}, RowKind::kUpdateAfter);
  b.AppendValues({Value::String("kiwi"), Value::Null()}, RowKind::kInsert);
  b.AppendValues({Value::String("fig"), Value::Int(2)}, RowKind::kDelete);
  return b;
}

TEST(CalcOperator, FiltersAndProjectsKeepingRowKinds) {
  auto word = MakeColumnRef(0, kStr);
  auto cnt = MakeColumnRef(1, kBig);
  // SELECT UPPER(word), cnt * 10, word WHERE cnt > 1 OR word LIKE 'a%'
  auto filter =
      CallOrDie("OR", {CallOrDie(">", {cnt, MakeLiteral(Value::Int(1), DataType::Int())}),
                       CallOrDie("LIKE", {word, MakeLiteral(Value::String("a%"), kStr)})});
  CalcOperator calc(
      {CallOrDie("UPPER", {word}), CallOrDie("*", {cnt, MakeLiteral(Value::Int(10), kBig)}), word},
      filter);
  CollectingOutput out;
  calc.set_output(&out);
  ASSERT_TRUE(calc.Open(OperatorContext{}).ok());
  ASSERT_TRUE(calc.Process(0, WordCounts()).ok());
  EXPECT_EQ(out.rows, (std::vector<std::string>{"+I[APPLE, 10, apple]", "+U[FIG, 20, fig]",
                                                "-D[FIG, 20, fig]"}));
  EXPECT_EQ(out.batches, 1);
  EXPECT_EQ(calc.rows_in(), 5u);
  EXPECT_EQ(calc.rows_out(), 3u);
}

TEST(CalcOperator, ProjectionOnlyKeepsEveryRow) {
  auto cnt = MakeColumnRef(1, kBig);
  CalcOperator calc({cnt, CallOrDie("IS NULL", {cnt})}, nullptr);
  CollectingOutput out;
  calc.set_output(&out);
  ASSERT_TRUE(calc.Process(0, WordCounts()).ok());
  EXPECT_EQ(out.rows, (std::vector<std::string>{"+I[1, false]", "-U[1, false]", "+U[2, false]",
                                                "+I[null, true]", "-D[2, false]"}));
}

TEST(CalcOperator, EmitsNothingWhenNoRowPasses) {
  auto cnt = MakeColumnRef(1, kBig);
  CalcOperator calc({cnt}, CallOrDie(">", {cnt, MakeLiteral(Value::Int(100), kBig)}));
  CollectingOutput out;
  calc.set_output(&out);
  ASSERT_TRUE(calc.Process(0, WordCounts()).ok());
  ChangelogBatch empty({kStr, kBig});
  ASSERT_TRUE(calc.Process(0, empty).ok());
  EXPECT_EQ(out.batches, 0);
}

TEST(CalcOperator, ProjectionsRunOnlyOnFilteredRows) {
  // SELECT 100 / cnt WHERE cnt <> 0: the cnt = 0 row must not raise a division by zero.
  ChangelogBatch b({kBig});
  b.AppendValues({Value::Int(0)}, RowKind::kInsert);
  b.AppendValues({Value::Int(4)}, RowKind::kUpdateAfter);
  auto cnt = MakeColumnRef(0, kBig);
  CalcOperator calc({CallOrDie("/", {MakeLiteral(Value::Int(100), kBig), cnt})},
                    CallOrDie("<>", {cnt, MakeLiteral(Value::Int(0), kBig)}));
  CollectingOutput out;
  calc.set_output(&out);
  ASSERT_TRUE(calc.Process(0, b).ok());
  EXPECT_EQ(out.rows, (std::vector<std::string>{"+U[25]"}));

  // Without the filter the same projection fails with an error naming the operator.
  CalcOperator unguarded({CallOrDie("/", {MakeLiteral(Value::Int(100), kBig), cnt})}, nullptr);
  unguarded.set_output(&out);
  auto s = unguarded.Process(0, b);
  EXPECT_EQ(s.message(), "Division by zero in '/'");
}

TEST(CalcOperator, RejectsNonBooleanFilter) {
  CalcOperator calc({MakeColumnRef(0, kBig)}, MakeColumnRef(0, kBig));
  EXPECT_FALSE(calc.Open(OperatorContext{}).ok());
}

}  // namespace
}  // namespace eddy
