// Expressions, by precedence from loosest to tightest:
//   OR < AND < NOT < comparison (= <> < <= > >=, IS, LIKE, IN, BETWEEN) < + - || < * / % < unary +
//   - < postfix (a[i], r.f) < primary
#include <cctype>
#include <utility>

#include "common/base/status_macros.h"
#include "common/sql/keywords.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {
namespace {

ExprPtr MakeExpr(ExprKind kind, SourcePos pos) {
  auto expr = std::make_unique<Expr>();
  expr->kind = kind;
  expr->pos = pos;
  return expr;
}

// op and text both carry the operator, as ast.h allows either reading.
ExprPtr MakeBinary(std::string op, ExprPtr left, ExprPtr right) {
  ExprPtr expr = MakeExpr(ExprKind::kBinary, left->pos);
  expr->op = op;
  expr->text = std::move(op);
  expr->args.push_back(std::move(left));
  expr->args.push_back(std::move(right));
  return expr;
}

ExprPtr MakeUnary(std::string op, SourcePos pos, ExprPtr operand) {
  ExprPtr expr = MakeExpr(ExprKind::kUnary, pos);
  expr->op = op;
  expr->text = std::move(op);
  expr->args.push_back(std::move(operand));
  return expr;
}

ExprPtr MakeLiteral(LiteralKind literal_kind, std::string text, SourcePos pos) {
  ExprPtr expr = MakeExpr(ExprKind::kLiteral, pos);
  expr->literal_kind = literal_kind;
  expr->text = std::move(text);
  return expr;
}

bool IsComparisonOperator(const Token& token) {
  if (token.kind != TokenKind::kSymbol) return false;
  const std::string& t = token.text;
  return t == "=" || t == "<>" || t == "!=" || t == "<" || t == "<=" || t == ">" || t == ">=";
}

// Functions the SQL standard lets you call without parentheses.
bool IsNiladicFunction(std::string_view upper) {
  return upper == "CURRENT_TIMESTAMP" || upper == "CURRENT_DATE" || upper == "CURRENT_TIME" ||
         upper == "LOCALTIMESTAMP" || upper == "LOCALTIME" || upper == "CURRENT_ROW_TIMESTAMP";
}

}  // namespace

absl::StatusOr<ExprPtr> Parser::ParseExpr() {
  NestingGuard guard(depth_);
  RETURN_IF_ERROR(CheckNesting());
  return ParseOr();
}

absl::StatusOr<ExprPtr> Parser::ParseOr() {
  ASSIGN_OR_RETURN(ExprPtr left, ParseAnd());
  while (AcceptKeyword("OR")) {
    ASSIGN_OR_RETURN(ExprPtr right, ParseAnd());
    left = MakeBinary("OR", std::move(left), std::move(right));
  }
  return left;
}

absl::StatusOr<ExprPtr> Parser::ParseAnd() {
  ASSIGN_OR_RETURN(ExprPtr left, ParseNot());
  while (AcceptKeyword("AND")) {
    ASSIGN_OR_RETURN(ExprPtr right, ParseNot());
    left = MakeBinary("AND", std::move(left), std::move(right));
  }
  return left;
}

absl::StatusOr<ExprPtr> Parser::ParseNot() {
  if (!PeekKeyword("NOT")) return ParseComparison();
  SourcePos pos = Advance().pos;
  NestingGuard guard(depth_);
  RETURN_IF_ERROR(CheckNesting());
  ASSIGN_OR_RETURN(ExprPtr operand, ParseNot());
  return MakeUnary("NOT", pos, std::move(operand));
}

