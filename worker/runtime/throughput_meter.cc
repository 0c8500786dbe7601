#include "worker/runtime/throughput_meter.h"

namespace eddy {

void ThroughputMeter::SampleLocked(int64_t now_ns, const std::vector<uint64_t>& counters) {
  if (!points_.empty() && now_ns - points_.back().time_ns < spacing_ns_) return;
  points_.push_back({now_ns, counters});
  // The oldest sample stays while the next one still covers the whole window.
  while (points_.size() > 1 && now_ns - points_[1].time_ns >= window_ns_) points_.pop_front();
}

void ThroughputMeter::Sample(int64_t now_ns, const std::vector<uint64_t>& counters) {
  std::lock_guard<std::mutex> lock(mu_);
  SampleLocked(now_ns, counters);
}

void ThroughputMeter::Rates(int64_t now_ns, const std::vector<uint64_t>& counters,
                            std::vector<double>* out) {
  std::lock_guard<std::mutex> lock(mu_);
  SampleLocked(now_ns, counters);
  out->assign(counters.size(), 0.0);
  // The oldest point that lies within the window, or the newest older one when none does.
  const Point* base = &points_.front();
  for (const Point& p : points_) {
    if (now_ns - p.time_ns <= window_ns_) {
      base = &p;
      break;
    }
  }
  const int64_t elapsed = now_ns - base->time_ns;
  if (elapsed <= 0) return;
  const double seconds = static_cast<double>(elapsed) / 1e9;
  for (size_t i = 0; i < counters.size() && i < base->counters.size(); ++i) {
    const uint64_t then = base->counters[i];
    (*out)[i] = counters[i] > then ? static_cast<double>(counters[i] - then) / seconds : 0.0;
  }
}

}  // namespace eddy
