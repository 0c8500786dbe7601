// Typing of INTERVAL literals. Day-time intervals, as milliseconds: INTERVAL '5' SECOND,
// INTERVAL '1.5' SECOND, INTERVAL '10' MINUTE, INTERVAL '1 02:03:04.5' DAY TO SECOND, ..., which
// Flink types INTERVAL SECOND(3). Year-month intervals, as months: INTERVAL '1' YEAR,
// INTERVAL '14' MONTH, INTERVAL '1-2' YEAR TO MONTH, which Flink types INTERVAL MONTH.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

constexpr int64_t kMillisPer[] = {86400000, 3600000, 60000, 1000};  // DAY, HOUR, MINUTE, SECOND

int UnitIndex(const std::string& unit) {
  if (unit == "DAY") return 0;
  if (unit == "HOUR") return 1;
  if (unit == "MINUTE") return 2;
  if (unit == "SECOND") return 3;
  return -1;
}

// "12" or, for seconds, "12.345" (up to millisecond precision) -> milliseconds of `unit`.
bool ParseField(absl::string_view text, int unit, bool allow_fraction, int64_t* out) {
  absl::string_view whole = text, frac;
  if (size_t dot = text.find('.'); dot != absl::string_view::npos) {
    if (!allow_fraction) return false;
    whole = text.substr(0, dot);
    frac = text.substr(dot + 1);
    if (frac.empty() || frac.size() > 3) return false;
  }
  int64_t n = 0;
  if (whole.empty() || !absl::SimpleAtoi(whole, &n) || n < 0 ||
      n > INT64_MAX / kMillisPer[unit] / 2) {
    return false;
  }
  int64_t ms = 0;
  for (size_t i = 0; i < 3; ++i) {
    char c = i < frac.size() ? frac[i] : '0';
    if (c < '0' || c > '9') return false;
    ms = ms * 10 + (c - '0');
  }
  *out = n * kMillisPer[unit] + ms;
  return true;
}

// 'y' (YEAR), 'm' (MONTH) or 'y-m' (YEAR TO MONTH, m from 0 to 11) as months.
bool ParseYearMonth(absl::string_view text, bool years, bool months, int64_t* out) {
  constexpr int64_t kMaxMonths = INT32_MAX;
  int64_t y = 0, m = 0;
  if (years && months) {
    const size_t dash = text.find('-');
    if (dash == absl::string_view::npos || !absl::SimpleAtoi(text.substr(0, dash), &y) ||
        !absl::SimpleAtoi(text.substr(dash + 1), &m) || m > 11) {
      return false;
    }
  } else if (!absl::SimpleAtoi(text, years ? &y : &m)) {
    return false;
  }
  // Digits only (SimpleAtoi would take a sign or blanks).
  for (char c : text) {
    if (!(c >= '0' && c <= '9') && c != '-') return false;
  }
  if (y < 0 || m < 0 || y > kMaxMonths / 12) return false;
  *out = y * 12 + m;
  return *out <= kMaxMonths;
}

absl::StatusOr<ExprPtr> BindYearMonthInterval(const sql::Expr& e, const std::string& from,
                                              const std::string& to, absl::string_view text,
                                              bool negative) {
  const bool years = from == "YEAR";
  const bool months = to == "MONTH";
  if (from != to && !(years && months)) {
    return ValidationErrorAt(e.pos, absl::StrCat("invalid interval qualifier ", e.interval_unit));
  }
  int64_t total = 0;
  if (!ParseYearMonth(text, years, months, &total)) {
    return ValidationErrorAt(
        e.pos, absl::StrCat("invalid INTERVAL literal '", e.text, "' for ", e.interval_unit));
  }
  return MakeLiteral(Value::Int(negative ? -total : total),
                     DataType::IntervalYearMonth().WithNullable(false));
}

}  // namespace

absl::StatusOr<ExprPtr> BindIntervalLiteral(const sql::Expr& e, bool negate) {
  std::vector<std::string> units = absl::StrSplit(e.interval_unit, " TO ");
  absl::string_view text = absl::StripAsciiWhitespace(e.text);
  bool negative = negate;
  if (absl::ConsumePrefix(&text, "-")) {
    negative = !negative;
  } else {
    absl::ConsumePrefix(&text, "+");
  }
  auto year_month = [](const std::string& u) { return u == "YEAR" || u == "MONTH"; };
  if (year_month(units.front()) || year_month(units.back())) {
    if (!year_month(units.front()) || !year_month(units.back())) {
      return ValidationErrorAt(e.pos, absl::StrCat("invalid interval qualifier ", e.interval_unit));
    }
    return BindYearMonthInterval(e, units.front(), units.back(), text, negative);
  }
  const int from = UnitIndex(units.front());
  const int to = UnitIndex(units.back());
  if (from < 0 || to < 0 || to < from) {
    return ValidationErrorAt(e.pos, absl::StrCat("invalid interval qualifier ", e.interval_unit));
  }
  // Fields of DAY TO SECOND are 'd hh:mm:ss.fff': a space after the day, ':' between the others.
  std::vector<absl::string_view> fields;
  absl::string_view rest = text;
  if (from == 0 && to > 0) {
    size_t space = rest.find(' ');
    if (space == absl::string_view::npos) {
      fields.push_back("");  // reported as invalid below
    } else {
      fields.push_back(rest.substr(0, space));
      rest = absl::StripLeadingAsciiWhitespace(rest.substr(space + 1));
      for (absl::string_view f : absl::StrSplit(rest, ':')) {
        fields.push_back(f);
      }
    }
  } else {
    for (absl::string_view f : absl::StrSplit(rest, ':')) {
      fields.push_back(f);
    }
  }
  int64_t total = 0;
  bool ok = static_cast<int>(fields.size()) == to - from + 1;
  for (int i = 0; ok && i < static_cast<int>(fields.size()); ++i) {
    int64_t part = 0;
    ok = ParseField(fields[i], from + i, /*allow_fraction=*/from + i == 3, &part);
    total += part;
  }
  if (!ok) {
    return ValidationErrorAt(
        e.pos, absl::StrCat("invalid INTERVAL literal '", e.text, "' for ", e.interval_unit));
  }
  return MakeLiteral(Value::Int(negative ? -total : total),
                     DataType::Interval().WithNullable(false));
}

}  // namespace eddy::planner