absl::StatusOr<ExprPtr> Parser::ParseComparison() {
  ASSIGN_OR_RETURN(ExprPtr left, ParseAdditive());
  while (true) {
    if (IsComparisonOperator(Peek())) {
      std::string op = Advance().text;
      if (op == "!=") op = "<>";
      ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
      left = MakeBinary(std::move(op), std::move(left), std::move(right));
      continue;
    }
    if (AcceptKeyword("IS")) {
      bool negated = AcceptKeyword("NOT");
      if (AcceptKeyword("DISTINCT")) {
        // x IS [NOT] DISTINCT FROM y: equality where NULL equals NULL (a binary operator).
        RETURN_IF_ERROR(ExpectKeyword("FROM"));
        ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
        left = MakeBinary(negated ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM", std::move(left),
                          std::move(right));
        continue;
      }
      ExprKind kind;
      if (PeekKeyword("JSON")) {
        // x IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT]: the function "IS JSON"(x, 'kind').
        ExprPtr is_json = MakeExpr(ExprKind::kFunction, Advance().pos);
        is_json->name.pos = is_json->pos;
        is_json->name.parts.push_back("IS JSON");
        std::string json_kind = "VALUE";
        if (PeekKeyword("VALUE") || PeekKeyword("SCALAR") || PeekKeyword("ARRAY") ||
            PeekKeyword("OBJECT")) {
          json_kind = Advance().upper;
        }
        is_json->args.push_back(std::move(left));
        is_json->args.push_back(MakeLiteral(LiteralKind::kString, json_kind, is_json->pos));
        const SourcePos pos = is_json->pos;
        left = negated ? MakeUnary("NOT", pos, std::move(is_json)) : std::move(is_json);
        continue;
      }
      if (AcceptKeyword("NULL")) {
        kind = ExprKind::kIsNull;
      } else if (AcceptKeyword("TRUE")) {
        kind = ExprKind::kIsTrue;
      } else if (AcceptKeyword("FALSE")) {
        kind = ExprKind::kIsFalse;
      } else {
        return ErrorExpected("'NULL', 'TRUE', 'FALSE' or 'DISTINCT FROM'");
      }
      ExprPtr is = MakeExpr(kind, left->pos);
      is->negated = negated;
      is->args.push_back(std::move(left));
      left = std::move(is);
      continue;
    }
    size_t k = PeekKeyword("NOT") ? 1 : 0;
    bool negated = k == 1;
    if (PeekKeyword("LIKE", k)) {
      next_ += k;
      Advance();
      ExprPtr like = MakeExpr(ExprKind::kLike, left->pos);
      like->negated = negated;
      like->args.push_back(std::move(left));
      ASSIGN_OR_RETURN(ExprPtr pattern, ParseAdditive());
      like->args.push_back(std::move(pattern));
      if (AcceptKeyword("ESCAPE")) {
        ASSIGN_OR_RETURN(ExprPtr escape, ParseAdditive());
        like->args.push_back(std::move(escape));
      }
      left = std::move(like);
    } else if (PeekKeyword("IN", k)) {
      next_ += k;
      Advance();
      ExprPtr in = MakeExpr(ExprKind::kIn, left->pos);
      in->negated = negated;
      in->args.push_back(std::move(left));
      if (PeekSymbol("(") && (PeekKeyword("SELECT", 1) || PeekKeyword("VALUES", 1))) {
        // x IN (SELECT ...): args[1] is a kSubquery.
        ExprPtr subquery = MakeExpr(ExprKind::kSubquery, Advance().pos);
        ASSIGN_OR_RETURN(subquery->subquery, ParseQuery());
        RETURN_IF_ERROR(ExpectSymbol(")"));
        in->args.push_back(std::move(subquery));
      } else {
        RETURN_IF_ERROR(ExpectSymbol("("));
        do {
          ASSIGN_OR_RETURN(ExprPtr item, ParseExpr());
          in->args.push_back(std::move(item));
        } while (AcceptSymbol(","));
        RETURN_IF_ERROR(ExpectSymbol(")"));
      }
      left = std::move(in);
    } else if (PeekKeyword("BETWEEN", k)) {
      next_ += k;
      Advance();
      ExprPtr between = MakeExpr(ExprKind::kBetween, left->pos);
      between->negated = negated;
      between->args.push_back(std::move(left));
      ASSIGN_OR_RETURN(ExprPtr low, ParseAdditive());
      RETURN_IF_ERROR(ExpectKeyword("AND"));
      ASSIGN_OR_RETURN(ExprPtr high, ParseAdditive());
      between->args.push_back(std::move(low));
      between->args.push_back(std::move(high));
      left = std::move(between);
    } else {
      break;
    }
  }
  return left;
}

