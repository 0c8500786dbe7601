// GREATEST and LEAST over arguments already cast to their common type: NULL when any argument is,
// strings compared by bytes (code point order).
#include <string_view>

#include "common/expr/eval_internal.h"

namespace eddy::eval_internal {

absl::StatusOr<Column> EvalGreatestLeast(const Expr& call, const ArgList& args, size_t n) {
  const bool greatest = call.function == "GREATEST";
  for (const Column* a : args) {
    if (a->type().id != call.type.id) return InternalError(call, "argument of a different type");
  }
  auto validity = CombineValidity(args, n);
  if (call.type.id == TypeId::kString) {
    StringBuilder out(call.type, n);
    for (size_t i = 0; i < n; ++i) {
      if (!validity.empty() && !(validity[i >> 3] & (1u << (i & 7)))) {
        out.AppendNull();
        continue;
      }
      std::string_view best = args[0]->GetString(i);
      for (size_t k = 1; k < args.size(); ++k) {
        std::string_view v = args[k]->GetString(i);
        if (greatest ? v > best : v < best) best = v;
      }
      out.Append(best);
    }
    return out.Finish();
  }
  return DispatchFixed(call.type.id, [&](auto t) -> absl::StatusOr<Column> {
    using T = decltype(t);
    FixedBuilder<T> out(call.type, n);
    out.SetValidity(validity);
    T* r = out.values();
    const T* first = args[0]->data<T>();
    for (size_t i = 0; i < n; ++i) r[i] = first[i];
    for (size_t k = 1; k < args.size(); ++k) {
      const T* a = args[k]->data<T>();
      for (size_t i = 0; i < n; ++i) {
        if (greatest ? a[i] > r[i] : a[i] < r[i]) r[i] = a[i];
      }
    }
    return out.Finish();
  });
}

}  // namespace eddy::eval_internal
