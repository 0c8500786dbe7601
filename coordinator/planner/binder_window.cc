// Windows in SQL: the window TVFs TUMBLE/HOP/CUMULATE(TABLE t, DESCRIPTOR(ts), ...) in FROM, the
// legacy GROUP BY TUMBLE(ts, size) / HOP(ts, slide, size) with TUMBLE_START/_END, and the rewrite
// of an aggregate grouped by window_start and window_end over a window TVF into a WindowAggregate
// (as Flink's window aggregation: append-only results when the watermark passes the window end;
// grouped by window_time too, its window_time stays a time attribute for a cascading window).
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/evaluator.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/expr_util.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

std::optional<WindowSpec::Kind> WindowKindOf(const std::string& upper) {
  if (upper == "TUMBLE") return WindowSpec::Kind::kTumble;
  if (upper == "HOP") return WindowSpec::Kind::kHop;
  if (upper == "CUMULATE") return WindowSpec::Kind::kCumulate;
  if (upper == "SESSION") return WindowSpec::Kind::kSession;
  return std::nullopt;
}

absl::StatusOr<int64_t> IntervalArg(const sql::Expr& arg, const std::string& fn,
                                    const std::string& what) {
  ExprScope scope;
  scope.clause = "a window argument";
  ASSIGN_OR_RETURN(ExprPtr e, BindExpr(arg, scope));
  if (e->type.id != TypeId::kInterval || !IsConstant(*e)) {
    return ValidationErrorAt(arg.pos, absl::StrCat("the ", what, " of ", fn,
                                                   " must be a constant INTERVAL, e.g. "
                                                   "INTERVAL '10' MINUTE"));
  }
  auto v = EvaluateConstant(*e);
  if (!v.ok()) return AsValidationError(arg.pos, v.status());
  if (v->is_null() || v->int_value() <= 0) {
    return ValidationErrorAt(arg.pos, absl::StrCat("the ", what, " of ", fn, " must be positive"));
  }
  return v->int_value();
}

// The window's sizes from its interval arguments: TUMBLE(size [, offset]),
// HOP(slide, size [, offset]), CUMULATE(step, size [, offset]) (Flink's argument order).
absl::StatusOr<WindowSpec> WindowFromArgs(WindowSpec::Kind kind, const std::string& fn,
                                          const std::vector<const sql::Expr*>& args,
                                          const sql::SourcePos& pos) {
  if (kind == WindowSpec::Kind::kSession) {
    if (args.size() != 1) {
      return ValidationErrorAt(pos, absl::StrCat(fn, " takes the session gap, got ", args.size(),
                                                 " interval arguments"));
    }
    WindowSpec w;
    w.kind = kind;
    ASSIGN_OR_RETURN(w.gap_ms, IntervalArg(*args[0], fn, "gap"));
    return w;
  }
  const size_t sizes = kind == WindowSpec::Kind::kTumble ? 1 : 2;
  if (args.size() != sizes && args.size() != sizes + 1) {
    return ValidationErrorAt(
        pos, absl::StrCat(fn, " takes ",
                          kind == WindowSpec::Kind::kTumble ? "the window size"
                          : kind == WindowSpec::Kind::kHop  ? "the slide and the window size"
                                                           : "the step and the maximum window size",
                          " (and optionally an offset), got ", args.size(), " interval arguments"));
  }
  WindowSpec w;
  w.kind = kind;
  if (kind == WindowSpec::Kind::kTumble) {
    ASSIGN_OR_RETURN(w.size_ms, IntervalArg(*args[0], fn, "size"));
  } else {
    ASSIGN_OR_RETURN(int64_t first,
                     IntervalArg(*args[0], fn, kind == WindowSpec::Kind::kHop ? "slide" : "step"));
    ASSIGN_OR_RETURN(w.size_ms, IntervalArg(*args[1], fn, "size"));
    (kind == WindowSpec::Kind::kHop ? w.slide_ms : w.step_ms) = first;
    if (w.size_ms % first != 0) {
      return ValidationErrorAt(
          args[1]->pos, absl::StrCat(fn,
                                     " requires the window size to be an integral multiple of "
                                     "the ",
                                     kind == WindowSpec::Kind::kHop ? "slide" : "step"));
    }
  }
  if (args.size() == sizes + 1) {
    ASSIGN_OR_RETURN(w.offset_ms, IntervalArg(*args[sizes], fn, "offset"));
  }
  return w;
}

