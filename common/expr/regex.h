// Regular expressions for REGEXP, REGEXP_EXTRACT and REGEXP_REPLACE, on RE2 (whose syntax matches
// Java's for the common constructs; backreferences and lookaround are not supported). A constant
// pattern is compiled once per call expression (RegexForCall); the same pattern text is shared
// by all calls in the process.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "re2/re2.h"

namespace eddy {

// The compiled `pattern`, or InvalidArgument "Invalid regular expression '(' in 'REGEXP':
// missing ): (".
absl::StatusOr<std::shared_ptr<const RE2>> CompileRegex(std::string_view pattern,
                                                        std::string_view function);

// Appends `text` with every match of `re` replaced by the literal `replacement` (no group
// references, as Flink quotes it), matching as Java's String.replaceAll: after an empty match the
// search goes on one character further, so 'abc' with 'x*' and '-' gives '-a-b-c-'.
void RegexReplaceAll(const RE2& re, std::string_view text, std::string_view replacement,
                     std::string* out);

}  // namespace eddy
