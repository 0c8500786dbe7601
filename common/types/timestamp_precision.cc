#include "common/types/timestamp_precision.h"

namespace eddy {

int64_t TimestampUnitsPerSecond(int precision) {
  return precision <= 3 ? 1000 : precision <= 6 ? 1000000 : 1000000000;
}

int64_t TimestampUnitsPerMilli(int precision) {
  return precision <= 3 ? 1 : precision <= 6 ? 1000 : 1000000;
}

bool RescaleTimestamp(int64_t value, int from, int to, int64_t* out) {
  const int64_t from_unit = TimestampUnitsPerSecond(from);
  const int64_t to_unit = TimestampUnitsPerSecond(to);
  int64_t v = value;
  if (to_unit > from_unit) {
    if (__builtin_mul_overflow(v, to_unit / from_unit, &v)) return false;
  } else if (to_unit < from_unit) {
    v = FloorDivide(v, from_unit / to_unit);
  }
  // Digits of `to`'s unit beyond its precision (TIMESTAMP(1) is kept in milliseconds).
  int64_t step = 1;
  for (int digits = to <= 3 ? 3 : to <= 6 ? 6 : 9; digits > to; --digits) step *= 10;
  if (step > 1) v = FloorDivide(v, step) * step;
  *out = v;
  return true;
}

}  // namespace eddy