absl::Status RequireTimeAttribute(const LogicalNode& input, int column, const std::string& name,
                                  const std::string& fn, const sql::SourcePos& pos) {
  if (TimeAttributeOf(input, column) != TimeAttribute::kNone) {
    // Windows of a TIMESTAMP_LTZ attribute count in the session zone's wall clock (the physical
    // planner's WindowTimeZone), as Flink aligns them.
    return absl::OkStatus();
  }
  return ValidationErrorAt(
      pos, absl::StrCat("the time column '", name, "' of ", fn,
                        " must be a time attribute: a column with WATERMARK FOR in its table's "
                        "DDL (event time) or a PROCTIME() column (processing time), selected "
                        "unchanged"));
}

bool IsColumn(const Expr& e, int column) {
  return e.kind == ExprKind::kColumn && e.column == column;
}

}  // namespace

absl::StatusOr<BoundRelation> Binder::BindWindowTableFunction(const sql::TableRef& ref) {
  const std::string fn = absl::AsciiStrToUpper(ref.name.parts.empty() ? "" : ref.name.parts.back());
  std::optional<WindowSpec::Kind> kind = WindowKindOf(fn);
  if (!kind) {
    return ValidationErrorAt(ref.pos, absl::StrCat("table function '", ref.name.ToString(),
                                                   "' is not supported; window table functions "
                                                   "are TUMBLE, HOP, CUMULATE and SESSION"));
  }
  if (ref.model_arg) {
    return ValidationErrorAt(ref.model_arg->pos,
                             absl::StrCat(fn, " takes no MODEL argument (ML_PREDICT does)"));
  }
  if (ref.table_arg == nullptr || ref.descriptor_cols.size() != 1) {
    return ValidationErrorAt(ref.pos, absl::StrCat(fn,
                                                   " needs TABLE <table> and DESCRIPTOR(<time "
                                                   "column>) as its first arguments"));
  }
  ASSIGN_OR_RETURN(BoundRelation in, BindTableRef(*ref.table_arg));
  std::optional<int> column = in.node->schema.FindField(ref.descriptor_cols[0]);
  if (!column) {
    return ValidationErrorAt(
        ref.pos, absl::StrCat("column '", ref.descriptor_cols[0], "' of DESCRIPTOR not found in ",
                              ref.table_arg->name.ToString()));
  }
  RETURN_IF_ERROR(RequireTimeAttribute(*in.node, *column, ref.descriptor_cols[0], fn, ref.pos));
  std::vector<const sql::Expr*> args;
  for (const auto& a : ref.function_args) args.push_back(a.get());
  ASSIGN_OR_RETURN(WindowSpec window, WindowFromArgs(*kind, fn, args, ref.pos));
  window.time_column = *column;
  if (!ref.table_arg_partition_by.empty() && *kind != WindowSpec::Kind::kSession) {
    return ValidationErrorAt(ref.pos, absl::StrCat("PARTITION BY in the TABLE argument is "
                                                   "supported for SESSION windows only, not ",
                                                   fn));
  }
  for (const std::string& name : ref.table_arg_partition_by) {
    std::optional<int> key = in.node->schema.FindField(name);
    if (!key) {
      return ValidationErrorAt(ref.pos,
                               absl::StrCat("column '", name, "' of PARTITION BY not found in ",
                                            ref.table_arg->name.ToString()));
    }
    window.partition_keys.push_back(*key);
  }
  BoundRelation out;
  out.node =
      MakeWindowTableFunction(in.node, window, {"window_start", "window_end", "window_time"});
  out.columns = in.columns;
  for (const char* name : {"window_start", "window_end", "window_time"}) {
    out.columns.push_back({"", name});
  }
  const std::string qualifier = ref.alias.value_or("");
  if (!qualifier.empty()) {
    for (auto& c : out.columns) c.qualifier = qualifier;
  }
  return out;
}

