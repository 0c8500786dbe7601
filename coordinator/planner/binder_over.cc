// Binding of window functions in a select list. ROW_NUMBER() OVER (PARTITION BY .. ORDER BY ..):
// the block's rows go through a Rank node that appends the row number, which the call then reads;
// only a filter bounding the row number by constants makes it runnable (a Top-N: see
// PushDownFilters). Aggregates OVER one window (inline or named in the WINDOW clause) ordered by an
// event-time attribute, with a frame that ends at the current row: an OverAggregate node appends
// one column per distinct call. RANK() and DENSE_RANK() rank like ROW_NUMBER() with ties sharing a
// number. What Flink's streaming mode refuses is a validation error with its position.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/aggregate_signature.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/expr_util.h"
#include "coordinator/planner/logical_rewrite.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

absl::Status CheckRankingCall(const sql::Expr& call, const sql::OverClause& window) {
  const std::string name =
      call.name.parts.empty() ? "" : absl::AsciiStrToUpper(call.name.parts.back());
  if (name == "ROW_NUMBER" || name == "RANK" || name == "DENSE_RANK") {
    if (!call.args.empty()) {
      return ValidationErrorAt(call.pos, absl::StrCat(name, "() takes no arguments"));
    }
    if (window.order_by.empty()) {
      return ValidationErrorAt(call.over->pos, absl::StrCat(name, "() OVER needs an ORDER BY"));
    }
    return absl::OkStatus();
  }
  return ValidationErrorAt(call.pos, absl::StrCat("'", name, "' is not a window function"));
}

bool IsOverAggregateCall(const sql::Expr& call) {
  sql::Expr plain;
  plain.kind = sql::ExprKind::kFunction;
  plain.name = call.name;
  return IsAggregateCall(plain);
}

// Binds `e` over `input`; a column reference gives its column, another expression is appended to
// `*extra` (computed before the rank) and gives the column it will have.
absl::StatusOr<int> KeyColumn(const sql::Expr& e, const ExprScope& input, int input_columns,
                              std::vector<ExprPtr>* extra) {
  ASSIGN_OR_RETURN(ExprPtr bound, BindExpr(e, input));
  if (bound->kind == ExprKind::kColumn) return bound->column;
  for (size_t i = 0; i < extra->size(); ++i) {
    if (ExprEquals(*(*extra)[i], *bound)) return input_columns + static_cast<int>(i);
  }
  extra->push_back(std::move(bound));
  return input_columns + static_cast<int>(extra->size()) - 1;
}

void CollectOverCalls(const sql::Expr& e, std::vector<const sql::Expr*>* out) {
  if (e.kind == sql::ExprKind::kFunction && e.over) out->push_back(&e);
  for (const auto& a : e.args) {
    if (a) CollectOverCalls(*a, out);
  }
  if (e.case_operand) CollectOverCalls(*e.case_operand, out);
  for (const auto& [w, t] : e.case_when_then) {
    if (w) CollectOverCalls(*w, out);
    if (t) CollectOverCalls(*t, out);
  }
  if (e.case_else) CollectOverCalls(*e.case_else, out);
}

}  // namespace

const sql::Expr* FindOverCall(const sql::Expr& e) {
  std::vector<const sql::Expr*> calls;
  CollectOverCalls(e, &calls);
  return calls.empty() ? nullptr : calls.front();
}

namespace {

// The window a call's OVER names: its own specification, or the WINDOW clause's `w` for OVER w.
absl::StatusOr<const sql::OverClause*> WindowOf(const sql::Expr& call,
                                                const NamedWindows& windows) {
  const sql::OverClause& over = *call.over;
  if (over.window_name.empty()) return &over;
  for (const auto& [name, spec] : windows) {
    if (absl::AsciiStrToUpper(name) == absl::AsciiStrToUpper(over.window_name)) return spec.get();
  }
  return ValidationErrorAt(over.pos, absl::StrCat("window '", over.window_name, "' not found"));
}

// The bound pieces a rank or an OVER aggregate needs, with the non-column expressions they read
// computed below them.
class OverInputs {
 public:
  OverInputs(const LogicalNodePtr& node, const ExprScope& input)
      : node_(node), width_(static_cast<int>(node->schema.size())), scope_(input) {
    scope_.clause = "an OVER clause";
  }

  absl::StatusOr<int> Column(const sql::Expr& e) { return KeyColumn(e, scope_, width_, &extra_); }
  absl::StatusOr<ExprPtr> Bind(const sql::Expr& e) { return BindExpr(e, scope_); }

  // `node` with the extra expressions appended (itself when there are none).
  LogicalNodePtr Input() { return WithExtraColumns(node_, std::exchange(extra_, {})); }

