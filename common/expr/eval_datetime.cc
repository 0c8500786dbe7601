// Kernels of EXTRACT, TIMESTAMPADD, TIMESTAMPDIFF, DATE_FORMAT, UNIX_TIMESTAMP, FROM_UNIXTIME,
// TO_DATE and TO_TIMESTAMP with a pattern (UTC; DATE is midnight of its day). A constant pattern
// is compiled once per call expression.
#include <chrono>
#include <limits>
#include <memory>
#include <string>

#include "common/base/status_macros.h"
#include "common/expr/datetime_pattern.h"
#include "common/expr/eval_internal.h"
#include "common/types/temporal_text.h"
#include "common/types/timestamp_precision.h"

namespace eddy::eval_internal {
namespace {

constexpr int64_t kMillisPerDay = 86400000;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// A DATE or TIMESTAMP value as milliseconds since the epoch (rounded down); a TIME as the
// milliseconds of its day (on 1970-01-01).
int64_t MillisAt(const Column& c, size_t i) {
  if (c.type().id == TypeId::kTime) return c.data<int32_t>()[i];
  return c.type().id == TypeId::kDate ? int64_t{c.data<int32_t>()[i]} * kMillisPerDay
                                      : TimestampToMillis(c.data<int64_t>()[i], c.type().precision);
}

// EXTRACT of MICROSECOND or NANOSECOND (within the second) from a TIMESTAMP(p > 3).
int64_t ExtractSubMillisecond(const std::string& unit, int64_t value, int precision) {
  const int64_t per_second = TimestampUnitsPerSecond(precision);
  const int64_t fraction = value - FloorDivide(value, per_second) * per_second;
  return unit == "MICROSECOND" ? fraction * 1000000 / per_second
                               : fraction * (1000000000 / per_second);
}

const std::string& UnitOf(const Expr& call) { return call.args[0]->literal.string_value(); }

int64_t UnitMillis(const std::string& unit) {
  if (unit == "MILLISECOND") return 1;
  if (unit == "SECOND") return 1000;
  if (unit == "MINUTE") return 60000;
  if (unit == "HOUR") return 3600000;
  if (unit == "DAY") return kMillisPerDay;
  if (unit == "WEEK") return 7 * kMillisPerDay;
  return 0;  // month based
}

int64_t UnitMonths(const std::string& unit) {
  return unit == "YEAR" ? 12 : unit == "QUARTER" ? 3 : 1;
}

int64_t Extract(const std::string& unit, int64_t ms) {
  const int64_t days = FloorDiv(ms, kMillisPerDay);
  const int64_t in_day = ms - days * kMillisPerDay;
  if (unit == "HOUR") return in_day / 3600000;
  if (unit == "MINUTE") return in_day / 60000 % 60;
  if (unit == "SECOND") return in_day / 1000 % 60;
  // Within the second, as Flink's (not Calcite's, which counts the seconds too).
  if (unit == "MILLISECOND") return in_day % 1000;
  if (unit == "MICROSECOND") return in_day % 1000 * 1000;
  if (unit == "NANOSECOND") return in_day % 1000 * 1000000;
  if (unit == "EPOCH") return ms / 1000;
  const int64_t iso_dow = ((days + 3) % 7 + 7) % 7 + 1;  // 1970-01-01 was a Thursday
  if (unit == "DOW") return iso_dow % 7 + 1;             // Sunday = 1
  if (unit == "ISODOW") return iso_dow;
  if (unit == "WEEK") {
    // ISO 8601: the week (Monday to Sunday) belongs to the year of its Thursday.
    const int64_t thursday = days - iso_dow + 4;
    const CivilFields t = CivilFromDays(thursday);
    return (thursday - DaysFromCivil(t.year, 1, 1)) / 7 + 1;
  }
  const CivilFields c = CivilFromDays(days);
  if (unit == "YEAR") return c.year;
  if (unit == "QUARTER") return (c.month - 1) / 3 + 1;
  if (unit == "MONTH") return c.month;
  if (unit == "DAY") return c.day;
  if (unit == "DOY") return days - DaysFromCivil(c.year, 1, 1) + 1;
  return 0;
}

// Whole months from day d1 to day d0 (d0 >= d1): the most m with d1 + m months <= d0.
int64_t MonthsBetweenDays(int64_t d0, int64_t d1) {
  if (d0 < d1) return -MonthsBetweenDays(d1, d0);
  int64_t m = (d0 - d1) / 31;
  while (true) {
    if (AddMonthsToDays(d1, m) >= d0) return m;
    if (AddMonthsToDays(d1, m + 1) > d0) return m;
    ++m;
  }
}

// Whole months from t1 to t0 (milliseconds), a partial last day not counting.
int64_t MonthsBetween(int64_t t0, int64_t t1) {
  const int64_t d0 = FloorDiv(t0, kMillisPerDay), d1 = FloorDiv(t1, kMillisPerDay);
  const int64_t ms0 = t0 - d0 * kMillisPerDay, ms1 = t1 - d1 * kMillisPerDay;
  int64_t x = MonthsBetweenDays(d0, d1);
  if (AddMonthsToDays(d1, x) == d0 && ms0 < ms1) --x;
  return x;
}

// The pattern of each row: the call's constant one (compiled once), or the row's.
class Patterns {
 public:
  Patterns(const Expr& call, const Column* column, size_t arg,
           std::string default_pattern = "yyyy-MM-dd HH:mm:ss")
      : call_(call), column_(column), arg_(arg), default_(std::move(default_pattern)) {}

