// SQL three-valued logic: AND, OR, NOT and the IS [NOT] NULL/TRUE/FALSE predicates. AND/OR
// evaluate their later operands only on the rows still undecided when those operands may fail.
#include "common/base/status_macros.h"
#include "common/expr/eval_internal.h"

namespace eddy::eval_internal {
namespace {

inline bool Valid(const Column& c, size_t i) { return !c.IsNull(i); }

}  // namespace

absl::StatusOr<Column> EvalNot(const Expr& call, const ArgList& args, size_t n) {
  if (args.size() != 1 || args[0]->type().id != TypeId::kBoolean) {
    return InternalError(call, "expected one BOOLEAN argument");
  }
  FixedBuilder<uint8_t> out(call.type, n);
  out.SetValidity(CombineValidity(args, n));
  const uint8_t* a = args[0]->data<uint8_t>();
  uint8_t* r = out.values();
  for (size_t i = 0; i < n; ++i) r[i] = a[i] == 0;
  return out.Finish();
}

absl::StatusOr<Column> EvalPredicate(const Expr& call, const ArgList& args, size_t n) {
  if (args.size() != 1) return InternalError(call, "expected one argument");
  const Column& c = *args[0];
  const std::string& f = call.function;
  FixedBuilder<uint8_t> out(call.type, n);
  uint8_t* r = out.values();
  if (f == "IS NULL" || f == "IS NOT NULL") {
    const uint8_t want_null = f == "IS NULL";
    for (size_t i = 0; i < n; ++i) r[i] = c.IsNull(i) == want_null;
    return out.Finish();
  }
  if (c.type().id != TypeId::kBoolean) return InternalError(call, "expected a BOOLEAN argument");
  const uint8_t* a = c.data<uint8_t>();
  // IS TRUE: valid and true; IS NOT TRUE is its negation (so NULL IS NOT TRUE is TRUE).
  const bool want_true = f == "IS TRUE" || f == "IS NOT TRUE";
  const bool negate = f == "IS NOT TRUE" || f == "IS NOT FALSE";
  for (size_t i = 0; i < n; ++i) {
    bool v = Valid(c, i) && (a[i] != 0) == want_true;
    r[i] = v != negate;
  }
  return out.Finish();
}

absl::StatusOr<Column> EvalAndOr(const Expr& call, const ChangelogBatch& input) {
  const bool is_and = call.function == "AND";
  const size_t n = input.num_rows();
  if (call.args.size() < 2) return InternalError(call, "expected two or more arguments");
  // State per row: value (meaningful when known) and known (not NULL).
  std::vector<uint8_t> value(n, is_and ? 1 : 0);
  std::vector<uint8_t> known(n, 1);
  // A row is decided once an operand is FALSE (AND) / TRUE (OR).
  const uint8_t decisive = is_and ? 0 : 1;
  std::vector<uint32_t> pending;
  bool all_pending = true;
  for (const auto& arg : call.args) {
    if (arg->type.id != TypeId::kBoolean) return InternalError(call, "BOOLEAN operands expected");
    if (!all_pending && pending.empty()) break;
    // Cheap operands run on the whole batch; ones that may fail only on the undecided rows.
    const bool subset = !all_pending && MayFail(*arg);
    ASSIGN_OR_RETURN(EvalColumn c, EvalOnRows(*arg, input, pending, !subset));
    const uint8_t* v = c->data<uint8_t>();
    const bool has_nulls = c->HasNulls();
    auto combine = [&](size_t row, size_t src) {
      bool valid = !has_nulls || !c->IsNull(src);
      if (valid && v[src] == decisive) {
        value[row] = decisive;
        known[row] = 1;
      } else if (!valid && value[row] != decisive) {
        known[row] = 0;
      }
    };
    if (subset) {
      for (size_t k = 0; k < pending.size(); ++k) combine(pending[k], k);
    } else {
      for (size_t i = 0; i < n; ++i) combine(i, i);
    }
    // Rows still undecided need the next operand.
    pending.clear();
    for (size_t i = 0; i < n; ++i) {
      if (value[i] != decisive) pending.push_back(static_cast<uint32_t>(i));
    }
    all_pending = pending.size() == n;
  }
  FixedBuilder<uint8_t> out(call.type, n);
  uint8_t* r = out.values();
  for (size_t i = 0; i < n; ++i) {
    if (!known[i]) {
      out.SetNull(i);
    } else {
      r[i] = value[i];
    }
  }
  return out.Finish();
}

}  // namespace eddy::eval_internal
