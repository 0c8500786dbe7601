#include "common/base/scaled_number.h"

#include <cctype>
#include <limits>

#include "absl/strings/match.h"

namespace eddy {

std::optional<int64_t> ParseScaledNumber(std::string_view v, std::span<const UnitFactor> units,
                                         bool ignore_case) {
  size_t i = 0;
  int64_t n = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
    if (n > (std::numeric_limits<int64_t>::max() - 9) / 10) return std::nullopt;
    n = n * 10 + (v[i] - '0');
    ++i;
  }
  if (i == 0) return std::nullopt;
  while (i < v.size() && v[i] == ' ') ++i;
  const std::string_view unit = v.substr(i);
  for (const auto& [name, factor] : units) {
    const bool match = ignore_case
                           ? absl::EqualsIgnoreCase(absl::string_view(unit.data(), unit.size()),
                                                    absl::string_view(name.data(), name.size()))
                           : unit == name;
    if (!match) continue;
    if (n > std::numeric_limits<int64_t>::max() / factor) return std::nullopt;
    return n * factor;
  }
  return std::nullopt;
}

}  // namespace eddy
