// The session time zone (table.local-time-zone) and the conversions of TIMESTAMP_LTZ values, which
// are instants, to and from the wall-clock TIMESTAMP values of that zone. Names as Flink accepts
// them: 'UTC', fixed offsets ('GMT+08:00', '+08:00', 'UTC-03:30') and IANA names
// ('Asia/Shanghai', read from the system's zone files).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/types/data_type.h"
#include "common/types/value.h"

namespace eddy {

inline constexpr char kLocalTimeZoneKey[] = "table.local-time-zone";
inline constexpr char kDefaultTimeZone[] = "UTC";

class SessionTimeZone {
 public:
  // UTC.
  SessionTimeZone();
  // The zone `name` names; InvalidArgument "unknown time zone 'Mars/Base'" when it names none.
  static absl::StatusOr<SessionTimeZone> Parse(std::string_view name);

  const std::string& name() const { return name_; }
  bool IsUtc() const { return fixed_offset_seconds_ == 0; }

  // Seconds east of UTC at the instant `epoch_seconds`.
  int64_t OffsetSecondsAt(int64_t epoch_seconds) const;
  // A TIMESTAMP_LTZ(precision) value as the zone's wall clock, a TIMESTAMP(precision) value.
  int64_t ToLocal(int64_t instant, int precision) const;
  // A wall-clock TIMESTAMP(precision) value as the instant it names in the zone. A time the zone
  // skips (a daylight-saving gap) moves later by the gap's length; a time it repeats takes the
  // earlier offset, as Java's LocalDateTime.atZone.
  int64_t FromLocal(int64_t local, int precision) const;
  // The wall-clock time (ms) the instant `instant_ms` has reached, for comparing with window ends:
  // ToLocal, except that in the hour before the zone turns its clocks back it stays just below the
  // hour about to repeat, so it never goes backwards and a window ending in the repeated hour
  // waits for its later instant (as Flink's window timers).
  int64_t WallClockProgress(int64_t instant_ms) const;

 private:
  std::string name_;
  absl::TimeZone zone_;
  std::optional<int64_t> fixed_offset_seconds_;  // set for UTC and fixed offsets
};

// `v` of type `t` as FormatValue writes it, a TIMESTAMP_LTZ as the zone's wall clock (how the SQL
// client shows it).
std::string FormatValueInZone(const Value& v, const DataType& t, const SessionTimeZone& zone);

}  // namespace eddy