 private:
  LogicalNodePtr node_;
  int width_;
  ExprScope scope_;
  std::vector<ExprPtr> extra_;
};

absl::StatusOr<std::optional<BoundOver>> BindRowNumber(const sql::Expr& call,
                                                       const sql::OverClause& window,
                                                       const std::string& row_number_name,
                                                       const LogicalNodePtr& node,
                                                       const ExprScope& input) {
  OverInputs in(node, input);
  RankSpec rank;
  const std::string name = absl::AsciiStrToUpper(call.name.parts.back());
  rank.function = name == "RANK"         ? RankSpec::Function::kRank
                  : name == "DENSE_RANK" ? RankSpec::Function::kDenseRank
                                         : RankSpec::Function::kRowNumber;
  for (const auto& p : window.partition_by) {
    ASSIGN_OR_RETURN(int column, in.Column(*p));
    rank.partition_keys.push_back(column);
  }
  for (const sql::OrderItem& item : window.order_by) {
    ASSIGN_OR_RETURN(int column, in.Column(*item.expr));
    SortKey key;
    key.column = column;
    key.descending = item.descending;
    // NULL sorts as the lowest value unless the item says otherwise (Flink).
    key.nulls_first = item.nulls_first.value_or(!item.descending);
    rank.order_keys.push_back(key);
  }
  if (window.has_frame) {
    return ValidationErrorAt(window.frame_start.pos,
                             absl::StrCat(name, "() OVER takes no ROWS/RANGE frame"));
  }
  BoundOver out;
  out.node = MakeRank(in.Input(), std::move(rank), row_number_name);
  out.columns[&call] = static_cast<int>(out.node->schema.size()) - 1;
  return out;
}

// The frame's start as OverSpec.preceding: rows (ROWS) or milliseconds (RANGE), -1 unbounded.
absl::StatusOr<int64_t> FramePreceding(const sql::OverClause& w, OverInputs* in) {
  using Kind = sql::FrameBound::Kind;
  if (!w.has_frame) return -1;  // RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
  if (w.frame_end.kind != Kind::kCurrentRow) {
    return ValidationErrorAt(w.frame_end.pos,
                             "OVER windows that end elsewhere than at the current row are not "
                             "supported in streaming mode (the frame must end with CURRENT ROW)");
  }
  switch (w.frame_start.kind) {
    case Kind::kUnboundedPreceding:
      return -1;
    case Kind::kCurrentRow:
      return 0;
    case Kind::kFollowing:
    case Kind::kUnboundedFollowing:
      return ValidationErrorAt(w.frame_start.pos,
                               "an OVER window frame cannot start after the current row");
    case Kind::kPreceding:
      break;
  }
  ASSIGN_OR_RETURN(ExprPtr offset, in->Bind(*w.frame_start.offset));
  if (offset->kind != ExprKind::kLiteral || !offset->literal.is_int() ||
      offset->literal.int_value() < 0) {
    return ValidationErrorAt(w.frame_start.pos,
                             w.rows ? "ROWS ... PRECEDING needs a constant non-negative row count"
                                    : "RANGE ... PRECEDING needs a constant INTERVAL (e.g. "
                                      "INTERVAL '1' HOUR)");
  }
  const bool interval = offset->type.id == TypeId::kInterval;
  if (w.rows == interval) {
    return ValidationErrorAt(w.frame_start.pos,
                             w.rows ? "ROWS ... PRECEDING counts rows: use an integer, or RANGE "
                                      "for an INTERVAL"
                                    : "RANGE ... PRECEDING over a time attribute needs an "
                                      "INTERVAL (e.g. INTERVAL '1' HOUR); ROWS counts rows");
  }
  return offset->literal.int_value();
}

absl::StatusOr<std::optional<BoundOver>> BindOverAggregates(
    const std::vector<const sql::Expr*>& calls, const std::vector<const sql::OverClause*>& specs,
    const std::vector<std::string>& call_names, const LogicalNodePtr& node,
    const ExprScope& input) {
  OverInputs in(node, input);
  // Every call must use the same window: compare the bound keys, order and frame.
  OverSpec spec;
  std::vector<LogicalAggCall> aggs;
  BoundOver out;
  std::vector<std::string> names;
  for (size_t i = 0; i < calls.size(); ++i) {
    const sql::Expr& call = *calls[i];
    const sql::OverClause& w = *specs[i];
    OverSpec mine;
    for (const auto& p : w.partition_by) {
      ASSIGN_OR_RETURN(int column, in.Column(*p));
      mine.partition_keys.push_back(column);
    }
    if (w.order_by.size() != 1 || w.order_by[0].descending) {
      return ValidationErrorAt(
          w.order_by.empty() ? w.pos : w.order_by[0].pos,
          "OVER windows' ordering in stream mode must be defined on a time "
          "attribute, ascending (ORDER BY one event-time or PROCTIME() column)");
    }
    ASSIGN_OR_RETURN(mine.time_column, in.Column(*w.order_by[0].expr));
    if (mine.time_column >= static_cast<int>(node->schema.size()) ||
        TimeAttributeOf(*node, mine.time_column) == TimeAttribute::kNone) {
      return ValidationErrorAt(
          w.order_by[0].pos,
          "OVER windows' ordering in stream mode must be defined on a time "
          "attribute, ascending (ORDER BY one event-time or PROCTIME() column)");
    }
    mine.rows = w.has_frame && w.rows;
    ASSIGN_OR_RETURN(mine.preceding, FramePreceding(w, &in));
    if (i == 0) {
      spec = mine;
    } else if (mine.partition_keys != spec.partition_keys || mine.time_column != spec.time_column ||
               mine.rows != spec.rows || mine.preceding != spec.preceding) {
      return ValidationErrorAt(call.pos,
                               "Over Agg: Unsupported use of OVER windows. All aggregates must be "
                               "computed on the same window.");
    }
    // The call itself, over the input (its argument computed below when it is an expression).
    const std::string name = absl::AsciiStrToUpper(call.name.parts.back());
    if (call.distinct) {
      return ValidationErrorAt(call.pos, "DISTINCT in OVER aggregations is not supported yet");
    }
    if (call.filter) {
      return ValidationErrorAt(call.filter->pos,
                               "FILTER in OVER aggregations is not supported yet");
    }
    const bool star = call.args.size() == 1 && call.args[0]->kind == sql::ExprKind::kStar;
    auto kind = ParseAggKind(name, star);
    if (!star && (call.args.empty() || call.args.size() > MaxAggArguments(kind))) {
      return ValidationErrorAt(call.pos, absl::StrCat("Invalid number of arguments to function '",
                                                      name, "': ", call.args.size()));
    }
    if (!kind.ok()) return AsValidationError(call.pos, kind.status());
    LogicalAggCall agg;
    agg.kind = *kind;
    if (call.args.size() == 2) {
      ASSIGN_OR_RETURN(agg.separator, BindListAggSeparator(*call.args[1]));
    }
    DataType arg_type = DataType::BigInt();
    if (!star) {
      if (ContainsAggregate(*call.args[0]) || FindOverCall(*call.args[0]) != nullptr) {
        return ValidationErrorAt(call.args[0]->pos, "aggregate function calls cannot be nested");
      }
      ASSIGN_OR_RETURN(ExprPtr arg, in.Bind(*call.args[0]));
      arg_type = arg->type;
      if (arg_type.id == TypeId::kNull) {
        return ValidationErrorAt(call.args[0]->pos,
                                 absl::StrCat("cannot apply '", name, "' to an untyped NULL"));
      }
      ASSIGN_OR_RETURN(agg.arg, in.Column(*call.args[0]));
      agg.arg_type = arg_type;
    }
    auto result = AggResultType(agg.kind, arg_type);
    if (!result.ok()) return AsValidationError(call.pos, result.status());
    agg.result_type = *result;
    int index = -1;
    for (size_t a = 0; a < aggs.size() && index < 0; ++a) {
      if (aggs[a].kind == agg.kind && aggs[a].arg == agg.arg &&
          aggs[a].separator == agg.separator) {
        index = static_cast<int>(a);
      }
    }
    if (index < 0) {
      index = static_cast<int>(aggs.size());
      aggs.push_back(agg);
      names.push_back(call_names[i]);
    }
    out.columns[&call] = index;  // made absolute below
  }
  LogicalNodePtr below = in.Input();
  const int width = static_cast<int>(below->schema.size());
  out.node = MakeOverAggregate(std::move(below), std::move(spec), std::move(aggs), names);
  for (auto& [call, column] : out.columns) column += width;
  return out;
}

}  // namespace

