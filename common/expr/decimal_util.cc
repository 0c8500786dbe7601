#include "common/expr/decimal_util.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace eddy::decimal {
namespace {

struct Pow10Table {
  int128 v[39];
  constexpr Pow10Table() : v() {
    v[0] = 1;
    for (int i = 1; i < 39; ++i) v[i] = v[i - 1] * 10;
  }
};
constexpr Pow10Table kPow10;

constexpr int128 kInt128Max = static_cast<int128>(~static_cast<unsigned __int128>(0) >> 1);

int128 Abs(int128 v) { return v < 0 ? -v : v; }

bool MulOverflow(int128 a, int128 b, int128* out) { return __builtin_mul_overflow(a, b, out); }

// Builds an unscaled value with `scale` fractional digits from sign, digits and the position of the
// decimal point (value = 0.digits * 10^exp10), rounding HALF_UP. False on overflow.
bool DigitsToUnscaled(bool negative, const char* digits, int n, int exp10, int scale, int128* out) {
  // Integer formed by the digits has n digits; the value is that integer * 10^(exp10 - n).
  // With `scale` fractional digits the unscaled value is integer * 10^(exp10 - n + scale).
  int shift = exp10 - n + scale;
  int128 v = 0;
  int keep = n;
  if (shift < 0) keep = n + shift;  // digits left after dropping -shift trailing digits
  if (keep < 0) {
    *out = 0;
    return true;
  }
  for (int i = 0; i < keep; ++i) {
    if (v > kInt128Max / 10 - 9) return false;
    v = v * 10 + (digits[i] - '0');
  }
  if (shift < 0) {
    if (keep < n && digits[keep] >= '5') ++v;  // HALF_UP: first dropped digit decides
  } else {
    if (shift > 38 && v != 0) return false;
    if (v != 0 && MulOverflow(v, kPow10.v[shift > 38 ? 38 : shift], &v)) return false;
  }
  *out = negative ? -v : v;
  return true;
}

}  // namespace

int128 Pow10(int n) { return kPow10.v[n < 0 ? 0 : n > 38 ? 38 : n]; }

bool FitsPrecision(int128 v, int precision) { return Abs(v) < kPow10.v[precision]; }

int128 DivPow10HalfUp(int128 v, int n) {
  if (n == 0) return v;
  if (n > 38) return 0;
  int128 p = kPow10.v[n];
  int128 q = v / p;
  int128 r = v % p;
  if (Abs(r) * 2 >= p) q += v < 0 ? -1 : 1;
  return q;
}

bool Rescale(int128 v, int from_scale, int to_scale, int128* out) {
  if (to_scale >= from_scale) {
    int k = to_scale - from_scale;
    if (k > 38) return v == 0 ? (*out = 0, true) : false;
    return !MulOverflow(v, kPow10.v[k], out);
  }
  *out = DivPow10HalfUp(v, from_scale - to_scale);
  return true;
}

int128 DivHalfUp(int128 num, int128 den) {
  int128 q = num / den;
  int128 r = num % den;
  // |r| * 2 >= |den|, written to avoid overflow.
  if (Abs(r) >= Abs(den) - Abs(r)) q += ((num < 0) != (den < 0)) ? -1 : 1;
  return q;
}

ShortestDecimal Shortest(double d) {
  ShortestDecimal out;
  char buf[40];
  for (int prec = 0; prec <= 16; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*e", prec, d);
    if (std::strtod(buf, nullptr) == d || prec == 16) break;
  }
  // buf: [-]d[.ddd]e[+-]xx
  const char* p = buf;
  if (*p == '-') {
    out.negative = true;
    ++p;
  }
  int n = 0;
  for (; *p && *p != 'e'; ++p) {
    if (*p >= '0' && *p <= '9') out.digits[n++] = *p;
  }
  int exp = std::atoi(p + 1);
  while (n > 1 && out.digits[n - 1] == '0') --n;  // trailing zeros carry no information
  out.num_digits = n;
  out.exp10 = exp + 1;
  return out;
}

