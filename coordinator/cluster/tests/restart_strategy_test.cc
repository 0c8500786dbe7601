// Restart strategies: how many restarts each allows, after which delays, and their defaults.
#include "coordinator/cluster/restart_strategy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace eddy {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

std::unique_ptr<RestartStrategy> Make(const std::map<std::string, std::string>& config,
                                      bool checkpointing = true) {
  auto s = MakeRestartStrategy(config, checkpointing, [] { return 0.5; });  // no jitter
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

TEST(RestartStrategyTest, DefaultsFollowCheckpointing) {
  EXPECT_EQ(Make({}, false)->Describe(), "none");
  EXPECT_EQ(Make({}, true)->Describe(), "exponential-delay (1 s to 1 min, x1.5)");
  RestartDecision d = Make({}, false)->OnFailure(Clock::now());
  EXPECT_FALSE(d.restart);
  EXPECT_EQ(d.why_not, "the restart strategy is none");
}

TEST(RestartStrategyTest, FixedDelayAllowsItsAttempts) {
  auto s = Make({{"restart-strategy.type", "fixed-delay"},
                 {"restart-strategy.fixed-delay.attempts", "2"},
                 {"restart-strategy.fixed-delay.delay", "3 s"}});
  const auto t = Clock::now();
  EXPECT_EQ(s->OnFailure(t).delay, seconds(3));
  EXPECT_TRUE(s->OnFailure(t).restart);
  RestartDecision third = s->OnFailure(t);
  EXPECT_FALSE(third.restart);
  EXPECT_EQ(third.why_not, "the restart strategy fixed-delay allows 2 restarts");
}

TEST(RestartStrategyTest, FailureRateCountsFailuresWithinTheInterval) {
  auto s = Make({{"restart-strategy.type", "failure-rate"},
                 {"restart-strategy.failure-rate.max-failures-per-interval", "2"},
                 {"restart-strategy.failure-rate.failure-rate-interval", "10 s"}});
  const auto t = Clock::now();
  EXPECT_TRUE(s->OnFailure(t).restart);
  EXPECT_TRUE(s->OnFailure(t + seconds(5)).restart);
  EXPECT_TRUE(s->OnFailure(t + seconds(11)).restart);  // the first fell out of the interval
  RestartDecision d = s->OnFailure(t + seconds(12));
  EXPECT_FALSE(d.restart);
  EXPECT_THAT(d.why_not, ::testing::HasSubstr("allows 2 failures per 10 s, and 3 happened"));
}

TEST(RestartStrategyTest, ExponentialDelayGrowsToItsMaximumAndResetsAfterQuiet) {
  auto s = Make({{"restart-strategy.type", "exponential-delay"},
                 {"restart-strategy.exponential-delay.initial-backoff", "100 ms"},
                 {"restart-strategy.exponential-delay.max-backoff", "1 s"},
                 {"restart-strategy.exponential-delay.backoff-multiplier", "2"},
                 {"restart-strategy.exponential-delay.reset-backoff-threshold", "1 min"}});
  auto t = Clock::now();
  std::vector<int64_t> delays;
  for (int i = 0; i < 6; ++i) delays.push_back(s->OnFailure(t += seconds(1)).delay.count());
  EXPECT_THAT(delays, ::testing::ElementsAre(100, 200, 400, 800, 1000, 1000));
  EXPECT_EQ(s->OnFailure(t + std::chrono::minutes(2)).delay, milliseconds(100));
}

TEST(RestartStrategyTest, ExponentialJitterStaysWithinItsFactor) {
  double r = 0.0;
  auto s = MakeRestartStrategy({{"restart-strategy.exponential-delay.jitter-factor", "0.2"}}, true,
                               [&] { return r; });
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->OnFailure(Clock::now()).delay, milliseconds(800));  // 1 s - 20%
}

TEST(RestartStrategyTest, BadValuesNameTheKey) {
  auto bad_type = MakeRestartStrategy({{"restart-strategy.type", "sometimes"}}, true);
  EXPECT_THAT(bad_type.status().message(), ::testing::HasSubstr("'restart-strategy.type'"));
  auto bad_delay = MakeRestartStrategy(
      {{"restart-strategy.type", "fixed-delay"}, {"restart-strategy.fixed-delay.delay", "soon"}},
      true);
  EXPECT_EQ(bad_delay.status().message(),
            "Invalid value for configuration key 'restart-strategy.fixed-delay.delay': expected a "
            "duration, got 'soon'");
  auto inverted =
      MakeRestartStrategy({{"restart-strategy.exponential-delay.initial-backoff", "2 min"}}, true);
  EXPECT_THAT(inverted.status().message(), ::testing::HasSubstr("must not exceed"));
}

}  // namespace
}  // namespace eddy
