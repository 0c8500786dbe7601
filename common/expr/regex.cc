#include "common/expr/regex.h"

#include "absl/strings/str_cat.h"
#include "common/expr/utf8.h"

namespace eddy {

absl::StatusOr<std::shared_ptr<const RE2>> CompileRegex(std::string_view pattern,
                                                        std::string_view function) {
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_shared<const RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re->ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Invalid regular expression '", absl::string_view(pattern.data(), pattern.size()), "' in '",
        absl::string_view(function.data(), function.size()), "': ", re->error()));
  }
  return re;
}

void RegexReplaceAll(const RE2& re, std::string_view text, std::string_view replacement,
                     std::string* out) {
  re2::StringPiece match;
  const re2::StringPiece input(text.data(), text.size());
  size_t copied = 0, from = 0;
  while (from <= text.size() && re.Match(input, from, text.size(), RE2::UNANCHORED, &match, 1)) {
    const size_t begin = static_cast<size_t>(match.data() - text.data());
    const size_t end = begin + match.size();
    out->append(text.data() + copied, begin - copied);
    out->append(replacement.data(), replacement.size());
    copied = end;
    // After an empty match the next search starts one character further, as Java's find().
    from = end == begin ? (end < text.size() ? end + utf8::CharBytes(text, end) : end + 1) : end;
  }
  out->append(text.data() + copied, text.size() - copied);
}

}  // namespace eddy
