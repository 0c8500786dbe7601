// Typing of SQL literals: integers are INT when they fit, else BIGINT; 1.5 is DECIMAL(2, 1); 1e3 is
// DOUBLE; strings are VARCHAR(n) (Flink types them CHAR(n) NOT NULL; typing them VARCHAR(n) keeps
// comparisons and results of mixed lengths unpadded, so it stays a deliberate difference); DATE and
// TIMESTAMP literals are parsed to days / milliseconds since the epoch, TIME literals to
// milliseconds of the day; X'0A1B' is BINARY(2). All NOT NULL except NULL.
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/types/binary_text.h"
#include "common/types/temporal_text.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

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
    return ValidationErrorAt(
        e.pos, absl::StrCat("numeric literal '", negate ? "-" : "", t,
                            "' exceeds the maximum DECIMAL precision ", kMaxDecimalPrecision));
  }
  int64_t unscaled = 0;
  for (char c : digits) unscaled = unscaled * 10 + (c - '0');
  if (negate) unscaled = -unscaled;
  return MakeLiteral(Value::Int(unscaled), DataType::Decimal(precision, scale).WithNullable(false));
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
      bool fits_int =
          v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
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
    case sql::LiteralKind::kBinary: {  // BINARY(n), as Flink types X'..'; X'' is BYTES
      std::string bytes;
      if (!ParseHexDigits(e.text, &bytes)) {
        return ValidationErrorAt(e.pos, absl::StrCat("invalid binary literal X'", e.text, "'"));
      }
      const int n = static_cast<int>(bytes.size());
      const DataType t = n == 0 ? DataType::Bytes() : DataType::Binary(n);
      return MakeLiteral(Value::String(std::move(bytes)), t.WithNullable(false));
    }
    case sql::LiteralKind::kDate: {
      int32_t days;
      if (!ParseDateText(e.text, &days)) {
        return ValidationErrorAt(e.pos, absl::StrCat("invalid DATE literal '", e.text, "'"));
      }
      return MakeLiteral(Value::Int(days), DataType::Date().WithNullable(false));
    }
    case sql::LiteralKind::kTimestamp: {
      // As Flink: the literal's precision is its number of fractional digits.
      int64_t value;
      int digits = 0;
      if (!ParseTimestampText(e.text, 3, &value, &digits)) {
        return ValidationErrorAt(e.pos, absl::StrCat("invalid TIMESTAMP literal '", e.text, "'"));
      }
      if (!ParseTimestampText(e.text, digits, &value, nullptr)) {
        return ValidationErrorAt(e.pos,
                                 absl::StrCat("TIMESTAMP literal '", e.text,
                                              "' is outside the range of TIMESTAMP(", digits, ")"));
      }
      return MakeLiteral(Value::Int(value), DataType::Timestamp(digits).WithNullable(false));
    }
    case sql::LiteralKind::kTime: {
      // TIME(0), or the precision of the fractional digits given (milliseconds kept).
      int32_t millis;
      int digits = 0;
      if (!ParseTimeText(e.text, 9, &millis, &digits)) {
        return ValidationErrorAt(e.pos, absl::StrCat("invalid TIME literal '", e.text, "'"));
      }
      return MakeLiteral(Value::Int(millis), DataType::Time(digits).WithNullable(false));
    }
  }
  return ValidationErrorAt(e.pos, "unsupported literal");
}

}  // namespace eddy::planner
