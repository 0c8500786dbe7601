// Rows per second of a set of running counters (Flink's MeterView behind numRecordsInPerSecond):
// the counters are sampled now and then (at most once per `spacing`; the worker samples at each
// heartbeat and each scrape, never per row), and a rate is a counter's growth since the oldest
// sample within the last `window` over the time between them. Before the window has filled, the
// rate is over the time since the first sample. Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

namespace eddy {

class ThroughputMeter {
 public:
  static constexpr std::chrono::seconds kDefaultWindow{60};  // Flink's MeterView time span
  static constexpr std::chrono::seconds kDefaultSpacing{1};

  explicit ThroughputMeter(std::chrono::nanoseconds window = kDefaultWindow,
                           std::chrono::nanoseconds spacing = kDefaultSpacing)
      : window_ns_(window.count()), spacing_ns_(spacing.count()) {}

  // Records `counters` as of steady-clock time `now_ns` unless the last sample is younger than the
  // spacing; drops samples that left the window (keeping at least one).
  void Sample(int64_t now_ns, const std::vector<uint64_t>& counters);
  // Sample, then sets out[i] to counter i's rate per second from the oldest sample in the window to
  // `counters` now (0 for a counter the oldest sample lacks, or when no time passed since it).
  void Rates(int64_t now_ns, const std::vector<uint64_t>& counters, std::vector<double>* out);

 private:
  struct Point {
    int64_t time_ns;
    std::vector<uint64_t> counters;
  };
  void SampleLocked(int64_t now_ns, const std::vector<uint64_t>& counters);

  const int64_t window_ns_;
  const int64_t spacing_ns_;
  std::mutex mu_;
  std::deque<Point> points_;  // oldest first
};

}  // namespace eddy
