// ThroughputMeter: rates over the time since the first sample until the window is full, then over
// the window; samples closer than the spacing are not kept.
#include "worker/runtime/throughput_meter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace eddy {
namespace {

using ::testing::DoubleEq;
using ::testing::ElementsAre;

constexpr int64_t kSecond = 1000000000;

TEST(ThroughputMeterTest, RatesAreTheGrowthOverTheWindowPerSecond) {
  ThroughputMeter meter(std::chrono::seconds(10), std::chrono::seconds(1));
  std::vector<double> rates;
  meter.Rates(0, {0, 0}, &rates);
  EXPECT_THAT(rates, ElementsAre(0.0, 0.0));  // no time passed
  // 100 rows a second in, 50 out, for 4 s: the window is not full, the rate is since the start.
  for (int64_t s = 1; s <= 4; ++s) {
    meter.Sample(s * kSecond, {static_cast<uint64_t>(100 * s), static_cast<uint64_t>(50 * s)});
  }
  meter.Rates(4 * kSecond, {400, 200}, &rates);
  EXPECT_THAT(rates, ElementsAre(DoubleEq(100), DoubleEq(50)));
  // Then 1000 rows a second for 10 s: the window holds only those.
  for (int64_t s = 5; s <= 14; ++s) {
    meter.Sample(s * kSecond, {static_cast<uint64_t>(400 + 1000 * (s - 4)), 200});
  }
  meter.Rates(14 * kSecond, {10400, 200}, &rates);
  EXPECT_THAT(rates, ElementsAre(DoubleEq(1000), DoubleEq(0)));
  // Half a second later, from the current counters.
  meter.Rates(14 * kSecond + kSecond / 2, {10900, 200}, &rates);
  EXPECT_NEAR(rates[0], 1000, 60);
}

TEST(ThroughputMeterTest, KeepsAtMostOneSampleASpacing) {
  ThroughputMeter meter(std::chrono::seconds(60), std::chrono::seconds(1));
  std::vector<double> rates;
  meter.Sample(0, {0});
  meter.Sample(kSecond / 2, {1000000});  // too close: not kept
  meter.Rates(2 * kSecond, {200}, &rates);
  EXPECT_THAT(rates, ElementsAre(DoubleEq(100)));
  // A counter that did not exist at the oldest sample has no rate yet.
  meter.Rates(3 * kSecond, {300, 7}, &rates);
  EXPECT_THAT(rates, ElementsAre(DoubleEq(100), DoubleEq(0)));
}

}  // namespace
}  // namespace eddy
