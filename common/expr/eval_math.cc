// Numeric functions: ROUND (HALF_UP, as Flink's BigDecimal-based rounding), ABS, FLOOR, CEIL and
// SIGN, TRUNCATE (toward zero, typed as ROUND), PI, E and the DOUBLE functions POWER, SQRT, EXP,
// LN, LOG10, LOG, LOG2 and the trigonometric ones (Java Math semantics: NaN/Infinity, no error).
#include <cmath>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "common/expr/decimal_util.h"
#include "common/expr/eval_internal.h"

namespace eddy::eval_internal {
namespace {

using decimal::int128;

absl::Status Overflow(const Expr& call) {
  return absl::InvalidArgumentError(absl::StrCat("Numeric overflow in '", call.function,
                                                 "': result does not fit ",
                                                 call.type.WithNullable(true).ToString()));
}

int32_t Places(const ArgList& args, size_t i) {
  return args.size() == 2 ? args[1]->data<int32_t>()[i] : 0;
}

// v / 10^k, HALF_UP for ROUND, toward zero for TRUNCATE.
int128 DivPow10(int128 v, int k, bool truncate) {
  return truncate ? v / decimal::Pow10(k) : decimal::DivPow10HalfUp(v, k);
}

template <typename T>
absl::StatusOr<Column> RoundInteger(const Expr& call, const ArgList& args, size_t n) {
  const bool truncate = call.function == "TRUNCATE";
  FixedBuilder<T> out(call.type, n);
  out.SetValidity(CombineValidity(args, n));
  const T* a = args[0]->data<T>();
  T* r = out.values();
  for (size_t i = 0; i < n; ++i) {
    int32_t d = Places(args, i);
    if (d >= 0 || out.IsNull(i)) {
      r[i] = a[i];
      continue;
    }
    int k = std::min(-d, 38);
    int128 v = DivPow10(a[i], k, truncate) * decimal::Pow10(k);
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) {
      return Overflow(call);
    }
    r[i] = static_cast<T>(v);
  }
  return out.Finish();
}

absl::StatusOr<Column> RoundDecimal(const Expr& call, const ArgList& args, size_t n) {
  const bool truncate = call.function == "TRUNCATE";
  const int s = args[0]->type().scale;
  const int ts = call.type.scale;
  FixedBuilder<int64_t> out(call.type, n);
  out.SetValidity(CombineValidity(args, n));
  const int64_t* a = args[0]->data<int64_t>();
  int64_t* r = out.values();
  for (size_t i = 0; i < n; ++i) {
    if (out.IsNull(i)) continue;
    int d = std::max(Places(args, i), -36);
    int128 v = a[i];
    if (d < s) v = DivPow10(v, s - d, truncate);  // now at scale d
    int at = d < s ? d : s;
    if (ts >= at) {
      v *= decimal::Pow10(ts - at);
    } else {
      v = DivPow10(v, at - ts, truncate);
    }
    if (!decimal::FitsPrecision(v, call.type.precision)) return Overflow(call);
    r[i] = static_cast<int64_t>(v);
  }
  return out.Finish();
}

template <typename F>
Column MapDouble(const Expr& call, const ArgList& args, size_t n, F&& f) {
  FixedBuilder<double> out(call.type, n);
  out.SetValidity(CombineValidity(args, n));
  const double* a = args[0]->data<double>();
  double* r = out.values();
  for (size_t i = 0; i < n; ++i) r[i] = f(a[i], i);
  return out.Finish();
}

template <typename T, typename F>
Column MapFixed(const Expr& call, const Column& c, size_t n, F&& f) {
  FixedBuilder<T> out(call.type, n);
  out.SetValidity(CombineValidity({&c}, n));
  const T* a = c.data<T>();
  T* r = out.values();
  for (size_t i = 0; i < n; ++i) r[i] = f(a[i]);
  return out.Finish();
}

absl::StatusOr<Column> FloorCeilDecimal(const Expr& call, const Column& c, size_t n, bool floor) {
  const int s = c.type().scale;
  const int64_t p = static_cast<int64_t>(decimal::Pow10(s));
  return MapFixed<int64_t>(call, c, n, [&](int64_t v) {
    int64_t q = v / p, rem = v % p;
    if (rem != 0 && ((rem < 0) == floor)) q += floor ? -1 : 1;
    return q;
  });
}

}  // namespace