absl::StatusOr<std::optional<BoundOver>> BindOver(const std::vector<const sql::Expr*>& items,
                                                  const std::vector<std::string>& names,
                                                  const NamedWindows& windows,
                                                  const LogicalNodePtr& node,
                                                  const ExprScope& input) {
  std::vector<const sql::Expr*> calls;
  std::vector<std::string> call_names;  // the select alias of an item that is just the call
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i] == nullptr) continue;
    const size_t before = calls.size();
    CollectOverCalls(*items[i], &calls);
    for (size_t c = before; c < calls.size(); ++c) {
      call_names.push_back(calls[c] == items[i] && i < names.size()
                               ? names[i]
                               : absl::StrCat("w0$o", call_names.size()));
    }
  }
  if (calls.empty()) return std::nullopt;
  std::vector<const sql::OverClause*> specs;
  bool ranking = false;
  for (const sql::Expr* call : calls) {
    ASSIGN_OR_RETURN(const sql::OverClause* w, WindowOf(*call, windows));
    specs.push_back(w);
    if (IsOverAggregateCall(*call)) continue;
    RETURN_IF_ERROR(CheckRankingCall(*call, *w));
    ranking = true;
  }
  if (!ranking) return BindOverAggregates(calls, specs, call_names, node, input);
  if (calls.size() > 1) {
    return ValidationErrorAt(calls[1]->pos,
                             "only one window function per SELECT is supported with a ranking "
                             "function; "
                             "rank in a subquery first");
  }
  return BindRowNumber(*calls[0], *specs[0], call_names[0], node, input);
}

}  // namespace eddy::planner
