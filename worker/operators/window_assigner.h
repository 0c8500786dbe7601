// Window arithmetic of the window TVFs (times in ms since the epoch): which windows a row
// belongs to, identified by their end, and where a window starts. TUMBLE: fixed windows of `size`;
// HOP: windows of `size` starting every `slide`; CUMULATE: windows that all start at a `size`
// boundary and end every `step` until `size`. `offset` shifts every window start.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/types/data_type.h"

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

  // What a windowing operator (`op` names it in the error) needs: positive sizes, and a TIMESTAMP
  // time column among `input_types`.
  absl::Status Validate(const char* op, const std::vector<DataType>& input_types,
                        int time_column) const {
    if (time_column < 0 || time_column >= static_cast<int>(input_types.size()) ||
        !input_types[time_column].IsTimestampLike()) {
      return absl::InvalidArgumentError(
          absl::StrCat(op, ": the time column must be a TIMESTAMP input"));
    }
    const bool sized =
        size > 0 && (kind != Kind::kHop || slide > 0) && (kind != Kind::kCumulate || step > 0);
    if (!sized)
      return absl::InvalidArgumentError(absl::StrCat(op, ": window sizes must be positive"));
    return absl::OkStatus();
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
