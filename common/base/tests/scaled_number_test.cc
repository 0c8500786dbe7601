// ParseScaledNumber and the duration spellings built on it (memory sizes: memory_size_test.cc).
#include "common/base/scaled_number.h"

#include <gtest/gtest.h>

#include "common/base/duration.h"

namespace eddy {
namespace {

TEST(ScaledNumberTest, MultipliesByTheUnitsFactor) {
  static constexpr UnitFactor kUnits[] = {{"", 1}, {"x", 10}};
  EXPECT_EQ(ParseScaledNumber("7", kUnits, false), 7);
  EXPECT_EQ(ParseScaledNumber("7x", kUnits, false), 70);
  EXPECT_EQ(ParseScaledNumber("7  x", kUnits, false), 70);
  EXPECT_EQ(ParseScaledNumber("7 X", kUnits, false), std::nullopt);
  EXPECT_EQ(ParseScaledNumber("7 X", kUnits, true), 70);
  EXPECT_EQ(ParseScaledNumber("x", kUnits, false), std::nullopt);
  EXPECT_EQ(ParseScaledNumber("7 y", kUnits, false), std::nullopt);
  EXPECT_EQ(ParseScaledNumber("922337203685477581x", kUnits, false), std::nullopt);
}

TEST(ScaledNumberTest, DurationsAreMillisecondsWithFlinksUnits) {
  EXPECT_EQ(ParseDurationMillis("5000"), 5000);
  EXPECT_EQ(ParseDurationMillis("100 ms"), 100);
  EXPECT_EQ(ParseDurationMillis("5 s"), 5000);
  EXPECT_EQ(ParseDurationMillis("1 min"), 60000);
  EXPECT_EQ(ParseDurationMillis("2 h"), 7200000);
  EXPECT_EQ(ParseDurationMillis("1 d"), 86400000);
  EXPECT_EQ(ParseDurationMillis("5 S"), std::nullopt);  // units are lower case
  EXPECT_EQ(ParseDurationMillis(""), std::nullopt);
  EXPECT_EQ(ParseDurationMillis("-1 s"), std::nullopt);
  EXPECT_EQ(ParseDurationMillis("9223372036854775807 d"), std::nullopt);
}

}  // namespace
}  // namespace eddy
