#include "common/expr/datetime_pattern.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace eddy {

CivilFields CivilFromDays(int64_t z) {
  // Howard Hinnant's days-to-civil algorithm.
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {yoe + era * 400 + (m <= 2), m, d};
}

int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int DaysInMonth(int64_t y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

int64_t AddMonthsToDays(int64_t days, int64_t months) {
  CivilFields c = CivilFromDays(days);
  int64_t total = c.year * 12 + (c.month - 1) + months;
  int64_t y = total >= 0 ? total / 12 : (total - 11) / 12;
  int m = static_cast<int>(total - y * 12) + 1;
  return DaysFromCivil(y, m, std::min(c.day, DaysInMonth(y, m)));
}

namespace {

constexpr const char* kMonths[] = {"January",   "February", "March",    "April",
                                   "May",       "June",     "July",     "August",
                                   "September", "October",  "November", "December"};
constexpr const char* kWeekdays[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                     "Friday", "Saturday", "Sunday"};

constexpr int64_t kMillisPerDay = 86400000;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

void AppendNumber(int64_t v, int width, std::string* out) {
  char buf[32];
  if (v < 0) {
    out->push_back('-');
    v = -v;
  }
  int len = std::snprintf(buf, sizeof(buf), "%0*lld", width, static_cast<long long>(v));
  out->append(buf, len);
}

}  // namespace

absl::StatusOr<DateTimePattern> DateTimePattern::Compile(std::string_view pattern) {
  DateTimePattern p;
  auto literal = [&](char c) {
    if (p.fields_.empty() || p.fields_.back().letter != 0) p.fields_.emplace_back();
    p.fields_.back().literal.push_back(c);
  };
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if (c == '\'') {
      size_t end = i + 1;
      if (end < pattern.size() && pattern[end] == '\'') {  // '' is a quote
        literal('\'');
        i += 2;
        continue;
      }
      while (true) {
        if (end >= pattern.size()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Invalid date-time pattern '", absl::string_view(pattern.data(), pattern.size()),
              "': unterminated quote"));
        }
        if (pattern[end] == '\'') {
          if (end + 1 < pattern.size() && pattern[end + 1] == '\'') {
            literal('\'');
            end += 2;
            continue;
          }
          break;
        }
        literal(pattern[end++]);
      }
      i = end + 1;
      continue;
    }
    if (!absl::ascii_isalpha(static_cast<unsigned char>(c))) {
      literal(c);
      ++i;
      continue;
    }
    if (std::string_view("yMdDQEaHkKhmsSXxZ").find(c) == std::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Invalid date-time pattern '", absl::string_view(pattern.data(), pattern.size()),
          "': unknown letter '", std::string(1, c), "'"));
    }
    size_t end = i;
    while (end < pattern.size() && pattern[end] == c) ++end;
    Field f;
    f.letter = c;
    f.count = static_cast<int>(end - i);
    p.fields_.push_back(std::move(f));
    i = end;
  }
  return p;
}

void DateTimePattern::Format(int64_t millis, std::string* out) const {
  const int64_t days = FloorDiv(millis, kMillisPerDay);
  const int64_t ms_of_day = millis - days * kMillisPerDay;
  const CivilFields c = CivilFromDays(days);
  const int hour = static_cast<int>(ms_of_day / 3600000);
  const int minute = static_cast<int>(ms_of_day / 60000 % 60);
  const int second = static_cast<int>(ms_of_day / 1000 % 60);
  const int ms = static_cast<int>(ms_of_day % 1000);
  for (const Field& f : fields_) {
    const int n = f.count;
    switch (f.letter) {
      case 0:
        out->append(f.literal);
        break;
      case 'y':
        if (n == 2) {
          AppendNumber(((c.year % 100) + 100) % 100, 2, out);
        } else {
          AppendNumber(c.year, n, out);
        }
        break;
      case 'M':
        if (n >= 4) {
          out->append(kMonths[c.month - 1]);
        } else if (n == 3) {
          out->append(kMonths[c.month - 1], 3);
        } else {
          AppendNumber(c.month, n, out);
        }
        break;
      case 'd':
        AppendNumber(c.day, n, out);
        break;
      case 'D':
        AppendNumber(days - DaysFromCivil(c.year, 1, 1) + 1, n, out);
        break;
      case 'Q':
        AppendNumber((c.month - 1) / 3 + 1, n, out);
        break;
      case 'E': {
        const int64_t dow = ((days % 7) + 7 + 3) % 7;  // 1970-01-01 was a Thursday
        out->append(n >= 4 ? std::string(kWeekdays[dow]) : std::string(kWeekdays[dow], 3));
        break;
      }
      case 'a':
        out->append(hour < 12 ? "AM" : "PM");
        break;
      case 'H':
        AppendNumber(hour, n, out);
        break;
      case 'k':
        AppendNumber(hour == 0 ? 24 : hour, n, out);
        break;
      case 'K':
        AppendNumber(hour % 12, n, out);
        break;
      case 'h':
        AppendNumber(hour % 12 == 0 ? 12 : hour % 12, n, out);
        break;
      case 'm':
        AppendNumber(minute, n, out);
        break;
      case 's':
        AppendNumber(second, n, out);
        break;
      case 'S': {
        char buf[16];
        std::snprintf(buf, sizeof(buf), "%03d000000", ms);
        out->append(buf, std::min(n, 9));
        break;
      }
      case 'X':
        out->append("Z");
        break;
      case 'x':
        out->append(n == 1 ? "+00" : n == 3 || n == 5 ? "+00:00" : "+0000");
        break;
      case 'Z':
        out->append(n == 4 ? "GMT" : n == 5 ? "Z" : "+0000");
        break;
    }
  }
}

