// AppendJsonString: the JSON string literals of the json format, the JSON functions and EXPLAIN.
#include "common/base/json_string.h"

#include <gtest/gtest.h>

#include <string>

namespace eddy {
namespace {

std::string Json(std::string_view s) {
  std::string out = "x";  // appended to, not replaced
  AppendJsonString(s, &out);
  return out;
}

TEST(AppendJsonStringTest, EscapesQuotesBackslashesAndControlCharactersAsJacksonDoes) {
  EXPECT_EQ(Json("plain"), "x\"plain\"");
  EXPECT_EQ(Json("a\"b\\c"), "x\"a\\\"b\\\\c\"");
  EXPECT_EQ(Json("\n\r\t\b\f"), "x\"\\n\\r\\t\\b\\f\"");
  // Other control characters as \u00XX with upper-case hex digits.
  EXPECT_EQ(Json(std::string("\x01\x1f\x0b", 3)), "x\"\\u0001\\u001F\\u000B\"");
  EXPECT_EQ(Json(std::string("a\0b", 3)), "x\"a\\u0000b\"");
  // Everything else, UTF-8 included, as it is.
  EXPECT_EQ(Json("é/€ 😀"), "x\"é/€ 😀\"");
  EXPECT_EQ(Json(""), "x\"\"");
}

}  // namespace
}  // namespace eddy