  // nullptr when the row's pattern does not compile.
  const DateTimePattern* Get(size_t i) {
    if (column_ == nullptr) return Constant(default_);
    const Expr& p = *call_.args[arg_];
    if (p.kind == ExprKind::kLiteral && p.literal.is_string()) {
      return Constant(p.literal.string_value());
    }
    std::string_view text = column_->GetString(i);
    if (!has_text_ || text != text_) {
      text_.assign(text);
      has_text_ = true;
      auto compiled = DateTimePattern::Compile(text);
      current_ = compiled.ok() ? std::make_shared<DateTimePattern>(*std::move(compiled)) : nullptr;
    }
    return current_.get();
  }

 private:
  const DateTimePattern* Constant(const std::string& text) {
    if (!checked_) {
      checked_ = true;
      auto p = call_.kernel_state.GetOrCreate<const DateTimePattern>(
          [&]() -> absl::StatusOr<std::shared_ptr<const DateTimePattern>> {
            ASSIGN_OR_RETURN(DateTimePattern compiled, DateTimePattern::Compile(text));
            return std::make_shared<const DateTimePattern>(std::move(compiled));
          });
      if (p.ok()) constant_ = *p;
    }
    return constant_.get();
  }

  const Expr& call_;
  const Column* column_;
  size_t arg_;
  std::string default_;
  bool checked_ = false;
  std::shared_ptr<const DateTimePattern> constant_;
  bool has_text_ = false;
  std::string text_;
  std::shared_ptr<DateTimePattern> current_;
};

bool IsNull(const std::vector<uint8_t>& validity, size_t i) {
  return !validity.empty() && !(validity[i >> 3] & (1u << (i & 7)));
}

}  // namespace

absl::StatusOr<Column> EvalDateTime(const Expr& call, const ArgList& args, size_t n) {
  const std::string& f = call.function;
  auto validity = CombineValidity(args, n);
  if (f == "EXTRACT") {
    const std::string& unit = UnitOf(call);
    FixedBuilder<int64_t> out(call.type, n);
    out.SetValidity(validity);
    int64_t* r = out.values();
    const Column& t = *args[1];
    if (t.type().id == TypeId::kTimestamp && t.type().precision > 3 &&
        (unit == "MICROSECOND" || unit == "NANOSECOND")) {
      for (size_t i = 0; i < n; ++i) {
        if (!out.IsNull(i)) {
          r[i] = ExtractSubMillisecond(unit, t.data<int64_t>()[i], t.type().precision);
        }
      }
      return out.Finish();
    }
    for (size_t i = 0; i < n; ++i) {
      if (!out.IsNull(i)) r[i] = Extract(unit, MillisAt(t, i));
    }
    return out.Finish();
  }
  if (f == "TIMESTAMPADD") {
    const std::string& unit = UnitOf(call);
    const int64_t unit_ms = UnitMillis(unit);
    const int64_t* amount = args[1]->data<int64_t>();
    const Column& t = *args[2];
    if (call.type.id == TypeId::kDate) {
      FixedBuilder<int32_t> out(call.type, n);
      out.SetValidity(validity);
      int32_t* r = out.values();
      const int32_t* d = t.data<int32_t>();
      for (size_t i = 0; i < n; ++i) {
        if (out.IsNull(i)) continue;
        r[i] = static_cast<int32_t>(unit_ms != 0
                                        ? d[i] + amount[i] * (unit_ms / kMillisPerDay)
                                        : AddMonthsToDays(d[i], amount[i] * UnitMonths(unit)));
      }
      return out.Finish();
    }
    // In the result's unit: milliseconds, or finer for a TIMESTAMP(p > 3) (a DATE operand has
    // become a TIMESTAMP(3) result).
    FixedBuilder<int64_t> out(call.type, n);
    out.SetValidity(validity);
    int64_t* r = out.values();
    const int64_t per_milli = TimestampUnitsPerMilli(call.type.precision);
    const int64_t per_day = kMillisPerDay * per_milli;
    for (size_t i = 0; i < n; ++i) {
      if (out.IsNull(i)) continue;
      const int64_t v = t.type().id == TypeId::kDate ? MillisAt(t, i) : t.data<int64_t>()[i];
      if (unit_ms != 0) {
        r[i] = v + amount[i] * unit_ms * per_milli;
      } else {
        const int64_t days = FloorDiv(v, per_day);
        r[i] = AddMonthsToDays(days, amount[i] * UnitMonths(unit)) * per_day + (v - days * per_day);
      }
    }
    return out.Finish();
  }
  if (f == "TIMESTAMPDIFF") {
    const std::string& unit = UnitOf(call);
    const int64_t unit_ms = UnitMillis(unit);
    FixedBuilder<int32_t> out(call.type, n);
    out.SetValidity(validity);
    int32_t* r = out.values();
    for (size_t i = 0; i < n; ++i) {
      if (out.IsNull(i)) continue;
      const int64_t a = MillisAt(*args[1], i), b = MillisAt(*args[2], i);
      r[i] = static_cast<int32_t>(unit_ms != 0 ? (b - a) / unit_ms
                                               : MonthsBetween(b, a) / UnitMonths(unit));
    }
    return out.Finish();
  }
  if (f == "DATE_FORMAT" || f == "FROM_UNIXTIME") {
    const bool from_unix = f == "FROM_UNIXTIME";
    Patterns patterns(call, args.size() == 2 ? args[1] : nullptr, 1);
    StringBuilder out(call.type, n);
    for (size_t i = 0; i < n; ++i) {
      const DateTimePattern* p = IsNull(validity, i) ? nullptr : patterns.Get(i);
      int64_t ms = 0;
      bool ok = p != nullptr;
      if (ok) {
        const Column& t = *args[0];
        if (from_unix) {
          ms = t.data<int64_t>()[i] * 1000;
        } else if (t.type().IsString()) {
          ok = ParseTimestampText(t.GetString(i), &ms);
        } else {
          ms = MillisAt(t, i);
        }
      }
      if (!ok) {
        out.AppendNull();
        continue;
      }
      p->Format(ms, &out.heap());
      out.Commit();
    }
    return out.Finish();
  }
  if (f == "TO_DATE" || f == "TO_TIMESTAMP") {
    const bool date = f == "TO_DATE";
    Patterns patterns(call, args.size() == 2 ? args[1] : nullptr, 1, "yyyy-MM-dd");
    auto parse = [&](size_t i, int64_t* ms) {
      const DateTimePattern* p = patterns.Get(i);
      return p != nullptr && p->Parse(args[0]->GetString(i), ms, /*whole=*/true);
    };
    if (date) {
      FixedBuilder<int32_t> out(call.type, n);
      out.SetValidity(validity);
      int32_t* r = out.values();
      for (size_t i = 0; i < n; ++i) {
        int64_t ms = 0;
        if (out.IsNull(i)) continue;
        if (parse(i, &ms)) {
          r[i] = static_cast<int32_t>(FloorDiv(ms, kMillisPerDay));
        } else {
          out.SetNull(i);
        }
      }
      return out.Finish();
    }
    FixedBuilder<int64_t> out(call.type, n);
    out.SetValidity(validity);
    int64_t* r = out.values();
    for (size_t i = 0; i < n; ++i) {
      if (!out.IsNull(i) && !parse(i, &r[i])) out.SetNull(i);
    }
    return out.Finish();
  }
  if (f == "UNIX_TIMESTAMP") {
    FixedBuilder<int64_t> out(call.type, n);
    int64_t* r = out.values();
    if (args.empty()) {
      const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
      std::fill_n(r, n, now);
      return out.Finish();
    }
    out.SetValidity(validity);
    Patterns patterns(call, args.size() == 2 ? args[1] : nullptr, 1);
    for (size_t i = 0; i < n; ++i) {
      if (out.IsNull(i)) continue;
      const DateTimePattern* p = patterns.Get(i);
      int64_t ms = 0;
      // Milliseconds / 1000 truncates toward zero, as Flink's.
      r[i] = p != nullptr && p->Parse(args[0]->GetString(i), &ms)
                 ? ms / 1000
                 : std::numeric_limits<int64_t>::min();
    }
    return out.Finish();
  }
  return InternalError(call, "unknown time function");
}

}  // namespace eddy::eval_internal
