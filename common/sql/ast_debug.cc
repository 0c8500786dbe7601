#include "common/sql/ast_debug.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace eddy::sql {
namespace {

std::string Quote(const std::string& text) {
  // StrCat, not operator+: GCC 12 at -O3 misreports the concatenation (-Wrestrict).
  return absl::StrCat("'", absl::StrReplaceAll(text, {{"'", "''"}}), "'");
}

std::string Not(bool negated) { return negated ? "NOT " : ""; }

std::string JoinExprs(const std::vector<ExprPtr>& exprs, size_t from = 0) {
  std::vector<std::string> parts;
  for (size_t i = from; i < exprs.size(); ++i) parts.push_back(DebugString(*exprs[i]));
  return absl::StrJoin(parts, ", ");
}

std::string OrderItems(const std::vector<OrderItem>& order_by) {
  std::vector<std::string> items;
  for (const OrderItem& item : order_by) {
    std::string text = DebugString(*item.expr);
    if (item.descending) text += " DESC";
    if (item.nulls_first) text += *item.nulls_first ? " NULLS FIRST" : " NULLS LAST";
    items.push_back(std::move(text));
  }
  return absl::StrJoin(items, ", ");
}

std::string Bound(const FrameBound& b) {
  switch (b.kind) {
    case FrameBound::Kind::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case FrameBound::Kind::kPreceding:
      return DebugString(*b.offset) + " PRECEDING";
    case FrameBound::Kind::kCurrentRow:
      return "CURRENT ROW";
    case FrameBound::Kind::kFollowing:
      return DebugString(*b.offset) + " FOLLOWING";
    case FrameBound::Kind::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
  }
  return "?";
}

std::string Over(const OverClause& over) {
  if (!over.window_name.empty()) return " OVER " + over.window_name;
  std::vector<std::string> parts;
  if (!over.partition_by.empty()) parts.push_back("PARTITION BY " + JoinExprs(over.partition_by));
  if (!over.order_by.empty()) parts.push_back("ORDER BY " + OrderItems(over.order_by));
  if (over.has_frame) {
    parts.push_back(absl::StrCat(over.rows ? "ROWS" : "RANGE", " BETWEEN ", Bound(over.frame_start),
                                 " AND ", Bound(over.frame_end)));
  }
  return absl::StrCat(" OVER (", absl::StrJoin(parts, " "), ")");
}

std::string Literal(const Expr& e) {
  switch (e.literal_kind) {
    case LiteralKind::kNull:
      return "NULL";
    case LiteralKind::kBoolean:
    case LiteralKind::kInteger:
    case LiteralKind::kDecimal:
    case LiteralKind::kDouble:
      return e.text;
    case LiteralKind::kString:
      return Quote(e.text);
    case LiteralKind::kDate:
      return "DATE " + Quote(e.text);
    case LiteralKind::kTime:
      return "TIME " + Quote(e.text);
    case LiteralKind::kTimestamp:
      return "TIMESTAMP " + Quote(e.text);
    case LiteralKind::kBinary:
      return "X" + Quote(e.text);
  }
  return "?";
}

}  // namespace

std::string DebugString(const TypeSpec& type) {
  std::string out = type.name;
  if (!type.children.empty()) {
    out += "<";
    for (size_t i = 0; i < type.children.size(); ++i) {
      if (i > 0) out += ", ";
      if (i < type.field_names.size()) absl::StrAppend(&out, type.field_names[i], " ");
      out += DebugString(type.children[i]);
    }
    out += ">";
  }
  if (!type.params.empty()) absl::StrAppend(&out, "(", absl::StrJoin(type.params, ", "), ")");
  if (type.not_null) out += " NOT NULL";
  return out;
}

std::string DebugString(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      return Literal(e);
    case ExprKind::kIdentifier:
      return e.name.ToString();
    case ExprKind::kStar:
      return e.name.parts.empty() ? "*" : e.name.ToString() + ".*";
    case ExprKind::kUnary:
      return absl::StrCat("(", e.op, e.op == "NOT" ? " " : "", DebugString(*e.args[0]), ")");
    case ExprKind::kBinary:
      return absl::StrCat("(", DebugString(*e.args[0]), " ", e.op, " ", DebugString(*e.args[1]),
                          ")");
    case ExprKind::kIsNull:
      return absl::StrCat("(", DebugString(*e.args[0]), " IS ", Not(e.negated), "NULL)");
    case ExprKind::kIsTrue:
      return absl::StrCat("(", DebugString(*e.args[0]), " IS ", Not(e.negated), "TRUE)");
    case ExprKind::kIsFalse:
      return absl::StrCat("(", DebugString(*e.args[0]), " IS ", Not(e.negated), "FALSE)");
    case ExprKind::kLike:
      return absl::StrCat("(", DebugString(*e.args[0]), " ", Not(e.negated), "LIKE ",
                          DebugString(*e.args[1]),
                          e.args.size() > 2 ? " ESCAPE " + DebugString(*e.args[2]) : "", ")");
    case ExprKind::kIn:
      return absl::StrCat("(", DebugString(*e.args[0]), " ", Not(e.negated), "IN (",
                          JoinExprs(e.args, 1), "))");
    case ExprKind::kBetween:
      return absl::StrCat("(", DebugString(*e.args[0]), " ", Not(e.negated), "BETWEEN ",
                          DebugString(*e.args[1]), " AND ", DebugString(*e.args[2]), ")");
    case ExprKind::kGroupingElement:
      if (e.op == "()") return absl::StrCat("(", JoinExprs(e.args), ")");
      return absl::StrCat(e.op, " (", JoinExprs(e.args), ")");
    case ExprKind::kCase: {
      std::string out = "(CASE";
      if (e.case_operand) absl::StrAppend(&out, " ", DebugString(*e.case_operand));
      for (const auto& [when, then] : e.case_when_then) {
        absl::StrAppend(&out, " WHEN ", DebugString(*when), " THEN ", DebugString(*then));
      }
      if (e.case_else) absl::StrAppend(&out, " ELSE ", DebugString(*e.case_else));
      return out + " END)";
    }
    case ExprKind::kCast:
      return absl::StrCat(e.try_cast ? "TRY_CAST(" : "CAST(", DebugString(*e.args[0]), " AS ",
                          DebugString(e.cast_type), ")");
    case ExprKind::kFunction:
      return absl::StrCat(e.name.ToString(), "(", e.distinct ? "DISTINCT " : "", JoinExprs(e.args),
                          ")", e.filter ? " FILTER (WHERE " + DebugString(*e.filter) + ")" : "",
                          e.over ? Over(*e.over) : "");
    case ExprKind::kInterval:
      return absl::StrCat("INTERVAL ", Quote(e.text), " ", e.interval_unit);
    case ExprKind::kSubquery:
      return absl::StrCat("(", DebugString(*e.subquery), ")");
    case ExprKind::kExists:
      return absl::StrCat("EXISTS (", DebugString(*e.subquery), ")");
  }
  return "?";
}

