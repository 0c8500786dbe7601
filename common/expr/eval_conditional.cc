// CASE and COALESCE. Each branch value is evaluated only on the rows that take it (via
// EvalOnRows), so a guarded division or CAST in an untaken branch never raises an error, and the
// rows are then merged in their original order.
#include "common/base/status_macros.h"
#include "common/expr/eval_internal.h"

namespace eddy::eval_internal {
namespace {

// Per-row pick of a source column and the row within it.
struct Merge {
  std::vector<EvalColumn> sources;
  std::vector<int32_t> source;  // -1 = NULL
  std::vector<uint32_t> pos;
};

Column Assemble(const DataType& type, Merge& m, size_t n) {
  Column out(type);
  out.Reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (m.source[i] < 0) {
      out.AppendNull();
    } else {
      out.AppendFrom(m.sources[m.source[i]].get(), m.pos[i]);
    }
  }
  return out;
}

// Records that rows `taken` (positions in the current subset `rows`, or all rows) come from `col`.
void Take(Merge& m, EvalColumn col, const std::vector<uint32_t>& taken_rows,
          const std::vector<uint32_t>& taken_pos) {
  int32_t id = static_cast<int32_t>(m.sources.size());
  m.sources.push_back(std::move(col));
  for (size_t k = 0; k < taken_rows.size(); ++k) {
    m.source[taken_rows[k]] = id;
    m.pos[taken_rows[k]] = taken_pos[k];
  }
}

}  // namespace

absl::StatusOr<Column> EvalCase(const Expr& call, const ChangelogBatch& input) {
  const size_t n = input.num_rows();
  const auto& args = call.args;
  if (args.size() < 2) return InternalError(call, "expected two or more arguments");
  Merge m;
  m.source.assign(n, -1);
  m.pos.assign(n, 0);
  std::vector<uint32_t> remaining(n);
  for (size_t i = 0; i < n; ++i) remaining[i] = static_cast<uint32_t>(i);
  bool all = true;  // `remaining` is every row, so operands can run on `input` itself
  std::vector<uint32_t> taken, rest, identity;
  for (size_t a = 0; a + 1 < args.size() && !remaining.empty(); a += 2) {
    ASSIGN_OR_RETURN(EvalColumn cond, EvalOnRows(*args[a], input, remaining, all));
    if (cond->type().id != TypeId::kBoolean)
      return InternalError(call, "BOOLEAN condition expected");
    const uint8_t* v = cond->data<uint8_t>();
    taken.clear();
    rest.clear();
    for (size_t k = 0; k < remaining.size(); ++k) {
      bool yes = v[k] && !cond->IsNull(k);
      (yes ? taken : rest).push_back(remaining[k]);
    }
    if (!taken.empty()) {
      bool value_all = taken.size() == n;
      ASSIGN_OR_RETURN(EvalColumn val, EvalOnRows(*args[a + 1], input, taken, value_all));
      // Evaluated on `taken`, the value's row k belongs to taken[k]; on all rows, to itself.
      if (value_all) {
        Take(m, std::move(val), taken, taken);
      } else {
        identity.resize(taken.size());
        for (size_t k = 0; k < taken.size(); ++k) identity[k] = static_cast<uint32_t>(k);
        Take(m, std::move(val), taken, identity);
      }
    }
    remaining.swap(rest);
    all = remaining.size() == n;
  }
  if (args.size() % 2 == 1 && !remaining.empty()) {
    ASSIGN_OR_RETURN(EvalColumn val, EvalOnRows(*args.back(), input, remaining, all));
    if (all) {
      Take(m, std::move(val), remaining, remaining);
    } else {
      identity.resize(remaining.size());
      for (size_t k = 0; k < remaining.size(); ++k) identity[k] = static_cast<uint32_t>(k);
      Take(m, std::move(val), remaining, identity);
    }
  }
  for (const auto& s : m.sources) {
    if (s->type().id != call.type.id) return InternalError(call, "branch of a different type");
  }
  return Assemble(call.type, m, n);
}

absl::StatusOr<Column> EvalCoalesce(const Expr& call, const ChangelogBatch& input) {
  const size_t n = input.num_rows();
  if (call.args.empty()) return InternalError(call, "no arguments");
  Merge m;
  m.source.assign(n, -1);
  m.pos.assign(n, 0);
  std::vector<uint32_t> remaining(n), found, found_pos, rest;
  for (size_t i = 0; i < n; ++i) remaining[i] = static_cast<uint32_t>(i);
  bool all = true;
  for (const auto& arg : call.args) {
    if (remaining.empty()) break;
    // Cheap operands run on the whole batch; ones that may fail only where still needed.
    const bool full = all || !MayFail(*arg);
    ASSIGN_OR_RETURN(EvalColumn c, EvalOnRows(*arg, input, remaining, full));
    if (c->type().id != call.type.id) return InternalError(call, "argument of a different type");
    found.clear();
    found_pos.clear();
    rest.clear();
    for (size_t k = 0; k < remaining.size(); ++k) {
      uint32_t row = remaining[k];
      uint32_t at = full ? row : static_cast<uint32_t>(k);
      if (c->IsNull(at)) {
        rest.push_back(row);
      } else {
        found.push_back(row);
        found_pos.push_back(at);
      }
    }
    if (!found.empty()) Take(m, std::move(c), found, found_pos);
    remaining.swap(rest);
    all = false;
  }
  return Assemble(call.type, m, n);
}

}  // namespace eddy::eval_internal
