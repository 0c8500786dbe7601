// Java date-time patterns ('yyyy-MM-dd HH:mm:ss', as DateTimeFormatter / SimpleDateFormat write
// them) for DATE_FORMAT, FROM_UNIXTIME and UNIX_TIMESTAMP, plus the civil-calendar arithmetic of
// the time functions. Times are UTC: Eddy has no session time zone.
//
// Pattern letters: y (year; yy = two digits), M (month; MMM Jan, MMMM January), d (day of month),
// D (day of year), Q (quarter), E (EEE Mon, EEEE Monday), a (AM/PM), H (0-23), k (1-24),
// K (0-11), h (1-12), m, s, S (fraction of a second: SSS milliseconds), X / x / Z (zone offset,
// UTC when formatting). 'text' is literal ('' a quote); other non-letters are literal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace eddy {

struct CivilFields {
  int64_t year;
  int month;  // 1-12
  int day;    // 1-31
};

// Days since 1970-01-01 <-> year/month/day (proleptic Gregorian).
CivilFields CivilFromDays(int64_t days);
int64_t DaysFromCivil(int64_t year, int month, int day);
int DaysInMonth(int64_t year, int month);
// Adds `months` to a day, clamping the day of month to the month's last (Jan 31 + 1 month = Feb 28
// or 29).
int64_t AddMonthsToDays(int64_t days, int64_t months);

class DateTimePattern {
 public:
  // InvalidArgument "Invalid date-time pattern 'yyyy-qq': unknown letter 'q'".
  static absl::StatusOr<DateTimePattern> Compile(std::string_view pattern);

  // Appends `millis` (since the epoch, UTC) formatted.
  void Format(int64_t millis, std::string* out) const;
  // Reads a time from the start of `text`; false when it does not match. Text after the pattern
  // is ignored (as SimpleDateFormat.parse does) unless `whole` (as DateTimeFormatter.parse). A
  // zone offset in the text applies; otherwise the time is UTC.
  bool Parse(std::string_view text, int64_t* millis, bool whole = false) const;

 private:
  struct Field {
    char letter = 0;  // 0: literal
    int count = 0;
    std::string literal;
  };
  std::vector<Field> fields_;
};

}  // namespace eddy
