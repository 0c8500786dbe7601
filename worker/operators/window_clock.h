// The clock a window operator counts its windows in. Windows of a TIMESTAMP time attribute, and of
// a TIMESTAMP_LTZ one in UTC, count in the attribute's values. Windows of a TIMESTAMP_LTZ attribute
// in another session time zone (table.local-time-zone) count in that zone's wall clock, as Flink
// aligns them: a one-day TUMBLE in 'Asia/Shanghai' runs from midnight to midnight there, its
// window_start and window_end are that wall clock (TIMESTAMP(3)) and its window_time is the
// instant of window_end - 1 (TIMESTAMP_LTZ(3)). Watermarks stay instants on the wire; an operator
// compares its windows with Progress(watermark).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "common/types/time_zone.h"
#include "worker/operators/watermark.h"

namespace eddy {

class WindowClock {
 public:
  // Counts in the attribute's own values.
  WindowClock() = default;

  // The clock of `zone_name` (a plan's local_time_zone); empty: the attribute's own values.
  static absl::StatusOr<WindowClock> ForZone(std::string_view zone_name) {
    WindowClock clock;
    if (zone_name.empty()) return clock;
    absl::StatusOr<SessionTimeZone> zone = SessionTimeZone::Parse(zone_name);
    if (!zone.ok()) return zone.status();
    if (!zone->IsUtc()) clock.zone_ = *std::move(zone);
    return clock;
  }

  bool shifted() const { return zone_.has_value(); }

  // A row's time (ms) on this clock.
  int64_t RowTime(int64_t instant_ms) const {
    return zone_ ? zone_->ToLocal(instant_ms, 3) : instant_ms;
  }

  // How far the watermark `watermark_ms` (an instant) has come on this clock: a window ending at
  // `end` has fired once end - 1 <= Progress(watermark). Never goes backwards, also where the zone
  // turns its clocks back (SessionTimeZone::WallClockProgress).
  int64_t Progress(int64_t watermark_ms) const {
    if (!zone_ || watermark_ms == kMinWatermark || watermark_ms == kMaxWatermark) {
      return watermark_ms;
    }
    return zone_->WallClockProgress(watermark_ms);
  }

  // window_time of the window ending at `end`: end - 1 on this clock, as an instant.
  int64_t WindowTime(int64_t end) const { return zone_ ? zone_->FromLocal(end - 1, 3) : end - 1; }

 private:
  std::optional<SessionTimeZone> zone_;
};

}  // namespace eddy
