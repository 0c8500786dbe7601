// ParseMemorySizeBytes: Flink's memory size spellings.
#include "common/base/memory_size.h"

#include <gtest/gtest.h>

namespace eddy {
namespace {

TEST(MemorySizeTest, ParsesNumbersWithUnits) {
  EXPECT_EQ(ParseMemorySizeBytes("1024"), 1024);
  EXPECT_EQ(ParseMemorySizeBytes("0"), 0);
  EXPECT_EQ(ParseMemorySizeBytes("10 b"), 10);
  EXPECT_EQ(ParseMemorySizeBytes("64kb"), 64 << 10);
  EXPECT_EQ(ParseMemorySizeBytes("64 K"), 64 << 10);
  EXPECT_EQ(ParseMemorySizeBytes("128mb"), 128 << 20);
  EXPECT_EQ(ParseMemorySizeBytes("128 MB"), 128 << 20);
  EXPECT_EQ(ParseMemorySizeBytes("2 mebibytes"), 2 << 20);
  EXPECT_EQ(ParseMemorySizeBytes("1 gb"), int64_t{1} << 30);
  EXPECT_EQ(ParseMemorySizeBytes("3t"), int64_t{3} << 40);
}

TEST(MemorySizeTest, RejectsWhatIsNotASize) {
  EXPECT_EQ(ParseMemorySizeBytes(""), std::nullopt);
  EXPECT_EQ(ParseMemorySizeBytes("mb"), std::nullopt);
  EXPECT_EQ(ParseMemorySizeBytes("-1 mb"), std::nullopt);
  EXPECT_EQ(ParseMemorySizeBytes("1.5 mb"), std::nullopt);
  EXPECT_EQ(ParseMemorySizeBytes("12 parsecs"), std::nullopt);
  EXPECT_EQ(ParseMemorySizeBytes("99999999999 tb"), std::nullopt);  // overflows
}

}  // namespace
}  // namespace eddy
