// The shape configuration values with units share (durations, memory sizes): a non-negative
// integer, optional spaces, then a unit from a table; the value is the number times the unit's
// factor. An empty unit name in the table is what a bare number means.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace eddy {

struct UnitFactor {
  std::string_view name;
  int64_t factor;
};

// nullopt when `text` is not such a value, its unit is not in `units`, or it overflows.
// `ignore_case`: units match in any case.
std::optional<int64_t> ParseScaledNumber(std::string_view text, std::span<const UnitFactor> units,
                                         bool ignore_case);

}  // namespace eddy
