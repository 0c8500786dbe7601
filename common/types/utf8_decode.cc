#include "common/types/utf8_decode.h"

#include <cstdint>

namespace eddy {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool IsContinuation(uint8_t b) { return (b & 0xC0) == 0x80; }

// Whether b2 may follow lead byte b1 (E0..EF) in a three-byte sequence (E0 needs A0..BF against
// overlong forms; the surrogates of ED are only refused once the sequence is complete, as Java
// does).
bool Allowed3(uint8_t b1, uint8_t b2) {
  if (!IsContinuation(b2)) return false;
  return !(b1 == 0xE0 && b2 < 0xA0);
}

// Whether b2 may follow lead byte b1 (F0..F4) in a four-byte sequence.
bool Allowed4(uint8_t b1, uint8_t b2) {
  if (!IsContinuation(b2)) return false;
  if (b1 == 0xF0) return b2 >= 0x90;
  if (b1 == 0xF4) return b2 <= 0x8F;
  return true;
}

}  // namespace

void AppendUtf8WithReplacement(std::string_view bytes, std::string* out) {
  const auto* s = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  while (i < n) {
    const uint8_t b1 = s[i];
    if (b1 < 0x80) {
      out->push_back(static_cast<char>(b1));
      ++i;
      continue;
    }
    // How many bytes form a well-formed character here (0: none), and how many the malformed
    // sequence starting here spans.
    size_t good = 0;
    size_t bad = 1;
    if (b1 >= 0xC2 && b1 <= 0xDF) {
      if (i + 1 < n && IsContinuation(s[i + 1])) good = 2;
    } else if (b1 >= 0xE0 && b1 <= 0xEF) {
      if (i + 1 < n && Allowed3(b1, s[i + 1])) {
        if (i + 2 < n && IsContinuation(s[i + 2])) {
          const bool surrogate = b1 == 0xED && s[i + 1] >= 0xA0;
          if (surrogate) {
            bad = 3;
          } else {
            good = 3;
          }
        } else {
          bad = 2;
        }
      }
    } else if (b1 >= 0xF0 && b1 <= 0xF4) {
      if (i + 1 < n && Allowed4(b1, s[i + 1])) {
        bad = 2;
        if (i + 2 < n && IsContinuation(s[i + 2])) {
          bad = 3;
          if (i + 3 < n && IsContinuation(s[i + 3])) good = 4;
        }
      }
    }
    if (good > 0) {
      out->append(bytes.data() + i, good);
      i += good;
    } else {
      out->append(kReplacement);
      i += bad;
    }
  }
}

}  // namespace eddy
