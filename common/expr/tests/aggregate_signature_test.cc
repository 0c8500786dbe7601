#include "common/expr/aggregate_signature.h"

#include "gtest/gtest.h"

namespace eddy {
namespace {

TEST(AggregateSignatureTest, ParsesNamesCaseInsensitively) {
  EXPECT_EQ(*ParseAggKind("count", true), AggKind::kCountStar);
  EXPECT_EQ(*ParseAggKind("Count", false), AggKind::kCount);
  EXPECT_EQ(*ParseAggKind("sum"), AggKind::kSum);
  EXPECT_EQ(*ParseAggKind("AVG"), AggKind::kAvg);
  EXPECT_EQ(*ParseAggKind("mIn"), AggKind::kMin);
  EXPECT_EQ(*ParseAggKind("MAX"), AggKind::kMax);
  EXPECT_EQ(ParseAggKind("median").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ParseAggKind("sum", true).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(IsBuiltinAggregate("min"));
  EXPECT_FALSE(IsBuiltinAggregate("upper"));
  EXPECT_EQ(AggKindName(AggKind::kCountStar), "COUNT");
  EXPECT_EQ(*ParseAggKind("first_value"), AggKind::kFirstValue);
  EXPECT_EQ(*ParseAggKind("Last_Value"), AggKind::kLastValue);
  EXPECT_EQ(*ParseAggKind("listagg"), AggKind::kListAgg);
  EXPECT_EQ(ParseAggKind("listagg", true).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(IsBuiltinAggregate("ListAgg"));
  EXPECT_EQ(AggKindName(AggKind::kFirstValue), "FIRST_VALUE");
  EXPECT_EQ(AggKindName(AggKind::kLastValue), "LAST_VALUE");
  EXPECT_EQ(AggKindName(AggKind::kListAgg), "LISTAGG");
}

std::string ResultOf(AggKind k, DataType arg) {
  auto t = AggResultType(k, arg);
  return t.ok() ? t->ToString() : std::string(t.status().message());
}

TEST(AggregateSignatureTest, ResultTypesFollowFlink) {
  EXPECT_EQ(ResultOf(AggKind::kCountStar, DataType::Null()), "BIGINT NOT NULL");
  EXPECT_EQ(ResultOf(AggKind::kCount, DataType::String()), "BIGINT NOT NULL");
  EXPECT_EQ(ResultOf(AggKind::kSum, DataType::Int()), "INT");
  EXPECT_EQ(ResultOf(AggKind::kSum, DataType::TinyInt().WithNullable(false)), "TINYINT");
  EXPECT_EQ(ResultOf(AggKind::kSum, DataType::BigInt()), "BIGINT");
  EXPECT_EQ(ResultOf(AggKind::kSum, DataType::Decimal(10, 2)), "DECIMAL(18, 2)");
  EXPECT_EQ(ResultOf(AggKind::kSum, DataType::Float()), "FLOAT");
  EXPECT_EQ(ResultOf(AggKind::kSum, DataType::Double()), "DOUBLE");
  EXPECT_EQ(ResultOf(AggKind::kAvg, DataType::SmallInt()), "SMALLINT");
  EXPECT_EQ(ResultOf(AggKind::kAvg, DataType::Decimal(10, 2)), "DECIMAL(18, 6)");
  EXPECT_EQ(ResultOf(AggKind::kAvg, DataType::Decimal(18, 8)), "DECIMAL(18, 8)");
  EXPECT_EQ(ResultOf(AggKind::kAvg, DataType::Double()), "DOUBLE");
  EXPECT_EQ(ResultOf(AggKind::kMin, DataType::String().WithNullable(false)), "STRING");
  EXPECT_EQ(ResultOf(AggKind::kMax, DataType::Timestamp(3)), "TIMESTAMP(3)");
  EXPECT_EQ(ResultOf(AggKind::kSum, DataType::String()),
            "Cannot apply 'SUM' to arguments of type <STRING>");
  EXPECT_EQ(ResultOf(AggKind::kAvg, DataType::Boolean().WithNullable(false)),
            "Cannot apply 'AVG' to arguments of type <BOOLEAN>");
  EXPECT_EQ(AggResultType(AggKind::kSum, DataType::Date()).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(AggregateSignatureTest, FirstLastValueKeepTheArgumentTypeAndListAggGivesAString) {
  EXPECT_EQ(ResultOf(AggKind::kFirstValue, DataType::Int().WithNullable(false)), "INT");
  EXPECT_EQ(ResultOf(AggKind::kLastValue, DataType::Decimal(10, 2)), "DECIMAL(10, 2)");
  EXPECT_EQ(ResultOf(AggKind::kFirstValue, DataType::Varchar(5)), "VARCHAR(5)");
  EXPECT_EQ(ResultOf(AggKind::kLastValue, DataType::Null()),
            "Cannot apply 'LAST_VALUE' to arguments of type <NULL>");
  EXPECT_EQ(ResultOf(AggKind::kListAgg, DataType::Varchar(5).WithNullable(false)), "STRING");
  EXPECT_EQ(ResultOf(AggKind::kListAgg, DataType::Int()),
            "Cannot apply 'LISTAGG' to arguments of type <INT>");
}

std::string PartialsOf(AggKind k, DataType arg, bool retracting) {
  auto fields = AggPartialFields(k, arg, /*distinct=*/false, retracting);
  if (!fields.ok()) return std::string(fields.status().message());
  std::string out;
  for (const AggPartialField& f : *fields) out += std::string(f.name) + " " + f.type.ToString();
  return out;
}

TEST(AggregateSignatureTest, OnlyInsertOnlyListAggHasAPartialForm) {
  EXPECT_EQ(PartialsOf(AggKind::kListAgg, DataType::String(), false), "concatAcc STRING");
  EXPECT_EQ(PartialsOf(AggKind::kListAgg, DataType::String(), true),
            "LISTAGG over a retracting input has no partial form for two-phase aggregation");
  EXPECT_EQ(PartialsOf(AggKind::kFirstValue, DataType::Int(), false),
            "FIRST_VALUE has no partial form for two-phase aggregation (it has no merge, as in "
            "Flink)");
  EXPECT_EQ(AggPartialFields(AggKind::kLastValue, DataType::Int(), false, false).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace eddy
