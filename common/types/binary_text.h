// Text forms of binary strings (BYTES, VARBINARY(n), BINARY(n)): the x'0a1b' Flink prints, the
// hex digits of a X'0A1B' literal, the base64 the json and csv formats carry, and the UTF-8
// check CAST(bytes AS STRING) makes.
#pragma once

#include <string>
#include <string_view>

namespace eddy {

// x'0a1b': as Flink's print sink and SQL client show a binary value (lower-case hex).
std::string FormatBinary(std::string_view bytes);
void AppendBinaryText(std::string_view bytes, std::string* out);

// The bytes spelled by hex digits (either case, an even number of them); false when malformed.
bool ParseHexDigits(std::string_view hex, std::string* out);

// Standard base64 with padding (RFC 4648), as Java's Base64 encoder.
std::string Base64Encode(std::string_view bytes);
// Standard base64, the padding optional (Java's basic decoder); false when malformed.
bool Base64Decode(std::string_view text, std::string* out);

// True when bytes is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF).
bool IsValidUtf8(std::string_view bytes);

}  // namespace eddy
