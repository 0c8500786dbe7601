// Restart strategies for jobs whose subtasks fail (Flink's `restart-strategy.*`): whether a failed
// job restarts from its latest completed checkpoint, and after how long.
//   none               never restart: the job fails (the default without checkpointing)
//   fixed-delay        up to `attempts` restarts, each after `delay`
//   failure-rate       restart after `delay` while at most `max-failures-per-interval` failures
//                      fall within the last `failure-rate-interval` (this one included)
//   exponential-delay  the default with checkpointing: the first restart after `initial-backoff`,
//                      each next one `backoff-multiplier` times later, at most `max-backoff`, with
//                      +/- `jitter-factor` of randomness; a failure after `reset-backoff-threshold`
//                      without one starts over at `initial-backoff`
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace eddy {

struct RestartDecision {
  bool restart = false;
  std::chrono::milliseconds delay{0};
  std::string why_not;  // when !restart: e.g. "the restart strategy fixed-delay allows 3 restarts"
};

class RestartStrategy {
 public:
  using Clock = std::chrono::steady_clock;
  virtual ~RestartStrategy() = default;
  // A failure of the job at `now`: restart, and after how long?
  virtual RestartDecision OnFailure(Clock::time_point now) = 0;
  // `fixed-delay (3 attempts, 1 s)`, for SHOW JOBS and logs.
  virtual std::string Describe() const = 0;
};

// The strategy `config` (session SET values) asks for. Values have been validated at SET, but are
// checked again here (an error names the key). `random` gives the jitter a value in [0, 1); by
// default a random generator.
absl::StatusOr<std::unique_ptr<RestartStrategy>> MakeRestartStrategy(
    const std::map<std::string, std::string>& config, bool checkpointing_enabled,
    std::function<double()> random = nullptr);

}  // namespace eddy
