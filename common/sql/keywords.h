// Reserved words of Eddy's SQL dialect: words that can never be an unquoted identifier or alias.
// Everything else (count, value, key, data, window_start, timestamp, ...) is an ordinary identifier
// outside its context.
#pragma once

#include <string_view>

namespace eddy::sql {

// `upper` must be upper-case (Token::upper).
bool IsReservedWord(std::string_view upper);

// Reserved words that may still name a function when followed by '(' (e.g. LEFT(s, 2)).
bool IsReservedFunctionName(std::string_view upper);

}  // namespace eddy::sql