absl::StatusOr<ExprPtr> Parser::ParseAdditive() {
  ASSIGN_OR_RETURN(ExprPtr left, ParseMultiplicative());
  while (PeekSymbol("+") || PeekSymbol("-") || PeekSymbol("||")) {
    std::string op = Advance().text;
    ASSIGN_OR_RETURN(ExprPtr right, ParseMultiplicative());
    left = MakeBinary(std::move(op), std::move(left), std::move(right));
  }
  return left;
}

absl::StatusOr<ExprPtr> Parser::ParseMultiplicative() {
  ASSIGN_OR_RETURN(ExprPtr left, ParseUnary());
  while (PeekSymbol("*") || PeekSymbol("/") || PeekSymbol("%")) {
    std::string op = Advance().text;
    ASSIGN_OR_RETURN(ExprPtr right, ParseUnary());
    left = MakeBinary(std::move(op), std::move(left), std::move(right));
  }
  return left;
}

absl::StatusOr<ExprPtr> Parser::ParseUnary() {
  if (!PeekSymbol("-") && !PeekSymbol("+")) return ParsePostfix();
  const Token& sign = Advance();
  NestingGuard guard(depth_);
  RETURN_IF_ERROR(CheckNesting());
  ASSIGN_OR_RETURN(ExprPtr operand, ParseUnary());
  return MakeUnary(sign.text, sign.pos, std::move(operand));
}

// Element access e[i] (the function ITEM) and field access e.f (the function FIELD, its name a
// string literal) after a primary; `t.r.f` on a column is a qualified name the binder resolves.
absl::StatusOr<ExprPtr> Parser::ParsePostfix() {
  ASSIGN_OR_RETURN(ExprPtr e, ParsePrimary());
  while (PeekSymbol("[") || (PeekSymbol(".") && (Peek(1).kind == TokenKind::kWord ||
                                                 Peek(1).kind == TokenKind::kQuotedIdentifier))) {
    const Token& op = Advance();
    ExprPtr call = MakeExpr(ExprKind::kFunction, op.pos);
    call->name.pos = op.pos;
    if (op.text == "[") {
      call->name.parts.push_back("ITEM");
      call->args.push_back(std::move(e));
      ASSIGN_OR_RETURN(ExprPtr index, ParseExpr());
      call->args.push_back(std::move(index));
      RETURN_IF_ERROR(ExpectSymbol("]"));
    } else {
      const Token& field = Advance();
      call->name.parts.push_back("FIELD");
      call->args.push_back(std::move(e));
      call->args.push_back(MakeLiteral(LiteralKind::kString, field.text, field.pos));
    }
    e = std::move(call);
  }
  return e;
}

// ARRAY[e, ...] and MAP[k, v, ...]: calls of the functions ARRAY and MAP.
absl::StatusOr<ExprPtr> Parser::ParseCollectionConstructor() {
  const Token& word = Advance();
  ExprPtr call = MakeExpr(ExprKind::kFunction, word.pos);
  call->name.pos = word.pos;
  call->name.parts.push_back(word.upper);
  RETURN_IF_ERROR(ExpectSymbol("["));
  if (!PeekSymbol("]")) {
    do {
      ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
      call->args.push_back(std::move(arg));
    } while (AcceptSymbol(","));
  }
  RETURN_IF_ERROR(ExpectSymbol("]"));
  return call;
}

