// Token navigation, error helpers and the public entry points of parser.h.
#include "common/sql/parser.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "common/base/status_macros.h"
#include "common/sql/keywords.h"
#include "common/sql/lexer.h"
#include "common/sql/parse_error.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {

Parser::Parser(std::string_view sql, std::vector<Token> tokens)
    : sql_(sql), tokens_(std::move(tokens)) {}

absl::Status Parser::CheckNesting() const {
  if (depth_ > kMaxNesting) return ErrorAt(Peek(), "statement is nested too deeply");
  return absl::OkStatus();
}

const Token& Parser::Peek(size_t k) const {
  size_t i = next_ + k;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();  // the last token is always kEnd
}

const Token& Parser::Advance() {
  const Token& token = Peek();
  if (token.kind != TokenKind::kEnd) {
    ++next_;
    prev_end_ = token.end;
  }
  return token;
}

bool Parser::PeekKeyword(std::string_view upper, size_t k) const {
  const Token& token = Peek(k);
  return token.kind == TokenKind::kWord && token.upper == upper;
}

bool Parser::AcceptKeyword(std::string_view upper) {
  if (!PeekKeyword(upper)) return false;
  Advance();
  return true;
}

absl::Status Parser::ExpectKeyword(std::string_view upper) {
  if (AcceptKeyword(upper)) return absl::OkStatus();
  return ErrorExpected("'" + std::string(upper) + "'");
}

bool Parser::PeekSymbol(std::string_view symbol, size_t k) const {
  const Token& token = Peek(k);
  return token.kind == TokenKind::kSymbol && token.text == symbol;
}

bool Parser::AcceptSymbol(std::string_view symbol) {
  if (!PeekSymbol(symbol)) return false;
  Advance();
  return true;
}

absl::Status Parser::ExpectSymbol(std::string_view symbol) {
  if (AcceptSymbol(symbol)) return absl::OkStatus();
  return ErrorExpected("'" + std::string(symbol) + "'");
}

bool Parser::AtStatementEnd() const { return Peek().kind == TokenKind::kEnd || PeekSymbol(";"); }

bool Parser::IsQueryStart(size_t k) const {
  while (PeekSymbol("(", k)) ++k;
  return PeekKeyword("SELECT", k) || PeekKeyword("VALUES", k);
}

absl::Status Parser::ErrorExpected(std::string_view what) const {
  return ErrorAt(Peek(), "expected " + std::string(what) + " but found " + FoundText(Peek()));
}

absl::Status Parser::ErrorAt(const Token& token, std::string_view message) const {
  return ParseError(token.pos, message);
}

std::string Parser::FoundText(const Token& token) const {
  if (token.kind == TokenKind::kEnd) return "end of input";
  return "'" + SourceText(token.begin, token.end) + "'";
}

std::string Parser::SourceText(size_t begin, size_t end) const {
  return std::string(sql_.substr(begin, end - begin));
}

bool Parser::PeekIdentifier(size_t k) const {
  const Token& token = Peek(k);
  return token.kind == TokenKind::kQuotedIdentifier ||
         (token.kind == TokenKind::kWord && !IsReservedWord(token.upper));
}

absl::StatusOr<std::string> Parser::ParseIdentifier() {
  if (!PeekIdentifier()) return ErrorExpected("identifier");
  return Advance().text;
}

absl::StatusOr<QualifiedName> Parser::ParseQualifiedName() {
  QualifiedName name;
  name.pos = Peek().pos;
  ASSIGN_OR_RETURN(std::string first, ParseIdentifier());
  name.parts.push_back(std::move(first));
  while (PeekSymbol(".")) {
    // After a dot any word is a name part: t.`end` and t.end mean the same.
    const Token& part = Peek(1);
    if (part.kind != TokenKind::kWord && part.kind != TokenKind::kQuotedIdentifier) {
      Advance();
      return ErrorExpected("identifier");
    }
    Advance();
    name.parts.push_back(Advance().text);
  }
  return name;
}

absl::StatusOr<std::vector<std::string>> Parser::ParseIdentifierList() {
  RETURN_IF_ERROR(ExpectSymbol("("));
  std::vector<std::string> names;
  do {
    ASSIGN_OR_RETURN(std::string name, ParseIdentifier());
    names.push_back(std::move(name));
  } while (AcceptSymbol(","));
  RETURN_IF_ERROR(ExpectSymbol(")"));
  return names;
}

absl::StatusOr<std::string> Parser::ParseConfigWord(std::string_view what, bool until_equals) {
  if (Peek().kind == TokenKind::kString) return ParseStringLiteral();
  const size_t begin = Peek().begin;
  size_t end = begin;
  while (!AtStatementEnd() && !(until_equals && PeekSymbol("="))) end = Advance().end;
  if (end == begin) return ErrorExpected(std::string(what));
  return SourceText(begin, end);
}

absl::StatusOr<std::string> Parser::ParseStringLiteral() {
  if (Peek().kind != TokenKind::kString) return ErrorExpected("string literal");
  return Advance().text;
}

absl::StatusOr<int64_t> Parser::ParseIntegerLiteral() {
  if (Peek().kind != TokenKind::kInteger) return ErrorExpected("integer literal");
  int64_t value = 0;
  (void)absl::SimpleAtoi(Advance().text, &value);  // the lexer checked that it fits
  return value;
}

absl::StatusOr<std::vector<StatementPtr>> Parser::ParseScriptBody() {
  std::vector<StatementPtr> statements;
  while (true) {
    while (AcceptSymbol(";")) {
    }
    if (Peek().kind == TokenKind::kEnd) break;
    ASSIGN_OR_RETURN(StatementPtr statement, ParseStatementWithText());
    statements.push_back(std::move(statement));
    if (!AtStatementEnd()) return ErrorExpected("';'");
  }
  return statements;
}

absl::StatusOr<StatementPtr> Parser::ParseSingleStatement() {
  ASSIGN_OR_RETURN(StatementPtr statement, ParseStatementWithText());
  AcceptSymbol(";");
  if (Peek().kind != TokenKind::kEnd) return ErrorExpected("end of input");
  return statement;
}

absl::StatusOr<ExprPtr> Parser::ParseStandaloneExpression() {
  ASSIGN_OR_RETURN(ExprPtr expr, ParseExpr());
  if (Peek().kind != TokenKind::kEnd) return ErrorExpected("end of input");
  return expr;
}

absl::StatusOr<std::vector<StatementPtr>> ParseScript(std::string_view sql) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  return Parser(sql, std::move(tokens)).ParseScriptBody();
}

absl::StatusOr<StatementPtr> ParseStatement(std::string_view sql) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  return Parser(sql, std::move(tokens)).ParseSingleStatement();
}

absl::StatusOr<ExprPtr> ParseExpression(std::string_view sql) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  return Parser(sql, std::move(tokens)).ParseStandaloneExpression();
}

}  // namespace eddy::sql
