#include "common/base/memory_size.h"

#include "common/base/scaled_number.h"

namespace eddy {

std::optional<int64_t> ParseMemorySizeBytes(std::string_view v) {
  static constexpr UnitFactor kUnits[] = {{"", 1},
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
  return ParseScaledNumber(v, kUnits, /*ignore_case=*/true);
}

}  // namespace eddy
