// Queries: SELECT blocks, VALUES, UNION ALL, ORDER BY / LIMIT, and FROM-clause table references
// (tables, subqueries, VALUES, window table functions, LATERAL TABLE, joins).
#include <utility>

#include "common/base/status_macros.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {

absl::StatusOr<QueryPtr> Parser::ParseQuery() {
  NestingGuard guard(depth_);
  RETURN_IF_ERROR(CheckNesting());
  // UNION and EXCEPT are left-associative and bind less tightly than INTERSECT, as in standard SQL.
  ASSIGN_OR_RETURN(QueryPtr query, ParseIntersectTerm());
  const Query* chain = nullptr;  // the UNION ALL this loop built and may extend
  while (PeekKeyword("UNION") || PeekKeyword("EXCEPT")) {
    const bool is_union = Advance().upper == "UNION";
    const bool all = AcceptKeyword("ALL");
    if (!all) AcceptKeyword("DISTINCT");
    ASSIGN_OR_RETURN(QueryPtr input, ParseIntersectTerm());
    if (is_union && all) {
      // A chain of UNION ALLs is one n-ary union (a parenthesized one stays one input).
      if (query.get() != chain) {
        auto union_all = std::make_unique<Query>();
        union_all->kind = Query::Kind::kUnionAll;
        union_all->pos = query->pos;
        union_all->union_inputs.push_back(std::move(query));
        query = std::move(union_all);
        chain = query.get();
      }
      query->union_inputs.push_back(std::move(input));
      continue;
    }
    query = MakeSetOperation(is_union ? Query::SetOperator::kUnion : Query::SetOperator::kExcept,
                             all, std::move(query), std::move(input));
  }
  RETURN_IF_ERROR(ParseOrderByAndLimit(*query));
  return query;
}

absl::StatusOr<QueryPtr> Parser::ParseIntersectTerm() {
  ASSIGN_OR_RETURN(QueryPtr query, ParseQueryTerm());
  while (AcceptKeyword("INTERSECT")) {
    const bool all = AcceptKeyword("ALL");
    if (!all) AcceptKeyword("DISTINCT");
    ASSIGN_OR_RETURN(QueryPtr input, ParseQueryTerm());
    query =
        MakeSetOperation(Query::SetOperator::kIntersect, all, std::move(query), std::move(input));
  }
  return query;
}

QueryPtr Parser::MakeSetOperation(Query::SetOperator op, bool all, QueryPtr left, QueryPtr right) {
  auto set = std::make_unique<Query>();
  set->kind = Query::Kind::kSetOperation;
  set->pos = left->pos;
  set->set_operator = op;
  set->set_all = all;
  set->union_inputs.push_back(std::move(left));
  set->union_inputs.push_back(std::move(right));
  return set;
}

absl::StatusOr<QueryPtr> Parser::ParseQueryTerm() {
  if (PeekKeyword("SELECT")) return ParseSelect();
  if (PeekKeyword("VALUES")) return ParseValues();
  if (AcceptSymbol("(")) {
    ASSIGN_OR_RETURN(QueryPtr query, ParseQuery());
    RETURN_IF_ERROR(ExpectSymbol(")"));
    return query;
  }
  return ErrorExpected("'SELECT' or 'VALUES'");
}