namespace {

bool SameIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (absl::ascii_tolower(static_cast<unsigned char>(a[i])) !=
        absl::ascii_tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

bool ReadNumber(std::string_view text, size_t* pos, int max_digits, int64_t* value,
                bool allow_sign = false) {
  size_t i = *pos;
  bool negative = false;
  if (allow_sign && i < text.size() && (text[i] == '-' || text[i] == '+')) {
    negative = text[i] == '-';
    ++i;
  }
  size_t start = i;
  int64_t v = 0;
  while (i < text.size() && i - start < static_cast<size_t>(max_digits) &&
         absl::ascii_isdigit(static_cast<unsigned char>(text[i]))) {
    v = v * 10 + (text[i] - '0');
    ++i;
  }
  if (i == start) return false;
  *pos = i;
  *value = negative ? -v : v;
  return true;
}

// Index of the name among `names` that `text` starts with at *pos (full name, or its first three
// letters), case-insensitively; -1 when none.
int ReadName(std::string_view text, size_t* pos, const char* const* names, int count) {
  for (int full = 1; full >= 0; --full) {
    for (int k = 0; k < count; ++k) {
      std::string_view name = names[k];
      if (!full) name = name.substr(0, 3);
      if (text.size() - *pos >= name.size() &&
          SameIgnoringCase(text.substr(*pos, name.size()), name)) {
        *pos += name.size();
        return k;
      }
    }
  }
  return -1;
}

bool IsNumericLetter(char c) {
  return std::string_view("yMdDQHkKhmsS").find(c) != std::string_view::npos;
}

}  // namespace

bool DateTimePattern::Parse(std::string_view text, int64_t* millis, bool whole) const {
  int64_t year = 1970, month = 1, day = 1, day_of_year = -1, hour = 0, minute = 0, second = 0;
  int64_t fraction_ms = 0, offset_minutes = 0;
  int pm = -1;  // from 'a'
  bool twelve = false;
  size_t pos = 0;
  for (size_t k = 0; k < fields_.size(); ++k) {
    const Field& f = fields_[k];
    if (f.letter == 0) {
      if (text.substr(pos, f.literal.size()) != f.literal) return false;
      pos += f.literal.size();
      continue;
    }
    // Adjacent numeric fields (yyyyMMdd) take exactly their width.
    const bool adjacent = k + 1 < fields_.size() && fields_[k + 1].letter != 0 &&
                          IsNumericLetter(fields_[k + 1].letter);
    const int width = adjacent ? f.count : 10;
    int64_t v = 0;
    switch (f.letter) {
      case 'y':
        if (!ReadNumber(text, &pos, f.count == 2 ? 2 : width, &v, f.count != 2)) return false;
        year = f.count == 2 ? 2000 + v : v;
        break;
      case 'M':
        if (f.count >= 3) {
          int m = ReadName(text, &pos, kMonths, 12);
          if (m < 0) return false;
          month = m + 1;
        } else {
          if (!ReadNumber(text, &pos, width, &month)) return false;
        }
        break;
      case 'd':
        if (!ReadNumber(text, &pos, width, &day)) return false;
        break;
      case 'D':
        if (!ReadNumber(text, &pos, width, &day_of_year)) return false;
        break;
      case 'Q':
        if (!ReadNumber(text, &pos, width, &v)) return false;
        break;
      case 'E':
        if (ReadName(text, &pos, kWeekdays, 7) < 0) return false;
        break;
      case 'a':
        if (SameIgnoringCase(text.substr(pos, 2), "AM")) {
          pm = 0;
        } else if (SameIgnoringCase(text.substr(pos, 2), "PM")) {
          pm = 1;
        } else {
          return false;
        }
        pos += 2;
        break;
      case 'H':
      case 'k':
      case 'K':
      case 'h':
        if (!ReadNumber(text, &pos, width, &hour)) return false;
        if (f.letter == 'k' && hour == 24) hour = 0;
        if (f.letter == 'h' || f.letter == 'K') twelve = true;
        if (f.letter == 'h' && hour == 12) hour = 0;
        break;
      case 'm':
        if (!ReadNumber(text, &pos, width, &minute)) return false;
        break;
      case 's':
        if (!ReadNumber(text, &pos, width, &second)) return false;
        break;
      case 'S': {
        const size_t start = pos;
        if (!ReadNumber(text, &pos, adjacent ? f.count : 9, &v)) return false;
        int digits = static_cast<int>(pos - start);
        while (digits < 3) {
          v *= 10;
          ++digits;
        }
        while (digits > 3) {
          v /= 10;
          --digits;
        }
        fraction_ms = v;
        break;
      }
      case 'X':
      case 'x':
      case 'Z': {
        if (pos < text.size() && text[pos] == 'Z') {
          ++pos;
          break;
        }
        if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) return false;
        const int sign = text[pos++] == '-' ? -1 : 1;
        int64_t hh = 0, mm = 0;
        if (!ReadNumber(text, &pos, 2, &hh)) return false;
        if (pos < text.size() && text[pos] == ':') ++pos;
        size_t before = pos;
        if (!ReadNumber(text, &pos, 2, &mm)) pos = before;
        offset_minutes = sign * (hh * 60 + mm);
        break;
      }
    }
  }
  if (whole && pos != text.size()) return false;
  if (pm == 1 && twelve) hour += 12;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  int64_t days;
  if (day_of_year > 0) {
    days = DaysFromCivil(year, 1, 1) + day_of_year - 1;
  } else {
    if (day < 1 || day > DaysInMonth(year, static_cast<int>(month))) return false;
    days = DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  }
  *millis = days * kMillisPerDay + ((hour * 60 + minute) * 60 + second) * 1000 + fraction_ms -
            offset_minutes * 60000;
  return true;
}

}  // namespace eddy
