// UTF-8 helpers for the string kernels: SQL string functions count positions and lengths in code
// points, while columns store bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace eddy::utf8 {

inline bool IsContinuation(unsigned char b) { return (b & 0xC0) == 0x80; }

// Number of code points in `s`.
inline int64_t CodePoints(std::string_view s) {
  int64_t n = 0;
  for (unsigned char b : s) n += !IsContinuation(b);
  return n;
}

// Byte offset of code point `cp` (clamped to the end).
inline size_t ByteOffset(std::string_view s, int64_t cp) {
  size_t i = 0;
  while (i < s.size() && cp > 0) {
    ++i;
    while (i < s.size() && IsContinuation(static_cast<unsigned char>(s[i]))) ++i;
    --cp;
  }
  return i;
}

// Byte length of the code point starting at s[i] (1 for a stray continuation byte).
inline size_t CharBytes(std::string_view s, size_t i) {
  size_t e = i + 1;
  while (e < s.size() && IsContinuation(static_cast<unsigned char>(s[e]))) ++e;
  return e - i;
}

}  // namespace eddy::utf8
