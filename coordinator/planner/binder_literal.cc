// Typing of SQL literals: integers are INT when they fit, else BIGINT; 1.5 is DECIMAL(2, 1); 1e3 is
// DOUBLE; strings are VARCHAR(n) (Flink types them CHAR(n); we have no blank-padded CHAR); DATE and
// TIMESTAMP literals are parsed to days / milliseconds since the epoch. All NOT NULL except NULL.
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Reads exactly `n`.. digits at `*i`: returns false when absent.
bool ReadNumber(const std::string& s, size_t* i, size_t min_digits, size_t max_digits,
                int64_t* out) {
  size_t start = *i;
  int64_t v = 0;
  while (*i < s.size() && std::isdigit(static_cast<unsigned char>(s[*i])) &&
         *i - start < max_digits) {
    v = v * 10 + (s[*i] - '0');
    ++*i;
  }
  if (*i - start < min_digits) return false;
  *out = v;
  return true;
}

bool ParseDate(const std::string& s, size_t* i, int64_t* days) {
  int64_t y, m, d;
  if (!ReadNumber(s, i, 1, 4, &y) || *i >= s.size() || s[(*i)++] != '-') return false;
  if (!ReadNumber(s, i, 1, 2, &m) || *i >= s.size() || s[(*i)++] != '-') return false;
  if (!ReadNumber(s, i, 1, 2, &d)) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return false;
  if (d > kDays[m - 1] + (m == 2 && IsLeap(y) ? 1 : 0)) return false;
  *days = DaysFromCivil(y, m, d);
  return true;
}

// 'yyyy-mm-dd[ hh:mm[:ss[.fff]]]' (also with 'T'); fractional digits beyond ms are truncated.
bool ParseTimestamp(const std::string& s, int64_t* millis) {
  size_t i = 0;
  int64_t days;
  if (!ParseDate(s, &i, &days)) return false;
  int64_t h = 0, mi = 0, sec = 0, ms = 0;
  if (i < s.size()) {
    if (s[i] != ' ' && s[i] != 'T') return false;
    ++i;
    if (!ReadNumber(s, &i, 1, 2, &h) || i >= s.size() || s[i++] != ':') return false;
    if (!ReadNumber(s, &i, 1, 2, &mi)) return false;
    if (i < s.size() && s[i] == ':') {
      ++i;
      if (!ReadNumber(s, &i, 1, 2, &sec)) return false;
      if (i < s.size() && s[i] == '.') {
        ++i;
        size_t start = i;
        int64_t frac = 0;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
          if (i - start < 3) frac = frac * 10 + (s[i] - '0');
          ++i;
        }
        if (i == start || i - start > 9) return false;
        for (size_t k = i - start; k < 3; ++k) frac *= 10;
        ms = frac;
      }
    }
  }
  if (i != s.size() || h > 23 || mi > 59 || sec > 59) return false;
  *millis = ((days * 24 + h) * 60 + mi) * 60000 + sec * 1000 + ms;
  return true;
}

size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

absl::StatusOr<ExprPtr> BindDecimal(const sql::Expr& e, bool negate) {
  // Digits with an optional '.', as the lexer keeps them.
  const std::string& t = e.text;
  std::string digits;
  int scale = 0;
  bool dot = false;
  for (char c : t) {
    if (c == '.') {
      dot = true;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      digits += c;
      if (dot) ++scale;
    } else {
      return ValidationErrorAt(e.pos, absl::StrCat("invalid numeric literal '", t, "'"));
    }
  }
  const size_t int_digits = digits.size() - static_cast<size_t>(scale);
  size_t lead = 0;
  while (lead < int_digits && digits[lead] == '0') ++lead;
  digits = digits.substr(lead);
  int precision = std::max<int>(static_cast<int>(digits.size()), scale);
  if (precision == 0) precision = 1;
  if (precision > kMaxDecimalPrecision) {
    return ValidationErrorAt(e.pos, absl::StrCat("numeric literal '", negate ? "-" : "", t,
                                                 "' exceeds the maximum DECIMAL precision ",
                                                 kMaxDecimalPrecision));
  }
  int64_t unscaled = 0;
  for (char c : digits) unscaled = unscaled * 10 + (c - '0');
  if (negate) unscaled = -unscaled;
  return MakeLiteral(Value::Int(unscaled),
                     DataType::Decimal(precision, scale).WithNullable(false));
}

}  // namespace

absl::StatusOr<ExprPtr> BindLiteral(const sql::Expr& e, bool negate) {
  switch (e.literal_kind) {
    case sql::LiteralKind::kNull:
      return MakeLiteral(Value::Null(), DataType::Null());
    case sql::LiteralKind::kBoolean: {
      bool b = e.text == "TRUE" || e.text == "true" || e.text == "True";
      return MakeLiteral(Value::Bool(b), DataType::Boolean().WithNullable(false));
    }
    case sql::LiteralKind::kInteger: {
      // Parsed with the sign so that -9223372036854775808 fits.
      int64_t v;
      if (!absl::SimpleAtoi(absl::StrCat(negate ? "-" : "", e.text), &v)) {
        return BindDecimal(e, negate);
      }
      bool fits_int = v >= std::numeric_limits<int32_t>::min() &&
                      v <= std::numeric_limits<int32_t>::max();
      return MakeLiteral(Value::Int(v),
                         (fits_int ? DataType::Int() : DataType::BigInt()).WithNullable(false));
    }
    case sql::LiteralKind::kDecimal:
      return BindDecimal(e, negate);
    case sql::LiteralKind::kDouble: {
      double d;
      if (!absl::SimpleAtod(e.text, &d) || !std::isfinite(d)) {
        return ValidationErrorAt(e.pos, absl::StrCat("invalid numeric literal '", e.text, "'"));
      }
      return MakeLiteral(Value::Double(negate ? -d : d), DataType::Double().WithNullable(false));
    }
    case sql::LiteralKind::kString: {
      size_t n = CodePoints(e.text);
      DataType t = n == 0 ? DataType::String() : DataType::Varchar(static_cast<int>(n));
      return MakeLiteral(Value::String(e.text), t.WithNullable(false));
    }
    case sql::LiteralKind::kDate: {
      size_t i = 0;
      int64_t days;
      if (!ParseDate(e.text, &i, &days) || i != e.text.size()) {
        return ValidationErrorAt(e.pos, absl::StrCat("invalid DATE literal '", e.text, "'"));
      }
      return MakeLiteral(Value::Int(days), DataType::Date().WithNullable(false));
    }
    case sql::LiteralKind::kTimestamp: {
      int64_t ms;
      if (!ParseTimestamp(e.text, &ms)) {
        return ValidationErrorAt(e.pos, absl::StrCat("invalid TIMESTAMP literal '", e.text, "'"));
      }
      return MakeLiteral(Value::Int(ms), DataType::Timestamp(3).WithNullable(false));
    }
    case sql::LiteralKind::kTime:
      return ValidationErrorAt(e.pos, "TIME literals are not supported yet");
  }
  return ValidationErrorAt(e.pos, "unsupported literal");
}

}  // namespace eddy::planner
