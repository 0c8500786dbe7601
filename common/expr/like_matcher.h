// SQL LIKE patterns compiled once and matched without regular expressions: % matches any sequence,
// _ one UTF-8 code point, an optional escape character makes the next %, _ or escape literal.
// Common shapes (exact, 'abc%', '%abc', '%abc%') take a memcmp/find fast path.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace eddy {

class LikePattern {
 public:
  // Compiles `pattern`; `escape` is empty or one character. Errors are InvalidArgument
  // ("Invalid escape sequence in LIKE pattern 'a\\b'"). Reusable: Compile may be called again.
  absl::Status Compile(std::string_view pattern, std::string_view escape);

  bool Matches(std::string_view s) const;

 private:
  enum class Shape { kGeneral, kExact, kPrefix, kSuffix, kContains, kAll };
  // General form: one entry per pattern element; kOne/kMany for _ and %, else a literal byte.
  enum Element : int { kOne = -1, kMany = -2 };

  bool MatchGeneral(std::string_view s) const;

  Shape shape_ = Shape::kGeneral;
  std::string literal_;        // for the fast shapes
  std::vector<int> elements_;  // for kGeneral
};

}  // namespace eddy
