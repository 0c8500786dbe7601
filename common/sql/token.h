// Tokens produced by the SQL lexer (lexer.h) and consumed by the parser. A token remembers its byte
// range in the source so that errors can quote it as written and statements can keep their source
// text.
#pragma once

#include <cstddef>
#include <string>

#include "common/sql/ast.h"

namespace eddy::sql {

enum class TokenKind {
  kEnd,               // end of input (always the last token)
  kWord,              // unquoted identifier or keyword; `upper` holds the upper-cased spelling
  kQuotedIdentifier,  // `...` with the backticks removed and `` unescaped
  kString,            // '...' with the quotes removed and '' unescaped
  kInteger,           // digits that fit an int64
  kDecimal,           // 1.5, .5, 1. or an integer too large for int64
  kDouble,            // a number with an exponent: 1e3, 2.5E-2
  kSymbol,            // operator or punctuation: + - * / % = <> != < <= > >= || ( ) , . ; [ ],
                      // and a hint's /*+ and */
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;   // see TokenKind; numbers and symbols as written
  std::string upper;  // kWord only: text upper-cased, for case-insensitive keyword matching
  SourcePos pos;      // of the first character
  size_t begin = 0;   // byte offsets into the source: [begin, end)
  size_t end = 0;
};

}  // namespace eddy::sql
