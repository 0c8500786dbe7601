// Window arithmetic of the window TVFs (times in ms since the epoch): which windows a row
// belongs to, identified by their end, and where a window starts. TUMBLE: fixed windows of `size`;
// HOP: windows of `size` starting every `slide`; CUMULATE: windows that all start at a `size`
// boundary and end every `step` until `size`. `offset` shifts every window start.
#pragma once

#include <cstdint>
#include <vector>

namespace eddy {

struct WindowShape {
  enum class Kind { kTumble, kHop, kCumulate } kind = Kind::kTumble;
  int64_t size = 0;
  int64_t slide = 0;  // HOP
  int64_t step = 0;   // CUMULATE
  int64_t offset = 0;

  // Start of the `period`-aligned window containing `ts`.
  int64_t AlignedStart(int64_t ts, int64_t period) const {
    int64_t r = (ts - offset) % period;
    if (r < 0) r += period;
    return ts - r;
  }

  // Ends of the windows containing `ts`, ascending, appended to `ends`.
  void AssignEnds(int64_t ts, std::vector<int64_t>* ends) const {
    switch (kind) {
      case Kind::kTumble:
        ends->push_back(AlignedStart(ts, size) + size);
        return;
      case Kind::kHop: {
        // Starts s with s <= ts < s + size, every `slide`: from the earliest to the latest.
        const int64_t last = AlignedStart(ts, slide);
        int64_t first = last;
        while (first - slide > ts - size) first -= slide;
        for (int64_t s = first; s <= last; s += slide) ends->push_back(s + size);
        return;
      }
      case Kind::kCumulate: {
        const int64_t start = AlignedStart(ts, size);
        for (int64_t e = start + ((ts - start) / step + 1) * step; e <= start + size; e += step) {
          ends->push_back(e);
        }
        return;
      }
    }
  }

  int64_t MaxWindowsPerRow() const {
    switch (kind) {
      case Kind::kTumble:
        return 1;
      case Kind::kHop:
        return (size + slide - 1) / slide;
      case Kind::kCumulate:
        return (size + step - 1) / step;
    }
    return 1;
  }

  int64_t StartOf(int64_t end) const {
    if (kind == Kind::kCumulate) return AlignedStart(end - 1, size);
    return end - size;
  }
};

}  // namespace eddy