std::optional<LegacyWindow> FindLegacyWindow(const sql::Query& q) {
  for (size_t i = 0; i < q.group_by.size(); ++i) {
    const sql::Expr* g = q.group_by[i].get();
    if (g == nullptr || g->kind != sql::ExprKind::kFunction || g->name.parts.size() != 1) continue;
    const std::string fn = absl::AsciiStrToUpper(g->name.parts[0]);
    if (fn == "TUMBLE" || fn == "HOP" || fn == "SESSION") return LegacyWindow{i, fn};
  }
  return std::nullopt;
}

absl::StatusOr<BoundRelation> BindLegacyWindow(const LegacyWindow& legacy, const sql::Query& q,
                                               BoundRelation in) {
  const sql::Expr& call = *q.group_by[legacy.group_by_index];
  if (call.args.empty() || call.args[0] == nullptr) {
    return ValidationErrorAt(call.pos, absl::StrCat(legacy.function, " needs a time column"));
  }
  ExprScope scope;
  scope.columns = &in.columns;
  scope.schema = &in.node->schema;
  scope.clause = "GROUP BY";
  ASSIGN_OR_RETURN(ExprPtr time, BindExpr(*call.args[0], scope));
  const std::string name = call.args[0]->name.parts.empty() ? "?" : call.args[0]->name.parts.back();
  if (time->kind != ExprKind::kColumn) {
    return ValidationErrorAt(
        call.args[0]->pos,
        absl::StrCat("the first argument of ", legacy.function, " must be a time column"));
  }
  RETURN_IF_ERROR(RequireTimeAttribute(*in.node, time->column, name, legacy.function, call.pos));
  std::vector<const sql::Expr*> args;
  for (size_t i = 1; i < call.args.size(); ++i) args.push_back(call.args[i].get());
  ASSIGN_OR_RETURN(WindowSpec window,
                   WindowFromArgs(*WindowKindOf(legacy.function), legacy.function, args, call.pos));
  window.time_column = time->column;
  window.partition_by_group_keys = window.kind == WindowSpec::Kind::kSession;
  BoundRelation out;
  out.node = MakeWindowTableFunction(in.node, window,
                                     {kLegacyWindowStart, kLegacyWindowEnd, kLegacyWindowTime});
  out.columns = std::move(in.columns);
  for (const char* n : {kLegacyWindowStart, kLegacyWindowEnd, kLegacyWindowTime}) {
    out.columns.push_back({"", n});
  }
  return out;
}

const char* LegacyWindowProperty(const sql::Expr& e) {
  if (e.kind != sql::ExprKind::kFunction || e.name.parts.size() != 1) return nullptr;
  const std::string fn = absl::AsciiStrToUpper(e.name.parts[0]);
  if (fn == "TUMBLE_START" || fn == "HOP_START" || fn == "SESSION_START") return kLegacyWindowStart;
  if (fn == "TUMBLE_END" || fn == "HOP_END" || fn == "SESSION_END") return kLegacyWindowEnd;
  if (fn == "TUMBLE_ROWTIME" || fn == "HOP_ROWTIME" || fn == "SESSION_ROWTIME" ||
      fn == "TUMBLE_PROCTIME" || fn == "HOP_PROCTIME" || fn == "SESSION_PROCTIME") {
    return kLegacyWindowTime;
  }
  return nullptr;
}