absl::StatusOr<ExprPtr> Parser::ParsePrimary() {
  const Token& token = Peek();
  if (PeekKeyword("EXISTS") && PeekSymbol("(", 1)) {
    ExprPtr exists = MakeExpr(ExprKind::kExists, Advance().pos);
    Advance();  // '('
    ASSIGN_OR_RETURN(exists->subquery, ParseQuery());
    RETURN_IF_ERROR(ExpectSymbol(")"));
    return exists;
  }
  switch (token.kind) {
    case TokenKind::kInteger:
      Advance();
      return MakeLiteral(LiteralKind::kInteger, token.text, token.pos);
    case TokenKind::kDecimal:
      Advance();
      return MakeLiteral(LiteralKind::kDecimal, token.text, token.pos);
    case TokenKind::kDouble:
      Advance();
      return MakeLiteral(LiteralKind::kDouble, token.text, token.pos);
    case TokenKind::kString:
      Advance();
      return MakeLiteral(LiteralKind::kString, token.text, token.pos);
    case TokenKind::kQuotedIdentifier:
      return ParseNameOrCall();
    case TokenKind::kSymbol:
      if (token.text == "(") {
        if (PeekKeyword("SELECT", 1) || PeekKeyword("VALUES", 1)) {
          ExprPtr subquery = MakeExpr(ExprKind::kSubquery, Advance().pos);
          ASSIGN_OR_RETURN(subquery->subquery, ParseQuery());
          RETURN_IF_ERROR(ExpectSymbol(")"));
          return subquery;
        }
        Advance();
        ASSIGN_OR_RETURN(ExprPtr inner, ParseExpr());
        RETURN_IF_ERROR(ExpectSymbol(")"));
        return inner;
      }
      return ErrorExpected("expression");
    case TokenKind::kEnd:
      return ErrorExpected("expression");
    case TokenKind::kWord:
      break;
  }

  const std::string& word = token.upper;
  if (word == "NULL") {
    Advance();
    return MakeLiteral(LiteralKind::kNull, "NULL", token.pos);
  }
  if (word == "TRUE" || word == "FALSE") {
    Advance();
    return MakeLiteral(LiteralKind::kBoolean, word, token.pos);
  }
  if (word == "X" && Peek(1).kind == TokenKind::kString && Peek(1).begin == token.end) {
    // A binary string literal X'0A1b': an even number of hex digits, as Calcite's.
    Advance();
    const Token& hex = Advance();
    for (char c : hex.text) {
      if (!std::isxdigit(static_cast<unsigned char>(c))) {
        return ErrorAt(hex, "binary literal '" + hex.text + "' may only hold hex digits");
      }
    }
    if (hex.text.size() % 2 != 0) {
      return ErrorAt(hex,
                     "binary literal '" + hex.text + "' must hold an even number of hex digits");
    }
    return MakeLiteral(LiteralKind::kBinary, hex.text, token.pos);
  }
  if (word == "DATE" || word == "TIME" || word == "TIMESTAMP") {
    // Typed literals. These words are not reserved, so alone they are ordinary column names; they
    // are never function names.
    if (Peek(1).kind == TokenKind::kString) {
      Advance();
      LiteralKind kind = word == "DATE"   ? LiteralKind::kDate
                         : word == "TIME" ? LiteralKind::kTime
                                          : LiteralKind::kTimestamp;
      return MakeLiteral(kind, Advance().text, token.pos);
    }
    if (PeekSymbol("(", 1)) {
      Advance();
      return ErrorExpected("string literal");
    }
  }
  if (word == "INTERVAL") return ParseInterval();
  if ((word == "ARRAY" || word == "MAP") && PeekSymbol("[", 1)) return ParseCollectionConstructor();
  if (word == "MULTISET" && PeekSymbol("[", 1)) {
    return ErrorAt(token, "MULTISET values are not supported (ARRAY, MAP and ROW are)");
  }
  if ((word == "CAST" || word == "TRY_CAST") && PeekSymbol("(", 1)) return ParseCast();
  if (word == "CASE") return ParseCase();
  if (PeekSpecialFunction()) return ParseSpecialFunction();
  if (IsReservedWord(word) && !(IsReservedFunctionName(word) && PeekSymbol("(", 1))) {
    return ErrorExpected("expression");
  }
  return ParseNameOrCall();
}

