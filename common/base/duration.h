// Durations as configuration values spell them, as Flink does: a number with an optional unit
// (5000, 100 ms, 5 s, 1 min, 2 h, 1 d; no unit means milliseconds).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace eddy {

// Milliseconds, or nullopt when `text` is not such a duration (or overflows).
std::optional<int64_t> ParseDurationMillis(std::string_view text);

}  // namespace eddy
