#include "common/base/duration.h"

#include <cctype>
#include <limits>
#include <string>
#include <utility>

namespace eddy {

std::optional<int64_t> ParseDurationMillis(std::string_view v) {
  size_t i = 0;
  int64_t n = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
    if (n > (std::numeric_limits<int64_t>::max() - 9) / 10) return std::nullopt;
    n = n * 10 + (v[i] - '0');
    ++i;
  }
  if (i == 0) return std::nullopt;
  while (i < v.size() && v[i] == ' ') ++i;
  static const std::pair<const char*, int64_t> kUnits[] = {
      {"", 1},         {"ms", 1},         {"s", 1000},
      {"sec", 1000},   {"second", 1000},  {"seconds", 1000},
      {"min", 60000},  {"minute", 60000}, {"minutes", 60000},
      {"h", 3600000},  {"hour", 3600000}, {"hours", 3600000},
      {"d", 86400000}, {"day", 86400000}, {"days", 86400000}};
  const std::string_view unit = v.substr(i);
  for (const auto& [name, factor] : kUnits) {
    if (unit != name) continue;
    if (n > std::numeric_limits<int64_t>::max() / factor) return std::nullopt;
    return n * factor;
  }
  return std::nullopt;
}

}  // namespace eddy
