#include "common/sql/lexer.h"

#include <cstdint>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "common/base/status_macros.h"
#include "common/sql/parse_error.h"

namespace eddy::sql {
namespace {

bool IsIdentStart(char c) {
  return absl::ascii_isalpha(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >=
             0x80;  // UTF-8 letters are accepted as identifier characters
}

bool IsIdentPart(char c) {
  return IsIdentStart(c) || absl::ascii_isdigit(static_cast<unsigned char>(c)) || c == '$';
}

bool IsDigit(char c) { return absl::ascii_isdigit(static_cast<unsigned char>(c)); }

class Lexer {
 public:
  explicit Lexer(std::string_view sql) : sql_(sql) {}

  absl::StatusOr<std::vector<Token>> Run() {
    std::vector<Token> tokens;
    while (true) {
      RETURN_IF_ERROR(SkipSpaceAndComments());
      if (at_ >= sql_.size()) break;
      Token token;
      token.pos = pos_;
      token.begin = at_;
      RETURN_IF_ERROR(LexToken(token));
      token.end = at_;
      tokens.push_back(std::move(token));
    }
    if (in_hint_) return ParseError(pos_, "unterminated hint: /*+ without */");
    Token end;
    end.kind = TokenKind::kEnd;
    end.pos = pos_;
    end.begin = end.end = sql_.size();
    tokens.push_back(std::move(end));
    return tokens;
  }

 private:
  char Peek(size_t k = 0) const { return at_ + k < sql_.size() ? sql_[at_ + k] : '\0'; }

  // Consumes one byte, keeping line/column (columns count characters, not UTF-8 continuation
  // bytes).
  void Bump() {
    char c = sql_[at_++];
    if (c == '\n') {
      ++pos_.line;
      pos_.column = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++pos_.column;
    }
  }

  absl::Status SkipSpaceAndComments() {
    while (at_ < sql_.size()) {
      char c = Peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        Bump();
      } else if (c == '-' && Peek(1) == '-') {
        while (at_ < sql_.size() && Peek() != '\n') Bump();
      } else if (c == '/' && Peek(1) == '*' && Peek(2) != '+') {
        SourcePos start = pos_;
        Bump();
        Bump();
        while (true) {
          if (at_ >= sql_.size()) return ParseError(start, "unterminated comment");
          if (Peek() == '*' && Peek(1) == '/') {
            Bump();
            Bump();
            break;
          }
          Bump();
        }
      } else {
        break;
      }
    }
    return absl::OkStatus();
  }

  absl::Status LexToken(Token& token) {
    char c = Peek();
    if (IsIdentStart(c)) {
      while (at_ < sql_.size() && IsIdentPart(Peek())) Bump();
      token.kind = TokenKind::kWord;
      token.text = std::string(sql_.substr(token.begin, at_ - token.begin));
      token.upper = absl::AsciiStrToUpper(token.text);
      return absl::OkStatus();
    }
    if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) return LexNumber(token);
    if (c == '\'') return LexQuoted(token, '\'', TokenKind::kString, "unterminated string literal");
    if (c == '`') {
      return LexQuoted(token, '`', TokenKind::kQuotedIdentifier, "unterminated quoted identifier");
    }
    return LexSymbol(token);
  }

  absl::Status LexNumber(Token& token) {
    bool fraction = false;
    bool exponent = false;
    while (IsDigit(Peek())) Bump();
    if (Peek() == '.') {
      fraction = true;
      Bump();
      while (IsDigit(Peek())) Bump();
    }
    if (Peek() == 'e' || Peek() == 'E') {
      size_t k = 1;
      if (Peek(1) == '+' || Peek(1) == '-') k = 2;
      if (!IsDigit(Peek(k))) {
        while (IsIdentPart(Peek())) Bump();
        return ParseError(token.pos, "invalid numeric literal '" +
                                         std::string(sql_.substr(token.begin, at_ - token.begin)) +
                                         "'");
      }
      exponent = true;
      for (size_t i = 0; i < k; ++i) Bump();
      while (IsDigit(Peek())) Bump();
    }
    token.text = std::string(sql_.substr(token.begin, at_ - token.begin));
    if (exponent) {
      token.kind = TokenKind::kDouble;
    } else if (fraction) {
      token.kind = TokenKind::kDecimal;
    } else {
      int64_t value;
      token.kind = absl::SimpleAtoi(token.text, &value) ? TokenKind::kInteger : TokenKind::kDecimal;
    }
    return absl::OkStatus();
  }

  // '...' or `...`; a doubled quote character stands for itself.
  absl::Status LexQuoted(Token& token, char quote, TokenKind kind, std::string_view unterminated) {
    Bump();
    std::string value;
    while (true) {
      if (at_ >= sql_.size()) return ParseError(token.pos, unterminated);
      char c = Peek();
      if (c == quote) {
        if (Peek(1) == quote) {
          value.push_back(quote);
          Bump();
          Bump();
          continue;
        }
        Bump();
        break;
      }
      value.push_back(c);
      Bump();
    }
    token.kind = kind;
    token.text = std::move(value);
    return absl::OkStatus();
  }

  absl::Status LexSymbol(Token& token) {
    std::string_view rest = sql_.substr(at_);
    // A hint, /*+ name(...) [, ...] */: its opening and (inside one) closing marks are tokens, so
    // that the parser reads the hints where they belong and refuses them elsewhere.
    const std::string_view hint_mark = in_hint_ ? "*/" : "/*+";
    if (rest.substr(0, hint_mark.size()) == hint_mark) {
      for (size_t i = 0; i < hint_mark.size(); ++i) Bump();
      token.kind = TokenKind::kSymbol;
      token.text = std::string(hint_mark);
      in_hint_ = !in_hint_;
      return absl::OkStatus();
    }
    static constexpr std::string_view kTwoChar[] = {"<>", "!=", "<=", ">=", "||"};
    for (std::string_view op : kTwoChar) {
      if (rest.substr(0, 2) == op) {
        Bump();
        Bump();
        token.kind = TokenKind::kSymbol;
        token.text = std::string(op);
        return absl::OkStatus();
      }
    }
    static constexpr std::string_view kOneChar = "+-*/%=<>(),.;[]";
    char c = Peek();
    if (kOneChar.find(c) == std::string_view::npos) {
      // Quote the whole UTF-8 character, not just its first byte.
      size_t len = 1;
      while (at_ + len < sql_.size() &&
             (static_cast<unsigned char>(sql_[at_ + len]) & 0xC0) == 0x80) {
        ++len;
      }
      return ParseError(token.pos,
                        "unexpected character '" + std::string(sql_.substr(at_, len)) + "'");
    }
    Bump();
    token.kind = TokenKind::kSymbol;
    token.text = std::string(1, c);
    return absl::OkStatus();
  }

  std::string_view sql_;
  size_t at_ = 0;
  SourcePos pos_;
  bool in_hint_ = false;  // between /*+ and */
};

}  // namespace

absl::StatusOr<std::vector<Token>> Tokenize(std::string_view sql) { return Lexer(sql).Run(); }

}  // namespace eddy::sql
