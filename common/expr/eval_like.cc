// LIKE kernel. A literal pattern (the usual case) is compiled once per batch; a pattern column is
// recompiled only when the pattern changes from one row to the next.
#include "common/base/status_macros.h"
#include "common/expr/eval_internal.h"
#include "common/expr/like_matcher.h"

namespace eddy::eval_internal {

absl::StatusOr<Column> EvalLike(const Expr& call, const ArgList& args, size_t n) {
  if (args.size() < 2 || args.size() > 3) return InternalError(call, "expected 2 or 3 arguments");
  for (const Column* a : args) {
    if (a->type().id != TypeId::kString) return InternalError(call, "STRING arguments expected");
  }
  const Column& s = *args[0];
  const Column& p = *args[1];
  const Column* esc = args.size() == 3 ? args[2] : nullptr;
  FixedBuilder<uint8_t> out(call.type, n);
  out.SetValidity(CombineValidity(args, n));
  uint8_t* r = out.values();
  LikePattern pattern;
  const bool constant = call.args[1]->kind == ExprKind::kLiteral &&
                        (esc == nullptr || call.args[2]->kind == ExprKind::kLiteral);
  if (constant) {
    if (n == 0 || p.IsNull(0) || (esc && esc->IsNull(0))) {
      return AllNull(call.type, n);  // a NULL pattern: every row is NULL
    }
    RETURN_IF_ERROR(pattern.Compile(p.GetString(0), esc ? esc->GetString(0) : ""));
    for (size_t i = 0; i < n; ++i) r[i] = pattern.Matches(s.GetString(i));
    return out.Finish();
  }
  std::string last_pattern, last_escape;
  bool compiled = false;
  for (size_t i = 0; i < n; ++i) {
    if (out.IsNull(i)) continue;
    std::string_view pv = p.GetString(i);
    std::string_view ev = esc ? esc->GetString(i) : std::string_view();
    if (!compiled || pv != last_pattern || ev != last_escape) {
      RETURN_IF_ERROR(pattern.Compile(pv, ev));
      last_pattern.assign(pv);
      last_escape.assign(ev);
      compiled = true;
    }
    r[i] = pattern.Matches(s.GetString(i));
  }
  return out.Finish();
}

}  // namespace eddy::eval_internal
