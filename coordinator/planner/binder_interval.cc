// Typing of INTERVAL literals (day-time intervals only, as milliseconds): INTERVAL '5' SECOND,
// INTERVAL '1.5' SECOND, INTERVAL '10' MINUTE, INTERVAL '1 02:03:04.5' DAY TO SECOND, ... Flink
// types them INTERVAL SECOND(3); year-month intervals (MONTH, YEAR) are not supported yet.
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

}  // namespace

absl::StatusOr<ExprPtr> BindIntervalLiteral(const sql::Expr& e, bool negate) {
  std::vector<std::string> units = absl::StrSplit(e.interval_unit, " TO ");
  const int from = UnitIndex(units.front());
  const int to = UnitIndex(units.back());
  if (from < 0 || to < 0) {
    return ValidationErrorAt(e.pos, absl::StrCat("year-month intervals (INTERVAL ... ",
                                                 e.interval_unit, ") are not supported yet"));
  }
  if (to < from) {
    return ValidationErrorAt(e.pos, absl::StrCat("invalid interval qualifier ", e.interval_unit));
  }
  absl::string_view text = absl::StripAsciiWhitespace(e.text);
  bool negative = negate;
  if (absl::ConsumePrefix(&text, "-")) {
    negative = !negative;
  } else {
    absl::ConsumePrefix(&text, "+");
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
