#include "common/types/value.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "common/types/binary_text.h"
#include "common/types/collection_codec.h"
#include "common/types/timestamp_precision.h"

namespace eddy {

std::string FormatDouble(double d) { return FormatApproximate(d, false); }

std::string FormatFloat(float f) { return FormatApproximate(f, true); }

std::string FormatApproximate(double d, bool as_float) {
  // Shortest digits that read back as the same value (as float for FLOAT columns).
  auto round_trips = [as_float, d](const std::string& s) {
    return as_float ? std::strtof(s.c_str(), nullptr) == static_cast<float>(d)
                    : std::strtod(s.c_str(), nullptr) == d;
  };
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
  double a = std::fabs(d);
  if (a >= 1e-3 && a < 1e7) {
    // Shortest round-trip digits in plain notation, with at least one fractional digit.
    for (int prec = 1; prec <= 17; ++prec) {
      std::string s = absl::StrFormat("%.*f", prec, d);
      if (round_trips(s)) {
        while (s.size() > 2 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
        return s;
      }
    }
    return absl::StrFormat("%.17f", d);
  }
  // Scientific: mantissa with at least one fractional digit, then E and the exponent.
  for (int prec = 0; prec <= 16; ++prec) {
    std::string s = absl::StrFormat("%.*e", prec, d);
    if (round_trips(s)) {
      size_t e = s.find('e');
      std::string mant = s.substr(0, e);
      int exp = std::atoi(s.c_str() + e + 1);
      if (mant.find('.') == std::string::npos) mant += ".0";
      return absl::StrCat(mant, "E", exp);
    }
  }
  return absl::StrFormat("%g", d);
}

std::string FormatDecimal(int64_t unscaled, int scale) {
  bool negative = unscaled < 0;
  uint64_t mag = negative ? 0 - static_cast<uint64_t>(unscaled) : static_cast<uint64_t>(unscaled);
  std::string digits = std::to_string(mag);
  if (scale > 0) {
    if (static_cast<int>(digits.size()) <= scale) {
      digits = std::string(scale - digits.size() + 1, '0') + digits;
    }
    const size_t point = digits.size() - scale;
    digits = digits.substr(0, point) + "." + digits.substr(point);
  }
  return negative ? "-" + digits : digits;
}

std::string FormatDate(int32_t days) {
  absl::CivilDay day = absl::CivilDay(1970, 1, 1) + days;
  return absl::StrFormat("%04d-%02d-%02d", day.year(), day.month(), day.day());
}

std::string FormatTime(int32_t millis_of_day, int precision) {
  int64_t t = millis_of_day % 86400000;
  if (t < 0) t += 86400000;
  std::string s = absl::StrFormat("%02d:%02d:%02d", t / 3600000, t / 60000 % 60, t / 1000 % 60);
  if (precision > 0) {
    // Flink's formatTimestampMillis: digits while the rest of the milliseconds is not zero.
    s += '.';
    int ms = static_cast<int>(t % 1000);
    for (int k = 0; k < precision; ++k) {
      s += static_cast<char>('0' + ms / 100);
      ms = ms % 100 * 10;
      if (ms == 0) break;
    }
  }
  return s;
}

std::string FormatInterval(int64_t millis) {
  const char sign = millis < 0 ? '-' : '+';
  uint64_t m = millis < 0 ? 0 - static_cast<uint64_t>(millis) : static_cast<uint64_t>(millis);
  return absl::StrFormat("%c%d %02d:%02d:%02d.%03d", sign, m / 86400000, m / 3600000 % 24,
                         m / 60000 % 60, m / 1000 % 60, m % 1000);
}

std::string FormatIntervalYearMonth(int64_t months) {
  const char sign = months < 0 ? '-' : '+';
  uint64_t m = months < 0 ? 0 - static_cast<uint64_t>(months) : static_cast<uint64_t>(months);
  return absl::StrFormat("%c%d-%02d", sign, m / 12, m % 12);
}

std::string FormatTimestamp(int64_t value, int precision) {
  const int64_t unit = TimestampUnitsPerSecond(precision);
  const int64_t secs = FloorDivide(value, unit);
  const int64_t fraction = value - secs * unit;
  absl::CivilSecond t = absl::CivilSecond(1970, 1, 1, 0, 0, 0) + secs;
  std::string s = absl::StrFormat("%04d-%02d-%02d %02d:%02d:%02d", t.year(), t.month(), t.day(),
                                  t.hour(), t.minute(), t.second());
  if (precision > 0) {
    const int unit_digits = unit == 1000 ? 3 : unit == 1000000 ? 6 : 9;
    std::string frac = absl::StrFormat("%0*d", unit_digits, fraction);
    frac.resize(precision, '0');
    absl::StrAppend(&s, ".", frac);
  }
  return s;
}

std::string FormatValue(const Value& v, const DataType& type) {
  if (v.is_null()) return "null";
  switch (type.id) {
    case TypeId::kBoolean:
      return v.bool_value() ? "true" : "false";
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt:
      return std::to_string(v.int_value());
    case TypeId::kFloat:
      return FormatFloat(static_cast<float>(v.double_value()));
    case TypeId::kDouble:
      return FormatDouble(v.double_value());
    case TypeId::kDecimal:
      return FormatDecimal(v.int_value(), type.scale);
    case TypeId::kString:
      return v.string_value();
    case TypeId::kBinary:
      return FormatBinary(v.string_value());
    case TypeId::kDate:
      return FormatDate(static_cast<int32_t>(v.int_value()));
    case TypeId::kTime:
      return FormatTime(static_cast<int32_t>(v.int_value()), type.precision);
    case TypeId::kTimestamp:
      return FormatTimestamp(v.int_value(), type.precision);
    case TypeId::kTimestampLtz:  // the instant in UTC; FormatValueInZone shows it in a zone
      return FormatTimestamp(v.int_value(), type.precision);
    case TypeId::kNull:
      return "null";
    case TypeId::kInterval:
      return FormatInterval(v.int_value());
    case TypeId::kIntervalYearMonth:
      return FormatIntervalYearMonth(v.int_value());
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return FormatCollection(v.string_value(), type);
  }
  return "?";
}

}  // namespace eddy
