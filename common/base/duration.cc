#include "common/base/duration.h"

#include "common/base/scaled_number.h"

namespace eddy {

std::optional<int64_t> ParseDurationMillis(std::string_view v) {
  static constexpr UnitFactor kUnits[] = {{"", 1},         {"ms", 1},         {"s", 1000},
                                          {"sec", 1000},   {"second", 1000},  {"seconds", 1000},
                                          {"min", 60000},  {"minute", 60000}, {"minutes", 60000},
                                          {"h", 3600000},  {"hour", 3600000}, {"hours", 3600000},
                                          {"d", 86400000}, {"day", 86400000}, {"days", 86400000}};
  return ParseScaledNumber(v, kUnits, /*ignore_case=*/false);
}

}  // namespace eddy
