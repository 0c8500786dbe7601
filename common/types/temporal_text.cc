#include "common/types/temporal_text.h"

#include "absl/strings/ascii.h"
#include "absl/time/civil_time.h"
#include "common/types/timestamp_precision.h"

namespace eddy {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

// Reads 1..max_digits digits at s[*i].
bool Digits(std::string_view s, size_t* i, int max_digits, int* out) {
  int v = 0, k = 0;
  while (*i < s.size() && k < max_digits &&
         absl::ascii_isdigit(static_cast<unsigned char>(s[*i]))) {
    v = v * 10 + (s[(*i)++] - '0');
    ++k;
  }
  *out = v;
  return k > 0;
}

bool ParseDatePart(std::string_view s, size_t* i, int32_t* days) {
  int y, m, d;
  if (!Digits(s, i, 4, &y) || *i >= s.size() || s[(*i)++] != '-') return false;
  if (!Digits(s, i, 2, &m) || *i >= s.size() || s[(*i)++] != '-') return false;
  if (!Digits(s, i, 2, &d)) return false;
  absl::CivilDay day(y, m, d);
  if (day.year() != y || day.month() != m || day.day() != d) return false;  // e.g. 2024-02-30
  *days = static_cast<int32_t>(day - absl::CivilDay(1970, 1, 1));
  return true;
}

// A time of day `hh:mm[:ss[.f...]]` (at most nine fractional digits): its fields, the fraction as
// nanoseconds and how many of its digits were given.
struct Clock {
  int hour = 0, minute = 0, second = 0, digits = 0;
  int64_t nanos = 0;
};

// Reads a clock at s[*i], which must end the text, and checks its fields' ranges.
bool ParseClockToEnd(std::string_view s, size_t* i, Clock* c) {
  if (!Digits(s, i, 2, &c->hour) || *i >= s.size() || s[(*i)++] != ':' ||
      !Digits(s, i, 2, &c->minute)) {
    return false;
  }
  if (*i < s.size() && s[*i] == ':') {
    ++*i;
    if (!Digits(s, i, 2, &c->second)) return false;
    if (*i < s.size() && s[*i] == '.') {
      ++*i;
      while (*i < s.size() && absl::ascii_isdigit(static_cast<unsigned char>(s[*i])) &&
             c->digits < 9) {
        c->nanos = c->nanos * 10 + (s[(*i)++] - '0');
        ++c->digits;
      }
      if (c->digits == 0) return false;
      for (int k = c->digits; k < 9; ++k) c->nanos *= 10;
    }
  }
  return *i == s.size() && c->hour <= 23 && c->minute <= 59 && c->second <= 59;
}

}  // namespace

bool ParseDateText(std::string_view s, int32_t* out) {
  s = Trim(s);
  size_t i = 0;
  return ParseDatePart(s, &i, out) && i == s.size();
}

bool ParseTimestampText(std::string_view s, int64_t* millis) {
  return ParseTimestampText(s, 3, millis, nullptr);
}

// 'yyyy-mm-dd[( |T)hh:mm[:ss[.fffffffff]]]'; digits beyond `precision` are truncated.
bool ParseTimestampText(std::string_view s, int precision, int64_t* out, int* fraction_digits) {
  s = Trim(s);
  size_t i = 0;
  int32_t days;
  if (!ParseDatePart(s, &i, &days)) return false;
  Clock c;
  if (i < s.size()) {
    if (s[i] != ' ' && s[i] != 'T') return false;
    ++i;
    if (!ParseClockToEnd(s, &i, &c)) return false;
  }
  if (fraction_digits != nullptr) *fraction_digits = c.digits;
  const int64_t seconds =
      static_cast<int64_t>(days) * 86400 + c.hour * 3600 + c.minute * 60 + c.second;
  const int64_t unit = TimestampUnitsPerSecond(precision);
  int64_t v;
  if (__builtin_mul_overflow(seconds, unit, &v) ||
      __builtin_add_overflow(v, c.nanos / (1000000000 / unit), &v)) {
    return false;
  }
  return RescaleTimestamp(v, precision, precision, out);
}

bool ParseTimeText(std::string_view s, int precision, int32_t* out, int* fraction_digits) {
  s = Trim(s);
  size_t i = 0;
  Clock c;
  if (!ParseClockToEnd(s, &i, &c)) return false;
  int millis = static_cast<int>(c.nanos / 1000000);
  // Keep `precision` fractional digits of the milliseconds.
  static constexpr int kDrop[] = {1000, 100, 10};
  if (precision < 3) millis -= millis % kDrop[precision < 0 ? 0 : precision];
  if (fraction_digits != nullptr) *fraction_digits = c.digits;
  *out = ((c.hour * 60 + c.minute) * 60 + c.second) * 1000 + millis;
  return true;
}

}  // namespace eddy