LogicalNodePtr RewriteWindowAggregate(const LogicalNodePtr& agg) {
  if (agg->kind != LogicalKind::kAggregate) return agg;
  const LogicalNode& pre = agg->input();
  if (pre.kind != LogicalKind::kProject) return agg;
  LogicalNodePtr below = pre.inputs[0];
  LogicalNodePtr filter;  // a WHERE between the TVF and the aggregate
  if (below->kind == LogicalKind::kFilter) {
    filter = below;
    below = below->inputs[0];
  }
  if (below->kind != LogicalKind::kWindowTableFunction) return agg;
  const LogicalNode& tvf = *below;
  const int n_in = static_cast<int>(tvf.input().schema.size());
  const int start = n_in, end = n_in + 1, window_time = n_in + 2;
  auto reads_window = [&](const Expr& e) {
    return !OnlyReferences(e, [&](int c) { return c < n_in; });
  };
  if (filter && reads_window(*filter->condition)) return agg;
  // Which pre-aggregation columns are window_start / window_end / window_time; every other one
  // must not read the window columns.
  std::vector<int> role(pre.projections.size(), 0);  // 1 start, 2 end, 3 time
  for (size_t i = 0; i < pre.projections.size(); ++i) {
    const Expr& e = *pre.projections[i];
    if (IsColumn(e, start)) {
      role[i] = 1;
    } else if (IsColumn(e, end)) {
      role[i] = 2;
    } else if (IsColumn(e, window_time)) {
      role[i] = 3;
    } else if (reads_window(e)) {
      return agg;
    }
  }
  bool has_start = false, has_end = false, has_time = false;
  for (int k : agg->group_keys) {
    has_start = has_start || role[k] == 1;
    has_end = has_end || role[k] == 2;
    has_time = has_time || role[k] == 3;
  }
  for (const LogicalAggCall& c : agg->calls) {
    if (c.arg >= 0 && role[c.arg] != 0) return agg;
  }
  if (!has_start || !has_end) return agg;
  // With grouping sets, a window aggregation keeps the window in every set (and window_time, if
  // grouped by).
  for (const std::vector<int>& set : agg->grouping_sets) {
    bool start_kept = false, end_kept = false, time_kept = false;
    for (int k : set) {
      start_kept = start_kept || role[agg->group_keys[k]] == 1;
      end_kept = end_kept || role[agg->group_keys[k]] == 2;
      time_kept = time_kept || role[agg->group_keys[k]] == 3;
    }
    if (!start_kept || !end_kept || time_kept != has_time) return agg;
  }

  // New pre-aggregation projection over the TVF's input: the non-window columns, then rowtime.
  LogicalNodePtr base = tvf.inputs[0];
  if (filter) base = MakeFilter(base, filter->condition);
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  std::vector<int> moved(pre.projections.size(), -1);
  for (size_t i = 0; i < pre.projections.size(); ++i) {
    if (role[i] != 0) continue;
    moved[i] = static_cast<int>(exprs.size());
    exprs.push_back(pre.projections[i]);
    names.push_back(pre.schema.fields[i].name);
  }
  WindowSpec window = tvf.window;
  if (window.kind == WindowSpec::Kind::kSession) {
    // Sessions are formed per group key: the TVF's PARTITION BY columns must be the group keys.
    std::vector<int> keys_in;  // the group keys as TVF input columns
    for (int k : agg->group_keys) {
      if (role[k] != 0) continue;
      const Expr& e = *pre.projections[k];
      if (e.kind != ExprKind::kColumn) return agg;
      keys_in.push_back(e.column);
    }
    std::vector<int> partition = window.partition_keys;
    std::sort(keys_in.begin(), keys_in.end());
    std::sort(partition.begin(), partition.end());
    if (!window.partition_by_group_keys && keys_in != partition) return agg;
    window.partition_keys.clear();  // the window aggregate's group keys from here on
  }
  const Field& time = base->schema.fields[window.time_column];
  window.time_column = static_cast<int>(exprs.size());
  exprs.push_back(MakeColumnRef(tvf.window.time_column, time.type));
  names.push_back(time.name);
  LogicalNodePtr new_pre = MakeProject(base, std::move(exprs), UniquifyNames(std::move(names)));

  std::vector<int> keys;
  std::vector<std::string> out_names;
  std::vector<int> key_position(agg->group_keys.size(), -1);  // among the window aggregate's keys
  for (size_t k = 0; k < agg->group_keys.size(); ++k) {
    if (role[agg->group_keys[k]] != 0) continue;
    key_position[k] = static_cast<int>(keys.size());
    keys.push_back(moved[agg->group_keys[k]]);
    out_names.push_back(agg->schema.fields[k].name);
  }
  std::vector<LogicalAggCall> calls = agg->calls;
  for (size_t c = 0; c < calls.size(); ++c) {
    if (calls[c].arg >= 0) calls[c].arg = moved[calls[c].arg];
    for (int& u : calls[c].user_args) u = moved[u];
    out_names.push_back(agg->schema.fields[agg->group_keys.size() + c].name);
  }
  std::string start_name = "window_start", end_name = "window_end", time_name = "window_time";
  for (size_t k = 0; k < agg->group_keys.size(); ++k) {
    if (role[agg->group_keys[k]] == 1) start_name = agg->schema.fields[k].name;
    if (role[agg->group_keys[k]] == 2) end_name = agg->schema.fields[k].name;
    if (role[agg->group_keys[k]] == 3) time_name = agg->schema.fields[k].name;
  }
  out_names.push_back(start_name);
  out_names.push_back(end_name);
  if (has_time) out_names.push_back(time_name);
  const int nk = static_cast<int>(keys.size());
  const int nc = static_cast<int>(calls.size());
  const int ng = static_cast<int>(agg->grouping_calls.size());
  LogicalNodePtr window_agg = MakeWindowAggregate(std::move(new_pre), window, std::move(keys),
                                                  std::move(calls), std::move(out_names), has_time);
  if (!agg->grouping_sets.empty() || ng > 0) {
    // The same sets and GROUPING calls over the remaining keys; the window is grouped by always.
    std::vector<std::vector<int>> sets;
    for (const std::vector<int>& set : agg->grouping_sets) {
      std::vector<int>& kept = sets.emplace_back();
      for (int k : set) {
        if (key_position[k] >= 0) kept.push_back(key_position[k]);
      }
    }
    std::vector<GroupingCall> grouping_calls = agg->grouping_calls;
    for (GroupingCall& call : grouping_calls) {
      for (int& arg : call.args) arg = arg < 0 ? -1 : key_position[arg];
    }
    std::vector<std::string> names;
    for (int g = 0; g < ng; ++g) {
      names.push_back(agg->schema.fields[agg->group_keys.size() + nc + g].name);
    }
    SetGroupingSets(window_agg.get(), std::move(sets), std::move(grouping_calls), names);
  }
  // Back to the aggregate's column order: its keys (window columns where they were), then calls
  // and GROUPING calls.
  std::vector<ExprPtr> restore;
  int next_key = 0;
  for (size_t k = 0; k < agg->group_keys.size(); ++k) {
    const int r = role[agg->group_keys[k]];
    const int col = r == 0 ? next_key++ : nk + nc + ng + r - 1;
    restore.push_back(MakeColumnRef(col, window_agg->schema.fields[col].type));
  }
  for (int c = 0; c < nc + ng; ++c) {
    restore.push_back(MakeColumnRef(nk + c, window_agg->schema.fields[nk + c].type));
  }
  LogicalNodePtr out = MakeProject(window_agg, std::move(restore), agg->schema.Names());
  return IsIdentityProject(*out) && out->schema.Names() == window_agg->schema.Names() ? window_agg
                                                                                      : out;
}

}  // namespace eddy::planner
