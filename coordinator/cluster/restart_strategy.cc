#include "coordinator/cluster/restart_strategy.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/config_error.h"
#include "common/base/duration.h"

namespace eddy {
namespace {

using Millis = std::chrono::milliseconds;

std::string FormatMillis(Millis d) {
  const int64_t ms = d.count();
  if (ms % 60000 == 0 && ms > 0) return absl::StrCat(ms / 60000, " min");
  if (ms % 1000 == 0 && ms > 0) return absl::StrCat(ms / 1000, " s");
  return absl::StrCat(ms, " ms");
}

class NoRestart : public RestartStrategy {
 public:
  RestartDecision OnFailure(Clock::time_point) override {
    return {false, Millis(0), "the restart strategy is none"};
  }
  std::string Describe() const override { return "none"; }
};

class FixedDelay : public RestartStrategy {
 public:
  FixedDelay(int64_t attempts, Millis delay) : attempts_(attempts), delay_(delay) {}
  RestartDecision OnFailure(Clock::time_point) override {
    if (++failures_ > attempts_) {
      return {false, Millis(0),
              absl::StrCat("the restart strategy fixed-delay allows ", attempts_, " restarts")};
    }
    return {true, delay_, ""};
  }
  std::string Describe() const override {
    return absl::StrCat("fixed-delay (", attempts_, " attempts, ", FormatMillis(delay_), ")");
  }

 private:
  const int64_t attempts_;
  const Millis delay_;
  int64_t failures_ = 0;
};

class FailureRate : public RestartStrategy {
 public:
  FailureRate(int64_t max_failures, Millis interval, Millis delay)
      : max_failures_(max_failures), interval_(interval), delay_(delay) {}
  RestartDecision OnFailure(Clock::time_point now) override {
    failures_.push_back(now);
    while (!failures_.empty() && now - failures_.front() > interval_) failures_.pop_front();
    if (static_cast<int64_t>(failures_.size()) > max_failures_) {
      return {
          false, Millis(0),
          absl::StrCat("the restart strategy failure-rate allows ", max_failures_, " failures per ",
                       FormatMillis(interval_), ", and ", failures_.size(), " happened")};
    }
    return {true, delay_, ""};
  }
  std::string Describe() const override {
    return absl::StrCat("failure-rate (", max_failures_, " per ", FormatMillis(interval_), ", ",
                        FormatMillis(delay_), ")");
  }

 private:
  const int64_t max_failures_;
  const Millis interval_;
  const Millis delay_;
  std::deque<Clock::time_point> failures_;
};

class ExponentialDelay : public RestartStrategy {
 public:
  struct Options {
    Millis initial{1000};
    Millis max{60000};
    double multiplier = 1.5;
    Millis reset_threshold{3600000};
    double jitter = 0.1;
    int64_t attempts_before_reset = INT64_MAX;
  };
  ExponentialDelay(Options o, std::function<double()> random)
      : o_(o), random_(std::move(random)), backoff_(o.initial) {}

  RestartDecision OnFailure(Clock::time_point now) override {
    if (has_failed_ && now - last_failure_ >= o_.reset_threshold) {
      backoff_ = o_.initial;
      attempts_ = 0;
    }
    has_failed_ = true;
    last_failure_ = now;
    if (++attempts_ > o_.attempts_before_reset) {
      return {false, Millis(0),
              absl::StrCat("the restart strategy exponential-delay allows ",
                           o_.attempts_before_reset, " restarts before its backoff resets")};
    }
    const double base = static_cast<double>(backoff_.count());
    const double jitter = o_.jitter * base * (2.0 * random_() - 1.0);  // in [-j, +j) * backoff
    const Millis delay(std::max<int64_t>(0, std::llround(base + jitter)));
    backoff_ = std::min(o_.max, Millis(std::llround(base * o_.multiplier)));
    return {true, delay, ""};
  }
  std::string Describe() const override {
    return absl::StrCat("exponential-delay (", FormatMillis(o_.initial), " to ",
                        FormatMillis(o_.max), ", x", o_.multiplier, ")");
  }

