#include "common/types/time_zone.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "common/types/timestamp_precision.h"

namespace eddy {
namespace {

// "+8", "+08", "+0800", "+08:00", "+08:00:00" (sign required) into seconds; nullopt otherwise.
std::optional<int64_t> ParseOffset(std::string_view s) {
  if (s.empty() || (s[0] != '+' && s[0] != '-')) return std::nullopt;
  const int64_t sign = s[0] == '-' ? -1 : 1;
  s.remove_prefix(1);
  int parts[3] = {0, 0, 0};
  int n = 0;
  auto digits = [](std::string_view d, int* out) {
    if (d.empty() || d.size() > 2) return false;
    for (char c : d) {
      if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
    }
    return absl::SimpleAtoi(absl::string_view(d.data(), d.size()), out);
  };
  if (s.find(':') != std::string_view::npos) {
    while (n < 3) {
      size_t colon = s.find(':');
      if (!digits(s.substr(0, colon), &parts[n++])) return std::nullopt;
      if (colon == std::string_view::npos) break;
      s.remove_prefix(colon + 1);
      if (n == 3) return std::nullopt;
    }
  } else if (s.size() == 4) {
    if (!digits(s.substr(0, 2), &parts[0]) || !digits(s.substr(2), &parts[1])) return std::nullopt;
  } else if (!digits(s, &parts[0])) {
    return std::nullopt;
  }
  if (parts[0] > 18 || parts[1] > 59 || parts[2] > 59) return std::nullopt;
  const int64_t seconds = parts[0] * 3600 + parts[1] * 60 + parts[2];
  if (seconds > 18 * 3600) return std::nullopt;
  return sign * seconds;
}

}  // namespace

SessionTimeZone::SessionTimeZone()
    : name_(kDefaultTimeZone), zone_(absl::UTCTimeZone()), fixed_offset_seconds_(0) {}

absl::StatusOr<SessionTimeZone> SessionTimeZone::Parse(std::string_view name) {
  SessionTimeZone z;
  z.name_ = std::string(name);
  const std::string upper = absl::AsciiStrToUpper(absl::string_view(name.data(), name.size()));
  if (upper == "UTC" || upper == "GMT" || upper == "UT" || upper == "Z") return z;
  std::optional<int64_t> offset;
  for (const char* prefix : {"UTC", "GMT", "UT", ""}) {
    if (absl::StartsWith(upper, prefix)) {
      offset = ParseOffset(std::string_view(name).substr(std::string_view(prefix).size()));
      if (offset) break;
    }
  }
  if (offset) {
    z.fixed_offset_seconds_ = *offset;
    z.zone_ = absl::FixedTimeZone(static_cast<int>(*offset));
    return z;
  }
  // IANA names contain a '/' or are a few known words (e.g. 'Japan'); never a relative path.
  if (!name.empty() && name[0] != '/' && name.find("..") == std::string_view::npos &&
      absl::LoadTimeZone(std::string(name), &z.zone_)) {
    z.fixed_offset_seconds_.reset();
    return z;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown time zone '", std::string(name),
      "': expected 'UTC', a fixed offset such as 'GMT+08:00' or '+08:00', or a time zone "
      "database name such as 'America/Los_Angeles'"));
}

int64_t SessionTimeZone::OffsetSecondsAt(int64_t epoch_seconds) const {
  if (fixed_offset_seconds_) return *fixed_offset_seconds_;
  return zone_.At(absl::FromUnixSeconds(epoch_seconds)).offset;
}

int64_t SessionTimeZone::ToLocal(int64_t instant, int precision) const {
  const int64_t units = TimestampUnitsPerSecond(precision);
  return instant + OffsetSecondsAt(FloorDivide(instant, units)) * units;
}

int64_t SessionTimeZone::FromLocal(int64_t local, int precision) const {
  const int64_t units = TimestampUnitsPerSecond(precision);
  if (fixed_offset_seconds_) return local - *fixed_offset_seconds_ * units;
  const int64_t seconds = FloorDivide(local, units);
  const int64_t below = local - seconds * units;
  const absl::CivilSecond civil = absl::CivilSecond(1970, 1, 1, 0, 0, 0) + seconds;
  const absl::TimeZone::TimeInfo info = zone_.At(civil);
  // `pre` uses the offset in force before a transition: the later instant for a skipped time
  // (moved forward by the gap), the earlier one for a repeated time.
  return absl::ToUnixSeconds(info.pre) * units + below;
}

int64_t SessionTimeZone::WallClockProgress(int64_t instant_ms) const {
  const int64_t local = ToLocal(instant_ms, 3);
  if (fixed_offset_seconds_) return local;
  absl::TimeZone::CivilTransition transition;
  if (!zone_.NextTransition(absl::FromUnixMillis(instant_ms), &transition) ||
      transition.to >= transition.from) {
    return local;
  }
  // The clocks go back from `from` to `to`: local times from `to` on come again after it.
  const int64_t repeats_from_ms = (transition.to - absl::CivilSecond(1970, 1, 1, 0, 0, 0)) * 1000;
  return std::min(local, repeats_from_ms - 1);
}

std::string FormatValueInZone(const Value& v, const DataType& t, const SessionTimeZone& zone) {
  if (t.id != TypeId::kTimestampLtz || !v.is_int()) return FormatValue(v, t);
  return FormatValue(Value::Int(zone.ToLocal(v.int_value(), t.precision)),
                     DataType::Timestamp(t.precision));
}

}  // namespace eddy
