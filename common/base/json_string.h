// JSON string literals: the one escaping that the json format's encoder, the JSON functions and
// EXPLAIN's JSON plan share.
#pragma once

#include <string>
#include <string_view>

namespace eddy {

// Appends `s` as a JSON string literal (quotes included): `"` and `\` escaped, the usual short
// escapes for control characters and \u00XX (upper-case hex, as Jackson writes it) for the others.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace eddy
