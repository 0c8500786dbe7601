// CAST / TRY_CAST kernel. Numeric narrowing checks the range (an error, where Java would wrap),
// DOUBLE/DECIMAL to integer truncates toward zero, DECIMAL rescaling rounds HALF_UP; text output
// follows value.h (DOUBLE as Java's Double.toString, BOOLEAN as Flink's TRUE/FALSE); text input
// is trimmed and parsed strictly. A bad value is an error for CAST and NULL for TRY_CAST.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "common/base/status_macros.h"
#include "common/expr/decimal_util.h"
#include "common/expr/eval_internal.h"
#include "common/expr/zoned_calls.h"
#include "common/types/collection_codec.h"
#include "common/types/temporal_text.h"
#include "common/types/timestamp_precision.h"
#include "common/types/value.h"

namespace eddy::eval_internal {
namespace {

using decimal::int128;

absl::string_view AV(std::string_view s) { return absl::string_view(s.data(), s.size()); }

std::string TypeName(const DataType& t) { return t.WithNullable(true).ToString(); }

// Runs f(i, &out) -> ok over the valid rows; a failed row is NULL (TRY_CAST) or the error.
template <typename To, typename F, typename E>
absl::StatusOr<Column> CastLoop(const Column& in, const DataType& to, bool try_cast, F&& f,
                                E&& error) {
  const size_t n = in.size();
  FixedBuilder<To> out(to, n);
  out.SetValidity(CombineValidity({&in}, n));
  To* r = out.values();
  for (size_t i = 0; i < n; ++i) {
    if (out.IsNull(i)) continue;
    if (!f(i, &r[i])) {
      if (!try_cast) return error(i);
      out.SetNull(i);
    }
  }
  return out.Finish();
}

template <typename F>
absl::StatusOr<Column> CastToStringLoop(const Column& in, const DataType& to, F&& f) {
  const size_t n = in.size();
  StringBuilder out(to, n);
  for (size_t i = 0; i < n; ++i) {
    if (in.IsNull(i)) {
      out.AppendNull();
      continue;
    }
    std::string& h = out.heap();
    size_t start = h.size();
    f(i, h);
    if (to.length > 0) {
      // VARCHAR(n) and CHAR(n): keep the first n code points; CHAR(n) pads with blanks to n.
      size_t pos = start;
      int cps = 0;
      while (pos < h.size()) {
        if ((static_cast<unsigned char>(h[pos]) & 0xC0) != 0x80) {
          if (cps == to.length) break;
          ++cps;
        }
        ++pos;
      }
      h.resize(pos);
      if (to.fixed_length && cps < to.length) h.append(static_cast<size_t>(to.length - cps), ' ');
    }
    out.Commit();
  }
  return out.Finish();
}

std::string FormatFloat(float f) {
  if (!std::isfinite(f) || f == 0) return FormatDouble(f);
  char buf[32];
  for (int prec = 0; prec <= 9; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*e", prec, static_cast<double>(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  // The shortest float digits, read as a double, print as exactly those digits.
  return FormatDouble(std::strtod(buf, nullptr));
}

template <typename T>
void AppendInt(T v, std::string& h) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof(buf), static_cast<int64_t>(v));
  h.append(buf, res.ptr - buf);
}

absl::StatusOr<Column> ToString(const Column& in, const DataType& to) {
  const DataType& from = in.type();
  switch (from.id) {
    case TypeId::kString:
      return CastToStringLoop(in, to, [&](size_t i, std::string& h) {
        std::string_view s = in.GetString(i);
        h.append(s.data(), s.size());
      });
    case TypeId::kBoolean:
      return CastToStringLoop(in, to, [&](size_t i, std::string& h) {
        h.append(in.data<uint8_t>()[i] ? "TRUE" : "FALSE");
      });
    case TypeId::kFloat:
      return CastToStringLoop(
          in, to, [&](size_t i, std::string& h) { h.append(FormatFloat(in.data<float>()[i])); });
    case TypeId::kDouble:
      return CastToStringLoop(
          in, to, [&](size_t i, std::string& h) { h.append(FormatDouble(in.data<double>()[i])); });
    case TypeId::kDecimal:
      return CastToStringLoop(in, to, [&](size_t i, std::string& h) {
        h.append(FormatDecimal(in.data<int64_t>()[i], from.scale));
      });
    case TypeId::kDate:
      return CastToStringLoop(
          in, to, [&](size_t i, std::string& h) { h.append(FormatDate(in.data<int32_t>()[i])); });
    case TypeId::kTime:
      return CastToStringLoop(in, to, [&](size_t i, std::string& h) {
        h.append(FormatTime(in.data<int32_t>()[i], from.precision));
      });
    case TypeId::kInterval:
      return CastToStringLoop(in, to, [&](size_t i, std::string& h) {
        h.append(FormatInterval(in.data<int64_t>()[i]));
      });
    case TypeId::kIntervalYearMonth:
      return CastToStringLoop(in, to, [&](size_t i, std::string& h) {
        h.append(FormatIntervalYearMonth(in.data<int32_t>()[i]));
      });
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:  // UTC here; a zoned cast converted it to the wall clock first
      return CastToStringLoop(in, to, [&](size_t i, std::string& h) {
        h.append(FormatTimestamp(in.data<int64_t>()[i], from.precision));
      });
    default:
      break;
  }
  absl::StatusOr<Column> result = absl::InternalError("bad cast source");
  DispatchInteger(from.id, [&](auto t) {
    using T = decltype(t);
    result =
        CastToStringLoop(in, to, [&](size_t i, std::string& h) { AppendInt(in.data<T>()[i], h); });
  });
  return result;
}

// ---- parsing text ----

std::string_view Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && absl::ascii_isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && absl::ascii_isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// [+-]digits[.digits]: the fraction is dropped, as Flink's string-to-integer cast tolerates it.
bool ParseInteger(std::string_view s, int64_t* out) {
  s = Trim(s);
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  if (i == s.size() || !absl::ascii_isdigit(static_cast<unsigned char>(s[i]))) return false;
  uint64_t v = 0;
  const uint64_t limit = neg ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  for (; i < s.size() && absl::ascii_isdigit(static_cast<unsigned char>(s[i])); ++i) {
    uint64_t d = s[i] - '0';
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size(); ++i) {
      if (!absl::ascii_isdigit(static_cast<unsigned char>(s[i]))) return false;
    }
  }
  if (i != s.size()) return false;
  *out = neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

bool ParseDouble(std::string_view s, double* out) {
  s = Trim(s);
  if (s.empty()) return false;
  std::string_view body = s;
  bool neg = false;
  if (body[0] == '+' || body[0] == '-') {
    neg = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "NaN") return (*out = std::numeric_limits<double>::quiet_NaN()), true;
  if (body == "Infinity") {
    *out = neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  // strtod also reads hex, "inf" and "nan"; SQL text must start with a digit or '.'.
  if (body.empty() ||
      !(absl::ascii_isdigit(static_cast<unsigned char>(body[0])) || body[0] == '.')) {
    return false;
  }
  if (body.size() > 1 && (body[1] == 'x' || body[1] == 'X')) return false;
  char buf[128];
  std::string big;
  const char* cstr;
  if (s.size() < sizeof(buf)) {
    std::memcpy(buf, s.data(), s.size());
    buf[s.size()] = '\0';
    cstr = buf;
  } else {
    big.assign(s);
    cstr = big.c_str();
  }
  char* end = nullptr;
  *out = std::strtod(cstr, &end);
  return end == cstr + s.size();
}

bool ParseBool(std::string_view s, uint8_t* out) {
  s = Trim(s);
  for (const char* t : {"true", "t", "yes", "y", "1"}) {
    if (absl::EqualsIgnoreCase(absl::string_view(s.data(), s.size()), t)) return (*out = 1), true;
  }
  for (const char* f : {"false", "f", "no", "n", "0"}) {
    if (absl::EqualsIgnoreCase(absl::string_view(s.data(), s.size()), f)) return (*out = 0), true;
  }
  return false;
}

// ---- numeric conversions ----

template <typename To>
bool IntFits(int128 v) {
  return v >= std::numeric_limits<To>::min() && v <= std::numeric_limits<To>::max();
}

template <typename To>
bool DoubleToInt(double d, To* out) {
  if (std::isnan(d)) return false;
  double t = std::trunc(d);
  // 2^63 is exact in double; the int64 range is [-2^63, 2^63).
  if (t < static_cast<double>(std::numeric_limits<To>::min()) ||
      t >= -static_cast<double>(std::numeric_limits<To>::min())) {
    return false;
  }
  *out = static_cast<To>(t);
  return true;
}

// Reads row i of a numeric/boolean column exactly as int128 with `*scale` fractional digits
// (integers and booleans have scale 0); false for FLOAT/DOUBLE.
bool ExactValue(const Column& in, size_t i, int128* v) {
  switch (in.type().id) {
    case TypeId::kBoolean:
      *v = in.data<uint8_t>()[i] != 0;
      return true;
    case TypeId::kTinyInt:
      *v = in.data<int8_t>()[i];
      return true;
    case TypeId::kSmallInt:
      *v = in.data<int16_t>()[i];
      return true;
    case TypeId::kInt:
      *v = in.data<int32_t>()[i];
      return true;
    case TypeId::kBigInt:
    case TypeId::kDecimal:
      *v = in.data<int64_t>()[i];
      return true;
    default:
      return false;
  }
}

double AsDouble(const Column& in, size_t i) {
  switch (in.type().id) {
    case TypeId::kFloat:
      return in.data<float>()[i];
    case TypeId::kDouble:
      return in.data<double>()[i];
    default:
      break;
  }
  int128 v = 0;
  ExactValue(in, i, &v);
  double d = static_cast<double>(v);
  int s = in.type().id == TypeId::kDecimal ? in.type().scale : 0;
  return s == 0 ? d : d / static_cast<double>(decimal::Pow10(s));
}

std::string ValueText(const Column& in, size_t i) {
  if (in.type().id == TypeId::kString) return absl::StrCat("'", AV(in.GetString(i)), "'");
  if (in.type().id == TypeId::kFloat) return FormatFloat(in.data<float>()[i]);
  return FormatValue(in.GetValue(i), in.type());
}

absl::StatusOr<Column> NumericCast(const Column& in, const DataType& to, bool try_cast) {
  const DataType& from = in.type();
  auto error = [&](size_t i) {
    return absl::InvalidArgumentError(absl::StrCat("Cannot cast ", ValueText(in, i), " to ",
                                                   TypeName(to), ": value out of range"));
  };
  const bool from_approx = from.IsApproximate();
  const int from_scale = from.id == TypeId::kDecimal ? from.scale : 0;
  switch (to.id) {
    case TypeId::kBoolean:
      return CastLoop<uint8_t>(
          in, to, try_cast,
          [&](size_t i, uint8_t* o) {
            int128 v;
            *o = from_approx ? AsDouble(in, i) != 0 : (ExactValue(in, i, &v), v != 0);
            return true;
          },
          error);
    case TypeId::kFloat:
      return CastLoop<float>(
          in, to, try_cast,
          [&](size_t i, float* o) {
            *o = static_cast<float>(AsDouble(in, i));
            return true;
          },
          error);
    case TypeId::kDouble:
      return CastLoop<double>(
          in, to, try_cast,
          [&](size_t i, double* o) {
            *o = AsDouble(in, i);
            return true;
          },
          error);
    case TypeId::kDecimal:
      return CastLoop<int64_t>(
          in, to, try_cast,
          [&](size_t i, int64_t* o) {
            if (from_approx)
              return decimal::DoubleToDecimal(AsDouble(in, i), to.precision, to.scale, o);
            int128 v, r;
            ExactValue(in, i, &v);
            if (!decimal::Rescale(v, from_scale, to.scale, &r) ||
                !decimal::FitsPrecision(r, to.precision)) {
              return false;
            }
            *o = static_cast<int64_t>(r);
            return true;
          },
          error);
    default:
      break;
  }
  absl::StatusOr<Column> result = absl::InternalError("bad numeric cast");
  DispatchInteger(to.id, [&](auto t) {
    using To = decltype(t);
    result = CastLoop<To>(
        in, to, try_cast,
        [&](size_t i, To* o) {
          if (from_approx) return DoubleToInt(AsDouble(in, i), o);
          int128 v;
          ExactValue(in, i, &v);
          if (from_scale > 0) v /= decimal::Pow10(from_scale);  // truncation toward zero
          if (!IntFits<To>(v)) return false;
          *o = static_cast<To>(v);
          return true;
        },
        error);
  });
  return result;
}

absl::StatusOr<Column> FromString(const Column& in, const DataType& to, bool try_cast) {
  auto error = [&](size_t i) {
    return absl::InvalidArgumentError(
        absl::StrCat("Cannot cast '", AV(in.GetString(i)), "' to ", TypeName(to)));
  };
  switch (to.id) {
    case TypeId::kBoolean:
      return CastLoop<uint8_t>(
          in, to, try_cast, [&](size_t i, uint8_t* o) { return ParseBool(in.GetString(i), o); },
          error);
    case TypeId::kFloat:
      return CastLoop<float>(
          in, to, try_cast,
          [&](size_t i, float* o) {
            double d;
            if (!ParseDouble(in.GetString(i), &d)) return false;
            *o = static_cast<float>(d);
            return true;
          },
          error);
    case TypeId::kDouble:
      return CastLoop<double>(
          in, to, try_cast, [&](size_t i, double* o) { return ParseDouble(in.GetString(i), o); },
          error);
    case TypeId::kDecimal:
      return CastLoop<int64_t>(
          in, to, try_cast,
          [&](size_t i, int64_t* o) {
            return decimal::ParseDecimal(in.GetString(i), to.precision, to.scale, o);
          },
          error);
    case TypeId::kDate:
      return CastLoop<int32_t>(
          in, to, try_cast, [&](size_t i, int32_t* o) { return ParseDateText(in.GetString(i), o); },
          error);
    case TypeId::kTime:
      return CastLoop<int32_t>(
          in, to, try_cast,
          [&](size_t i, int32_t* o) {
            return ParseTimeText(in.GetString(i), to.precision, o, nullptr);
          },
          error);
    case TypeId::kTimestamp:
      return CastLoop<int64_t>(
          in, to, try_cast,
          [&](size_t i, int64_t* o) {
            return ParseTimestampText(in.GetString(i), to.precision, o, nullptr);
          },
          error);
    case TypeId::kTimestampLtz:
      // UTC text (a zoned cast parsed it as a TIMESTAMP first), as the csv and json formats write
      // it: an optional 'Z' after it.
      return CastLoop<int64_t>(
          in, to, try_cast,
          [&](size_t i, int64_t* o) {
            std::string_view s = Trim(in.GetString(i));
            if (!s.empty() && (s.back() == 'Z' || s.back() == 'z')) s.remove_suffix(1);
            return ParseTimestampText(s, to.precision, o, nullptr);
          },
          error);
    default:
      break;
  }
  absl::StatusOr<Column> result = absl::InternalError("bad cast from STRING");
  DispatchInteger(to.id, [&](auto t) {
    using To = decltype(t);
    result = CastLoop<To>(
        in, to, try_cast,
        [&](size_t i, To* o) {
          int64_t v;
          if (!ParseInteger(in.GetString(i), &v) || !IntFits<To>(v)) return false;
          *o = static_cast<To>(v);
          return true;
        },
        error);
  });
  return result;
}

// Milliseconds of the day kept to `precision` fractional digits (TIME(p)).
int32_t TruncateTime(int64_t millis_of_day, int precision) {
  static constexpr int64_t kDrop[] = {1000, 100, 10};
  return static_cast<int32_t>(precision >= 3 ? millis_of_day
                                             : millis_of_day - millis_of_day % kDrop[precision]);
}

absl::StatusOr<Column> TemporalCast(const Column& in, const DataType& to) {
  const DataType& from = in.type();
  auto never = [](size_t) { return absl::OkStatus(); };
  constexpr int64_t kSecondsPerDay = 86400;
  constexpr int64_t kMillisPerDay = kSecondsPerDay * 1000;
  if (to.id == TypeId::kTime) {
    // TIME(p) -> TIME(q) truncates to q digits; TIMESTAMP(p) -> TIME(q) keeps the time of day.
    if (from.id == TypeId::kTime) {
      return CastLoop<int32_t>(
          in, to, false,
          [&](size_t i, int32_t* o) {
            *o = TruncateTime(in.data<int32_t>()[i], to.precision);
            return true;
          },
          never);
    }
    return CastLoop<int32_t>(
        in, to, false,
        [&](size_t i, int32_t* o) {
          const int64_t ms = TimestampToMillis(in.data<int64_t>()[i], from.precision);
          *o = TruncateTime(ms - FloorDivide(ms, kMillisPerDay) * kMillisPerDay, to.precision);
          return true;
        },
        never);
  }
  if (from.id == TypeId::kTime) {
    // TIME -> TIMESTAMP(p): that time on 1970-01-01, as Flink's TimestampData.fromEpochMillis.
    return CastLoop<int64_t>(
        in, to, false,
        [&](size_t i, int64_t* o) {
          return RescaleTimestamp(in.data<int32_t>()[i], 3, to.precision, o);
        },
        never);
  }
  if (to.id == TypeId::kDate) {
    if (from.id == TypeId::kDate) return Column(in);
    const int64_t per_day = kSecondsPerDay * TimestampUnitsPerSecond(from.precision);
    return CastLoop<int32_t>(
        in, to, false,
        [&](size_t i, int32_t* o) {
          *o = static_cast<int32_t>(FloorDivide(in.data<int64_t>()[i], per_day));
          return true;
        },
        never);
  }
  auto overflow = [&](size_t i) {
    return absl::InvalidArgumentError(
        absl::StrCat("Cast to ", TypeName(to), " overflows: ", FormatValue(in.GetValue(i), from),
                     " is outside its range"));
  };
  if (from.id == TypeId::kDate) {
    const int64_t per_day = kSecondsPerDay * TimestampUnitsPerSecond(to.precision);
    return CastLoop<int64_t>(
        in, to, false,
        [&](size_t i, int64_t* o) {
          return !__builtin_mul_overflow(static_cast<int64_t>(in.data<int32_t>()[i]), per_day, o);
        },
        overflow);
  }
  // TIMESTAMP(p) -> TIMESTAMP(q): the unit of q, fewer fractional digits truncate.
  return CastLoop<int64_t>(
      in, to, false,
      [&](size_t i, int64_t* o) {
        return RescaleTimestamp(in.data<int64_t>()[i], from.precision, to.precision, o);
      },
      overflow);
}

// The same int64 values under another timestamp type, each mapped by `f`.
template <typename F>
Column RetypeTimestamps(const Column& in, const DataType& type, F&& f) {
  const size_t n = in.size();
  FixedBuilder<int64_t> out(type, n);
  out.SetValidity(CombineValidity({&in}, n));
  const int64_t* a = in.data<int64_t>();
  int64_t* r = out.values();
  for (size_t i = 0; i < n; ++i) r[i] = out.IsNull(i) ? 0 : f(a[i]);
  return out.Finish();
}

}  // namespace

absl::StatusOr<Column> EvalCast(const Column& in, const DataType& to, bool try_cast,
                                const SessionTimeZone* zone) {
  const DataType& from = in.type();
  DataType out_type = to;
  if (from.id == TypeId::kNull) return AllNull(out_type, in.size());
  if (from.IsCollection() || to.IsCollection()) {
    // Only nullabilities change (CheckCast): the same bytes under the new type.
    if (!SameIgnoringNullability(from, to)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Cast from ", from.ToString(), " to ", to.ToString(), " is not supported"));
    }
    return Column::FromRaw(to, in.size(), in.raw_data(), in.raw_validity(), in.raw_offsets(),
                           in.raw_heap());
  }
  if (zone != nullptr && IsZoneDependentCast(from, to)) {
    if (from.id == TypeId::kTimestampLtz) {
      // The instant as the zone's wall clock, then that TIMESTAMP cast on.
      const int p = from.precision;
      Column local = RetypeTimestamps(in, DataType::Timestamp(p).WithNullable(from.nullable),
                                      [&](int64_t v) { return zone->ToLocal(v, p); });
      return EvalCast(local, to, try_cast, nullptr);
    }
    // The wall-clock TIMESTAMP the value names, then its instant in the zone.
    const int p = to.precision;
    ASSIGN_OR_RETURN(Column local,
                     EvalCast(in, DataType::Timestamp(p).WithNullable(to.nullable), try_cast));
    return RetypeTimestamps(local, out_type, [&](int64_t v) { return zone->FromLocal(v, p); });
  }
  if (from.IsBinary() || to.IsBinary()) return BinaryCast(in, out_type, try_cast);
  if (to.id == TypeId::kString) return ToString(in, out_type);
  if (from.id == TypeId::kString) return FromString(in, out_type, try_cast);
  bool from_num = from.IsNumeric() || from.id == TypeId::kBoolean;
  bool to_num = to.IsNumeric() || to.id == TypeId::kBoolean;
  if (from_num && to_num) return NumericCast(in, out_type, try_cast);
  const bool time_cast = (from.id == TypeId::kTime && (to.IsTimestampLike() || to.id == from.id)) ||
                         (to.id == TypeId::kTime && from.IsTimestampLike());
  if ((from.IsTemporal() && to.IsTemporal()) || time_cast) return TemporalCast(in, out_type);
  return absl::InvalidArgumentError(
      absl::StrCat("Cast from ", TypeName(from), " to ", TypeName(to), " is not supported"));
}

}  // namespace eddy::eval_internal
