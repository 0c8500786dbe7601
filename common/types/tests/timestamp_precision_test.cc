// TIMESTAMP(p) units, rescaling, parsing and formatting at every precision.
#include "common/types/timestamp_precision.h"

#include <gtest/gtest.h>

#include "common/types/temporal_text.h"
#include "common/types/value.h"

namespace eddy {
namespace {

TEST(TimestampPrecision, UnitsAreMillisMicrosOrNanos) {
  EXPECT_EQ(TimestampUnitsPerSecond(0), 1000);
  EXPECT_EQ(TimestampUnitsPerSecond(3), 1000);
  EXPECT_EQ(TimestampUnitsPerSecond(4), 1000000);
  EXPECT_EQ(TimestampUnitsPerSecond(6), 1000000);
  EXPECT_EQ(TimestampUnitsPerSecond(7), 1000000000);
  EXPECT_EQ(TimestampUnitsPerMilli(9), 1000000);
}

TEST(TimestampPrecision, RescaleWidensExactlyAndNarrowsByTruncatingTowardsThePast) {
  int64_t out = 0;
  ASSERT_TRUE(RescaleTimestamp(1500, 3, 9, &out));
  EXPECT_EQ(out, 1500000000);
  ASSERT_TRUE(RescaleTimestamp(1999999999, 9, 3, &out));
  EXPECT_EQ(out, 1999);
  ASSERT_TRUE(RescaleTimestamp(-1, 9, 6, &out));  // 1969-12-31 23:59:59.999999999
  EXPECT_EQ(out, -1);
  ASSERT_TRUE(RescaleTimestamp(1234567, 6, 5, &out));
  EXPECT_EQ(out, 1234560);
  ASSERT_TRUE(RescaleTimestamp(1999, 3, 0, &out));
  EXPECT_EQ(out, 1000);
  ASSERT_TRUE(RescaleTimestamp(-1, 3, 1, &out));
  EXPECT_EQ(out, -100);
  // 2300-01-01 in nanoseconds does not fit in 64 bits.
  EXPECT_FALSE(RescaleTimestamp(10413792000000LL, 3, 9, &out));
}

TEST(TimestampPrecision, ParsesEveryDigitAndCountsThem) {
  int64_t v = 0;
  int digits = -1;
  ASSERT_TRUE(ParseTimestampText("2021-04-13 20:12:11.123456789", 9, &v, &digits));
  EXPECT_EQ(digits, 9);
  EXPECT_EQ(FormatTimestamp(v, 9), "2021-04-13 20:12:11.123456789");
  ASSERT_TRUE(ParseTimestampText("2021-04-13 20:12:11.123456789", 6, &v, nullptr));
  EXPECT_EQ(FormatTimestamp(v, 6), "2021-04-13 20:12:11.123456");
  ASSERT_TRUE(ParseTimestampText("2021-04-13T20:12:11", 3, &v, &digits));
  EXPECT_EQ(digits, 0);
  EXPECT_EQ(FormatTimestamp(v, 0), "2021-04-13 20:12:11");
  EXPECT_FALSE(ParseTimestampText("2300-01-01 00:00:00", 9, &v, nullptr));
  EXPECT_TRUE(ParseTimestampText("2300-01-01 00:00:00", 6, &v, nullptr));
}

TEST(TimestampPrecision, FormatsBeforeTheEpochAndShortPrecisions) {
  EXPECT_EQ(FormatTimestamp(-1, 9), "1969-12-31 23:59:59.999999999");
  EXPECT_EQ(FormatTimestamp(-1, 6), "1969-12-31 23:59:59.999999");
  EXPECT_EQ(FormatTimestamp(1500, 1), "1970-01-01 00:00:01.5");
  EXPECT_EQ(FormatTimestamp(1500, 5), "1970-01-01 00:00:00.00150");
}

}  // namespace
}  // namespace eddy