absl::StatusOr<Column> EvalMath(const Expr& call, const ArgList& args, size_t n) {
  const std::string& f = call.function;
  if (f == "PI" || f == "E") {
    FixedBuilder<double> out(call.type, n);
    std::fill_n(out.values(), n, f == "PI" ? M_PI : M_E);
    return out.Finish();
  }
  if (args.empty()) return InternalError(call, "no arguments");
  const Column& x = *args[0];
  const TypeId id = x.type().id;
  const bool round = f == "ROUND" || f == "TRUNCATE";
  if (args.size() == 2 && round && args[1]->type().id != TypeId::kInt) {
    return InternalError(call, "INT digits expected");
  }
  if (round) {
    if (id == TypeId::kDouble) {
      const bool truncate = f == "TRUNCATE";
      return MapDouble(call, args, n, [&](double v, size_t i) {
        return truncate ? decimal::TruncateDouble(v, Places(args, i))
                        : decimal::RoundDouble(v, Places(args, i));
      });
    }
    if (id == TypeId::kDecimal) return RoundDecimal(call, args, n);
    absl::StatusOr<Column> result = InternalError(call, "numeric argument expected");
    DispatchInteger(id, [&](auto t) { result = RoundInteger<decltype(t)>(call, args, n); });
    return result;
  }
  if (f == "ABS") {
    if (id == TypeId::kDouble)
      return MapFixed<double>(call, x, n, [](double v) { return std::fabs(v); });
    if (id == TypeId::kDecimal) {
      return MapFixed<int64_t>(call, x, n, [](int64_t v) { return v < 0 ? -v : v; });
    }
    absl::StatusOr<Column> result = InternalError(call, "numeric argument expected");
    DispatchInteger(id, [&](auto t) {
      using T = decltype(t);
      // Java's Math.abs(MIN_VALUE) is MIN_VALUE: wrap, don't trap.
      result = MapFixed<T>(call, x, n, [](T v) {
        using U = std::make_unsigned_t<T>;
        return v < 0 ? static_cast<T>(U{0} - static_cast<U>(v)) : v;
      });
    });
    return result;
  }
  if (f == "SIGN") {
    if (id == TypeId::kDouble) {
      return MapFixed<double>(call, x, n, [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v; });
    }
    if (id == TypeId::kDecimal) {
      const int64_t one = static_cast<int64_t>(decimal::Pow10(x.type().scale));
      return MapFixed<int64_t>(call, x, n, [&](int64_t v) {
        return v > 0 ? one : v < 0 ? -one : 0;
      });
    }
    absl::StatusOr<Column> result = InternalError(call, "numeric argument expected");
    DispatchInteger(id, [&](auto t) {
      using T = decltype(t);
      result = MapFixed<T>(call, x, n, [](T v) {
        return static_cast<T>(v > 0 ? 1 : v < 0 ? -1 : 0);
      });
    });
    return result;
  }
  if (f == "FLOOR" || f == "CEIL") {
    const bool floor = f == "FLOOR";
    if (id == TypeId::kDouble) {
      return MapFixed<double>(call, x, n,
                              [&](double v) { return floor ? std::floor(v) : std::ceil(v); });
    }
    if (id == TypeId::kDecimal) return FloorCeilDecimal(call, x, n, floor);
    if (!x.type().IsInteger()) return InternalError(call, "numeric argument expected");
    return Column(x);  // integers are already whole
  }
  for (const Column* a : args) {
    if (a->type().id != TypeId::kDouble) return InternalError(call, "DOUBLE arguments expected");
  }
  if (f == "POWER") {
    if (args.size() != 2) return InternalError(call, "expected two arguments");
    const double* y = args[1]->data<double>();
    return MapDouble(call, args, n, [&](double v, size_t i) { return std::pow(v, y[i]); });
  }
  if (f == "SQRT") return MapDouble(call, args, n, [](double v, size_t) { return std::sqrt(v); });
  if (f == "EXP") return MapDouble(call, args, n, [](double v, size_t) { return std::exp(v); });
  if (f == "LN") return MapDouble(call, args, n, [](double v, size_t) { return std::log(v); });
  if (f == "LOG10") return MapDouble(call, args, n, [](double v, size_t) { return std::log10(v); });
  if (args.size() == 1) {
    double (*fn)(double) = nullptr;
    if (f == "LOG") fn = [](double v) { return std::log(v); };
    if (f == "LOG2") fn = [](double v) { return std::log(v) / std::log(2.0); };
    if (f == "SIN") fn = [](double v) { return std::sin(v); };
    if (f == "COS") fn = [](double v) { return std::cos(v); };
    if (f == "TAN") fn = [](double v) { return std::tan(v); };
    if (f == "COT") fn = [](double v) { return 1.0 / std::tan(v); };
    if (f == "ASIN") fn = [](double v) { return std::asin(v); };
    if (f == "ACOS") fn = [](double v) { return std::acos(v); };
    if (f == "ATAN") fn = [](double v) { return std::atan(v); };
    if (f == "SINH") fn = [](double v) { return std::sinh(v); };
    if (f == "COSH") fn = [](double v) { return std::cosh(v); };
    if (f == "TANH") fn = [](double v) { return std::tanh(v); };
    if (f == "DEGREES") fn = [](double v) { return v * 57.29577951308232; };
    if (f == "RADIANS") fn = [](double v) { return v * 0.017453292519943295; };
    if (fn != nullptr) return MapDouble(call, args, n, [&](double v, size_t) { return fn(v); });
  }
  if (args.size() == 2 && (f == "LOG" || f == "ATAN2")) {
    const double* y = args[1]->data<double>();
    if (f == "ATAN2") {
      return MapDouble(call, args, n, [&](double v, size_t i) { return std::atan2(v, y[i]); });
    }
    // LOG(base, x)
    return MapDouble(call, args, n,
                     [&](double b, size_t i) { return std::log(y[i]) / std::log(b); });
  }
  return InternalError(call, "unknown math function");
}

}  // namespace eddy::eval_internal
