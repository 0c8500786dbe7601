// A single SQL value outside a column: literals, VALUES rows, test expectations and printing.
// Integers, DECIMAL (unscaled), DATE (days) and TIMESTAMP (ms) are held as int64; FLOAT/DOUBLE as
// double; STRING as std::string, ARRAY/MAP/ROW as a std::string holding their encoding
// (collection_codec.h). Hot paths work on columns, not on Values.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "common/types/data_type.h"

namespace eddy {

class Value {
 public:
  Value() = default;  // NULL
  static Value Null() { return Value(); }
  static Value Bool(bool b) { return Value(Rep(b)); }
  static Value Int(int64_t v) { return Value(Rep(v)); }
  static Value Double(double v) { return Value(Rep(v)); }
  static Value String(std::string s) { return Value(Rep(std::move(s))); }

  bool is_null() const { return std::holds_alternative<std::monostate>(rep_); }
  bool is_bool() const { return std::holds_alternative<bool>(rep_); }
  bool is_int() const { return std::holds_alternative<int64_t>(rep_); }
  bool is_double() const { return std::holds_alternative<double>(rep_); }
  bool is_string() const { return std::holds_alternative<std::string>(rep_); }

  bool bool_value() const { return std::get<bool>(rep_); }
  int64_t int_value() const { return std::get<int64_t>(rep_); }
  double double_value() const { return std::get<double>(rep_); }
  const std::string& string_value() const { return std::get<std::string>(rep_); }

  bool operator==(const Value& o) const { return rep_ == o.rep_; }
  bool operator<(const Value& o) const { return rep_ < o.rep_; }

 private:
  using Rep = std::variant<std::monostate, bool, int64_t, double, std::string>;
  explicit Value(Rep r) : rep_(std::move(r)) {}
  Rep rep_;
};

// Text of a value as Flink's print sink and SQL CAST(.. AS STRING) show it: `null` for NULL (the
// caller decides), true/false, DECIMAL with exactly `scale` digits, DOUBLE as Java's
// Double.toString (1.0, 0.5, 1.0E7), DATE 2024-01-31, TIME 12:34:56, TIMESTAMP(3) 2024-01-31
// 10:00:00.000.
std::string FormatValue(const Value& v, const DataType& type);

// Formatting helpers shared with the vectorized cast.
std::string FormatDouble(double d);
std::string FormatFloat(float f);
// Java-style text of a FLOAT (as_float) or DOUBLE value.
std::string FormatApproximate(double d, bool as_float);
std::string FormatDecimal(int64_t unscaled, int scale);
std::string FormatDate(int32_t days_since_epoch);
// A TIMESTAMP(precision) value (unit per timestamp_precision.h) with `precision` fractional digits.
std::string FormatTimestamp(int64_t value, int precision);
// A TIME(precision) value (milliseconds of the day) as Flink prints it: 12:34:56 for TIME(0); with
// precision > 0 the fraction's digits up to the last non-zero one (at least one, at most
// `precision`): 12:34:56.123, 12:34:56.1, 12:34:56.0.
std::string FormatTime(int32_t millis_of_day, int precision);
// An INTERVAL DAY TO SECOND as Flink prints it: +1 02:03:04.005 (sign, days, time).
std::string FormatInterval(int64_t millis);
// A year-month interval as Flink prints it: +1-02 (sign, years, months of two digits).
std::string FormatIntervalYearMonth(int64_t months);

}  // namespace eddy