absl::StatusOr<ExprPtr> Parser::ParseNameOrCall() {
  const Token& first = Peek();
  QualifiedName name;
  if (first.kind == TokenKind::kWord && IsReservedWord(first.upper)) {
    // LEFT(s, 2) and similar: the caller checked that '(' follows.
    name.pos = first.pos;
    name.parts.push_back(Advance().text);
  } else {
    ASSIGN_OR_RETURN(name, ParseQualifiedName());
  }
  if (PeekSymbol("(")) return ParseFunctionCall(std::move(name));
  if (first.kind == TokenKind::kWord && name.parts.size() == 1 && IsNiladicFunction(first.upper)) {
    ExprPtr call = MakeExpr(ExprKind::kFunction, first.pos);
    call->name = std::move(name);
    return call;
  }
  ExprPtr identifier = MakeExpr(ExprKind::kIdentifier, name.pos);
  identifier->name = std::move(name);
  return identifier;
}

absl::StatusOr<ExprPtr> Parser::ParseFunctionCall(QualifiedName name) {
  ExprPtr call = MakeExpr(ExprKind::kFunction, name.pos);
  call->name = std::move(name);
  RETURN_IF_ERROR(ExpectSymbol("("));
  if (!AcceptSymbol(")")) {
    if (PeekSymbol("*") && PeekSymbol(")", 1)) {
      call->args.push_back(MakeExpr(ExprKind::kStar, Advance().pos));  // COUNT(*)
    } else {
      if (AcceptKeyword("DISTINCT")) {
        call->distinct = true;
      } else {
        AcceptKeyword("ALL");
      }
      do {
        ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
        call->args.push_back(std::move(arg));
      } while (AcceptSymbol(","));
    }
    RETURN_IF_ERROR(ExpectSymbol(")"));
  }
  if (PeekKeyword("FILTER") && PeekSymbol("(", 1)) {
    Advance();
    Advance();
    RETURN_IF_ERROR(ExpectKeyword("WHERE"));
    ASSIGN_OR_RETURN(call->filter, ParseExpr());
    RETURN_IF_ERROR(ExpectSymbol(")"));
  }
  if (PeekKeyword("OVER")) {
    ASSIGN_OR_RETURN(call->over, ParseOverClause());
  }
  return call;
}

absl::StatusOr<std::unique_ptr<OverClause>> Parser::ParseOverClause() {
  auto over = std::make_unique<OverClause>();
  over->pos = Advance().pos;  // OVER
  if (!PeekSymbol("(")) {
    ASSIGN_OR_RETURN(QualifiedName name, ParseQualifiedName());
    if (name.parts.size() != 1) return ErrorAt(Peek(), "expected a window name");
    over->window_name = name.parts[0];
    return over;
  }
  RETURN_IF_ERROR(ParseWindowSpec(over.get()));
  return over;
}

absl::Status Parser::ParseWindowSpec(OverClause* over) {
  RETURN_IF_ERROR(ExpectSymbol("("));
  if (AcceptKeyword("PARTITION")) {
    RETURN_IF_ERROR(ExpectKeyword("BY"));
    do {
      ASSIGN_OR_RETURN(ExprPtr key, ParseExpr());
      over->partition_by.push_back(std::move(key));
    } while (AcceptSymbol(","));
  }
  if (AcceptKeyword("ORDER")) {
    RETURN_IF_ERROR(ExpectKeyword("BY"));
    do {
      ASSIGN_OR_RETURN(OrderItem item, ParseOrderItem());
      over->order_by.push_back(std::move(item));
    } while (AcceptSymbol(","));
  }
  if (PeekKeyword("ROWS") || PeekKeyword("RANGE")) {
    over->has_frame = true;
    over->rows = Advance().upper == "ROWS";
    if (AcceptKeyword("BETWEEN")) {
      ASSIGN_OR_RETURN(over->frame_start, ParseFrameBound());
      RETURN_IF_ERROR(ExpectKeyword("AND"));
      ASSIGN_OR_RETURN(over->frame_end, ParseFrameBound());
    } else {
      ASSIGN_OR_RETURN(over->frame_start, ParseFrameBound());
      over->frame_end.pos = over->frame_start.pos;
    }
  }
  return ExpectSymbol(")");
}

