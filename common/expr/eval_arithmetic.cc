// Kernels for + - * / % and unary minus. MakeCall has already cast both operands to the result
// integer type or to DOUBLE; DECIMAL operands keep their own scales and are aligned here in int128.
// Integer arithmetic wraps like Java's; integer and DECIMAL division by zero is an error.
#include <cmath>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/datetime_pattern.h"
#include "common/expr/decimal_util.h"
#include "common/expr/eval_internal.h"
#include "common/types/timestamp_precision.h"

namespace eddy::eval_internal {
namespace {

using decimal::int128;

enum class Op { kAdd, kSub, kMul, kDiv, kMod };

absl::Status DivisionByZero(const Expr& call) {
  return absl::InvalidArgumentError(absl::StrCat("Division by zero in '", call.function, "'"));
}

absl::Status Overflow(const Expr& call) {
  return absl::InvalidArgumentError(absl::StrCat("Numeric overflow in '", call.function,
                                                 "': result does not fit ",
                                                 call.type.WithNullable(true).ToString()));
}

template <typename T>
T Wrap(Op op, T a, T b) {
  using U = std::make_unsigned_t<T>;
  switch (op) {
    case Op::kAdd:
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    case Op::kSub:
      return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
    case Op::kMul:
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    default:
      return 0;
  }
}

template <typename T>
absl::StatusOr<Column> IntegerKernel(const Expr& call, Op op, const Column& ca, const Column& cb,
                                     size_t n) {
  FixedBuilder<T> out(call.type, n);
  out.SetValidity(CombineValidity({&ca, &cb}, n));
  const T* a = ca.data<T>();
  const T* b = cb.data<T>();
  T* r = out.values();
  if (op == Op::kAdd || op == Op::kSub || op == Op::kMul) {
    // Separate loops per op so each one vectorizes.
    if (op == Op::kAdd) {
      for (size_t i = 0; i < n; ++i) r[i] = Wrap(Op::kAdd, a[i], b[i]);
    } else if (op == Op::kSub) {
      for (size_t i = 0; i < n; ++i) r[i] = Wrap(Op::kSub, a[i], b[i]);
    } else {
      for (size_t i = 0; i < n; ++i) r[i] = Wrap(Op::kMul, a[i], b[i]);
    }
    return out.Finish();
  }
  for (size_t i = 0; i < n; ++i) {
    if (out.IsNull(i)) continue;
    if (b[i] == 0) return DivisionByZero(call);
    if (b[i] == -1) {
      // MIN / -1 overflows (wraps to MIN in Java); MIN % -1 is 0.
      r[i] = op == Op::kDiv ? Wrap(Op::kSub, T{0}, a[i]) : T{0};
    } else {
      r[i] = op == Op::kDiv ? static_cast<T>(a[i] / b[i]) : static_cast<T>(a[i] % b[i]);
    }
  }
  return out.Finish();
}

absl::StatusOr<Column> DoubleKernel(const Expr& call, Op op, const Column& ca, const Column& cb,
                                    size_t n) {
  if (ca.type().id != TypeId::kDouble || cb.type().id != TypeId::kDouble) {
    return InternalError(call, "DOUBLE operands expected");
  }
  FixedBuilder<double> out(call.type, n);
  out.SetValidity(CombineValidity({&ca, &cb}, n));
  const double* a = ca.data<double>();
  const double* b = cb.data<double>();
  double* r = out.values();
  switch (op) {
    case Op::kAdd:
      for (size_t i = 0; i < n; ++i) r[i] = a[i] + b[i];
      break;
    case Op::kSub:
      for (size_t i = 0; i < n; ++i) r[i] = a[i] - b[i];
      break;
    case Op::kMul:
      for (size_t i = 0; i < n; ++i) r[i] = a[i] * b[i];
      break;
    case Op::kDiv:
      for (size_t i = 0; i < n; ++i) r[i] = a[i] / b[i];
      break;
    case Op::kMod:
      for (size_t i = 0; i < n; ++i) r[i] = std::fmod(a[i], b[i]);
      break;
  }
  return out.Finish();
}

absl::StatusOr<Column> DecimalKernel(const Expr& call, Op op, const Column& ca, const Column& cb,
                                     size_t n) {
  if (ca.type().id != TypeId::kDecimal || cb.type().id != TypeId::kDecimal ||
      call.type.id != TypeId::kDecimal) {
    return InternalError(call, "DECIMAL operands expected");
  }
  const int s1 = ca.type().scale, s2 = cb.type().scale;
  const int s = call.type.scale, p = call.type.precision;
  FixedBuilder<int64_t> out(call.type, n);
  out.SetValidity(CombineValidity({&ca, &cb}, n));
  const int64_t* a = ca.data<int64_t>();
  const int64_t* b = cb.data<int64_t>();
  int64_t* r = out.values();
  // Scale factors are per column, so they are computed once.
  const int128 fa = decimal::Pow10(std::max(0, s - s1));
  const int128 fb = decimal::Pow10(std::max(0, s - s2));
  for (size_t i = 0; i < n; ++i) {
    if (out.IsNull(i)) continue;
    int128 x = a[i], y = b[i], v = 0;
    switch (op) {
      case Op::kAdd:
      case Op::kSub: {
        // The result scale is max(s1, s2), so both operands scale up (exactly).
        x *= fa;
        y *= fb;
        v = op == Op::kAdd ? x + y : x - y;
        break;
      }
      case Op::kMul:
        v = decimal::DivPow10HalfUp(x * y, s1 + s2 - s);  // |x*y| < 10^36 fits int128
        break;
      case Op::kDiv: {
        if (y == 0) return DivisionByZero(call);
        // x/10^s1 / (y/10^s2) * 10^s = x * 10^(s - s1 + s2) / y.
        int shift = s - s1 + s2;
        int128 num;
        if (shift >= 0) {
          if (!decimal::Rescale(x, 0, shift, &num)) return Overflow(call);
          v = decimal::DivHalfUp(num, y);
        } else {
          v = decimal::DivHalfUp(x, y * decimal::Pow10(-shift));
        }
        break;
      }
      case Op::kMod: {
        if (y == 0) return DivisionByZero(call);
        int ms = std::max(s1, s2);
        x *= decimal::Pow10(ms - s1);
        y *= decimal::Pow10(ms - s2);
        v = x % y;  // sign of the dividend, as BigDecimal.remainder
        if (ms > s) {
          v = decimal::DivPow10HalfUp(v, ms - s);
        } else {
          v *= decimal::Pow10(s - ms);
        }
        break;
      }
    }
    if (!decimal::FitsPrecision(v, p)) return Overflow(call);
    r[i] = static_cast<int64_t>(v);
  }
  return out.Finish();
}

template <typename T>
Column NegateInteger(const Expr& call, const Column& c, size_t n) {
  FixedBuilder<T> out(call.type, n);
  out.SetValidity(CombineValidity({&c}, n));
  const T* a = c.data<T>();
  T* r = out.values();
  for (size_t i = 0; i < n; ++i) r[i] = Wrap(Op::kSub, T{0}, a[i]);
  return out.Finish();
}

absl::StatusOr<Column> Negate(const Expr& call, const Column& c, size_t n) {
  if (c.type().id == TypeId::kDouble) {
    FixedBuilder<double> out(call.type, n);
    out.SetValidity(CombineValidity({&c}, n));
    const double* a = c.data<double>();
    double* r = out.values();
    for (size_t i = 0; i < n; ++i) r[i] = -a[i];
    return out.Finish();
  }
  if (c.type().id == TypeId::kDecimal || c.type().id == TypeId::kInterval) {
    return NegateInteger<int64_t>(call, c, n);
  }
  if (c.type().id == TypeId::kIntervalYearMonth) return NegateInteger<int32_t>(call, c, n);
  absl::StatusOr<Column> result = InternalError(call, "numeric operand expected");
  DispatchInteger(c.type().id, [&](auto t) { result = NegateInteger<decltype(t)>(call, c, n); });
  return result;
}

// TIME +/- INTERVAL DAY TO SECOND: the time of day moved by the interval, around midnight as
// Flink wraps it (23:00:00 + 2 hours = 01:00:00).
Column TimePlusInterval(const Expr& call, Op op, const Column& a, const Column& b, size_t n) {
  constexpr int64_t kMillisPerDay = 86400000;
  FixedBuilder<int32_t> out(call.type, n);
  out.SetValidity(CombineValidity({&a, &b}, n));
  const int32_t* t = a.data<int32_t>();
  const int64_t* d = b.data<int64_t>();
  int32_t* r = out.values();
  for (size_t i = 0; i < n; ++i) {
    if (out.IsNull(i)) continue;
    const int64_t shift = (op == Op::kSub ? -1 : 1) * (d[i] % kMillisPerDay);
    r[i] = static_cast<int32_t>(((t[i] + shift) % kMillisPerDay + kMillisPerDay) % kMillisPerDay);
  }
  return out.Finish();
}

// x +/- a year-month interval: a DATE, or the day of a TIMESTAMP(_LTZ), moves by whole months,
// the day clamped to the month's last (2024-01-31 + 1 month = 2024-02-29) and the time of day
// kept, as Flink's addMonths; a TIME does not move, as in Flink.
template <typename T>
Column PlusMonths(const Expr& call, Op op, const Column& a, const Column& b, size_t n) {
  FixedBuilder<T> out(call.type, n);
  out.SetValidity(CombineValidity({&a, &b}, n));
  const T* x = a.data<T>();
  const int32_t* months = b.data<int32_t>();
  T* r = out.values();
  const int64_t sign = op == Op::kSub ? -1 : 1;
  const TypeId id = call.type.id;
  const int64_t per_day = id == TypeId::kDate || id == TypeId::kTime
                              ? 1
                              : int64_t{86400} * TimestampUnitsPerSecond(call.type.precision);
  for (size_t i = 0; i < n; ++i) {
    if (out.IsNull(i) || id == TypeId::kTime) {
      r[i] = x[i];
      continue;
    }
    const int64_t v = x[i];
    const int64_t days = FloorDivide(v, per_day);
    r[i] = static_cast<T>(AddMonthsToDays(days, sign * months[i]) * per_day + (v - days * per_day));
  }
  return out.Finish();
}

}  // namespace

absl::StatusOr<Column> EvalArithmetic(const Expr& call, const ArgList& args, size_t n) {
  const std::string& f = call.function;
  if (f == "NEGATE") {
    if (args.size() != 1) return InternalError(call, "expected one argument");
    return Negate(call, *args[0], n);
  }
  if (args.size() != 2) return InternalError(call, "expected two arguments");
  Op op = f == "+"   ? Op::kAdd
          : f == "-" ? Op::kSub
          : f == "*" ? Op::kMul
          : f == "/" ? Op::kDiv
                     : Op::kMod;
  const Column& a = *args[0];
  const Column& b = *args[1];
  if (call.type.id == TypeId::kDouble) return DoubleKernel(call, op, a, b, n);
  if (call.type.id == TypeId::kDecimal) return DecimalKernel(call, op, a, b, n);
  if (b.type().id == TypeId::kIntervalYearMonth && call.type.id != TypeId::kIntervalYearMonth) {
    if (call.type.IsTimestampLike()) return PlusMonths<int64_t>(call, op, a, b, n);
    return PlusMonths<int32_t>(call, op, a, b, n);  // DATE, TIME
  }
  if (call.type.id == TypeId::kIntervalYearMonth) return IntegerKernel<int32_t>(call, op, a, b, n);
  if (call.type.id == TypeId::kTime) return TimePlusInterval(call, op, a, b, n);
  // TIMESTAMP +/- INTERVAL and INTERVAL +/- INTERVAL: both operands int64; the interval's
  // milliseconds in the timestamp's unit first when that is finer (timestamp_precision.h).
  if (call.type.IsTimestampLike() && TimestampUnitsPerMilli(call.type.precision) > 1) {
    const int64_t per_milli = TimestampUnitsPerMilli(call.type.precision);
    Column scaled(b);
    int64_t* v = scaled.mutable_data<int64_t>();
    for (size_t i = 0; i < n; ++i) v[i] *= per_milli;
    return IntegerKernel<int64_t>(call, op, a, scaled, n);
  }
  if (call.type.IsTimestampLike() || call.type.id == TypeId::kInterval) {
    return IntegerKernel<int64_t>(call, op, a, b, n);
  }
  if (a.type().id != call.type.id || b.type().id != call.type.id) {
    return InternalError(call, "operands must have the result type");
  }
  absl::StatusOr<Column> result = InternalError(call, "numeric operands expected");
  DispatchInteger(call.type.id,
                  [&](auto t) { result = IntegerKernel<decltype(t)>(call, op, a, b, n); });
  return result;
}

}  // namespace eddy::eval_internal