bool DoubleToDecimal(double d, int precision, int scale, int64_t* out) {
  if (!std::isfinite(d)) return false;
  if (d == 0) {
    *out = 0;
    return true;
  }
  ShortestDecimal s = Shortest(d);
  int128 v;
  if (!DigitsToUnscaled(s.negative, s.digits, s.num_digits, s.exp10, scale, &v)) return false;
  if (!FitsPrecision(v, precision)) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

double RoundDouble(double d, int places) {
  if (!std::isfinite(d) || d == 0) return d;
  ShortestDecimal s = Shortest(d);
  // Digits kept: those before the decimal point (exp10) plus `places` after it.
  int keep = s.exp10 + places;
  if (keep >= s.num_digits) return d;  // already exact at this many places
  if (keep < 0) return s.negative ? -0.0 : 0.0;
  char buf[64];
  int len = 0;
  if (s.negative) buf[len++] = '-';
  // Round the digit string at `keep`, HALF_UP, carrying into a possible new leading digit.
  char digits[24];
  std::memcpy(digits + 1, s.digits, keep);
  digits[0] = '0';
  if (s.digits[keep] >= '5') {
    int i = keep;
    while (true) {
      if (digits[i] == '9') {
        digits[i] = '0';
        --i;
      } else {
        ++digits[i];
        break;
      }
    }
  }
  int n = keep + 1;
  for (int i = 0; i < n; ++i) buf[len++] = digits[i];
  // Value = 0.digits[1..] * 10^exp10 = digits[0..n) * 10^(exp10 - keep).
  len += std::snprintf(buf + len, sizeof(buf) - len, "e%d", s.exp10 - keep);
  return std::strtod(buf, nullptr);
}

double TruncateDouble(double d, int places) {
  if (!std::isfinite(d) || d == 0) return d;
  ShortestDecimal s = Shortest(d);
  int keep = s.exp10 + places;
  if (keep >= s.num_digits) return d;
  if (keep <= 0) return s.negative ? -0.0 : 0.0;
  char buf[64];
  int len = 0;
  if (s.negative) buf[len++] = '-';
  for (int i = 0; i < keep; ++i) buf[len++] = s.digits[i];
  std::snprintf(buf + len, sizeof(buf) - len, "e%d", s.exp10 - keep);
  return std::strtod(buf, nullptr);
}

bool ParseDecimal(std::string_view s, int precision, int scale, int64_t* out) {
  size_t i = 0, n = s.size();
  while (i < n && s[i] == ' ') ++i;
  while (n > i && s[n - 1] == ' ') --n;
  if (i == n) return false;
  bool negative = false;
  if (s[i] == '+' || s[i] == '-') {
    negative = s[i] == '-';
    ++i;
  }
  char digits[64];
  int nd = 0;
  int int_digits = 0;
  bool any = false, dot = false;
  for (; i < n; ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      any = true;
      if (nd == 0 && c == '0') {
        // Leading zeros: they shift nothing before the point and lower the exponent after it.
        if (dot) --int_digits;
        continue;
      }
      if (nd >= 60) return false;
      digits[nd++] = c;
      if (!dot) ++int_digits;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!any) return false;
  int exp = 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
      eneg = s[i] == '-';
      ++i;
    }
    if (i == n) return false;
    for (; i < n; ++i) {
      if (s[i] < '0' || s[i] > '9' || exp > 1000) return false;
      exp = exp * 10 + (s[i] - '0');
    }
    if (eneg) exp = -exp;
  }
  if (i != n) return false;
  if (nd == 0) {
    *out = 0;
    return true;
  }
  int128 v;
  if (!DigitsToUnscaled(negative, digits, nd, int_digits + exp, scale, &v)) return false;
  if (!FitsPrecision(v, precision)) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

}  // namespace eddy::decimal
