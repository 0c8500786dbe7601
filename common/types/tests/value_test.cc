#include "common/types/value.h"

#include <gtest/gtest.h>

#include "common/types/data_type.h"
#include "common/types/temporal_text.h"

namespace eddy {
namespace {

TEST(FormatValue, MatchesFlinkText) {
  EXPECT_EQ(FormatDouble(1.0), "1.0");
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(2.5), "2.5");
  EXPECT_EQ(FormatDouble(1e7), "1.0E7");
  EXPECT_EQ(FormatDouble(1.5e-4), "1.5E-4");
  EXPECT_EQ(FormatDouble(-3.25), "-3.25");
  EXPECT_EQ(FormatFloat(0.1f), "0.1");
  EXPECT_EQ(FormatValue(Value::Double(0.1f), DataType::Float()), "0.1");
  EXPECT_EQ(FormatDecimal(1234, 2), "12.34");
  EXPECT_EQ(FormatDecimal(5, 3), "0.005");
  EXPECT_EQ(FormatDecimal(-5, 2), "-0.05");
  EXPECT_EQ(FormatDecimal(7, 0), "7");
  EXPECT_EQ(FormatDate(0), "1970-01-01");
  EXPECT_EQ(FormatDate(19753), "2024-01-31");
  EXPECT_EQ(FormatTimestamp(1706695200123, 3), "2024-01-31 10:00:00.123");
  EXPECT_EQ(FormatTimestamp(-1, 3), "1969-12-31 23:59:59.999");
}

TEST(DataType, PrintsSqlSpelling) {
  EXPECT_EQ(DataType::Decimal(10, 2).ToString(), "DECIMAL(10, 2)");
  EXPECT_EQ(DataType::BigInt().WithNullable(false).ToString(), "BIGINT NOT NULL");
  EXPECT_EQ(DataType::Varchar(5).ToString(), "VARCHAR(5)");
  EXPECT_EQ(DataType::String().ToString(), "STRING");
  Schema s{{{"Word", DataType::String()}, {"cnt", DataType::BigInt()}}};
  EXPECT_EQ(s.FindField("word"), 0);
  EXPECT_EQ(s.FindField("missing"), std::nullopt);
}

}  // namespace
}  // namespace eddy

namespace eddy {
namespace {

TEST(TemporalText, ParsesDatesAndTimestampsStrictly) {
  int32_t days = 0;
  int64_t ms = 0;
  EXPECT_TRUE(ParseDateText(" 2024-01-31 ", &days));
  EXPECT_EQ(days, 19753);
  EXPECT_FALSE(ParseDateText("2024-02-30", &days));
  EXPECT_FALSE(ParseDateText("2024-01-31x", &days));
  EXPECT_TRUE(ParseTimestampText("2024-01-31 10:00:00.123456", &ms));
  EXPECT_EQ(ms, 1706695200123);
  EXPECT_TRUE(ParseTimestampText("2024-01-31T10:00", &ms));
  EXPECT_EQ(ms, 1706695200000);
  EXPECT_FALSE(ParseTimestampText("2024-01-31 25:00:00", &ms));
}

}  // namespace
}  // namespace eddy
