#include "common/base/memory_size.h"

#include <cctype>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"

namespace eddy {

std::optional<int64_t> ParseMemorySizeBytes(std::string_view v) {
  size_t i = 0;
  int64_t n = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
    if (n > (std::numeric_limits<int64_t>::max() - 9) / 10) return std::nullopt;
    n = n * 10 + (v[i] - '0');
    ++i;
  }
  if (i == 0) return std::nullopt;
  while (i < v.size() && v[i] == ' ') ++i;
  const std::string unit = absl::AsciiStrToLower(std::string(v.substr(i)));
  static const std::pair<const char*, int64_t> kUnits[] = {{"", 1},
                                                           {"b", 1},
                                                           {"bytes", 1},
                                                           {"k", int64_t{1} << 10},
                                                           {"kb", int64_t{1} << 10},
                                                           {"kibibytes", int64_t{1} << 10},
                                                           {"m", int64_t{1} << 20},
                                                           {"mb", int64_t{1} << 20},
                                                           {"mebibytes", int64_t{1} << 20},
                                                           {"g", int64_t{1} << 30},
                                                           {"gb", int64_t{1} << 30},
                                                           {"gibibytes", int64_t{1} << 30},
                                                           {"t", int64_t{1} << 40},
                                                           {"tb", int64_t{1} << 40},
                                                           {"tebibytes", int64_t{1} << 40}};
  for (const auto& [name, factor] : kUnits) {
    if (unit != name) continue;
    if (n > std::numeric_limits<int64_t>::max() / factor) return std::nullopt;
    return n * factor;
  }
  return std::nullopt;
}

}  // namespace eddy