std::string DebugString(const TableRef& ref) {
  std::string out;
  switch (ref.kind) {
    case TableRefKind::kTable:
      out = ref.name.ToString();
      if (ref.system_time) {
        absl::StrAppend(&out, " FOR SYSTEM_TIME AS OF ", DebugString(*ref.system_time));
      }
      break;
    case TableRefKind::kSubquery:
    case TableRefKind::kValues:
      out = absl::StrCat("(", DebugString(*ref.subquery), ")");
      break;
    case TableRefKind::kFunction: {
      std::vector<std::string> args;
      if (ref.table_arg) args.push_back("TABLE " + DebugString(*ref.table_arg));
      if (!ref.descriptor_cols.empty()) {
        args.push_back("DESCRIPTOR(" + absl::StrJoin(ref.descriptor_cols, ", ") + ")");
      }
      if (!ref.function_args.empty()) args.push_back(JoinExprs(ref.function_args));
      out = absl::StrCat(ref.lateral ? "LATERAL " : "", "TABLE(", ref.name.ToString(), "(",
                         absl::StrJoin(args, ", "), "))");
      break;
    }
    case TableRefKind::kJoin:
      out = absl::StrCat("(", DebugString(*ref.left), " ", ref.join_type, " JOIN ",
                         DebugString(*ref.right));
      if (ref.join_condition) absl::StrAppend(&out, " ON ", DebugString(*ref.join_condition));
      out += ")";
      break;
  }
  if (ref.alias) absl::StrAppend(&out, " AS ", *ref.alias);
  if (!ref.column_aliases.empty()) {
    absl::StrAppend(&out, "(", absl::StrJoin(ref.column_aliases, ", "), ")");
  }
  return out;
}

std::string DebugString(const Query& q) {
  std::string out;
  switch (q.kind) {
    case Query::Kind::kSelect: {
      out = q.distinct ? "SELECT DISTINCT " : "SELECT ";
      std::vector<std::string> items;
      for (const SelectItem& item : q.select_list) {
        items.push_back(DebugString(*item.expr) + (item.alias ? " AS " + *item.alias : ""));
      }
      out += absl::StrJoin(items, ", ");
      if (q.from) absl::StrAppend(&out, " FROM ", DebugString(*q.from));
      if (q.where) absl::StrAppend(&out, " WHERE ", DebugString(*q.where));
      if (!q.group_by.empty()) absl::StrAppend(&out, " GROUP BY ", JoinExprs(q.group_by));
      if (q.having) absl::StrAppend(&out, " HAVING ", DebugString(*q.having));
      for (size_t i = 0; i < q.windows.size(); ++i) {
        // Over() prints " OVER (...)": keep the parenthesized part.
        absl::StrAppend(&out, i == 0 ? " WINDOW " : ", ", q.windows[i].first, " AS",
                        Over(*q.windows[i].second).substr(5));
      }
      break;
    }
    case Query::Kind::kValues: {
      std::vector<std::string> rows;
      for (const auto& row : q.values_rows) rows.push_back(absl::StrCat("(", JoinExprs(row), ")"));
      out = absl::StrCat("VALUES ", absl::StrJoin(rows, ", "));
      break;
    }
    case Query::Kind::kUnionAll: {
      std::vector<std::string> inputs;
      for (const auto& input : q.union_inputs) {
        inputs.push_back(absl::StrCat("(", DebugString(*input), ")"));
      }
      out = absl::StrJoin(inputs, " UNION ALL ");
      break;
    }
    case Query::Kind::kSetOperation: {
      std::string op = q.set_operator == Query::SetOperator::kUnion       ? " UNION "
                       : q.set_operator == Query::SetOperator::kIntersect ? " INTERSECT "
                                                                          : " EXCEPT ";
      out = absl::StrCat("(", DebugString(*q.union_inputs[0]), ")", op, q.set_all ? "ALL " : "",
                         "(", DebugString(*q.union_inputs[1]), ")");
      break;
    }
  }
  if (!q.order_by.empty()) absl::StrAppend(&out, " ORDER BY ", OrderItems(q.order_by));
  if (q.limit) absl::StrAppend(&out, " LIMIT ", *q.limit);
  if (q.offset) absl::StrAppend(&out, " OFFSET ", *q.offset);
  return out;
}

}  // namespace eddy::sql
