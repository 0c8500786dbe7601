// Decoding bytes as Java's String(bytes, UTF_8) does: each malformed sequence (a maximal subpart,
// or one byte that starts none) becomes one U+FFFD. The expected strings are what Java produces.
#include "common/types/utf8_decode.h"

#include <gtest/gtest.h>

#include <string>

namespace eddy {
namespace {

// The decoded text with U+FFFD shown as '?' (no input here holds a '?').
std::string Decoded(const std::string& bytes) {
  std::string out;
  AppendUtf8WithReplacement(bytes, &out);
  std::string shown;
  for (size_t i = 0; i < out.size();) {
    if (out.compare(i, 3, "\xEF\xBF\xBD") == 0) {
      shown += '?';
      i += 3;
    } else {
      shown += out[i++];
    }
  }
  return shown;
}

TEST(Utf8DecodeTest, KeepsWellFormedText) {
  EXPECT_EQ(Decoded(""), "");
  EXPECT_EQ(Decoded("plain"), "plain");
  EXPECT_EQ(Decoded("h\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF \xEF\xBF\xBF"),
            "h\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF \xEF\xBF\xBF");
  EXPECT_EQ(Decoded(std::string("a\0b", 3)), std::string("a\0b", 3));
}

TEST(Utf8DecodeTest, ReplacesBytesThatStartNoSequenceOneByOne) {
  EXPECT_EQ(Decoded("\x80"), "?");
  EXPECT_EQ(Decoded("a\xBF\x80z"), "a??z");
  EXPECT_EQ(Decoded("\xC0\xAF"), "??");  // C0 and C1 start only overlong forms
  EXPECT_EQ(Decoded("\xC1\xBF"), "??");
  EXPECT_EQ(Decoded("\xF5\x80\x80\x80"), "????");  // past U+10FFFF
  EXPECT_EQ(Decoded("\xF8\x88\x80\x80\x80"), "?????");
  EXPECT_EQ(Decoded("\xFE\xFF"), "??");
}

TEST(Utf8DecodeTest, ReplacesATruncatedSequenceOnce) {
  EXPECT_EQ(Decoded("\xC3"), "?");
  EXPECT_EQ(Decoded("\xC3z"), "?z");
  EXPECT_EQ(Decoded("\xE2\x82"), "?");
  EXPECT_EQ(Decoded("\xE2\x82z"), "?z");
  EXPECT_EQ(Decoded("\xE2z\x82"), "?z?");
  EXPECT_EQ(Decoded("\xF0\x9F\x98"), "?");
  EXPECT_EQ(Decoded("\xF0\x9F\x98z"), "?z");
  EXPECT_EQ(Decoded("\xF0\x9Fz"), "?z");
  EXPECT_EQ(Decoded("\xF0"), "?");
  EXPECT_EQ(Decoded("\xF0z"), "?z");
  EXPECT_EQ(Decoded("\xF1\x80\x41\x80"), "?A?");
}

TEST(Utf8DecodeTest, ReplacesOverlongFormsByteByByte) {
  EXPECT_EQ(Decoded("\xE0\x80\xAF"), "???");  // '/' in three bytes
  EXPECT_EQ(Decoded("\xE0\x9F\xBF"), "???");
  EXPECT_EQ(Decoded("\xF0\x80\x80\xAF"), "????");  // '/' in four bytes
  EXPECT_EQ(Decoded("\xF0\x8F\xBF\xBF"), "????");
  EXPECT_EQ(Decoded("\xF4\x90\x80\x80"), "????");  // U+110000
}

TEST(Utf8DecodeTest, ReplacesAnEncodedSurrogateAsOneSequenceAsJavaDoes) {
  EXPECT_EQ(Decoded("\xED\xA0\x80"), "?");               // U+D800
  EXPECT_EQ(Decoded("\xED\xBF\xBFz"), "?z");             // U+DFFF
  EXPECT_EQ(Decoded("\xED\xA0\x80\xED\xB0\x80"), "??");  // a surrogate pair in CESU-8
  EXPECT_EQ(Decoded("\xED\xA0z"), "?z");
  EXPECT_EQ(Decoded("\xED\xA0"), "?");
  EXPECT_EQ(Decoded("\xED\x9F\xBF"), "\xED\x9F\xBF");  // U+D7FF is fine
}

}  // namespace
}  // namespace eddy
