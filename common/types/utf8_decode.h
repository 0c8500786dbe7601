// Bytes decoded as UTF-8 the way Java's String(bytes, UTF_8) does, which Flink's DECODE(bytes,
// 'UTF-8') uses: well-formed sequences are kept, and each malformed one is
// replaced by U+FFFD. A malformed sequence is the longest start of a well-formed one (a lead byte
// and the continuation bytes it allows, Unicode's "maximal subpart"), or a single byte that starts
// none (a stray continuation byte, C0, C1, F5..FF); a complete three-byte encoding of a surrogate
// (ED A0..BF xx) is one malformed sequence, as in Java.
#pragma once

#include <string>
#include <string_view>

namespace eddy {

// Appends `bytes` to `out` as well-formed UTF-8, malformed sequences replaced by U+FFFD.
void AppendUtf8WithReplacement(std::string_view bytes, std::string* out);

}  // namespace eddy
