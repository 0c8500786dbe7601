// Hand-written lexer for Eddy's SQL dialect: turns source text into tokens with 1-based line/column
// positions. Keywords are not distinguished here (the parser matches Token::upper); comments are
// dropped.
#pragma once

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/sql/token.h"

namespace eddy::sql {

// Splits `sql` into tokens; the result always ends with one kEnd token positioned just after the
// input. Errors (unterminated string, quoted identifier or comment; unexpected character; bad
// number) are parse errors naming the position where the offending token starts.
absl::StatusOr<std::vector<Token>> Tokenize(std::string_view sql);

}  // namespace eddy::sql
