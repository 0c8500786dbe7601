// Time functions: CURRENT_TIMESTAMP / NOW() / PROCTIME() (the clock's instant, once per batch),
// LOCALTIMESTAMP, CURRENT_DATE and CURRENT_TIME / LOCALTIME (the clock read in the session zone
// the call carries; the time of day in whole seconds, as TIME(0)),
// TO_TIMESTAMP_LTZ(epoch, 0|3) and TO_TIMESTAMP(string) (NULL when it does not parse, as Flink).
#include <chrono>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/eval_internal.h"
#include "common/expr/zoned_calls.h"
#include "common/types/temporal_text.h"
#include "common/types/timestamp_precision.h"

namespace eddy::eval_internal {
namespace {

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

template <typename T>
Column Constant(const Expr& call, T v, size_t n) {
  FixedBuilder<T> out(call.type, n);
  std::fill_n(out.values(), n, v);
  return out.Finish();
}

// Epoch seconds or milliseconds of any integer column, scaled to milliseconds.
template <typename T>
void EpochToMillis(const Column& in, int64_t scale, int64_t* out, size_t n) {
  const T* a = in.data<T>();
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(a[i]) * scale;
}

}  // namespace

absl::StatusOr<Column> EvalTemporal(const Expr& call, const ArgList& args, size_t n) {
  const std::string& f = call.function;
  if (f == "CURRENT_DATE" || f == "LOCALTIMESTAMP" || f == "CURRENT_TIME" || f == "LOCALTIME") {
    ASSIGN_OR_RETURN(std::shared_ptr<SessionTimeZone> zone, CallTimeZone(call));
    const int64_t local = zone->ToLocal(NowMillis(), 3);
    if (f == "LOCALTIMESTAMP") return Constant<int64_t>(call, local, n);
    if (f == "CURRENT_TIME" || f == "LOCALTIME") {
      const int64_t in_day = local - FloorDivide(local, 86400000) * 86400000;
      return Constant<int32_t>(call, static_cast<int32_t>(in_day - in_day % 1000), n);
    }
    return Constant<int32_t>(call, static_cast<int32_t>(FloorDivide(local, 86400000)), n);
  }
  if (f == "CURRENT_TIMESTAMP" || f == "NOW" || f == "PROCTIME") {
    return Constant<int64_t>(call, NowMillis(), n);
  }
  if (f == "TO_TIMESTAMP_LTZ") {
    if (args.size() != 2) return InternalError(call, "expected two arguments");
    const int64_t scale = call.args[1]->literal.int_value() == 0 ? 1000 : 1;
    FixedBuilder<int64_t> out(call.type, n);
    out.SetValidity(CombineValidity({args[0]}, n));
    const Column& in = *args[0];
    if (!DispatchInteger(in.type().id,
                         [&](auto t) { EpochToMillis<decltype(t)>(in, scale, out.values(), n); })) {
      return InternalError(call, "an integer epoch expected");
    }
    return out.Finish();
  }
  if (f == "TO_TIMESTAMP") {
    if (args.size() == 2) return EvalDateTime(call, args, n);  // with a pattern
    if (args.size() != 1) return InternalError(call, "expected one argument");
    const Column& in = *args[0];
    FixedBuilder<int64_t> out(call.type, n);
    out.SetValidity(CombineValidity({args[0]}, n));
    int64_t* r = out.values();
    for (size_t i = 0; i < n; ++i) {
      if (out.IsNull(i)) continue;
      if (!ParseTimestampText(in.GetString(i), &r[i])) out.SetNull(i);
    }
    return out.Finish();
  }
  return absl::InvalidArgumentError(absl::StrCat("Unknown function '", f, "'"));
}

}  // namespace eddy::eval_internal
