// The physical unit of a TIMESTAMP(p) value: an int64 count since 1970-01-01 00:00:00 of
// milliseconds for p 0-3, microseconds for p 4-6 and nanoseconds for p 7-9, so that every value
// of the type is exact and TIMESTAMP(3), the type of time attributes, stays in milliseconds.
// Nanosecond timestamps cover 1677-09-21 to 2262-04-11; a value outside is an overflow.
#pragma once

#include <cstdint>

namespace eddy {

// 1000, 1'000'000 or 1'000'000'000.
int64_t TimestampUnitsPerSecond(int precision);
// 1, 1000 or 1'000'000.
int64_t TimestampUnitsPerMilli(int precision);

// Floor division that rounds towards negative infinity (times before 1970 are negative).
inline int64_t FloorDivide(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

// `value` of TIMESTAMP(from) as TIMESTAMP(to): converted to to's unit and truncated to `to`
// fractional digits (as Flink's CAST). False when it does not fit.
bool RescaleTimestamp(int64_t value, int from, int to, int64_t* out);

// `value` of TIMESTAMP(precision) as milliseconds, rounded down.
inline int64_t TimestampToMillis(int64_t value, int precision) {
  return FloorDivide(value, TimestampUnitsPerMilli(precision));
}

}  // namespace eddy
