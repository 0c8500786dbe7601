// TIME values: parsing 'hh:mm[:ss[.f]]' text and printing as Flink prints a TIME(p).
#include <gtest/gtest.h>

#include "common/types/data_type.h"
#include "common/types/temporal_text.h"
#include "common/types/value.h"

namespace eddy {
namespace {

int32_t Parse(std::string_view s, int precision = 9, int* digits = nullptr) {
  int32_t ms = -1;
  EXPECT_TRUE(ParseTimeText(s, precision, &ms, digits)) << s;
  return ms;
}

TEST(ParseTimeText, ReadsTimeOfDay) {
  EXPECT_EQ(Parse("00:00:00"), 0);
  EXPECT_EQ(Parse("12:34:56"), (12 * 3600 + 34 * 60 + 56) * 1000);
  EXPECT_EQ(Parse(" 23:59:59.999 "), 86399999);
  EXPECT_EQ(Parse("12:34"), (12 * 3600 + 34 * 60) * 1000);
  EXPECT_EQ(Parse("1:02:03"), 3723000);
}

TEST(ParseTimeText, KeepsMillisecondsAndCountsDigits) {
  int digits = -1;
  EXPECT_EQ(Parse("12:34:56.1", 9, &digits), 45296100);
  EXPECT_EQ(digits, 1);
  EXPECT_EQ(Parse("12:34:56.123456789", 9, &digits), 45296123);  // below ms dropped
  EXPECT_EQ(digits, 9);
  EXPECT_EQ(Parse("12:34:56", 9, &digits), 45296000);
  EXPECT_EQ(digits, 0);
}

TEST(ParseTimeText, TruncatesToPrecision) {
  EXPECT_EQ(Parse("12:34:56.789", 0), 45296000);
  EXPECT_EQ(Parse("12:34:56.789", 1), 45296700);
  EXPECT_EQ(Parse("12:34:56.789", 2), 45296780);
  EXPECT_EQ(Parse("12:34:56.789", 3), 45296789);
}

TEST(ParseTimeText, RejectsMalformedText) {
  int32_t ms;
  for (const char* bad : {"", "12", "24:00:00", "12:60:00", "12:00:60", "12:00:00.", "12:00:00x",
                          "12-00-00", "2024-01-01 12:00:00", "ab:cd:ef"}) {
    EXPECT_FALSE(ParseTimeText(bad, 3, &ms, nullptr)) << bad;
  }
}

TEST(FormatTime, PrintsAsFlink) {
  EXPECT_EQ(FormatTime(45296000, 0), "12:34:56");
  EXPECT_EQ(FormatTime(45296123, 0), "12:34:56");
  EXPECT_EQ(FormatTime(45296123, 3), "12:34:56.123");
  // Flink stops after the last non-zero digit (at least one digit).
  EXPECT_EQ(FormatTime(45296100, 3), "12:34:56.1");
  EXPECT_EQ(FormatTime(45296000, 3), "12:34:56.0");
  EXPECT_EQ(FormatTime(45296120, 2), "12:34:56.12");
  EXPECT_EQ(FormatTime(45296123, 9), "12:34:56.123");
  EXPECT_EQ(FormatTime(86399999, 3), "23:59:59.999");
  EXPECT_EQ(FormatValue(Value::Int(3723000), DataType::Time(0)), "01:02:03");
}

TEST(DataType, SpellsTime) {
  EXPECT_EQ(DataType::Time(0).ToString(), "TIME(0)");
  EXPECT_EQ(DataType::Time(3).WithNullable(false).ToString(), "TIME(3) NOT NULL");
  EXPECT_EQ(PhysicalWidth(TypeId::kTime), 4);
}

}  // namespace
}  // namespace eddy
