// Event-time progress as it flows between operators, tasks and workers: a watermark W says no more
// rows with a rowtime <= W will arrive on that input. An idle input (a source partition without
// data for table.exec.source.idle-timeout) is left out of the minimum until it has data again.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace eddy {

inline constexpr int64_t kMinWatermark = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kMaxWatermark = std::numeric_limits<int64_t>::max();

struct Watermark {
  int64_t millis = kMinWatermark;  // event time, ms since the epoch
  bool idle = false;

  bool operator==(const Watermark& o) const { return millis == o.millis && idle == o.idle; }
};

// The watermark of an operator with several inputs (a union, an exchange gate's channels): the
// minimum over inputs that are neither idle nor ended; idle when every live input is idle. It
// never goes back: an input that turns active again behind the others does not lower it.
class WatermarkCombiner {
 public:
  explicit WatermarkCombiner(int num_inputs = 1)
      : inputs_(static_cast<size_t>(num_inputs)), ended_(static_cast<size_t>(num_inputs), false) {}

  void Resize(int num_inputs) {
    inputs_.assign(static_cast<size_t>(num_inputs), Watermark{});
    ended_.assign(static_cast<size_t>(num_inputs), false);
  }
  // The combined watermark when it changed (advanced, or went idle/active).
  std::optional<Watermark> Update(int input, const Watermark& w) {
    Watermark& in = inputs_[static_cast<size_t>(input)];
    in.millis = std::max(in.millis, w.millis);
    in.idle = w.idle;
    return Recompute();
  }
  // An ended input no longer holds the others back.
  std::optional<Watermark> EndInput(int input) {
    ended_[static_cast<size_t>(input)] = true;
    return Recompute();
  }
  const Watermark& current() const { return current_; }

 private:
  std::optional<Watermark> Recompute() {
    bool any_live = false, all_idle = true;
    int64_t min = kMaxWatermark;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (ended_[i]) continue;
      any_live = true;
      if (inputs_[i].idle) continue;
      all_idle = false;
      min = std::min(min, inputs_[i].millis);
    }
    if (!any_live) return std::nullopt;  // end of input: the operator's Finish follows
    Watermark next = current_;
    next.idle = all_idle;
    if (!all_idle) next.millis = std::max(current_.millis, min);
    if (next == current_) return std::nullopt;
    current_ = next;
    return current_;
  }

  std::vector<Watermark> inputs_;
  std::vector<bool> ended_;
  Watermark current_;
};

}  // namespace eddy
