// Exact DECIMAL helpers for the evaluator: powers of ten, HALF_UP rescaling (Java BigDecimal's
// rounding), precision checks, and the decimal reading of doubles (via their shortest
// representation, as BigDecimal.valueOf(double) does) and of strings.
#pragma once

#include <cstdint>
#include <string_view>

namespace eddy::decimal {

using int128 = __int128;

// 10^n for 0 <= n <= 38 (n is clamped to that range, so a bad plan cannot index out of bounds).
int128 Pow10(int n);

// |v| < 10^precision.
bool FitsPrecision(int128 v, int precision);

// v / 10^n rounded HALF_UP (ties away from zero), n >= 0.
int128 DivPow10HalfUp(int128 v, int n);

// v * 10^(to - from) when scaling up, v / 10^(from - to) HALF_UP when scaling down; false on
// int128 overflow.
bool Rescale(int128 v, int from_scale, int to_scale, int128* out);

// num / den rounded HALF_UP; den != 0.
int128 DivHalfUp(int128 num, int128 den);

// The shortest decimal digits that read back as `d` (d finite, nonzero): d = 0.digits * 10^exp10
// with sign. `digits` holds up to 17 ASCII digits, no leading zeros.
struct ShortestDecimal {
  bool negative = false;
  char digits[24];
  int num_digits = 0;
  int exp10 = 0;  // value = 0.d1d2d3... * 10^exp10
};
ShortestDecimal Shortest(double d);

// `d` as an unscaled DECIMAL with `scale` digits, HALF_UP from its shortest representation; false
// when NaN/infinite or it does not fit `precision`.
bool DoubleToDecimal(double d, int precision, int scale, int64_t* out);

// ROUND(d, places) for DOUBLE, HALF_UP on the shortest representation (Flink rounds through
// BigDecimal, so ROUND(2.675, 2) = 2.68 although the binary double is below 2.675).
double RoundDouble(double d, int places);

// TRUNCATE(d, places) for DOUBLE: the shortest representation cut after `places` decimals
// (toward zero), as Flink's BigDecimal-based TRUNCATE.
double TruncateDouble(double d, int places);

// Parses [+-]digits[.digits][(e|E)[+-]digits] (surrounding spaces allowed) into an unscaled value
// with `scale` digits, HALF_UP; false when malformed or it does not fit `precision`.
bool ParseDecimal(std::string_view s, int precision, int scale, int64_t* out);

}  // namespace eddy::decimal
