#include "common/expr/like_matcher.h"

#include "absl/strings/str_cat.h"

namespace eddy {
namespace {

inline size_t CodePointLength(unsigned char b) {
  if (b < 0x80) return 1;
  if ((b >> 5) == 0x6) return 2;
  if ((b >> 4) == 0xE) return 3;
  if ((b >> 3) == 0x1E) return 4;
  return 1;  // invalid lead byte: treat as one unit
}

}  // namespace

absl::Status LikePattern::Compile(std::string_view pattern, std::string_view escape) {
  if (escape.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid escape character '",
                                                   absl::string_view(escape.data(), escape.size()),
                                                   "' in LIKE: it must be a single character"));
  }
  elements_.clear();
  literal_.clear();
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (!escape.empty() && c == escape[0]) {
      if (i + 1 == pattern.size() ||
          (pattern[i + 1] != '%' && pattern[i + 1] != '_' && pattern[i + 1] != escape[0])) {
        return absl::InvalidArgumentError(
            absl::StrCat("Invalid escape sequence in LIKE pattern '",
                         absl::string_view(pattern.data(), pattern.size()), "'"));
      }
      elements_.push_back(static_cast<unsigned char>(pattern[++i]));
    } else if (c == '%') {
      // Consecutive % are one %.
      if (elements_.empty() || elements_.back() != kMany) elements_.push_back(kMany);
    } else if (c == '_') {
      elements_.push_back(kOne);
    } else {
      elements_.push_back(static_cast<unsigned char>(c));
    }
  }
  // Classify: literal runs bounded by at most one leading and one trailing %.
  size_t begin = 0, end = elements_.size();
  bool lead = begin < end && elements_[begin] == kMany;
  if (lead) ++begin;
  bool trail = end > begin && elements_[end - 1] == kMany;
  if (trail) --end;
  bool plain = true;
  for (size_t i = begin; i < end; ++i) {
    if (elements_[i] < 0) {
      plain = false;
      break;
    }
    literal_.push_back(static_cast<char>(elements_[i]));
  }
  if (!plain) {
    shape_ = Shape::kGeneral;
  } else if (lead && literal_.empty()) {
    shape_ = Shape::kAll;
  } else if (lead && trail) {
    shape_ = Shape::kContains;
  } else if (lead) {
    shape_ = Shape::kSuffix;
  } else if (trail) {
    shape_ = Shape::kPrefix;
  } else {
    shape_ = Shape::kExact;
  }
  return absl::OkStatus();
}

bool LikePattern::Matches(std::string_view s) const {
  std::string_view lit = literal_;
  switch (shape_) {
    case Shape::kAll:
      return true;
    case Shape::kExact:
      return s == lit;
    case Shape::kPrefix:
      return s.substr(0, lit.size()) == lit;
    case Shape::kSuffix:
      return s.size() >= lit.size() && s.substr(s.size() - lit.size()) == lit;
    case Shape::kContains:
      return s.find(lit) != std::string_view::npos;
    case Shape::kGeneral:
      return MatchGeneral(s);
  }
  return false;
}

bool LikePattern::MatchGeneral(std::string_view s) const {
  // Greedy matching with backtracking to the last %: O(|s| * |pattern|) worst case, no recursion.
  const size_t np = elements_.size();
  size_t si = 0, pi = 0;
  size_t star_p = SIZE_MAX, star_s = 0;
  while (si < s.size()) {
    if (pi < np && elements_[pi] == kOne) {
      si += CodePointLength(static_cast<unsigned char>(s[si]));
      ++pi;
    } else if (pi < np && elements_[pi] >= 0 &&
               elements_[pi] == static_cast<unsigned char>(s[si])) {
      ++si;
      ++pi;
    } else if (pi < np && elements_[pi] == kMany) {
      star_p = pi++;
      star_s = si;
    } else if (star_p != SIZE_MAX) {
      pi = star_p + 1;
      star_s += CodePointLength(static_cast<unsigned char>(s[star_s]));
      si = star_s;
    } else {
      return false;
    }
  }
  if (si > s.size()) return false;  // a truncated code point under _
  while (pi < np && elements_[pi] == kMany) ++pi;
  return pi == np;
}

}  // namespace eddy