absl::Status Parser::ParseOrderByAndLimit(Query& query) {
  if (PeekKeyword("ORDER")) {
    const Token& order = Advance();
    RETURN_IF_ERROR(ExpectKeyword("BY"));
    // Only reachable for a parenthesized query: `(SELECT .. ORDER BY a) ORDER BY b`.
    if (!query.order_by.empty() || query.limit.has_value()) {
      return ErrorAt(order, "a query cannot have two ORDER BY clauses");
    }
    do {
      ASSIGN_OR_RETURN(OrderItem item, ParseOrderItem());
      query.order_by.push_back(std::move(item));
    } while (AcceptSymbol(","));
  }
  if (PeekKeyword("LIMIT")) {
    const Token& limit = Advance();
    if (query.limit.has_value()) return ErrorAt(limit, "a query cannot have two LIMIT clauses");
    ASSIGN_OR_RETURN(query.limit, ParseIntegerLiteral());
    if (AcceptKeyword("OFFSET")) {
      ASSIGN_OR_RETURN(query.offset, ParseIntegerLiteral());
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<OrderItem> Parser::ParseOrderItem() {
  OrderItem item;
  item.pos = Peek().pos;
  ASSIGN_OR_RETURN(item.expr, ParseExpr());
  if (AcceptKeyword("DESC")) {
    item.descending = true;
  } else {
    AcceptKeyword("ASC");
  }
  if (AcceptKeyword("NULLS")) {
    if (AcceptKeyword("FIRST")) {
      item.nulls_first = true;
    } else if (AcceptKeyword("LAST")) {
      item.nulls_first = false;
    } else {
      return ErrorExpected("'FIRST' or 'LAST'");
    }
  }
  return item;
}

absl::StatusOr<QueryPtr> Parser::ParseSelect() {
  auto query = std::make_unique<Query>();
  query->kind = Query::Kind::kSelect;
  query->pos = Advance().pos;
  if (PeekSymbol("/*+")) {
    ASSIGN_OR_RETURN(query->hints, ParseHints());
  }
  if (AcceptKeyword("DISTINCT")) {
    query->distinct = true;
  } else {
    AcceptKeyword("ALL");
  }
  do {
    ASSIGN_OR_RETURN(SelectItem item, ParseSelectItem());
    query->select_list.push_back(std::move(item));
  } while (AcceptSymbol(","));
  if (AcceptKeyword("FROM")) {
    ASSIGN_OR_RETURN(query->from, ParseFromList());
  }
  if (AcceptKeyword("WHERE")) {
    ASSIGN_OR_RETURN(query->where, ParseExpr());
  }
  if (PeekKeyword("GROUP")) {
    Advance();
    RETURN_IF_ERROR(ExpectKeyword("BY"));
    do {
      ASSIGN_OR_RETURN(ExprPtr key, ParseGroupingElement(GroupingContext::kGroupBy));
      query->group_by.push_back(std::move(key));
    } while (AcceptSymbol(","));
  }
  if (AcceptKeyword("HAVING")) {
    ASSIGN_OR_RETURN(query->having, ParseExpr());
  }
  if (AcceptKeyword("WINDOW")) {
    do {
      ASSIGN_OR_RETURN(QualifiedName name, ParseQualifiedName());
      if (name.parts.size() != 1) return ErrorAt(Peek(), "expected a window name");
      RETURN_IF_ERROR(ExpectKeyword("AS"));
      auto spec = std::make_unique<OverClause>();
      spec->pos = Peek().pos;
      RETURN_IF_ERROR(ParseWindowSpec(spec.get()));
      query->windows.emplace_back(name.parts[0], std::move(spec));
    } while (AcceptSymbol(","));
  }
  return query;
}

absl::StatusOr<QueryPtr> Parser::ParseValues() {
  auto query = std::make_unique<Query>();
  query->kind = Query::Kind::kValues;
  query->pos = Advance().pos;
  do {
    RETURN_IF_ERROR(ExpectSymbol("("));
    std::vector<ExprPtr> row;
    do {
      ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
      row.push_back(std::move(value));
    } while (AcceptSymbol(","));
    RETURN_IF_ERROR(ExpectSymbol(")"));
    query->values_rows.push_back(std::move(row));
    // `FROM VALUES (1) AS t(x), u`: a comma not followed by '(' ends the VALUES list.
  } while (PeekSymbol(",") && PeekSymbol("(", 1) && AcceptSymbol(","));
  return query;
}

bool Parser::PeekQualifiedStar() const {
  // name(.name)* . *
  if (!PeekIdentifier(0)) return false;
  for (size_t k = 1;; k += 2) {
    if (!PeekSymbol(".", k)) return false;
    if (PeekSymbol("*", k + 1)) return true;
    TokenKind kind = Peek(k + 1).kind;
    if (kind != TokenKind::kWord && kind != TokenKind::kQuotedIdentifier) return false;
  }
}

absl::StatusOr<SelectItem> Parser::ParseSelectItem() {
  SelectItem item;
  item.pos = Peek().pos;
  if (PeekSymbol("*") || PeekQualifiedStar()) {
    auto star = std::make_unique<Expr>();
    star->kind = ExprKind::kStar;
    star->pos = item.pos;
    star->name.pos = item.pos;
    while (!PeekSymbol("*")) {
      star->name.parts.push_back(Advance().text);
      Advance();  // '.'
    }
    Advance();  // '*'
    item.expr = std::move(star);
    return item;
  }
  ASSIGN_OR_RETURN(item.expr, ParseExpr());
  if (AcceptKeyword("AS") || PeekIdentifier()) {
    ASSIGN_OR_RETURN(item.alias, ParseIdentifier());
  }
  return item;
}

absl::StatusOr<std::unique_ptr<TableRef>> Parser::ParseFromList() {
  ASSIGN_OR_RETURN(std::unique_ptr<TableRef> left, ParseJoinedTable());
  while (AcceptSymbol(",")) {
    ASSIGN_OR_RETURN(std::unique_ptr<TableRef> right, ParseJoinedTable());
    auto join = std::make_unique<TableRef>();
    join->kind = TableRefKind::kJoin;
    join->pos = left->pos;
    join->join_type = "CROSS";
    join->left = std::move(left);
    join->right = std::move(right);
    left = std::move(join);
  }
  return left;
}

absl::StatusOr<std::unique_ptr<TableRef>> Parser::ParseJoinedTable() {
  ASSIGN_OR_RETURN(std::unique_ptr<TableRef> left, ParseTablePrimary());
  while (true) {
    std::string join_type;
    if (AcceptKeyword("JOIN")) {
      join_type = "INNER";
    } else if (PeekKeyword("INNER") || PeekKeyword("CROSS")) {
      join_type = Advance().upper;
      RETURN_IF_ERROR(ExpectKeyword("JOIN"));
    } else if (PeekKeyword("LEFT") || PeekKeyword("RIGHT") || PeekKeyword("FULL")) {
      join_type = Advance().upper;
      AcceptKeyword("OUTER");
      RETURN_IF_ERROR(ExpectKeyword("JOIN"));
    } else {
      break;
    }
    ASSIGN_OR_RETURN(std::unique_ptr<TableRef> right, ParseTablePrimary());
    auto join = std::make_unique<TableRef>();
    join->kind = TableRefKind::kJoin;
    join->pos = left->pos;
    if (join_type != "CROSS" && AcceptKeyword("ON")) {
      ASSIGN_OR_RETURN(join->join_condition, ParseExpr());
    }
    join->join_type = std::move(join_type);
    join->left = std::move(left);
    join->right = std::move(right);
    left = std::move(join);
  }
  return left;
}

absl::StatusOr<std::unique_ptr<TableRef>> Parser::ParseTablePrimary() {
  NestingGuard guard(depth_);
  RETURN_IF_ERROR(CheckNesting());
  auto ref = std::make_unique<TableRef>();
  ref->pos = Peek().pos;
  if (PeekSymbol("(")) {
    if (!IsQueryStart()) {
      // A parenthesized join: (a JOIN b ON ...).
      Advance();
      ASSIGN_OR_RETURN(std::unique_ptr<TableRef> inner, ParseFromList());
      RETURN_IF_ERROR(ExpectSymbol(")"));
      return inner;
    }
    Advance();
    ASSIGN_OR_RETURN(ref->subquery, ParseQuery());
    RETURN_IF_ERROR(ExpectSymbol(")"));
    ref->kind = ref->subquery->kind == Query::Kind::kValues ? TableRefKind::kValues
                                                            : TableRefKind::kSubquery;
  } else if (PeekKeyword("VALUES")) {
    ref->kind = TableRefKind::kValues;
    ASSIGN_OR_RETURN(ref->subquery, ParseValues());
  } else if (PeekKeyword("TABLE") || PeekKeyword("LATERAL")) {
    // TABLE(fn(args)) or LATERAL TABLE(fn(args))
    ref->kind = TableRefKind::kFunction;
    ref->lateral = AcceptKeyword("LATERAL");
    RETURN_IF_ERROR(ExpectKeyword("TABLE"));
    RETURN_IF_ERROR(ExpectSymbol("("));
    ASSIGN_OR_RETURN(ref->name, ParseQualifiedName());
    RETURN_IF_ERROR(ParseTableFunctionArgs(*ref));
    RETURN_IF_ERROR(ExpectSymbol(")"));
  } else {
    ASSIGN_OR_RETURN(ref->name, ParseQualifiedName());
    if (PeekSymbol("(")) {
      ref->kind = TableRefKind::kFunction;  // fn(TABLE t, ...) without the TABLE( ) wrapper
      RETURN_IF_ERROR(ParseTableFunctionArgs(*ref));
    } else {
      ref->kind = TableRefKind::kTable;
      if (PeekSymbol("/*+")) {
        ASSIGN_OR_RETURN(ref->hints, ParseHints());
      }
      if (PeekKeyword("FOR") && PeekKeyword("SYSTEM_TIME", 1)) {
        Advance();
        Advance();
        RETURN_IF_ERROR(ExpectKeyword("AS"));
        RETURN_IF_ERROR(ExpectKeyword("OF"));
        ASSIGN_OR_RETURN(ref->system_time, ParseExpr());
      }
    }
  }
  RETURN_IF_ERROR(ParseTableAlias(*ref));
  return ref;
}

absl::Status Parser::ParseTableFunctionArgs(TableRef& ref) {
  RETURN_IF_ERROR(ExpectSymbol("("));
  if (AcceptSymbol(")")) return absl::OkStatus();
  do {
    if (PeekKeyword("TABLE") && !PeekSymbol("(", 1)) {
      const Token& keyword = Advance();
      if (ref.table_arg != nullptr) {
        return ErrorAt(keyword, "only one TABLE argument is supported");
      }
      auto table = std::make_unique<TableRef>();
      table->kind = TableRefKind::kTable;
      table->pos = Peek().pos;
      ASSIGN_OR_RETURN(table->name, ParseQualifiedName());
      ref.table_arg = std::move(table);
      if (AcceptKeyword("PARTITION")) {
        RETURN_IF_ERROR(ExpectKeyword("BY"));
        if (PeekSymbol("(")) {
          ASSIGN_OR_RETURN(ref.table_arg_partition_by, ParseIdentifierList());
        } else {
          ASSIGN_OR_RETURN(std::string column, ParseIdentifier());
          ref.table_arg_partition_by.push_back(std::move(column));
        }
      }
    } else if (PeekKeyword("MODEL") && PeekIdentifier(1)) {
      const Token& keyword = Advance();
      if (ref.model_arg) return ErrorAt(keyword, "only one MODEL argument is supported");
      ASSIGN_OR_RETURN(ref.model_arg, ParseQualifiedName());
    } else if (PeekKeyword("DESCRIPTOR") && PeekSymbol("(", 1)) {
      Advance();
      ASSIGN_OR_RETURN(std::vector<std::string> columns, ParseIdentifierList());
      for (std::string& column : columns) ref.descriptor_cols.push_back(std::move(column));
    } else {
      ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
      ref.function_args.push_back(std::move(arg));
    }
  } while (AcceptSymbol(","));
  return ExpectSymbol(")");
}

absl::Status Parser::ParseTableAlias(TableRef& ref) {
  if (PeekKeyword("MATCH_RECOGNIZE") && PeekSymbol("(", 1)) {
    return ErrorAt(Peek(),
                   "MATCH_RECOGNIZE (pattern recognition over a table's rows) is not supported");
  }
  if (AcceptKeyword("AS") || PeekIdentifier()) {
    ASSIGN_OR_RETURN(ref.alias, ParseIdentifier());
    if (PeekSymbol("(")) {
      ASSIGN_OR_RETURN(ref.column_aliases, ParseIdentifierList());
    }
  }
  return absl::OkStatus();
}

}  // namespace eddy::sql