absl::StatusOr<FrameBound> Parser::ParseFrameBound() {
  FrameBound bound;
  bound.pos = Peek().pos;
  if (AcceptKeyword("UNBOUNDED")) {
    if (AcceptKeyword("PRECEDING")) {
      bound.kind = FrameBound::Kind::kUnboundedPreceding;
    } else if (AcceptKeyword("FOLLOWING")) {
      bound.kind = FrameBound::Kind::kUnboundedFollowing;
    } else {
      return ErrorExpected("'PRECEDING' or 'FOLLOWING'");
    }
    return bound;
  }
  if (AcceptKeyword("CURRENT")) {
    RETURN_IF_ERROR(ExpectKeyword("ROW"));
    bound.kind = FrameBound::Kind::kCurrentRow;
    return bound;
  }
  ASSIGN_OR_RETURN(bound.offset, ParsePrimary());
  if (AcceptKeyword("PRECEDING")) {
    bound.kind = FrameBound::Kind::kPreceding;
  } else if (AcceptKeyword("FOLLOWING")) {
    bound.kind = FrameBound::Kind::kFollowing;
  } else {
    return ErrorExpected("'PRECEDING' or 'FOLLOWING'");
  }
  return bound;
}

absl::StatusOr<ExprPtr> Parser::ParseCast() {
  const Token& keyword = Advance();
  ExprPtr cast = MakeExpr(ExprKind::kCast, keyword.pos);
  cast->try_cast = keyword.upper == "TRY_CAST";
  RETURN_IF_ERROR(ExpectSymbol("("));
  ASSIGN_OR_RETURN(ExprPtr operand, ParseExpr());
  cast->args.push_back(std::move(operand));
  RETURN_IF_ERROR(ExpectKeyword("AS"));
  ASSIGN_OR_RETURN(cast->cast_type, ParseType());
  RETURN_IF_ERROR(ExpectSymbol(")"));
  return cast;
}

absl::StatusOr<ExprPtr> Parser::ParseCase() {
  ExprPtr expr = MakeExpr(ExprKind::kCase, Advance().pos);
  if (!PeekKeyword("WHEN") && !PeekKeyword("END")) {
    ASSIGN_OR_RETURN(expr->case_operand, ParseExpr());
  }
  if (!PeekKeyword("WHEN")) return ErrorExpected("'WHEN'");
  while (AcceptKeyword("WHEN")) {
    ASSIGN_OR_RETURN(ExprPtr when, ParseExpr());
    RETURN_IF_ERROR(ExpectKeyword("THEN"));
    ASSIGN_OR_RETURN(ExprPtr then, ParseExpr());
    expr->case_when_then.emplace_back(std::move(when), std::move(then));
  }
  if (AcceptKeyword("ELSE")) {
    ASSIGN_OR_RETURN(expr->case_else, ParseExpr());
  }
  RETURN_IF_ERROR(ExpectKeyword("END"));
  return expr;
}

absl::StatusOr<ExprPtr> Parser::ParseInterval() {
  ExprPtr interval = MakeExpr(ExprKind::kInterval, Advance().pos);
  // Flink requires a quoted value; an unquoted integer is accepted too, as Calcite's babel dialect
  // does.
  if (Peek().kind != TokenKind::kString && Peek().kind != TokenKind::kInteger) {
    return ErrorExpected("string literal");
  }
  interval->text = Advance().text;
  ASSIGN_OR_RETURN(interval->interval_unit, ParseIntervalUnit());
  if (AcceptKeyword("TO")) {
    ASSIGN_OR_RETURN(std::string to, ParseIntervalUnit());
    interval->interval_unit += " TO " + to;
  }
  return interval;
}

absl::StatusOr<std::string> Parser::ParseIntervalUnit() {
  static constexpr std::string_view kUnits[] = {"SECOND", "MINUTE", "HOUR", "DAY", "MONTH", "YEAR"};
  const Token& token = Peek();
  if (token.kind == TokenKind::kWord) {
    for (std::string_view unit : kUnits) {
      if (token.upper == unit || token.upper == std::string(unit) + "S") {
        Advance();
        return std::string(unit);
      }
    }
  }
  return ErrorExpected("interval unit (SECOND, MINUTE, HOUR, DAY, MONTH or YEAR)");
}

}  // namespace eddy::sql