 private:
  const Options o_;
  std::function<double()> random_;
  Millis backoff_;
  int64_t attempts_ = 0;
  bool has_failed_ = false;
  Clock::time_point last_failure_;
};

// Typed reads of optional keys; an unparsable value is an error naming the key.
class Reader {
 public:
  explicit Reader(const std::map<std::string, std::string>& config) : config_(config) {}
  absl::StatusOr<Millis> Duration(const std::string& key, Millis def) const {
    auto it = config_.find(key);
    if (it == config_.end()) return def;
    auto ms = ParseDurationMillis(it->second);
    if (!ms || *ms < 0) return InvalidConfigValue(key, it->second, "a duration");
    return Millis(*ms);
  }
  absl::StatusOr<int64_t> Int(const std::string& key, int64_t def, int64_t min) const {
    auto it = config_.find(key);
    if (it == config_.end()) return def;
    int64_t v = 0;
    if (!absl::SimpleAtoi(it->second, &v) || v < min) {
      return InvalidConfigValue(key, it->second, absl::StrCat("an integer >= ", min));
    }
    return v;
  }
  absl::StatusOr<double> Double(const std::string& key, double def, double min, double max) const {
    auto it = config_.find(key);
    if (it == config_.end()) return def;
    double v = 0;
    if (!absl::SimpleAtod(it->second, &v) || v < min || v > max) {
      return InvalidConfigValue(key, it->second, absl::StrCat("a number from ", min, " to ", max));
    }
    return v;
  }

 private:
  const std::map<std::string, std::string>& config_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<RestartStrategy>> MakeRestartStrategy(
    const std::map<std::string, std::string>& config, bool checkpointing_enabled,
    std::function<double()> random) {
  std::string type = checkpointing_enabled ? "exponential-delay" : "none";
  if (auto it = config.find("restart-strategy.type"); it != config.end()) {
    type = absl::AsciiStrToLower(it->second);
  }
  const Reader r(config);
  if (type == "none" || type == "off" || type == "disable") return std::make_unique<NoRestart>();
  if (type == "fixed-delay" || type == "fixeddelay") {
    absl::StatusOr<int64_t> attempts = r.Int("restart-strategy.fixed-delay.attempts", 1, 0);
    absl::StatusOr<Millis> delay = r.Duration("restart-strategy.fixed-delay.delay", Millis(1000));
    if (!attempts.ok()) return attempts.status();
    if (!delay.ok()) return delay.status();
    return std::make_unique<FixedDelay>(*attempts, *delay);
  }
  if (type == "failure-rate" || type == "failurerate") {
    auto max = r.Int("restart-strategy.failure-rate.max-failures-per-interval", 1, 1);
    auto interval =
        r.Duration("restart-strategy.failure-rate.failure-rate-interval", Millis(60000));
    auto delay = r.Duration("restart-strategy.failure-rate.delay", Millis(1000));
    if (!max.ok()) return max.status();
    if (!interval.ok()) return interval.status();
    if (!delay.ok()) return delay.status();
    return std::make_unique<FailureRate>(*max, *interval, *delay);
  }
  if (type == "exponential-delay" || type == "exponentialdelay") {
    const std::string p = "restart-strategy.exponential-delay.";
    ExponentialDelay::Options o;
    auto initial = r.Duration(p + "initial-backoff", o.initial);
    auto max = r.Duration(p + "max-backoff", o.max);
    auto multiplier = r.Double(p + "backoff-multiplier", o.multiplier, 1.0, 1e6);
    auto reset = r.Duration(p + "reset-backoff-threshold", o.reset_threshold);
    auto jitter = r.Double(p + "jitter-factor", o.jitter, 0.0, 1.0);
    auto attempts = r.Int(p + "attempts-before-reset-backoff", o.attempts_before_reset, 1);
    for (const absl::Status& s : {initial.status(), max.status(), multiplier.status(),
                                  reset.status(), jitter.status(), attempts.status()}) {
      if (!s.ok()) return s;
    }
    o = {*initial, *max, *multiplier, *reset, *jitter, *attempts};
    if (o.initial > o.max) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", p, "initial-backoff' (", FormatMillis(o.initial), ") must not exceed '",
                       p, "max-backoff' (", FormatMillis(o.max), ")"));
    }
    if (!random) {
      auto rng = std::make_shared<std::mt19937_64>(std::random_device{}());
      random = [rng] { return std::uniform_real_distribution<double>(0.0, 1.0)(*rng); };
    }
    return std::make_unique<ExponentialDelay>(o, std::move(random));
  }
  return InvalidConfigValue("restart-strategy.type", type,
                            "one of none, fixed-delay, failure-rate, exponential-delay");
}

}  // namespace eddy
