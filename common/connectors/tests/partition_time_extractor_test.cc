// The default partition time extractor: patterns over partition columns, the lenient default
// format and explicit formatters, time zones, and the errors that name the option at fault.
#include "common/connectors/partition_time_extractor.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace eddy {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kJan1 = 1704067200000;  // 2024-01-01 00:00:00 UTC
constexpr int64_t kHour = 3600 * 1000;

TEST(PartitionTimeExtractorTest, TheFirstPartitionColumnIsTheTimeWithoutAPattern) {
  auto e = PartitionTimeExtractor::Create("", "", "UTC", {"dt", "hour"});
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(*e->ExtractMillis({{"dt", "2024-01-01"}, {"hour", "05"}}), kJan1);
  EXPECT_EQ(*e->ExtractMillis({{"dt", "2024-1-2 3:04:05"}, {"hour", "05"}}),
            kJan1 + 24 * kHour + 3 * kHour + 4 * 60000 + 5000);
  EXPECT_EQ(*e->ExtractMillis({{"dt", "2024-01-01 10:00:00.250"}, {"hour", "05"}}),
            kJan1 + 10 * kHour);
}

TEST(PartitionTimeExtractorTest, APatternJoinsPartitionColumns) {
  auto e = PartitionTimeExtractor::Create("$dt $hour:00:00", "", "UTC", {"dt", "hour"});
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(*e->ExtractMillis({{"dt", "2024-01-01"}, {"hour", "07"}}), kJan1 + 7 * kHour);
}

TEST(PartitionTimeExtractorTest, AFormatterReadsExactlyItsFields) {
  auto e = PartitionTimeExtractor::Create("$day$h", "yyyyMMddHH", "UTC", {"day", "h"});
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(*e->ExtractMillis({{"day", "20240101"}, {"h", "23"}}), kJan1 + 23 * kHour);
  EXPECT_THAT(e->ExtractMillis({{"day", "2024011"}, {"h", "23"}}).status().message(),
              HasSubstr("'202401123' does not parse as yyyyMMddHH"));
}

TEST(PartitionTimeExtractorTest, TheTimeZoneMakesTheInstant) {
  auto fixed = PartitionTimeExtractor::Create("", "", "GMT+08:00", {"dt"});
  ASSERT_TRUE(fixed.ok()) << fixed.status();
  EXPECT_EQ(*fixed->ExtractMillis({{"dt", "2024-01-01 08:00:00"}}), kJan1);
  auto e = PartitionTimeExtractor::Create("", "", "Asia/Shanghai", {"dt"});
  if (!e.ok()) GTEST_SKIP() << "no zone data for Asia/Shanghai on this machine";
  EXPECT_EQ(*e->ExtractMillis({{"dt", "2024-01-01 08:00:00"}}), kJan1);
}

TEST(PartitionTimeExtractorTest, ValuesThatAreNoTimeAreErrors) {
  auto e = PartitionTimeExtractor::Create("", "", "UTC", {"dt"});
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_THAT(e->ExtractMillis({{"dt", "2024-02-30"}}).status().message(),
              HasSubstr("the partition '{dt=2024-02-30}' has no time"));
  EXPECT_FALSE(e->ExtractMillis({{"dt", "__DEFAULT_PARTITION__"}}).ok());
  EXPECT_FALSE(e->ExtractMillis({{"dt", "2024-01-01 10"}}).ok());
}

TEST(PartitionTimeExtractorTest, BadOptionsNameTheOption) {
  EXPECT_THAT(PartitionTimeExtractor::Create("$day", "", "UTC", {"dt"}).status().message(),
              HasSubstr("option 'partition.time-extractor.timestamp-pattern' names '$day', which "
                        "is not a partition column"));
  EXPECT_THAT(PartitionTimeExtractor::Create("", "yyyy-MM-dd hh", "UTC", {"dt"}).status().message(),
              HasSubstr("option 'partition.time-extractor.timestamp-formatter' has 'h'"));
  EXPECT_THAT(PartitionTimeExtractor::Create("", "", "Mars/Olympus", {"dt"}).status().message(),
              HasSubstr("option 'sink.partition-commit.watermark-time-zone' names an unknown "
                        "time zone 'Mars/Olympus'"));
  EXPECT_THAT(PartitionTimeExtractor::Create("", "", "UTC", {}).status().message(),
              HasSubstr("needs a partitioned table"));
}

}  // namespace
}  // namespace eddy
